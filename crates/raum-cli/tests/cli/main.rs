//! The `raum` command's tests, one binary (each test binary links the whole
//! program and its crates again, the largest part of building the tests):
//! each module is one of the binary's interfaces.

mod bench;
mod cluster;
mod commands;
mod fuzz_corpus;
mod lab;
mod ladder;
mod matches;
mod readme;
mod records;
mod run;
mod serve;
mod tune;
mod uci;
mod variant_files;
