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

/// The ISA level this code was compiled for: `x86-64-v3` when every feature
/// of that level is enabled at compile time (`-C target-cpu=x86-64-v3`),
/// `x86-64` for the baseline, else the architecture's name.
pub const BUILT_ISA: &str = if cfg!(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    target_feature = "bmi1",
    target_feature = "bmi2",
    target_feature = "lzcnt",
    target_feature = "popcnt",
    target_feature = "fma"
)) {
    "x86-64-v3"
} else if cfg!(target_arch = "x86_64") {
    "x86-64"
} else {
    std::env::consts::ARCH
};

/// An ISA level the yardstick builds cozy-chess for: that of a copy of
/// Raum's move generator (`raum_rules::cpu`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// x86-64-v3 (AVX2, BMI1/2, LZCNT, POPCNT, FMA): the copy Raum runs where the CPU has them.
    V3,
    /// The x86-64 baseline (or the target's default elsewhere): the copy `RAUM_CPU=baseline` runs.
    Baseline,
}

impl Isa {
    /// The level of the generator copy that runs in this process.
    pub fn of_raum() -> Isa {
        if raum_rules::cpu::fast() { Isa::V3 } else { Isa::Baseline }
    }

    /// Its name, as [`BUILT_ISA`] says it.
    pub fn name(self) -> &'static str {
        match self {
            Isa::V3 => "x86-64-v3",
            Isa::Baseline if cfg!(target_arch = "x86_64") => "x86-64",
            Isa::Baseline => std::env::consts::ARCH,
        }
    }

    /// The compiler flags that build for it.
    fn rustflags(self) -> &'static str {
        match self {
            Isa::V3 => "-C target-cpu=x86-64-v3",
            Isa::Baseline if cfg!(target_arch = "x86_64") => "-C target-cpu=x86-64",
            Isa::Baseline => "",
        }
    }
}

/// Builds the `cozy-perft` binary (this crate's, release profile, so with the
/// same optimisation settings as Raum's) for `isa` in a target folder of its
/// own, `target/yardstick/<isa>`, and returns its path.
pub fn build_cozy_perft(isa: Isa) -> Result<std::path::PathBuf, String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), std::path::PathBuf::from);
    let dir = target.join("yardstick").join(isa.name());
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = std::process::Command::new(cargo)
        .current_dir(&root)
        .args(["build", "--quiet", "--release", "-p", "raum-bench", "--bin", "cozy-perft", "--target-dir"])
        .arg(&dir)
        .env("RUSTFLAGS", isa.rustflags())
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .status()
        .map_err(|e| format!("cargo: {e}"))?;
    if !status.success() {
        return Err(format!("building cozy-perft for {} failed ({status})", isa.name()));
    }
    let path = dir.join("release").join(format!("cozy-perft{}", std::env::consts::EXE_SUFFIX));
    let built = run_cozy_perft(&path, 1)?;
    if built.0 != isa.name() {
        return Err(format!("cozy-perft built for {} reports {}", isa.name(), built.0));
    }
    Ok(path)
}

/// Runs a `cozy-perft` binary at `depth`: the ISA level it was built for and
/// its measurement.
pub fn run_cozy_perft(path: &std::path::Path, depth: u8) -> Result<(String, Measurement), String> {
    let out = std::process::Command::new(path)
        .arg(depth.to_string())
        .output()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!("{} failed: {}", path.display(), String::from_utf8_lossy(&out.stderr)));
    }
    parse_cozy_line(text.trim()).ok_or_else(|| format!("{}: unexpected output {text:?}", path.display()))
}

/// Reads `cozy-perft`'s line: `isa=.. depth=.. leaves=.. seconds=.. cpu=..`.
fn parse_cozy_line(line: &str) -> Option<(String, Measurement)> {
    let field = |key: &str| line.split(' ').find_map(|w| w.strip_prefix(key)?.strip_prefix('='));
    let isa = field("isa")?.to_owned();
    let leaves: u64 = field("leaves")?.parse().ok()?;
    let seconds: f64 = field("seconds")?.parse().ok()?;
    let cpu_seconds = field("cpu")?.parse().ok();
    let name = format!("cozy-chess ({isa})");
    Some((isa, Measurement { name, leaves, seconds, leaves_per_sec: leaves as f64 / seconds, cpu_seconds }))
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
    fn cozy_lines_are_read_back() {
        let (isa, m) = parse_cozy_line("isa=x86-64-v3 depth=6 leaves=119060324 seconds=0.500000 cpu=0.49").unwrap();
        assert_eq!((isa.as_str(), m.leaves, m.seconds, m.cpu_seconds), ("x86-64-v3", 119_060_324, 0.5, Some(0.49)));
        assert_eq!(m.name, "cozy-chess (x86-64-v3)");
        assert!(parse_cozy_line("isa=x86-64 depth=6 leaves=12 seconds=1 cpu=?").unwrap().1.cpu_seconds.is_none());
        assert!(parse_cozy_line("leaves=12 seconds=1").is_none());
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
