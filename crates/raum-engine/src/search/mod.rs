//! The search: iterative deepening PVS with aspiration windows, quiescence,
//! pruning and reductions, and lazy SMP over a shared transposition table.
//!
//! This file runs the threads of one search (lazy SMP); `worker` holds one
//! thread's state, `iterate` its iterative deepening and MultiPV, `negamax`
//! the tree search and quiescence, `movepick` move ordering and the moves of
//! quiescence, `score` mate and draw scores.

mod iterate;
mod movepick;
mod negamax;
mod score;
#[cfg(test)]
mod tests;
mod worker;

use crate::eval::EvalTables;
use crate::features::Features;
use crate::params::SearchParams;
use crate::time::TimePlan;
use crate::tt::Tt;
use crate::{CurrMove, Limits, Score, SearchInfo, SearchResult};
use raum_rules::{Game, Move, Width};
use score::stalemated;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use worker::Worker;

/// Deepest ply the search reaches (quiescence included).
pub(crate) const MAX_PLY: usize = 128;

/// Deepest iteration.
const MAX_DEPTH: u32 = 100;

/// Entries in each thread's evaluation cache (a power of two).
const EVAL_CACHE: usize = 1 << 16;

/// How long a search runs before it reports each root move it starts on
/// (the protocol's `info currmove`); shorter searches would only flood a GUI.
pub const CURRMOVE_AFTER: Duration = Duration::from_secs(1);

/// Nodes between checks of the clock and the stop flags.
const POLL_INTERVAL: u64 = 1024;

/// Everything the threads of one search share.
struct Shared<'a, S: Width> {
    tt: &'a Tt,
    et: &'a EvalTables<S>,
    features: Features,
    params: SearchParams,
    /// The caller's stop flag.
    stop: &'a AtomicBool,
    /// Set when the search must end: limits reached, or the main thread is done.
    abort: AtomicBool,
    /// Nodes reported by every thread so far.
    nodes: AtomicU64,
    start: Instant,
    node_limit: Option<u64>,
    plan: TimePlan,
}

/// What an engine brings to a search.
pub(crate) struct Setup<'a, S: Width> {
    pub tt: &'a Tt,
    pub et: &'a EvalTables<S>,
    pub features: Features,
    pub params: SearchParams,
    pub threads: usize,
    pub multipv: usize,
}

/// Searches `game`'s position with `threads` threads.
pub(crate) fn run<S: Width>(
    Setup { tt, et, features, params, threads, multipv }: Setup<'_, S>,
    game: &Game<S>,
    limits: &Limits,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo),
    on_currmove: &mut dyn FnMut(&CurrMove),
) -> SearchResult {
    let start = Instant::now();
    let pos = *game.position();
    let shared = Shared {
        tt,
        et,
        features,
        params,
        stop,
        abort: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        start,
        node_limit: limits.nodes,
        plan: TimePlan::new(limits, pos.side_to_move()),
    };
    let max_depth = limits.depth.map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH));
    let legal = pos.legal_moves();
    if legal.is_empty() {
        let score = if pos.is_check() { Score::Mate(0) } else { Score::Cp(stalemated(&pos)) };
        let info = SearchInfo {
            depth: 0,
            seldepth: 0,
            score,
            nodes: 0,
            time: start.elapsed(),
            pv: Vec::new(),
            multipv: 1,
            hashfull: tt.hashfull(),
        };
        return SearchResult { best: None, ponder: None, lines: vec![info.clone()], info };
    }
    // `searchmoves` that are legal here, in the generator's order; none: all.
    let allowed: Vec<Move> = legal.iter().copied().filter(|m| limits.searchmoves.contains(m)).collect();
    let lines = multipv.clamp(1, if allowed.is_empty() { legal.len() } else { allowed.len() });
    let shared = &shared;
    std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads)
            .map(|id| {
                let allowed = allowed.clone();
                s.spawn(move || {
                    let mut w = Worker::new(shared, game, false);
                    w.root_allowed = allowed;
                    w.iterate(max_depth, 1 + (id as u32 & 1), &mut |_| {});
                    w.flush();
                })
            })
            .collect();
        let mut main = Worker::new(shared, game, true);
        main.root_allowed = allowed;
        main.lines = lines;
        main.report = Some(on_currmove);
        let mut found =
            if lines == 1 { vec![main.iterate(max_depth, 1, on_info)] } else { main.iterate_lines(max_depth, on_info) };
        main.flush();
        if limits.infinite {
            // The protocol's `go infinite` answers only after `stop`.
            while !shared.stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        shared.abort.store(true, Ordering::Relaxed);
        for h in helpers {
            let _ = h.join();
        }
        for line in &mut found {
            line.nodes = shared.nodes.load(Ordering::Relaxed);
            line.time = start.elapsed();
        }
        let info = found[0].clone();
        let best = if lines == 1 { main.root_best.as_ref().map(|b| b.0) } else { info.pv.first().copied() };
        SearchResult { best, ponder: info.pv.get(1).copied(), info, lines: found }
    })
}
