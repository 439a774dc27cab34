//! The yardstick's other side: cozy-chess perft from the standard start, in a
//! process of its own, so that it can be built for the same ISA level as the
//! copy of Raum's generator that it is compared with (the `yardstick` bench
//! builds this binary for x86-64-v3 and for the x86-64 baseline).
//!
//! `cozy-perft DEPTH` prints one line:
//! `isa=<level> depth=<d> leaves=<n> seconds=<wall> cpu=<thread cpu seconds or ?>`.

use raum_bench::{cozy_perft, measure};
use std::hint::black_box;
use std::process::ExitCode;

fn main() -> ExitCode {
    let depth = match std::env::args().nth(1).map(|a| a.parse::<u8>()) {
        Some(Ok(d)) if d <= 7 => d,
        _ => {
            eprintln!("usage: cozy-perft DEPTH (0 to 7)");
            return ExitCode::FAILURE;
        }
    };
    let board = cozy_chess::Board::default();
    let m = measure("cozy-chess", || cozy_perft(black_box(&board), black_box(depth)));
    let cpu = m.cpu_seconds.map_or("?".to_owned(), |c| format!("{c:.2}"));
    println!("isa={} depth={depth} leaves={} seconds={:.6} cpu={cpu}", raum_bench::BUILT_ISA, m.leaves, m.seconds);
    ExitCode::SUCCESS
}
