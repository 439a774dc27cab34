//! The parts of `raum` that run in-process as well as from the binary: the
//! engine protocol session ([`uci::run`]), which tests and the fuzz targets
//! (`fuzz/`) drive with any input and output.

pub mod uci;
