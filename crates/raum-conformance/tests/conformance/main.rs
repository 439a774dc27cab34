//! The conformance suite, one test binary: each module was its own before,
//! and each binary compiled the rules, notation and reference generators for
//! every board width again; together they build once. The rules crate's own
//! integration tests are here too (`any_game`, `counting`, `multi_boards`,
//! `start_perft`): as their own binary they compiled the generator for every
//! width once more.

mod any_game;
mod counting;
mod differential;
mod five_up_seed;
mod five_up_variants;
mod fuzz_regressions;
mod multi_boards;
mod outcomes;
mod perft_suite;
mod properties;
mod ranged_riders;
mod records;
mod savard;
mod savard_multi;
mod start_perft;
mod variant_files;
mod ward_invitations;
mod wide_seed;
