//! The rules crate's tests, one binary: perft from the starts, and counting
//! against listing in both compiled copies of the generator.

mod any_game;
mod counting;
mod multi;
mod perft;
