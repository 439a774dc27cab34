//! Iterative deepening: one line with aspiration windows, or several
//! (MultiPV), and the move played if no iteration completes.

use super::score::*;
use super::worker::Worker;
use crate::features::Feature;
use crate::tt::Tt;
use crate::{Score, SearchInfo};
use raum_rules::{Move, Width};
use std::sync::atomic::Ordering;
use std::time::Duration;

impl<'a, S: Width> Worker<'a, S> {
    /// Iterative deepening from `first` to `max_depth`; returns the last completed iteration.
    pub(super) fn iterate(&mut self, max_depth: u32, first: u32, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchInfo {
        let mut info = self.empty_info();
        // A move to fall back on if not even the first iteration completes.
        if let Some(m) = self.fallback() {
            self.root_best = Some((m, -INF, vec![m]));
        }
        let mut score = 0;
        for depth in first..=max_depth {
            self.seldepth = 0;
            self.depth_now = depth;
            let s = self.aspiration(depth as i32, score);
            if self.stopped {
                // A root move that beat the previous best before the abort is kept (root_best).
                break;
            }
            score = s;
            if let Some((_, _, pv)) = &self.root_best {
                info = SearchInfo {
                    depth,
                    seldepth: self.seldepth as u32,
                    score: to_score(score),
                    nodes: self.nodes,
                    time: self.shared.start.elapsed(),
                    pv: pv.clone(),
                    multipv: 1,
                    hashfull: 0,
                };
            }
            if self.main {
                self.flush();
                info.nodes = self.shared.nodes.load(Ordering::Relaxed);
                info.hashfull = self.shared.tt.hashfull();
                on_info(&info);
                if let Some(soft) = self.shared.plan.soft
                    && self.shared.start.elapsed() >= soft
                {
                    break;
                }
            }
            if self.shared.abort.load(Ordering::Relaxed) || self.shared.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        // An iteration cut short may have found a better root move, which is the one
        // played: report its line, so that the best move, the line and the ponder move agree.
        if let Some((m, s, pv)) = &self.root_best
            && info.pv.first() != Some(m)
        {
            info.pv = pv.clone();
            if *s > -INF {
                info.score = to_score(*s);
            }
        }
        info
    }

    /// A line with nothing in it yet.
    pub(super) fn empty_info(&self) -> SearchInfo {
        SearchInfo {
            depth: 0,
            seldepth: 0,
            score: Score::Cp(0),
            nodes: 0,
            time: Duration::ZERO,
            pv: Vec::new(),
            multipv: 1,
            hashfull: 0,
        }
    }

    /// The move played if not even the first iteration completes: the table's,
    /// else the first root move that may be searched.
    pub(super) fn fallback(&self) -> Option<Move> {
        let root = self.pos;
        let legal: Vec<Move> = root
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| self.root_allowed.is_empty() || self.root_allowed.contains(m))
            .collect();
        self.shared.tt.probe(root.hash()).and_then(|e| e.mv).filter(|m| legal.contains(m)).or(legal.first().copied())
    }

    /// Iterative deepening of `self.lines` lines (MultiPV, main thread only):
    /// at each iteration the first line is the root's best move, each later
    /// one the best of the root without the moves before it, each searched
    /// with an aspiration window around its own last score. The first line
    /// is exactly the single-line search (the later lines write to a table of
    /// their own and leave the move-ordering history as they found it), so
    /// MultiPV never changes the move played. A later line can score above
    /// the first only by search noise (the root without a move is worth at
    /// most the root): it is shown at the first's score. Returns the last
    /// completed iteration's lines, best first; when time runs out after the
    /// first line of an iteration, that line with the others of the
    /// iteration before.
    pub(super) fn iterate_lines(&mut self, max_depth: u32, on_info: &mut dyn FnMut(&SearchInfo)) -> Vec<SearchInfo> {
        self.side_tt = Some(Tt::new((self.shared.tt.megabytes() / 2).max(1)));
        let mut done: Vec<(i32, SearchInfo)> = Vec::new();
        for depth in 1..=max_depth {
            self.depth_now = depth;
            self.root_excluded.clear();
            let mut now: Vec<(i32, SearchInfo)> = Vec::new();
            let mut saved = None;
            for k in 0..self.lines {
                self.seldepth = 0;
                self.root_best = None;
                if k == 1 {
                    saved = Some((self.history.clone(), self.stack.clone()));
                    self.on_side = true;
                }
                let prev = done.get(k).map_or(0, |d| d.0);
                let s = self.aspiration(depth as i32, prev);
                if self.stopped {
                    break;
                }
                let Some((m, _, pv)) = self.root_best.take() else { break };
                self.root_excluded.push(m);
                let info = SearchInfo {
                    depth,
                    seldepth: self.seldepth as u32,
                    score: to_score(s),
                    nodes: self.nodes,
                    time: self.shared.start.elapsed(),
                    pv,
                    multipv: 0,
                    hashfull: 0,
                };
                now.push((s, info));
            }
            self.root_excluded.clear();
            self.on_side = false;
            if let Some((history, stack)) = saved {
                self.history = history;
                self.stack = stack;
            }
            if now.len() < self.lines {
                // Cut short: a first line found at this depth replaces the old first.
                if let Some(first) = now.into_iter().next() {
                    let m = first.1.pv[0];
                    done.retain(|d| d.1.pv[0] != m);
                    done.insert(0, first);
                    done.truncate(self.lines);
                }
                break;
            }
            let first = now[0].0;
            for line in &mut now[1..] {
                if line.0 > first {
                    line.0 = first;
                    line.1.score = to_score(first);
                }
            }
            now[1..].sort_by_key(|d| std::cmp::Reverse(d.0));
            done = now;
            self.flush();
            let nodes = self.shared.nodes.load(Ordering::Relaxed);
            let hashfull = self.shared.tt.hashfull();
            for (k, (_, info)) in done.iter_mut().enumerate() {
                info.multipv = k + 1;
                info.nodes = nodes;
                info.hashfull = hashfull;
                on_info(info);
            }
            if let Some(soft) = self.shared.plan.soft
                && self.shared.start.elapsed() >= soft
            {
                break;
            }
            if self.shared.abort.load(Ordering::Relaxed) || self.shared.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        if done.is_empty() {
            let mut info = self.empty_info();
            info.pv = self.fallback().into_iter().collect();
            return vec![info];
        }
        done.into_iter()
            .enumerate()
            .map(|(k, (_, mut info))| {
                info.multipv = k + 1;
                info
            })
            .collect()
    }

    /// One iteration with an aspiration window around the previous score.
    pub(super) fn aspiration(&mut self, depth: i32, prev: i32) -> i32 {
        let mut delta = self.params.aspiration;
        let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND && self.features.has(Feature::Aspiration) {
            (prev - delta, prev + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let in_check = self.pos.is_check();
            let s = self.negamax(alpha, beta, depth, 0, in_check, false);
            if self.stopped {
                return s;
            }
            if s <= alpha && alpha > -INF {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INF);
            } else if s >= beta && beta < INF {
                beta = (s + delta).min(INF);
            } else {
                return s;
            }
            delta += delta / 2;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// Whether the root's moves are cut down (`searchmoves`, MultiPV).
    pub(super) fn root_restricted(&self) -> bool {
        !self.root_allowed.is_empty() || !self.root_excluded.is_empty()
    }
}
