//! max^n (Luckhardt & Irani, "An Algorithmic Solution of N-Person Games",
//! 1986), every side for itself.
//!
//! A node's value is a vector, one value per side: a side's evaluation as
//! the paranoid search would give it for that side (its own value minus the
//! mean of the opponents still in, plus a bonus per opponent out); a side
//! that is out has lost. The side to move takes the child best in its own
//! component (the first of equals, in move order). The components do not
//! sum to a constant, so shallow pruning does not apply; only immediate
//! pruning does (a child that wins for the side to move ends the node).
//! Quiescence is max^n over captures and promotions, each side standing pat
//! or capturing. The table keeps each position's vector for its depth and
//! the best move, which orders the next iteration.

use super::{MATE, MATE_BOUND, OUT_BONUS, Searcher};
use raum_rules::multi::{MAX_SIDES, MultiPosition};
use raum_rules::{Move, MoveList, Width};

/// A value per side.
pub(super) type Values = [i32; MAX_SIDES];

/// One slot of max^n's table.
#[derive(Clone, Copy, Default)]
pub(crate) struct VectorEntry {
    key: u64,
    values: Values,
    mv: u32,
    depth: i8,
}

/// Quiescence plies: without pruning a capture tree grows fast.
const QPLIES: u32 = 2;

impl<S: Width> Searcher<'_, S> {
    /// Every side's value: its own minus the mean of the other sides still in,
    /// plus [`OUT_BONUS`] per side out; a side that is out, a loss.
    fn evaluate_all(&self, pos: &MultiPosition<S>) -> Values {
        let values = self.eval.side_values(pos);
        let sides = pos.variant().sides().len();
        let inn = pos.sides_in();
        let out = (sides - inn.len()) as i32;
        let total: i32 = inn.iter().map(|&s| values[s]).sum();
        let mut v = [-MATE; MAX_SIDES];
        for &s in &inn {
            let others = (inn.len() - 1).max(1) as i32;
            v[s] = values[s] - (total - values[s]) / others + OUT_BONUS * out;
        }
        v
    }

    /// A draw's value to every side: the share among fewer sides counts.
    fn draw_all(&self, pos: &MultiPosition<S>) -> Values {
        let sides = pos.variant().sides().len();
        let inn = pos.sides_in();
        let mut v = [-MATE; MAX_SIDES];
        for &s in &inn {
            v[s] = OUT_BONUS * (sides - inn.len()) as i32;
        }
        v
    }

    fn vector_slot(&self, key: u64) -> usize {
        (key as usize) & (self.vectors.len() - 1)
    }

    /// max^n: every side's value and the side to move's best move.
    pub(super) fn maxn(
        &mut self,
        pos: &mut MultiPosition<S>,
        depth: i32,
        ply: usize,
        root: bool,
    ) -> (Values, Option<Move>) {
        if self.tick() {
            return ([0; MAX_SIDES], None);
        }
        self.seldepth = self.seldepth.max(ply);
        if !root && self.is_draw(pos) {
            return (self.draw_all(pos), None);
        }
        if depth <= 0 || ply + 1 >= super::MAX_PLY {
            return (self.maxn_quiesce(pos, ply, 0), None);
        }
        let key = pos.hash();
        let slot = self.vector_slot(key);
        let e = self.vectors[slot];
        let mut hash_move = 0;
        if e.key == key {
            hash_move = e.mv;
            if !root && e.depth as i32 >= depth {
                return (e.values, None);
            }
        }
        let side = pos.side_to_move();
        let mut list = MoveList::new();
        pos.legal_moves_into(&mut list);
        let lost = -(MATE - ply as i32);
        if list.is_empty() {
            // The side is out; the last side in has won.
            let left: Vec<usize> = pos.sides_in().into_iter().filter(|&s| s != side).collect();
            if let [winner] = left[..] {
                let mut v = [lost; MAX_SIDES];
                v[winner] = MATE - ply as i32;
                return (v, None);
            }
            let mut next = pos.clone();
            next.remove_side();
            let (mut v, _) = self.maxn(&mut next, depth, ply + 1, false);
            v[side] = lost;
            return (v, None);
        }
        let mut best: Option<Values> = None;
        let mut best_move = None;
        for m in self.order(pos, &list, hash_move, ply) {
            let undo = pos.play(m);
            self.history.push(pos.hash());
            let (v, _) = self.maxn(pos, depth - 1, ply + 1, false);
            self.history.pop();
            pos.unplay(m, undo);
            if self.aborted {
                return (best.unwrap_or(v), best_move);
            }
            if best.is_none_or(|b| v[side] > b[side]) {
                best = Some(v);
                best_move = Some(m);
            }
            if v[side] > MATE_BOUND {
                break;
            }
        }
        let best = best.expect("a move was searched");
        self.vectors[slot] = VectorEntry {
            key,
            values: best,
            mv: best_move.map_or(0, |m| m.bits()),
            depth: depth.min(i8::MAX as i32) as i8,
        };
        (best, best_move)
    }

    /// max^n over captures and promotions: the side to move stands pat or
    /// takes the capture best for itself.
    fn maxn_quiesce(&mut self, pos: &mut MultiPosition<S>, ply: usize, qply: u32) -> Values {
        if self.tick() {
            return [0; MAX_SIDES];
        }
        self.seldepth = self.seldepth.max(ply);
        let mut best = self.evaluate_all(pos);
        if qply >= QPLIES || ply + 1 >= super::MAX_PLY {
            return best;
        }
        let side = pos.side_to_move();
        let mut list = MoveList::new();
        pos.legal_captures_into(&mut list);
        for m in self.order(pos, &list, 0, super::MAX_PLY) {
            let undo = pos.play(m);
            let v = self.maxn_quiesce(pos, ply + 1, qply + 1);
            pos.unplay(m, undo);
            if self.aborted {
                return best;
            }
            if v[side] > best[side] {
                best = v;
            }
        }
        best
    }
}
