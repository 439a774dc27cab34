//! Perft speed of Raum's move generator against cozy-chess, like for like.
//!
//! `cargo bench -p raum-bench --bench yardstick`
//!
//! Single-threaded, bulk-counting perft from the start positions: cozy-chess
//! perft(6) on the standard board, then Five Up perft(5), Raumschach
//! perft(5), Betza's Upright 3D Chess perft(4) and The Book of 3D-Chess
//! perft(4) (512-cell boards), in rounds of `RAUM_BENCH_RUNS` (default 3).
//! The table shows each one's best run; the ratios reported and held against
//! the bars are paired: each of Raum's runs against a run of the yardstick
//! just before it, the median over the rounds (with the least and greatest).
//! `RAUM_BENCH_QUICK=1` (or the argument `--quick`) uses depths 5/4/4/3/3.
//!
//! Like for like: Raum runs the copy of its generator compiled for x86-64-v3
//! where the CPU has that level's features, and the baseline copy elsewhere
//! or under `RAUM_CPU=baseline` (`raum_rules::cpu`). cozy-chess is built by
//! this bench for both levels, as a binary of its own (`cozy-perft`, release
//! profile, `target/yardstick/<level>`), run in a child process; the ratios
//! are against the build at the level of the copy Raum runs, and the other
//! build's row is shown beside it.
//!
//! Fails (exit 1) if a count differs from a known perft value (cozy-chess at
//! any depth, Five Up and Raumschach up to depth 4, the 8x8x8 boards up to
//! depth 3), or, in full mode, unless Five Up reaches 0.4x cozy-chess's
//! leaves/s. The 8x8x8 boards' ratios are reported against issue 41's bars
//! (Betza Upright 0.4x, the Book 0.7x). Quick mode only reports the ratios:
//! cozy-chess perft(5) takes ~25 ms, too short for a steady ratio.

use raum_bench::{Isa, Measurement, build_cozy_perft, cozy_perft, measure, run_cozy_perft};
use raum_bitboard::Wide;
use raum_rules::{Position, Variant, VariantId};
use std::hint::black_box;
use std::process::ExitCode;

/// Five Up must count leaves at least this fast relative to cozy-chess.
const BAR: f64 = 0.4;
/// The team's goal for the same ratio.
const GOAL: f64 = 1.0;
/// Issue 41's bars for the 8x8x8 boards (Betza Upright, the Book), reported, not enforced.
const WIDE_BARS: [f64; 2] = [0.4, 0.7];

/// Standard chess perft from the start position, depths 0..=6.
const CHESS_PERFT: [u64; 7] = [1, 20, 400, 8_902, 197_281, 4_865_609, 119_060_324];
/// Five Up perft from the start, depths 0..=4: raum-conformance's perft suite
/// (counts of the naive reference generator). Depth 5 has no independent count.
const FIVE_UP_PERFT: [u64; 5] = [1, 62, 3_719, 245_828, 16_242_257];
/// Raumschach perft from the start, depths 0..=4: the independently published
/// counts in raum-conformance's perft suite. Depth 5 has no independent count.
const RAUMSCHACH_PERFT: [u64; 5] = [1, 61, 3_615, 237_316, 15_587_032];
/// Upright 3D Chess from the start, depths 0..=3: the naive reference generator's counts.
const UPRIGHT_PERFT: [u64; 4] = [1, 216, 46_656, 10_390_544];
/// The Book of 3D-Chess (flat start), depths 0..=3: the naive reference generator's counts.
const BOOK_PERFT: [u64; 4] = [1, 122, 14_870, 1_988_984];

struct Row {
    m: Measurement,
    depth: u32,
    /// perft(depth - 1): the positions whose moves were generated at the last ply.
    interior: u64,
}

/// ` (cpu 93%)` when the run did not have a CPU to itself, else nothing.
fn cpu_note(m: &Measurement) -> String {
    match m.cpu_share() {
        Some(c) if c < 0.97 && m.seconds >= 0.5 => format!(" (cpu {:.0}%)", c * 100.0),
        _ => String::new(),
    }
}

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

fn main() -> ExitCode {
    // cargo passes `--bench` (and maybe a filter): ignore what we do not know.
    let quick = env_flag("RAUM_BENCH_QUICK") || std::env::args().any(|a| a == "--quick");
    let runs = match std::env::var("RAUM_BENCH_RUNS") {
        Ok(s) => match s.trim().parse::<usize>() {
            Ok(n) if n >= 1 => n,
            _ => {
                eprintln!("RAUM_BENCH_RUNS must be a positive integer, got {s:?}");
                return ExitCode::FAILURE;
            }
        },
        Err(_) => 3,
    };
    let (chess_depth, raum_depth) = if quick { (5u8, 4u32) } else { (6u8, 5u32) };

    println!("yardstick: {} mode, {runs} round(s), single thread", if quick { "quick" } else { "full" });

    // cozy-chess at the level of the generator copy Raum runs here, and at the other.
    let raum_isa = Isa::of_raum();
    let levels: Vec<Isa> = if cfg!(target_arch = "x86_64") {
        vec![raum_isa, if raum_isa == Isa::V3 { Isa::Baseline } else { Isa::V3 }]
    } else {
        vec![Isa::Baseline]
    };
    let mut cozy_bins = Vec::new();
    for &isa in &levels {
        match build_cozy_perft(isa) {
            Ok(path) => cozy_bins.push((isa, path)),
            // The other level may not run on this CPU (a baseline-only CPU cannot run v3 code).
            Err(e) if isa != raum_isa => println!("(cozy-chess for {} not measured: {e})", isa.name()),
            Err(e) => {
                eprintln!("FAIL: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    println!(
        "Raum's generator copy: {} ({}); yardstick: cozy-chess built for {}",
        raum_isa.name(),
        if raum_isa == Isa::V3 { "chosen at run time; RAUM_CPU=baseline for the baseline copy" } else { "baseline" },
        raum_isa.name()
    );

    let board = cozy_chess::Board::default();
    let five_up = Position::start(Variant::get(VariantId::FiveUp));
    let raumschach = Position::start(Variant::get(VariantId::Raumschach));
    let upright = Position::start(Variant::<Wide<8>>::at_width(VariantId::BetzaUpright));
    let book = Position::start(Variant::<Wide<8>>::at_width(VariantId::Book3d));
    let wide_depth = raum_depth - 1;
    // perft(depth - 1) of each, in the benches' order below.
    let cozy_interior = cozy_perft(&board, chess_depth - 1);
    let interiors = [
        five_up.perft(raum_depth - 1),
        raumschach.perft(raum_depth - 1),
        upright.perft(wide_depth - 1),
        book.perft(wide_depth - 1),
    ];
    type Bench<'a> = (String, u32, Box<dyn FnMut() -> Result<Measurement, String> + 'a>);
    let mut benches: Vec<Bench> = Vec::new();
    for (isa, path) in &cozy_bins {
        let name = format!("cozy-chess ({})", isa.name());
        benches.push((name, u32::from(chess_depth), Box::new(move || Ok(run_cozy_perft(path, chess_depth)?.1))));
    }
    let raum = |name: &'static str, depth: u32, f: Box<dyn Fn() -> u64>| -> Bench {
        (name.to_owned(), depth, Box::new(move || Ok(measure(name, &f))))
    };
    let cozies = benches.len();
    benches.push(raum("Five Up", raum_depth, Box::new(move || black_box(&five_up).perft(black_box(raum_depth)))));
    benches.push(raum("Raumschach", raum_depth, Box::new(move || black_box(&raumschach).perft(black_box(raum_depth)))));
    benches.push(raum(
        "Betza Upright (8x8x8)",
        wide_depth,
        Box::new(move || black_box(&upright).perft(black_box(wide_depth))),
    ));
    benches.push(raum("Book of 3D-Chess", wide_depth, Box::new(move || black_box(&book).perft(black_box(wide_depth)))));

    // Rounds interleave them so that load from other processes on a shared
    // machine hits them alike; each keeps its fastest run. Machines are noisy
    // (on this project's VM a run of the same build ranges over ±20% within
    // minutes), so each of Raum's runs is also paired with a run of the
    // yardstick (cozy-chess at Raum's level) just before it: the ratio of the
    // pair is like with like in time, and the median of the pairs over the
    // rounds is the ratio reported and held against the bars.
    let mut best: Vec<Option<Measurement>> = vec![None; benches.len()];
    let mut paired: Vec<Vec<f64>> = vec![Vec::new(); benches.len() - cozies];
    for round in 1..=runs {
        let mut line = format!("run {round}/{runs}:");
        for i in 0..benches.len() {
            let yardstick = if i >= cozies {
                match (benches[0].2)() {
                    Ok(m) => Some(m),
                    Err(e) => {
                        eprintln!("FAIL: {}: {e}", benches[0].0);
                        return ExitCode::FAILURE;
                    }
                }
            } else {
                None
            };
            let (name, _, f) = &mut benches[i];
            let m = match f() {
                Ok(m) => m,
                Err(e) => {
                    eprintln!("FAIL: {name}: {e}");
                    return ExitCode::FAILURE;
                }
            };
            line += &format!(" {name} {:.3}s{}", m.seconds, cpu_note(&m));
            if let Some(y) = yardstick {
                let x = m.leaves_per_sec / y.leaves_per_sec;
                line += &format!(" ({x:.3}x a cozy run of {:.3}s)", y.seconds);
                paired[i - cozies].push(x);
            }
            line += ";";
            match &best[i] {
                Some(b) if b.leaves != m.leaves => {
                    eprintln!("FAIL: {name}: runs disagree on the leaf count ({} vs {})", b.leaves, m.leaves);
                    return ExitCode::FAILURE;
                }
                Some(b) if b.seconds <= m.seconds => {}
                _ => best[i] = Some(m),
            }
        }
        println!("{line}");
    }
    // The median of the paired ratios, and their least and greatest.
    let spread: Vec<(f64, f64, f64)> = paired
        .iter_mut()
        .map(|xs| {
            xs.sort_by(f64::total_cmp);
            let n = xs.len();
            let median = if n % 2 == 1 { xs[n / 2] } else { (xs[n / 2 - 1] + xs[n / 2]) / 2.0 };
            (median, xs[0], xs[n - 1])
        })
        .collect();
    let mut rows = Vec::new();
    for (i, ((_, depth, _), m)) in benches.iter().zip(best).enumerate() {
        let interior = if i < cozies { cozy_interior } else { interiors[i - cozies] };
        rows.push(Row { m: m.expect("at least one run"), depth: *depth, interior });
    }
    let known: [&[u64]; 4] = [&FIVE_UP_PERFT, &RAUMSCHACH_PERFT, &UPRIGHT_PERFT, &BOOK_PERFT];

    let expected = CHESS_PERFT[usize::from(chess_depth)];
    if let Some(r) = rows[..cozies].iter().find(|r| r.m.leaves != expected) {
        eprintln!("FAIL: {} perft({chess_depth}) = {}, expected {expected}", r.m.name, r.m.leaves);
        return ExitCode::FAILURE;
    }
    let raum_rows = &rows[cozies..];
    for (row, known) in raum_rows.iter().zip(known) {
        for (depth, count) in [(row.depth, row.m.leaves), (row.depth - 1, row.interior)] {
            if let Some(&k) = known.get(depth as usize)
                && count != k
            {
                eprintln!("FAIL: {} perft({depth}) = {count}, expected {k}", row.m.name);
                return ExitCode::FAILURE;
            }
        }
    }

    // The yardstick: cozy-chess at the level of Raum's copy (the first row).
    let base = rows[0].m.leaves_per_sec;
    println!();
    println!(
        "{:<24} {:>5} {:>14} {:>9} {:>14} {:>8} {:>22} {:>14} {:>5}",
        "name", "depth", "leaves", "seconds", "leaves/s", "vs cozy", "paired (min-max)", "positions/s", "cpu%"
    );
    for (i, r) in rows.iter().enumerate() {
        let pair = match i.checked_sub(cozies).map(|k| spread[k]) {
            Some((m, lo, hi)) => format!("{m:.3}x ({lo:.3}-{hi:.3})"),
            None => String::new(),
        };
        println!(
            "{:<24} {:>5} {:>14} {:>9.3} {:>14.0} {:>7.3}x {:>22} {:>14.0} {:>5}",
            r.m.name,
            r.depth,
            r.m.leaves,
            r.m.seconds,
            r.m.leaves_per_sec,
            r.m.leaves_per_sec / base,
            pair,
            r.interior as f64 / r.m.seconds,
            r.m.cpu_share().map_or("?".to_owned(), |c| format!("{:.0}", c * 100.0)),
        );
    }
    println!();
    println!(
        "vs cozy = leaves/s against {} (cozy-chess built for {}, the level of Raum's generator copy here).",
        rows[0].m.name,
        raum_isa.name()
    );
    println!(
        "paired = the median over the runs of each run's leaves/s against a run of {} just before it (least and greatest in brackets): the ratio reported below.",
        rows[0].m.name
    );
    println!("positions/s = perft(depth - 1) / seconds (nodes whose moves are bulk-counted).");
    println!(
        "cpu% = the thread's CPU time / wall time in its best run (10 ms ticks); below ~97 on runs over 0.5 s: other load."
    );
    if rows.iter().any(|r| r.m.seconds >= 0.5 && r.m.cpu_share().is_some_and(|c| c < 0.97)) {
        println!("WARNING: a best run shared its CPU with other processes: timings are pessimistic.");
    }
    for (row, known) in raum_rows.iter().zip(known) {
        let d = row.depth;
        match known.get(d as usize) {
            Some(_) => println!("{} perft({d}) and perft({}) match the known counts.", row.m.name, d - 1),
            None => println!(
                "{} perft({}) matches the known count; perft({d}) = {} is not checked (no independent count).",
                row.m.name,
                d - 1,
                row.m.leaves
            ),
        }
    }

    let ratio = spread[0].0;
    println!("Raumschach leaves/s = {:.3}x cozy-chess", spread[1].0);
    for ((r, bar), (x, _, _)) in raum_rows[2..].iter().zip(WIDE_BARS).zip(&spread[2..]) {
        let x = *x;
        let verdict = if x >= bar { "met" } else { "not met" };
        println!("{} leaves/s = {x:.3}x cozy-chess (issue 41's bar {bar}x: {verdict})", r.m.name);
    }
    if quick {
        // cozy-chess perft(5) runs for ~25 ms: too short to hold a bar against.
        println!("quick mode: Five Up = {ratio:.3}x cozy-chess (bar {BAR}x applies to full depth only)");
        ExitCode::SUCCESS
    } else if ratio >= BAR {
        println!(
            "PASS: Five Up leaves/s = {ratio:.3}x cozy-chess (bar {BAR}x, goal {GOAL}x{})",
            if ratio >= GOAL { ", goal met" } else { "" }
        );
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "FAIL: Five Up leaves/s = {ratio:.3}x cozy-chess, below the bar of {BAR}x \
             (best runs: {:.0} vs {:.0} leaves/s)",
            raum_rows[0].m.leaves_per_sec, base
        );
        ExitCode::FAILURE
    }
}
