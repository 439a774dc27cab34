//! The tree search: principal-variation negamax with its pruning and
//! reductions, over staged moves, and quiescence.

use super::movepick::*;
use super::score::*;
use super::worker::{Worker, legal_into};
use super::{CURRMOVE_AFTER, MAX_PLY};
use crate::CurrMove;
use crate::features::Feature;
use raum_rules::{Move, Width};

impl<'a, S: Width> Worker<'a, S> {
    pub(super) fn negamax(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        in_check: bool,
        null_ok: bool,
    ) -> i32 {
        if self.stopped {
            return 0;
        }
        self.pv_len[ply] = ply;
        if in_check && self.features.has(Feature::CheckExtension) {
            depth += 1;
        }
        if depth <= 0 {
            if !self.features.has(Feature::Qsearch) {
                return self.static_leaf(ply, in_check);
            }
            return self.qsearch(alpha, beta, ply, in_check);
        }
        if self.count_node() {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.seldepth = self.seldepth.max(ply + 1);
        if !root {
            if let Some(s) = self.draw_score(ply, in_check) {
                return s;
            }
            if ply >= MAX_PLY - 2 {
                return if in_check { DRAW } else { self.eval() };
            }
            // Mate-distance pruning.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        let hash = self.pos.hash();
        let entry = self.probe(hash);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry
            && !pv_node
            && e.depth >= depth
            && let Some(s) = tt_cutoff(e.bound, score_from_tt(e.score, ply), alpha, beta)
        {
            return s;
        }

        // Only the pruning of non-PV nodes reads the static evaluation.
        let static_eval = if in_check || pv_node { -INF } else { self.eval() };
        let us = self.pos.side_to_move();
        if !pv_node && !in_check {
            // Reverse futility: far above beta near the leaves.
            // (Not with only pawns left: the node might be a stalemate.)
            if depth <= self.params.rfp_depth
                && self.features.has(Feature::ReverseFutility)
                && beta.abs() < MATE_BOUND
                && static_eval - self.params.rfp_margin * depth >= beta
                && self.et.has_pieces(&self.pos, us)
            {
                return static_eval;
            }
            // Null move: give the opponent a free move; if that still fails high, cut.
            if null_ok
                && depth >= self.params.null_depth
                && self.features.has(Feature::NullMove)
                && static_eval >= beta
                && self.et.has_pieces(&self.pos, us)
            {
                let r = self.params.null_reduction(depth, static_eval - beta);
                {
                    let null = self.pos.null_move();
                    let saved = self.pos;
                    self.pos = null;
                    self.hashes.push(null.hash());
                    self.material.push(self.material_here());
                    self.stack[ply + 1].since_null = 0;
                    let s = -self.negamax(-beta, -beta + 1, depth - 1 - r, ply + 1, false, false);
                    self.pos = saved;
                    self.hashes.pop();
                    self.material.pop();
                    if self.stopped {
                        return 0;
                    }
                    if s >= beta {
                        return if s >= MATE_BOUND { beta } else { s };
                    }
                }
            }
        }

        // Away from the root and out of check, moves come in stages: the hash
        // move (when a quick test proves it legal), captures and promotions,
        // killers, then everything else from the legal generator. A cutoff in an
        // early stage spares the generator. Elsewhere all moves are generated first.
        let quick = tt_move.and_then(|m| self.quick_legal(m));
        let staged = self.shortcuts
            && !root
            && !in_check
            && self.pos.halfmove_clock() < 100
            && (tt_move.is_none() || quick.is_some());
        let futile = !pv_node
            && !in_check
            && depth <= self.params.futility_depth
            && self.features.has(Feature::Futility)
            && static_eval + self.params.futility_base + self.params.futility_margin * depth <= alpha;
        let killers = self.stack[ply].killers;
        // Where a moving piece could discover a check (for the gives-check filter).
        let disc = self.et.discoveries(&self.pos);
        let mut picker = if staged {
            MovePicker::staged(self, ply, tt_move, quick, killers, futile && !root, disc)
        } else {
            let picker = MovePicker::generated(self, ply, tt_move, killers, futile && !root, disc);
            if picker.len() == 0 || (!root && self.pos.halfmove_clock() >= self.halfmove_limit) {
                let empty = picker.len() == 0;
                picker.put_back(self, ply);
                return match (empty, in_check) {
                    (true, true) => -MATE + ply as i32,
                    (true, false) => self.stalemated,
                    (false, _) => DRAW,
                };
            }
            picker
        };
        let tt_move = picker.tt_move();

        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets: [Move; 64] = [Move::normal(0, 0); 64];
        let mut quiet_count = 0usize;
        let lmp_limit = if depth <= self.params.lmp_depth && self.features.has(Feature::LateMovePruning) {
            self.params.lmp_limit(depth)
        } else {
            usize::MAX
        };

        loop {
            let m = match picker.next(self, best > -MATE_BOUND) {
                Pick::Move(m) => m,
                Pick::Done => break,
                Pick::NoMoves => {
                    picker.put_back(self, ply);
                    return self.stalemated;
                }
            };
            let quiet = m.promotion().is_none() && !self.is_capture(m);
            let is_killer = killers.contains(&Some(m));

            // Late-move and futility pruning of quiet moves, checks excepted.
            let prune =
                !root && !in_check && best > -MATE_BOUND && quiet && !pv_node && (quiet_count >= lmp_limit || futile);
            if prune && !self.may_check(m, disc) {
                continue;
            }
            let (undo, gives_check) = self.make(m, ply, disc);
            if prune && !gives_check {
                self.unmake(m, undo);
                continue;
            }
            searched += 1;
            if root
                && let Some(report) = self.report.as_mut()
                && self.shared.start.elapsed() >= CURRMOVE_AFTER
            {
                report(&CurrMove { depth: self.depth_now, mv: m, number: searched });
            }
            let new_depth = depth - 1;
            let score = if searched == 1 {
                -self.negamax(-beta, -alpha, new_depth, ply + 1, gives_check, true)
            } else {
                let mut r = 0;
                if depth >= 3
                    && self.features.has(Feature::Lmr)
                    && searched > 1 + pv_node as usize
                    && quiet
                    && !in_check
                    && !gives_check
                {
                    r = self.lmr[(depth as usize).min(63)][searched.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if is_killer {
                        r -= 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                // Without PVS, every move gets the full window (plain alpha-beta).
                let zw = if self.features.has(Feature::Pvs) { -alpha - 1 } else { -beta };
                let mut s = -self.negamax(zw, -alpha, new_depth - r, ply + 1, gives_check, true);
                if s > alpha && r > 0 {
                    s = -self.negamax(zw, -alpha, new_depth, ply + 1, gives_check, true);
                }
                if s > alpha && s < beta && zw != -beta {
                    s = -self.negamax(-beta, -alpha, new_depth, ply + 1, gives_check, true);
                }
                s
            };
            self.unmake(m, undo);
            if self.stopped {
                picker.put_back(self, ply);
                return 0;
            }

            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    self.update_pv(ply, m);
                    if root {
                        let pv = self.pv[..self.pv_len[0]].to_vec();
                        self.root_best = Some((m, score, pv));
                    }
                    if score >= beta {
                        if quiet && self.features.has(Feature::Killers) {
                            let k = &mut self.stack[ply].killers;
                            if k[0] != Some(m) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                        }
                        if quiet && self.features.has(Feature::History) {
                            let bonus = (depth * depth).min(400) * 8;
                            self.update_history(m, bonus);
                            for &q in &quiets[..quiet_count.min(quiets.len())] {
                                self.update_history(q, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet {
                if quiet_count < quiets.len() {
                    quiets[quiet_count] = m;
                }
                quiet_count += 1;
            }
        }
        picker.put_back(self, ply);

        let bound = bound(best, original_alpha, alpha, beta);
        // A root searched without some of its moves has no value of its own.
        if !(root && self.root_restricted()) {
            self.table().store(hash, best_move.or(tt_move), score_to_tt(best, ply), depth, bound);
        }
        best
    }

    /// Quiescence: stand pat, then captures and promotions (all evasions in check).
    pub(super) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, in_check: bool) -> i32 {
        if self.count_node() {
            return 0;
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply + 1);
        if let Some(s) = self.draw_score(ply, in_check) {
            return s;
        }
        if ply >= MAX_PLY - 2 {
            return if in_check { DRAW } else { self.eval() };
        }
        // With only the king and pawns, standing pat could hide a stalemate.
        if !in_check && !self.et.has_pieces(&self.pos, self.pos.side_to_move()) && self.pos.count_legal() == 0 {
            return self.stalemated;
        }
        let pv_node = beta - alpha > 1;
        let hash = self.pos.hash();
        let entry = self.probe(hash);
        if let Some(e) = entry
            && !pv_node
            && let Some(s) = tt_cutoff(e.bound, score_from_tt(e.score, ply), alpha, beta)
        {
            return s;
        }
        let stand = if in_check { -INF } else { self.lazy_eval(alpha, beta) };
        if stand >= beta {
            return stand;
        }
        let original_alpha = alpha;
        alpha = alpha.max(stand);
        let mut buf = std::mem::take(&mut self.buffers[ply]);
        buf.clear();
        // Pieces whose captures need a legality test (see `noisy_moves`).
        let mut unsure = S::EMPTY;
        if in_check {
            let mut moves = std::mem::take(&mut self.move_lists[ply]);
            legal_into(&self.pos, &mut self.scratch, &mut moves);
            for &m in &moves {
                let score = if (self.is_capture(m) || m.promotion().is_some()) && self.features.has(Feature::MvvLva) {
                    self.victim_value(m) * 16 - self.mover_value(m) / 16
                } else if self.is_capture(m) || m.promotion().is_some() {
                    0
                } else {
                    -INF
                };
                buf.push(Scored { mv: m, score });
            }
            let mated = moves.is_empty();
            self.move_lists[ply] = moves;
            if mated {
                self.buffers[ply] = buf;
                return -MATE + ply as i32;
            }
        } else {
            let prune = self.features.has(Feature::Delta).then_some((stand, alpha));
            unsure = self.noisy_moves(&mut buf, prune);
        }
        let mut best = stand;
        let disc = if buf.is_empty() { S::EMPTY } else { self.et.discoveries(&self.pos) };
        let mut best_move = None;
        let mut picker = MovePicker::<S>::batch(buf);
        while let Some(m) = picker.best() {
            let us = self.pos.side_to_move();
            // Evasions come from the legal generator; a pseudo-legal capture needs a
            // test if the king moves or the mover may be pinned.
            let test = !in_check && (m.from() == self.pos.king_cell(us) || (unsure & S::single(m.from())).any());
            let may_check = self.may_check(m, disc);
            let undo = self.play(m);
            if test && self.pos.king_attacked(us) {
                self.unmake(m, undo);
                continue;
            }
            self.stack[ply + 1].since_null = self.stack[ply].since_null + 1;
            let gives_check = may_check && self.pos.is_check();
            let score = -self.qsearch(-beta, -alpha, ply + 1, gives_check);
            self.unmake(m, undo);
            if self.stopped {
                self.buffers[ply] = picker.into_batch();
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = picker.into_batch();
        let bound = bound(best, original_alpha, alpha, beta);
        self.table().store(hash, best_move, score_to_tt(best, ply), 0, bound);
        best
    }
}
