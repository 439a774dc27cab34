//! Move ordering and the moves of quiescence: ordering bands and scores,
//! history, the hash move's quick legality test, and the captures and
//! promotions listed without the legal generator.

use super::worker::{Worker, legal_into};
use crate::features::Feature;
use raum_rules::{Move, MoveKind, Width};

/// Delta pruning in quiescence: a capture is skipped when even this much
/// on top of the captured piece cannot lift the stand-pat score to alpha.
pub(super) const DELTA_MARGIN: i32 = 200;

/// A move with its ordering score.
#[derive(Clone, Copy)]
pub(super) struct Scored {
    pub(super) mv: Move,
    pub(super) score: i32,
}

/// The stages of a node's moves (see `Worker::negamax`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Stage {
    Captures,
    Killers,
    Rest,
    Done,
}

/// Ordering bands, from first to last.
pub(super) const ORDER_HASH: i32 = 30_000_000;

pub(super) const ORDER_GOOD_CAPTURE: i32 = 20_000_000;

pub(super) const ORDER_PROMOTION: i32 = 19_000_000;

pub(super) const ORDER_KILLER: i32 = 18_000_000;

pub(super) const ORDER_BAD_CAPTURE: i32 = -20_000_000;

pub(super) const ORDER_UNDERPROMOTION: i32 = -30_000_000;

pub(super) const HISTORY_MAX: i32 = 16_384;

/// Moves picked one by one (selection sort) before the rest are sorted at once.
pub(super) const SELECT: usize = 6;

impl<'a, S: Width> Worker<'a, S> {
    /// Whether `m`, a hash move, is legal here, decided without the move
    /// generator for a plain move of a piece other than a pawn (its target is
    /// among the piece's attacks and its king is safe after it); `None` for
    /// other moves, which the generator decides.
    pub(super) fn quick_legal(&self, m: Move) -> Option<bool> {
        if m.kind() != MoveKind::Normal || m.promotion().is_some() || !self.shortcuts {
            return None;
        }
        let (from, to) = (m.from(), m.to());
        if from >= self.cells || to >= self.cells {
            return Some(false);
        }
        let pos = &self.pos;
        let us = pos.side_to_move();
        let Some(p) = pos.piece_at(from).filter(|p| p.color == us) else { return Some(false) };
        if Some(p.kind) == pos.variant().pawn() {
            return None;
        }
        // The cells a piece attacks are where it moves only if it moves as it captures
        // (not so the Five Up king); otherwise only its captures are decided here.
        if !self.et.moves_as_captures(p.kind) && !pos.color_cells(us.opponent()).has(to) {
            return None;
        }
        let reach = self.et.attacks_in(p.kind.index(), from, pos) & !pos.color_cells(us);
        if !reach.has(to) {
            return Some(false);
        }
        let after = pos.play_copy(m);
        Some(!after.king_attacked(us))
    }

    #[inline(always)]
    pub(super) fn is_capture(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::EnPassant => true,
            MoveKind::Castle => false,
            _ => self.enemy_at(m.to()),
        }
    }

    /// Whether an enemy man stands on `cell` (a move onto a friendly man is a
    /// unicorn mounting or being mounted, not a capture).
    #[inline(always)]
    pub(super) fn enemy_at(&self, cell: usize) -> bool {
        self.pos.color_cells(self.pos.side_to_move().opponent()).has(cell)
    }

    /// What taking the men on `cell` wins: the piece, and its riding unicorn.
    #[inline(always)]
    pub(super) fn men_value(&self, cell: usize) -> i32 {
        let pos = &self.pos;
        let rider = pos.variant().rider().filter(|_| pos.rider_at(cell)).map_or(0, |u| self.et.value(u));
        pos.piece_at(cell).map_or(0, |p| self.et.value(p.kind)) + rider
    }

    /// Value of what `m` captures (0 for a quiet move).
    #[inline(always)]
    pub(super) fn victim_value(&self, m: Move) -> i32 {
        match m.kind() {
            MoveKind::EnPassant => self.et.value(self.pos.variant().pawn().expect("en passant needs pawns")),
            MoveKind::Castle => 0,
            _ if self.enemy_at(m.to()) => self.men_value(m.to()),
            _ => 0,
        }
    }

    #[inline(always)]
    pub(super) fn mover_value(&self, m: Move) -> i32 {
        self.pos.piece_at(m.from()).map_or(0, |p| self.et.value(p.kind))
    }

    /// A capture that probably loses material: a more valuable piece takes a
    /// defended one.
    #[inline]
    pub(super) fn losing_capture(&self, m: Move, victim: i32) -> bool {
        let mover = self.mover_value(m);
        if mover <= victim + 50 || m.promotion().is_some() {
            return false;
        }
        let occ = self.pos.occupied() ^ S::single(m.from());
        self.pos.attacked_by(self.pos.side_to_move().opponent(), m.to(), occ)
    }

    /// Whether `m` could give check (`false` is certain); castling and en
    /// passant are not filtered. `disc`: [`EvalTables::discoveries`] here.
    #[inline(always)]
    pub(super) fn may_check(&self, m: Move, disc: S) -> bool {
        let them = self.pos.side_to_move().opponent();
        match self.pos.piece_at(m.from()) {
            Some(p) if m.kind() == MoveKind::Normal || m.kind() == MoveKind::DoubleStep => {
                let piece = m.promotion().map_or(p, |k| raum_rules::Piece::new(p.color, k));
                self.et.may_check(piece, m.from(), m.to(), self.pos.king_cell(them), disc)
            }
            _ => true,
        }
    }

    #[inline(always)]
    pub(super) fn history_index(&self, m: Move) -> usize {
        (self.pos.side_to_move().index() * self.cells + m.from()) * self.cells + m.to()
    }

    pub(super) fn update_history(&mut self, m: Move, bonus: i32) {
        let i = self.history_index(m);
        let h = &mut self.history[i];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// The ordering score of `m`: good captures (MVV-LVA), promotions to the
    /// best kind, killers, quiet moves by history, losing captures, underpromotions.
    #[inline]
    pub(super) fn score_move(&self, m: Move, killers: &[Option<Move>; 2], best_promo: Option<raum_rules::Kind>) -> i32 {
        if m.promotion().is_some() && m.promotion() != best_promo {
            ORDER_UNDERPROMOTION + self.victim_value(m)
        } else if self.is_capture(m) {
            if !self.features.has(Feature::MvvLva) {
                return ORDER_GOOD_CAPTURE;
            }
            let victim = self.victim_value(m);
            let mvv = victim * 16 - self.mover_value(m) / 16;
            if self.losing_capture(m, victim) { ORDER_BAD_CAPTURE + mvv } else { ORDER_GOOD_CAPTURE + mvv }
        } else if m.promotion().is_some() {
            ORDER_PROMOTION
        } else if Some(m) == killers[0] {
            ORDER_KILLER + 1
        } else if Some(m) == killers[1] {
            ORDER_KILLER
        } else {
            self.history[self.history_index(m)]
        }
    }

    /// Whether `m` is among the moves [`Worker::noisy_moves`] lists: a plain
    /// capture (no en passant) or a promotion to the best kind.
    #[inline(always)]
    pub(super) fn is_noisy(&self, m: Move, best_promo: Option<raum_rules::Kind>) -> bool {
        m.kind() == MoveKind::Normal
            && ((m.promotion().is_some() && m.promotion() == best_promo)
                || (m.promotion().is_none() && self.enemy_at(m.to())))
    }

    /// Pseudo-legal captures and best-kind promotions for quiescence (the side
    /// to move is not in check), scored by MVV-LVA; with `prune` (stand-pat
    /// score, alpha), without the ones delta pruning or the losing-capture test
    /// drop. En passant is left out. Returns
    /// the cells of pieces that may be pinned: their moves (and king moves) need
    /// a legality test after they are played.
    pub(super) fn noisy_moves(&self, buf: &mut Vec<Scored>, prune: Option<(i32, i32)>) -> S {
        let pos = &self.pos;
        let et = self.et;
        let v = pos.variant();
        let us = pos.side_to_move();
        let them = us.opponent();
        let own = pos.color_cells(us);
        let enemy = pos.color_cells(them);
        let occ = own | enemy;
        let kinds = v.pieces().len();
        let pawn = v.pawn();
        let king = pos.king_cell(us);
        let geo = v.tables();
        if !self.shortcuts {
            return self.noisy_legal(buf, prune);
        }
        let mut unsure = S::EMPTY;
        for &k in et.sliders() {
            for s in (pos.pieces(them, raum_rules::Kind(k as u8)) & et.aligned(king)).cells() {
                let b = geo.between(king, s) & occ;
                if (b & own).any() && !b.several() {
                    unsure |= b;
                }
            }
        }
        let push = |buf: &mut Vec<Scored>, m: Move, gain: i32, mover: i32, capture: bool, victim: i32| {
            if let Some((stand, alpha)) = prune
                && m.promotion().is_none()
                && (stand + gain + DELTA_MARGIN <= alpha || (capture && self.losing_capture(m, victim)))
            {
                return;
            }
            let score = if self.features.has(Feature::MvvLva) { gain * 16 - mover / 16 } else { 0 };
            buf.push(Scored { mv: m, score });
        };
        let mut captures = |from: usize, k: usize, targets: S| {
            let mover = et.value(raum_rules::Kind(k as u8));
            for to in (targets & enemy).cells() {
                let victim = pos.piece_at(to).map_or(0, |p| et.value(p.kind));
                push(buf, Move::normal(from, to), victim, mover, true, victim);
            }
        };
        let kk = v.king().index();
        captures(king, kk, et.attacks_in(kk, king, pos));
        if self.attacks_key == pos.hash() && self.attacks.complete {
            // The evaluation of this position just computed them.
            for &(from, k, att) in &self.attacks.list[..self.attacks.len] {
                captures(from as usize, k as usize, att);
            }
        } else {
            for k in 0..kinds {
                if Some(raum_rules::Kind(k as u8)) == pawn || k == kk {
                    continue;
                }
                for from in pos.pieces(us, raum_rules::Kind(k as u8)).cells() {
                    captures(from, k, et.attacks_in(k, from, pos));
                }
            }
        }
        if let Some(p) = pawn {
            let zone = v.promotion_zone(self.pos.pawn_set(us));
            let promo = et.best_promotion();
            let promo_gain = promo.map_or(0, |k| et.value(k)) - et.value(p);
            let mover = et.value(p);
            // A pawn's capture (a promotion inside the zone) or promoting step.
            let pawn_move = |buf: &mut Vec<Scored>, from: usize, to: usize, capture: bool| {
                let victim = if capture { pos.piece_at(to).map_or(0, |p| et.value(p.kind)) } else { 0 };
                if zone.has(to) {
                    push(
                        buf,
                        Move::new(from, to, MoveKind::Normal, promo),
                        victim + promo_gain,
                        mover,
                        capture,
                        victim,
                    );
                } else {
                    push(buf, Move::normal(from, to), victim, mover, capture, victim);
                }
            };
            let pawns = pos.pieces(us, p);
            if let Some(shifts) = v.pawn_shifts() {
                // All pawns at once, one shift per vector.
                for sh in &shifts.captures[us.index()] {
                    for to in (sh.apply(pawns) & enemy).cells() {
                        pawn_move(buf, (to as i32 - sh.delta) as usize, to, true);
                    }
                }
                for sh in &shifts.steps[us.index()] {
                    for to in (sh.apply(pawns) & zone & !occ).cells() {
                        pawn_move(buf, (to as i32 - sh.delta) as usize, to, false);
                    }
                }
            } else {
                for from in pawns.cells() {
                    for to in (et.pawn_attacks(us, from) & enemy).cells() {
                        pawn_move(buf, from, to, true);
                    }
                    for to in (et.pawn_steps(us, from) & zone & !occ).cells() {
                        pawn_move(buf, from, to, false);
                    }
                }
            }
        }
        unsure
    }

    /// [`Worker::noisy_moves`] from the legal generator, for variants where
    /// the shortcuts do not hold: the same moves (captures but en passant,
    /// best-kind promotions), scored and pruned alike; none needs a test.
    pub(super) fn noisy_legal(&self, buf: &mut Vec<Scored>, prune: Option<(i32, i32)>) -> S {
        let pos = &self.pos;
        let et = self.et;
        let best = et.best_promotion();
        let pawn_value = pos.variant().pawn().map_or(0, |p| et.value(p));
        let promo_gain = best.map_or(0, |k| et.value(k)) - pawn_value;
        for &m in pos.legal_moves().iter() {
            if m.kind() != MoveKind::Normal || (m.promotion().is_some() && m.promotion() != best) {
                continue;
            }
            let capture = self.enemy_at(m.to());
            let victim = if capture { self.men_value(m.to()) } else { 0 };
            if !capture && m.promotion().is_none() {
                continue;
            }
            let gain = victim + if m.promotion().is_some() { promo_gain } else { 0 };
            if let Some((stand, alpha)) = prune
                && m.promotion().is_none()
                && (stand + gain + DELTA_MARGIN <= alpha || (capture && self.losing_capture(m, victim)))
            {
                continue;
            }
            let mover = self.mover_value(m);
            let score = if self.features.has(Feature::MvvLva) { gain * 16 - mover / 16 } else { 0 };
            buf.push(Scored { mv: m, score });
        }
        S::EMPTY
    }
}

/// What [`MovePicker::next`] found.
pub(super) enum Pick {
    /// The next move to search.
    Move(Move),
    /// No more moves.
    Done,
    /// A staged node whose legal generator found no move: stalemate (the
    /// node is not in check), and nothing was searched.
    NoMoves,
}

/// A node's moves in the order the search tries them. The main search
/// ([`Worker::negamax`]) and quiescence ([`Worker::qsearch`]) both loop over
/// one: in stages (the hash move, captures and promotions, killers, the rest
/// from the legal generator: [`MovePicker::staged`]), all from the legal
/// generator ([`MovePicker::generated`]), or one batch listed by the caller
/// ([`MovePicker::batch`]). Moves are taken best first: the first `select` of
/// a batch by selection, the rest sorted at once.
pub(super) struct MovePicker<S> {
    /// The moves listed so far with their ordering scores; `buf[..next]` were taken.
    buf: Vec<Scored>,
    /// The legal moves, once generated.
    moves: Vec<Move>,
    /// Losing captures held back until the quiet moves are listed.
    deferred: Vec<Scored>,
    next: usize,
    /// Whether `buf[next..]` is sorted.
    sorted: bool,
    /// Moves taken by selection before the rest of a batch is sorted.
    select: usize,
    stage: Stage,
    /// Whether captures and promotions came from the shortcut generator
    /// (`noisy_moves`): then those of the king or of a piece that may be
    /// pinned are tested before they are returned.
    staged: bool,
    generated: bool,
    tt_move: Option<Move>,
    /// The pieces whose captures need a legality test (see `noisy_moves`).
    unsure: S,
    killers: [Option<Move>; 2],
    tried_killers: [Option<Move>; 2],
    /// A futile node away from the root: once a move has a score, quiet
    /// moves that cannot give check are left out.
    futile: bool,
    /// Where a moving piece could discover a check.
    disc: S,
}

impl<S: Width> MovePicker<S> {
    /// The picker of a main-search node at `ply`, on the worker's buffers for that ply.
    #[inline(always)]
    fn take<'a>(w: &mut Worker<'a, S>, ply: usize, killers: [Option<Move>; 2], futile: bool, disc: S) -> Self {
        let mut buf = std::mem::take(&mut w.buffers[ply]);
        buf.clear();
        let mut moves = std::mem::take(&mut w.move_lists[ply]);
        moves.clear();
        let mut deferred = std::mem::take(&mut w.deferred[ply]);
        deferred.clear();
        MovePicker {
            buf,
            moves,
            deferred,
            next: 0,
            sorted: false,
            select: SELECT,
            stage: Stage::Captures,
            staged: false,
            generated: false,
            tt_move: None,
            unsure: S::EMPTY,
            killers,
            tried_killers: [None; 2],
            futile,
            disc,
        }
    }

    /// Staged moves (the node is not in check): the hash move first if the
    /// quick test found it legal (`quick`), then captures and promotions,
    /// killers, and the rest.
    #[inline(always)]
    pub(super) fn staged<'a>(
        w: &mut Worker<'a, S>,
        ply: usize,
        tt_move: Option<Move>,
        quick: Option<bool>,
        killers: [Option<Move>; 2],
        futile: bool,
        disc: S,
    ) -> Self {
        let mut mp = Self::take(w, ply, killers, futile, disc);
        mp.staged = true;
        mp.set_tt_move(tt_move.filter(|_| quick == Some(true)));
        mp
    }

    /// All legal moves from the generator (at the root, those `searchmoves`
    /// and MultiPV leave), the hash move first if it is among them. The
    /// number of moves is [`MovePicker::len`].
    #[inline(always)]
    pub(super) fn generated<'a>(
        w: &mut Worker<'a, S>,
        ply: usize,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        futile: bool,
        disc: S,
    ) -> Self {
        let mut mp = Self::take(w, ply, killers, futile, disc);
        legal_into(&w.pos, &mut w.scratch, &mut mp.moves);
        mp.generated = true;
        if ply == 0 && w.root_restricted() {
            let (allowed, excluded) = (&w.root_allowed, &w.root_excluded);
            mp.moves.retain(|m| (allowed.is_empty() || allowed.contains(m)) && !excluded.contains(m));
        }
        mp.stage = Stage::Rest;
        let tt_move = tt_move.filter(|m| mp.moves.contains(m));
        mp.set_tt_move(tt_move);
        mp
    }

    /// One batch listed by the caller (quiescence): every move taken by selection.
    #[inline(always)]
    pub(super) fn batch(buf: Vec<Scored>) -> Self {
        MovePicker {
            buf,
            moves: Vec::new(),
            deferred: Vec::new(),
            next: 0,
            sorted: false,
            select: usize::MAX,
            stage: Stage::Done,
            staged: false,
            generated: true,
            tt_move: None,
            unsure: S::EMPTY,
            killers: [None; 2],
            tried_killers: [None; 2],
            futile: false,
            disc: S::EMPTY,
        }
    }

    #[inline(always)]
    fn set_tt_move(&mut self, tt_move: Option<Move>) {
        self.tt_move = tt_move;
        if let Some(m) = tt_move {
            self.buf.push(Scored { mv: m, score: ORDER_HASH });
        }
    }

    /// The hash move, if it is one of the node's moves.
    #[inline(always)]
    pub(super) fn tt_move(&self) -> Option<Move> {
        self.tt_move
    }

    /// The legal moves generated (for a picker made by [`MovePicker::generated`]).
    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        self.moves.len()
    }

    /// Gives the buffers back to the worker's `ply`.
    #[inline(always)]
    pub(super) fn put_back<'a>(self, w: &mut Worker<'a, S>, ply: usize) {
        w.buffers[ply] = self.buf;
        w.move_lists[ply] = self.moves;
        w.deferred[ply] = self.deferred;
    }

    /// The buffer of a [`MovePicker::batch`], to give back.
    #[inline(always)]
    pub(super) fn into_batch(self) -> Vec<Scored> {
        self.buf
    }

    /// The next move: the best left of the batch, a new batch listed when
    /// one is used up. `scored`: a move of the node has a score above a
    /// mated one (a futile node then leaves out quiet moves that cannot
    /// give check).
    #[inline(always)]
    pub(super) fn next<'a>(&mut self, w: &mut Worker<'a, S>, scored: bool) -> Pick {
        loop {
            while self.next == self.buf.len() && self.stage != Stage::Done {
                if !self.fill(w, scored) {
                    return Pick::NoMoves;
                }
                self.sorted = false;
            }
            let Some(m) = self.best() else { return Pick::Done };
            if self.staged {
                let us = w.pos.side_to_move();
                if (m.from() == w.pos.king_cell(us) || self.unsure.has(m.from()))
                    && w.is_noisy(m, w.et.best_promotion())
                {
                    // A pseudo-legal capture or promotion of the capture stage (the generator's
                    // are skipped in staged nodes), by the king or a piece that may be pinned.
                    let after = w.pos.play_copy(m);
                    if after.king_attacked(us) {
                        continue;
                    }
                }
            }
            return Pick::Move(m);
        }
    }

    /// The best move left in the batch listed so far (quiescence's one batch:
    /// [`MovePicker::batch`]), or `None` when it is used up.
    #[inline(always)]
    pub(super) fn best(&mut self) -> Option<Move> {
        let i = self.next;
        let buf = &mut self.buf;
        if i == buf.len() {
            return None;
        }
        // Selection for the first few moves (most cutoffs come early), then one sort
        // of the rest of the batch.
        if i < self.select {
            let mut bi = i;
            for j in i + 1..buf.len() {
                if buf[j].score > buf[bi].score {
                    bi = j;
                }
            }
            buf.swap(i, bi);
        } else if !self.sorted {
            buf[i..].sort_unstable_by_key(|s| std::cmp::Reverse(s.score));
            self.sorted = true;
        }
        self.next = i + 1;
        Some(buf[i].mv)
    }

    /// Lists the next stage's moves; `false` if the legal generator found none.
    #[inline(always)]
    fn fill<'a>(&mut self, w: &mut Worker<'a, S>, scored: bool) -> bool {
        let tt_move = self.tt_move;
        let buf = &mut self.buf;
        match self.stage {
            Stage::Captures => {
                let start = buf.len();
                self.unsure = w.noisy_moves(buf, None);
                let mut keep = start;
                for j in start..buf.len() {
                    let sm = buf[j];
                    if Some(sm.mv) == tt_move {
                        continue;
                    }
                    // (Moves of this stage without a promotion are captures.)
                    if w.features.has(Feature::MvvLva)
                        && sm.mv.promotion().is_none()
                        && w.losing_capture(sm.mv, w.victim_value(sm.mv))
                    {
                        self.deferred.push(Scored { mv: sm.mv, score: ORDER_BAD_CAPTURE + sm.score });
                        continue;
                    }
                    buf[keep] = sm;
                    keep += 1;
                }
                buf.truncate(keep);
                self.stage = Stage::Killers;
            }
            Stage::Killers => {
                for (slot, k) in self.killers.iter().enumerate() {
                    let Some(k) = *k else { continue };
                    if Some(k) != tt_move
                        && k.promotion().is_none()
                        && !w.is_capture(k)
                        && w.quick_legal(k) == Some(true)
                    {
                        buf.push(Scored { mv: k, score: ORDER_KILLER + 1 - slot as i32 });
                        self.tried_killers[slot] = Some(k);
                    }
                }
                self.stage = Stage::Rest;
            }
            Stage::Rest => {
                if !self.generated {
                    legal_into(&w.pos, &mut w.scratch, &mut self.moves);
                    self.generated = true;
                    if self.moves.is_empty() {
                        return false;
                    }
                }
                let best_promo = w.et.best_promotion();
                // In a futile node with a move searched, the search prunes every quiet
                // move that cannot give check: leave them out here, unscored and unsorted.
                let drop_quiet = self.futile && scored;
                for &m in &self.moves {
                    if Some(m) == tt_move
                        || (self.staged && (self.tried_killers.contains(&Some(m)) || w.is_noisy(m, best_promo)))
                        || (drop_quiet && m.promotion().is_none() && !w.is_capture(m) && !w.may_check(m, self.disc))
                    {
                        continue;
                    }
                    buf.push(Scored { mv: m, score: w.score_move(m, &self.killers, best_promo) });
                }
                buf.append(&mut self.deferred);
                self.stage = Stage::Done;
            }
            Stage::Done => {}
        }
        true
    }
}
