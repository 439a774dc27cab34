//! The conformance suite, one test binary: each module was its own before,
//! and each binary compiled the rules, notation and reference generators for
//! every board width again; together they build once.

mod differential;
mod five_up_seed;
mod five_up_variants;
mod fuzz_regressions;
mod outcomes;
mod perft_suite;
mod properties;
mod records;
mod savard;
mod savard_multi;
mod wide_seed;
