//! Game records (PGN-style): the first byte picks the variant of a record that names none.
//! Built by cargo-afl (`--cfg fuzzing`) it is the AFL++ target; built
//! plainly it replays the files named on its command line (a crash AFL++
//! found, say) through the same body.

fn main() {
    raum_fuzz::warm_up();
    #[cfg(fuzzing)]
    afl::fuzz!(|data: &[u8]| raum_fuzz::record(data));
    #[cfg(not(fuzzing))]
    raum_fuzz::replay_files(raum_fuzz::record);
}
