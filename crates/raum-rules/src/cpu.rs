//! Which compiled copy of the move generator runs.
//!
//! Raum builds for the x86-64 baseline, so that the binary runs on any x86-64
//! CPU. There a cell count costs a dozen instructions and a 512-cell set is
//! four 128-bit operations. The generator is therefore also compiled for the
//! x86-64-v3 level (AVX2, BMI1/2, LZCNT, POPCNT: Intel since 2013, AMD since
//! 2015) and that copy is chosen at run time when the CPU has every one of
//! those features. Both copies are the same source, so they give the same moves;
//! a test compares them. Setting the environment variable `RAUM_CPU=baseline`
//! keeps the baseline copy (to measure it, or on a CPU that misreports).
//!
//! ```
//! // Force the baseline copy (for a comparison), then go back to detection.
//! raum_rules::cpu::force_baseline(true);
//! assert!(!raum_rules::cpu::fast());
//! raum_rules::cpu::force_baseline(false);
//! ```

use core::sync::atomic::{AtomicU8, Ordering};

const UNKNOWN: u8 = 0;
const BASELINE: u8 = 1;
const FAST: u8 = 2;

static LEVEL: AtomicU8 = AtomicU8::new(UNKNOWN);

/// Whether the x86-64-v3 copy of the generator runs (detected once, then cached).
#[inline(always)]
pub fn fast() -> bool {
    match LEVEL.load(Ordering::Relaxed) {
        FAST => true,
        BASELINE => false,
        _ => detect(),
    }
}

#[cold]
fn detect() -> bool {
    let fast = has_v3() && std::env::var_os("RAUM_CPU").is_none_or(|v| v != "baseline");
    LEVEL.store(if fast { FAST } else { BASELINE }, Ordering::Relaxed);
    fast
}

#[cfg(target_arch = "x86_64")]
fn has_v3() -> bool {
    use std::arch::is_x86_feature_detected as has;
    has!("avx2") && has!("bmi1") && has!("bmi2") && has!("lzcnt") && has!("popcnt")
}

#[cfg(not(target_arch = "x86_64"))]
fn has_v3() -> bool {
    false
}

/// Runs the baseline copy from now on (`true`), or detects the CPU again
/// (`false`). For tests and benchmarks that compare the two copies; it
/// affects every thread.
pub fn force_baseline(on: bool) {
    LEVEL.store(if on { BASELINE } else { UNKNOWN }, Ordering::Relaxed);
}
