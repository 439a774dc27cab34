//! Variant files (docs/variants.md). Built by cargo-afl (`--cfg fuzzing`) it
//! is the AFL++ target; built plainly it replays the files named on its
//! command line through the same body. Reading builds no tables, so there is
//! nothing to warm up.

fn main() {
    #[cfg(fuzzing)]
    afl::fuzz!(|data: &[u8]| raum_fuzz::variant(data));
    #[cfg(not(fuzzing))]
    raum_fuzz::replay_files(raum_fuzz::variant);
}
