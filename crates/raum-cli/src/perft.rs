//! perft, divide, moves, fen.

use crate::args::{PerftArgs, PositionArgs, position, variant_id};
use anyhow::{Result, bail};
use raum_notation::{format_move, format_position};
use raum_rules::{Position, Variant, VariantFn, Width};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Per-root-move counts, computed by `threads` workers taking moves in turn.
fn split<S: Width>(pos: &Position<S>, depth: u32, threads: usize) -> Vec<(String, u64)> {
    let v = pos.variant();
    let moves = pos.legal_moves();
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
                        let count = if depth <= 1 { 1 } else { pos.play_copy(m).perft(depth - 1) };
                        out.push((format_move(v, m), count));
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
    if let Some(id) = crate::multi::multi_id(&a.position.variant) {
        return crate::multi::perft(id, a, false);
    }
    variant_id(&a.position.variant)?.dispatch(Perft(a))
}

/// `raum perft`'s body at the variant's width.
struct Perft<'a>(&'a PerftArgs);

impl VariantFn for Perft<'_> {
    type Output = Result<()>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Result<()> {
        let a = self.0;
        let pos = position(v, &a.position)?;
        let start = Instant::now();
        let nodes = if a.threads == 1 || a.depth <= 1 {
            pos.perft(a.depth)
        } else {
            split(&pos, a.depth, a.threads).iter().map(|r| r.1).sum()
        };
        report(nodes, start);
        println!("{nodes}");
        Ok(())
    }
}

pub fn divide(a: &PerftArgs) -> Result<()> {
    check(a)?;
    if a.depth == 0 {
        bail!("divide needs --depth 1 or more");
    }
    if let Some(id) = crate::multi::multi_id(&a.position.variant) {
        return crate::multi::perft(id, a, true);
    }
    variant_id(&a.position.variant)?.dispatch(Divide(a))
}

/// `raum divide`'s body at the variant's width.
struct Divide<'a>(&'a PerftArgs);

impl VariantFn for Divide<'_> {
    type Output = Result<()>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Result<()> {
        let a = self.0;
        let pos = position(v, &a.position)?;
        let start = Instant::now();
        let rows = split(&pos, a.depth, a.threads);
        let total: u64 = rows.iter().map(|r| r.1).sum();
        for (m, n) in &rows {
            println!("{m} {n}");
        }
        report(total, start);
        println!("{total}");
        Ok(())
    }
}

fn report(nodes: u64, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    eprintln!("time {:.3} s, {} nodes, {:.0} nodes/s", secs, nodes, nodes as f64 / secs.max(1e-9));
}

pub fn moves(a: &PositionArgs) -> Result<()> {
    if let Some(id) = crate::multi::multi_id(&a.variant) {
        return crate::multi::moves(id, a);
    }
    variant_id(&a.variant)?.dispatch(Moves(a))
}

/// `raum moves`' body at the variant's width.
struct Moves<'a>(&'a PositionArgs);

impl VariantFn for Moves<'_> {
    type Output = Result<()>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Result<()> {
        let pos = position(v, self.0)?;
        let mut list: Vec<String> = pos.legal_moves().iter().map(|&m| format_move(v, m)).collect();
        list.sort();
        for m in list {
            println!("{m}");
        }
        Ok(())
    }
}

pub fn fen(a: &PositionArgs) -> Result<()> {
    if let Some(id) = crate::multi::multi_id(&a.variant) {
        return crate::multi::fen(id, a);
    }
    variant_id(&a.variant)?.dispatch(Fen(a))
}

/// `raum fen`'s body at the variant's width.
struct Fen<'a>(&'a PositionArgs);

impl VariantFn for Fen<'_> {
    type Output = Result<()>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Result<()> {
        println!("{}", format_position(&position(v, self.0)?));
        Ok(())
    }
}
