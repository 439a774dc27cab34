//! What the CPU offers beyond the build's target. Raum builds for the x86-64
//! baseline, where counting the cells of a set takes a dozen instructions;
//! the evaluation, which counts a lot, is also compiled with `popcnt` and
//! that copy is chosen at run time when the CPU has the instruction.

/// Whether the CPU has `popcnt` (checked once, then cached by std).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn fast_bits() -> bool {
    std::arch::is_x86_feature_detected!("popcnt")
}
