//! The engine's tests, one binary (the soak, which switches on full
//! consistency checks for its whole process, is its own): search, analysis
//! and levels, the forced mates, Savard's scored stalemate, every board width, and the multi-player
//! searches.

mod analysis;
mod any_engine;
#[path = "../common/mod.rs"]
mod common;
mod grab;
mod mates;
mod multi;
mod search;
mod stalemate;
mod widths;
