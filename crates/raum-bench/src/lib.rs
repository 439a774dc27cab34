//! Helpers for Raum's benchmarks: a cozy-chess perft (the yardstick) and
//! wall-clock measurement of leaf-counting functions.
//!
//! ```
//! let board = cozy_chess::Board::default();
//! assert_eq!(raum_bench::cozy_perft(&board, 3), 8_902);
//! ```

use std::hint::black_box;
use std::time::Instant;

/// Standard-chess perft with cozy-chess, bulk-counting at the last ply.
///
/// This is the `perft_bulk` of cozy-chess's own `examples/perft.rs`: copy the
/// board, `play_unchecked` each generated move, and at depth 1 add up the
/// lengths of the piece move sets instead of visiting them.
pub fn cozy_perft(board: &cozy_chess::Board, depth: u8) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => nodes += 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_perft(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

/// One timed run (or the best of several) of a function that returns a leaf count.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// What was measured.
    pub name: String,
    /// The count the function returned.
    pub leaves: u64,
    /// Wall-clock seconds of the (best) run.
    pub seconds: f64,
    /// `leaves / seconds`.
    pub leaves_per_sec: f64,
    /// CPU seconds the measuring thread got during the run (Linux, 10 ms
    /// resolution): far below `seconds` means other processes took the CPU.
    pub cpu_seconds: Option<f64>,
}

impl Measurement {
    /// Share of the wall-clock time the thread was on a CPU, if known.
    pub fn cpu_share(&self) -> Option<f64> {
        self.cpu_seconds.map(|c| c / self.seconds)
    }
}

/// User plus system CPU time of the calling thread, from `/proc/thread-self/stat`.
pub fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the parenthesised command name start at field 3 (state);
    // utime and stime are fields 14 and 15, in USER_HZ (100 per second).
    let mut rest = stat.get(stat.rfind(')')? + 1..)?.split_whitespace();
    let utime: u64 = rest.nth(11)?.parse().ok()?;
    let stime: u64 = rest.next()?.parse().ok()?;
    Some((utime + stime) as f64 / 100.0)
}

/// Times one call of `f`, which returns a leaf count.
pub fn measure<F: FnOnce() -> u64>(name: &str, f: F) -> Measurement {
    let cpu_start = thread_cpu_seconds();
    let start = Instant::now();
    let leaves = black_box(f());
    let seconds = start.elapsed().as_secs_f64();
    let cpu_seconds = cpu_start.zip(thread_cpu_seconds()).map(|(a, b)| b - a);
    Measurement { name: name.to_owned(), leaves, seconds, leaves_per_sec: leaves as f64 / seconds, cpu_seconds }
}

/// The fastest of `runs` (at least 1) timed calls of `f`.
///
/// # Panics
///
/// If two runs return different counts.
pub fn measure_best<F: FnMut() -> u64>(name: &str, runs: usize, mut f: F) -> Measurement {
    let mut best = measure(name, &mut f);
    for _ in 1..runs {
        let m = measure(name, &mut f);
        assert_eq!(m.leaves, best.leaves, "{name}: runs disagree on the leaf count");
        if m.seconds < best.seconds {
            best = m;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cozy_perft_start_position() {
        let board = cozy_chess::Board::default();
        assert_eq!(cozy_perft(&board, 0), 1);
        assert_eq!(cozy_perft(&board, 1), 20);
        assert_eq!(cozy_perft(&board, 2), 400);
        assert_eq!(cozy_perft(&board, 4), 197_281);
        assert_eq!(cozy_perft(&board, 5), 4_865_609);
    }

    #[test]
    fn cozy_perft_kiwipete() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let board = fen.parse::<cozy_chess::Board>().unwrap();
        assert_eq!(cozy_perft(&board, 3), 97_862);
    }

    #[test]
    fn measure_best_keeps_the_count() {
        let m = measure_best("sum", 3, || (1..=1000u64).sum());
        assert_eq!(m.name, "sum");
        assert_eq!(m.leaves, 500_500);
        assert!(m.seconds >= 0.0);
    }

    #[test]
    fn thread_cpu_time_advances() {
        if let Some(a) = thread_cpu_seconds() {
            let board = cozy_chess::Board::default();
            while thread_cpu_seconds().unwrap() - a < 0.05 {
                black_box(cozy_perft(&board, 3));
            }
        }
    }
}
