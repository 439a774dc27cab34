//! perft, divide, moves, fen: for every game, whatever its number of sides.

use crate::args::{PerftArgs, PositionArgs, game};
use anyhow::{Result, bail};
use raum_notation::{format_game_move, format_game_position};
use raum_rules::{AnyGame, GameRules};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Per-root-move counts, computed by `threads` workers taking moves in turn.
fn split(game: &AnyGame, depth: u32, threads: usize) -> Vec<(String, u64)> {
    let moves = game.legal_moves();
    let next = AtomicUsize::new(0);
    let mut results: Vec<(String, u64)> = Vec::new();
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&m) = moves.get(i) else { break };
                        out.push((format_game_move(game, m), game.perft_after(m, depth)));
                    }
                    out
                })
            })
            .collect();
        for w in workers {
            results.extend(w.join().unwrap_or_default());
        }
    });
    results.sort();
    results
}

fn check(a: &PerftArgs) -> Result<()> {
    if a.threads == 0 || a.threads > 1024 {
        bail!("--threads must be between 1 and 1024, not {}", a.threads);
    }
    if a.depth > 20 {
        bail!("--depth {} is far beyond what can finish; use 20 or less", a.depth);
    }
    Ok(())
}

pub fn perft(a: &PerftArgs) -> Result<()> {
    check(a)?;
    let game = game(&a.position)?;
    let start = Instant::now();
    let nodes = if a.threads == 1 || a.depth <= 1 {
        game.perft(a.depth)
    } else {
        split(&game, a.depth, a.threads).iter().map(|r| r.1).sum()
    };
    report(nodes, start);
    println!("{nodes}");
    Ok(())
}

pub fn divide(a: &PerftArgs) -> Result<()> {
    check(a)?;
    if a.depth == 0 {
        bail!("divide needs --depth 1 or more");
    }
    let game = game(&a.position)?;
    let start = Instant::now();
    let rows = split(&game, a.depth, a.threads);
    let total: u64 = rows.iter().map(|r| r.1).sum();
    for (m, n) in &rows {
        println!("{m} {n}");
    }
    report(total, start);
    println!("{total}");
    Ok(())
}

fn report(nodes: u64, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    eprintln!("time {:.3} s, {} nodes, {:.0} nodes/s", secs, nodes, nodes as f64 / secs.max(1e-9));
}

pub fn moves(a: &PositionArgs) -> Result<()> {
    let game = game(a)?;
    let mut list: Vec<String> = game.legal_moves().iter().map(|&m| format_game_move(&game, m)).collect();
    list.sort();
    for m in list {
        println!("{m}");
    }
    Ok(())
}

pub fn fen(a: &PositionArgs) -> Result<()> {
    println!("{}", format_game_position(&game(a)?));
    Ok(())
}
