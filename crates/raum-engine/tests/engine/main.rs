//! The engine's tests, one binary (the soak, which switches on full
//! consistency checks for its whole process, is its own): search, the forced
//! mates, Savard's scored stalemate, and every board width.

#[path = "../common/mod.rs"]
mod common;
mod mates;
mod search;
mod stalemate;
mod widths;
