//! One search thread's state (`Worker`): the position and its path, the
//! evaluation through its cache, the tables it reads and writes, node counting
//! and polling, draws by rule and repetition.

use super::movepick::Scored;
use super::score::*;
use super::{EVAL_CACHE, MAX_PLY, POLL_INTERVAL, Shared};
use crate::CurrMove;
use crate::eval::{EvalTables, Material, PieceAttacks};
use crate::features::{Feature, Features};
use crate::params::SearchParams;
use crate::tt::Tt;
use raum_rules::{Game, Move, MoveList, Position, Width};
use std::sync::atomic::Ordering;

/// How far mobility and king safety may move the evaluation from material
/// and pawns, for lazy evaluation in quiescence (rarely more than 100 cp in
/// Raum's own games).
pub(super) const LAZY_MARGIN: i32 = 250;

/// One ply's bookkeeping.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub(super) killers: [Option<Move>; 2],
    /// Plies since the last null move (bounds the repetition scan).
    pub(super) since_null: u32,
}

pub(super) struct Worker<'a, S: Width> {
    pub(super) main: bool,
    pub(super) shared: &'a Shared<'a, S>,
    pub(super) et: &'a EvalTables<S>,
    /// Copied from `shared` for the hot paths.
    pub(super) features: Features,
    pub(super) params: SearchParams,
    pub(super) pos: Position<S>,
    pub(super) cells: usize,
    /// The variant allows the capture and legality shortcuts (see
    /// `raum_rules::Variant::is_plain`); otherwise every move comes from
    /// the legal generator.
    pub(super) shortcuts: bool,
    /// The game's move-count rule in half-moves (`u32::MAX`: none).
    pub(super) halfmove_limit: u32,
    /// Whether a repeated position draws (the search: any earlier occurrence).
    repetition_draws: bool,
    pub(super) nodes: u64,
    pub(super) flushed: u64,
    pub(super) next_poll: u64,
    pub(super) stopped: bool,
    pub(super) seldepth: usize,
    /// Hashes of the game's positions, then of the search path; the last is the current position.
    pub(super) hashes: Vec<u64>,
    /// Material along the search path, kept move by move; the last is the current position's.
    pub(super) material: Vec<Material>,
    pub(super) stack: Vec<Frame>,
    /// `[side][from][to]`.
    pub(super) history: Vec<i32>,
    pub(super) pv: Vec<Move>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    pub(super) buffers: Vec<Vec<Scored>>,
    /// Per ply: losing captures held back until the quiet moves are listed.
    pub(super) deferred: Vec<Vec<Scored>>,
    /// Per ply: the legal moves.
    pub(super) move_lists: Vec<Vec<Move>>,
    /// Where the generator writes before the moves are copied to `move_lists`.
    pub(super) scratch: Box<MoveList>,
    pub(super) lmr: Box<[[u8; 64]; 64]>,
    /// Evaluations by hash (`hash`, score).
    pub(super) eval_cache: Vec<(u64, i32)>,
    /// The side to move's piece attacks from the last full evaluation, and the hash of its position.
    pub(super) attacks: Box<PieceAttacks<S>>,
    pub(super) attacks_key: u64,
    /// The best root move found so far, its score and principal variation.
    pub(super) root_best: Option<(Move, i32, Vec<Move>)>,
    /// The score of a node whose side to move has no move and is not in
    /// check (see [`stalemated`]).
    pub(super) stalemated: i32,
    /// The root moves to search (`go searchmoves`); empty: all.
    pub(super) root_allowed: Vec<Move>,
    /// Root moves left out: the lines already found at this iteration (MultiPV).
    pub(super) root_excluded: Vec<Move>,
    /// Lines to find (MultiPV), at least one.
    pub(super) lines: usize,
    /// The iteration under way, for [`CurrMove`].
    pub(super) depth_now: u32,
    /// The main thread's reporter of root moves.
    pub(super) report: Option<&'a mut dyn FnMut(&CurrMove)>,
    /// MultiPV: the table the lines after the first write to (they read
    /// it, then the shared one), so that the first line's search is exactly
    /// the single-line search.
    pub(super) side_tt: Option<Tt>,
    /// Whether the side table is in use (a line after the first).
    pub(super) on_side: bool,
}

/// The legal moves of `pos` in `out`, generated into the worker's one
/// fixed-capacity `scratch` list (no large list in any search frame, no copy
/// of the unused capacity).
#[inline(never)]
pub(super) fn legal_into<S: Width>(pos: &Position<S>, scratch: &mut MoveList, out: &mut Vec<Move>) {
    pos.legal_moves_into(scratch);
    out.clear();
    out.extend_from_slice(scratch);
}

impl<'a, S: Width> Worker<'a, S> {
    pub(super) fn new(shared: &'a Shared<'a, S>, game: &Game<S>, main: bool) -> Self {
        let pos = *game.position();
        let cells = pos.variant().cells();
        let mut hashes = Vec::with_capacity(game.hashes().len() + MAX_PLY + 2);
        hashes.extend_from_slice(game.hashes());
        let mut lmr = Box::new([[0u8; 64]; 64]);
        let p = &shared.params;
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (p.lmr_base as f64 / 100.0 + (d as f64).ln() * (m as f64).ln() * 100.0 / p.lmr_div as f64) as u8;
            }
        }
        let mut material = Vec::with_capacity(MAX_PLY + 2);
        material.push(shared.et.material(&pos));
        Worker {
            main,
            shared,
            et: shared.et,
            features: shared.features,
            params: shared.params,
            pos,
            cells,
            shortcuts: pos.variant().is_plain(),
            halfmove_limit: pos.variant().halfmove_limit(2),
            repetition_draws: pos.variant().repetition_limit().is_some(),
            nodes: 0,
            flushed: 0,
            next_poll: shared.node_limit.map_or(POLL_INTERVAL, |l| l.min(POLL_INTERVAL)),
            stopped: false,
            seldepth: 0,
            hashes,
            material,
            stack: vec![Frame { killers: [None; 2], since_null: u32::MAX / 2 }; MAX_PLY + 2],
            history: vec![0; 2 * cells * cells],
            pv: vec![Move::normal(0, 0); (MAX_PLY + 1) * (MAX_PLY + 1)],
            pv_len: [0; MAX_PLY + 1],
            buffers: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(256)).collect(),
            deferred: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(32)).collect(),
            move_lists: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(256)).collect(),
            scratch: Box::default(),
            lmr,
            eval_cache: vec![(0, 0); EVAL_CACHE],
            attacks: Box::default(),
            attacks_key: 0,
            root_best: None,
            stalemated: stalemated(&pos),
            root_allowed: Vec::new(),
            root_excluded: Vec::new(),
            lines: 1,
            depth_now: 0,
            report: None,
            side_tt: None,
            on_side: false,
        }
    }

    /// The static evaluation, through the cache.
    #[inline]
    pub(super) fn eval(&mut self) -> i32 {
        let h = self.pos.hash();
        let slot = self.eval_cache[h as usize & (EVAL_CACHE - 1)];
        if slot.0 == h && h != 0 {
            return slot.1;
        }
        let basic = self.basic();
        self.full_eval(basic)
    }

    /// The current position's material, kept along the path.
    #[inline(always)]
    pub(super) fn material_here(&self) -> Material {
        *self.material.last().expect("the root's material is pushed first")
    }

    /// The cheap part of the evaluation, from the material kept along the path.
    #[inline(always)]
    pub(super) fn basic(&self) -> crate::eval::Basic {
        self.et.basic_from(&self.pos, self.material_here())
    }

    /// Plays `m` and pushes the new position's hash and material.
    #[inline(always)]
    pub(super) fn play(&mut self, m: Move) -> raum_rules::Undo<S> {
        let after = self.et.material_after(&self.pos, m, self.material_here());
        let undo = self.pos.play(m);
        self.hashes.push(self.pos.hash());
        self.material.push(after.unwrap_or_else(|| self.et.material(&self.pos)));
        undo
    }

    #[inline]
    pub(super) fn full_eval(&mut self, basic: crate::eval::Basic) -> i32 {
        let h = self.pos.hash();
        let e = self.et.finish(&self.pos, basic, &mut self.attacks);
        self.attacks_key = h;
        self.eval_cache[h as usize & (EVAL_CACHE - 1)] = (h, e);
        e
    }

    /// The static evaluation where only its relation to `alpha..beta` matters:
    /// when material and pawns alone are far outside the window, they are the answer.
    #[inline]
    pub(super) fn lazy_eval(&mut self, alpha: i32, beta: i32) -> i32 {
        let h = self.pos.hash();
        let slot = self.eval_cache[h as usize & (EVAL_CACHE - 1)];
        if slot.0 == h && h != 0 {
            return slot.1;
        }
        let basic = self.basic();
        if basic.score - LAZY_MARGIN >= beta || basic.score + LAZY_MARGIN <= alpha {
            return basic.score;
        }
        self.full_eval(basic)
    }

    /// The table's entry for `hash`, unless the table is switched off for the tree.
    #[inline(always)]
    pub(super) fn probe(&self, hash: u64) -> Option<crate::tt::TtEntry> {
        if !self.features.has(Feature::Tt) {
            return None;
        }
        if self.on_side
            && let Some(e) = self.side_tt.as_ref().and_then(|t| t.probe(hash))
        {
            return Some(e);
        }
        self.shared.tt.probe(hash)
    }

    /// The table this search writes to: the shared one, or for MultiPV's later lines the side table.
    #[inline(always)]
    pub(super) fn table(&self) -> &Tt {
        match &self.side_tt {
            Some(t) if self.on_side => t,
            _ => self.shared.tt,
        }
    }

    /// A leaf without quiescence (the `qsearch` feature off): the static
    /// evaluation, or the mate or draw score.
    pub(super) fn static_leaf(&mut self, ply: usize, in_check: bool) -> i32 {
        if self.count_node() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply + 1);
        if let Some(s) = self.draw_score(ply, in_check) {
            return s;
        }
        if in_check && self.pos.count_legal() == 0 {
            return -MATE + ply as i32;
        }
        self.eval()
    }

    /// Adds this thread's unreported nodes to the shared count.
    pub(super) fn flush(&mut self) {
        self.shared.nodes.fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// Checks the clock, the node limit and the stop flags.
    #[cold]
    pub(super) fn poll(&mut self) {
        self.flush();
        let sh = self.shared;
        let total = sh.nodes.load(Ordering::Relaxed);
        self.next_poll = self.nodes + POLL_INTERVAL;
        if let Some(limit) = sh.node_limit {
            if total >= limit {
                sh.abort.store(true, Ordering::Relaxed);
            } else {
                self.next_poll = self.nodes + (limit - total).min(POLL_INTERVAL);
            }
        }
        if self.main
            && let Some(hard) = sh.plan.hard
            && sh.start.elapsed() >= hard
        {
            sh.abort.store(true, Ordering::Relaxed);
        }
        if sh.abort.load(Ordering::Relaxed) || sh.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }

    /// Counts a node; `true` if the search must stop.
    #[inline(always)]
    pub(super) fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
        self.stopped
    }

    /// The score if the current position (at `ply > 0`) is drawn by the
    /// 50-move rule, bare kings or repetition (any earlier occurrence counts).
    #[inline]
    pub(super) fn draw_score(&self, ply: usize, in_check: bool) -> Option<i32> {
        let pos = &self.pos;
        let clock = pos.halfmove_clock();
        if (clock >= self.halfmove_limit && !in_check)
            || (pos.kind_cells(pos.variant().king()) ^ pos.occupied()).is_empty()
        {
            // Stalemate comes before these rules; only where it is scored does that change the value.
            if self.stalemated != DRAW && pos.count_legal() == 0 {
                return Some(self.stalemated);
            }
            return Some(DRAW);
        }
        if !self.repetition_draws {
            return None;
        }
        let window = (clock.min(self.stack[ply].since_null) as usize).min(self.hashes.len() - 1);
        let last = self.hashes.len() - 1;
        let h = self.hashes[last];
        let mut i = 2;
        while i <= window {
            if self.hashes[last - i] == h {
                return Some(DRAW);
            }
            i += 2;
        }
        None
    }

    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        let row = ply * (MAX_PLY + 1);
        let child = (ply + 1) * (MAX_PLY + 1);
        self.pv[row + ply] = m;
        let end = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..end {
            self.pv[row + i] = self.pv[child + i];
        }
        self.pv_len[ply] = end;
    }

    /// Plays `m`, pushing its hash; `true` if it gives check.
    #[inline(always)]
    pub(super) fn make(&mut self, m: Move, ply: usize, disc: S) -> (raum_rules::Undo<S>, bool) {
        // The cheap filter spares most moves the full test.
        let may_check = self.may_check(m, disc);
        let undo = self.play(m);
        self.stack[ply + 1].since_null = self.stack[ply].since_null + 1;
        (undo, may_check && self.pos.is_check())
    }

    #[inline(always)]
    pub(super) fn unmake(&mut self, m: Move, undo: raum_rules::Undo<S>) {
        self.pos.unplay(m, undo);
        self.hashes.pop();
        self.material.pop();
    }
}
