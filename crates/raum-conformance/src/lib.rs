//! Raum's conformance suite (tests only): an independent naive reference
//! generator, a parser for the seed documents' diagrams, and a deterministic
//! random generator for reproducible random games. The tests themselves live
//! in `tests/`; `data/perft.txt` is the perft suite.

pub mod naive;
pub mod naive_multi;
pub mod naive_riders;
pub mod naive_savard;
pub mod naive_wide;
pub mod rng;
pub mod seed_diagram;
