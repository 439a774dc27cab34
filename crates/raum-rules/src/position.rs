//! A validated position: bitboards, mailbox, state, hash; make and unmake.

use crate::error::PositionError;
use crate::moves::{Move, MoveKind, Part};
use crate::piece::{Color, Kind, MAX_KINDS, Piece, RIDER};
use crate::setup::Setup;
use crate::variant::Variant;
use raum_bitboard::CellSet;

/// A legal position of a variant.
///
/// Cheap to copy (a few hundred bytes for 5x5x5 boards). Change it with
/// [`Position::play`] / [`Position::unplay`], or [`Position::play_copy`].
///
/// ```
/// use raum_rules::{Position, Variant, VariantId};
/// let pos = Position::start(Variant::get(VariantId::FiveUp));
/// assert_eq!(pos.legal_moves().len(), 62);
/// ```
#[derive(Clone, Copy)]
pub struct Position<S: CellSet> {
    pub(crate) v: &'static Variant<S>,
    pub(crate) by_kind: [S; MAX_KINDS],
    pub(crate) by_color: [S; 2],
    pub(crate) mailbox: S::ByteArray,
    pub(crate) side: Color,
    pub(crate) castling: u16,
    /// Pawns that have not moved (every piece under the non-combatant rule),
    /// where the variant tracks it; every cell elsewhere (so that
    /// `pawns & origins & unmoved` serves both).
    pub(crate) unmoved: S,
    /// Each side's pawn set (orientation): an index into the variant's pawn tables.
    pub(crate) pawn_set: [u8; 2],
    pub(crate) ep: S,
    pub(crate) ep_victim: u16,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    /// Each side's cells rearranged for one-word line lookups (wide boards
    /// only): `raum_geometry::Lines::lanes_of`, kept by `put` and `take`.
    pub(crate) lanes: [S::Lanes; 2],
}

/// What [`Position::unplay`] needs to take a move back.
#[derive(Clone, Copy, Debug)]
pub struct Undo<S> {
    captured: u8,
    /// Where unicorns ride: the mailbox bytes of the move's two cells before it.
    from_code: u8,
    to_code: u8,
    castling: u16,
    unmoved: S,
    ep: S,
    ep_victim: u16,
    halfmove: u32,
    hash: u64,
}

impl<S: CellSet> PartialEq for Position<S> {
    fn eq(&self, o: &Self) -> bool {
        core::ptr::eq(self.v, o.v)
            && self.by_kind == o.by_kind
            && self.by_color == o.by_color
            && self.mailbox == o.mailbox
            && self.side == o.side
            && self.castling == o.castling
            && self.unmoved == o.unmoved
            && self.pawn_set == o.pawn_set
            && self.ep == o.ep
            && (self.ep.is_empty() || self.ep_victim == o.ep_victim)
            && self.halfmove == o.halfmove
            && self.fullmove == o.fullmove
            && self.hash == o.hash
    }
}

impl<S: CellSet> Eq for Position<S> {}

impl<S: CellSet> core::fmt::Debug for Position<S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Position").field("variant", &self.v.id()).field("setup", &self.to_setup()).finish()
    }
}

impl<S: CellSet> Position<S> {
    /// The variant's start position.
    pub fn start(v: &'static Variant<S>) -> Self {
        Self::from_setup(v, v.start_setup().clone())
            .unwrap_or_else(|e| panic!("start position of {} is invalid: {e}", v.id()))
    }

    /// Validates a setup.
    pub fn from_setup(v: &'static Variant<S>, setup: Setup) -> Result<Self, PositionError> {
        let n = v.cells();
        if setup.board.len() != n {
            return Err(PositionError::CellCount { expected: n, got: setup.board.len() });
        }
        let mut pos = Position {
            v,
            by_kind: [S::EMPTY; MAX_KINDS],
            by_color: [S::EMPTY; 2],
            mailbox: S::zero_bytes(),
            side: setup.side,
            castling: setup.castling,
            unmoved: v.geo.all(),
            pawn_set: setup.pawn_sets,
            ep: S::EMPTY,
            ep_victim: 0,
            halfmove: setup.halfmove,
            fullmove: setup.fullmove.max(1),
            hash: 0,
            lanes: [S::zero_lanes(); 2],
        };
        for (cell, p) in setup.board.iter().enumerate() {
            if let Some(p) = *p {
                if p.kind.index() >= v.kinds {
                    return Err(PositionError::UnknownKind(p.kind.0));
                }
                pos.put(cell, p);
            }
        }
        pos.set_riders(&setup)?;
        for (c, &set) in Color::ALL.iter().zip(&setup.pawn_sets) {
            let set = set as usize;
            if set >= v.pawn_set_count() || (!v.free_pawn_sets() && set != v.spec.start_sets[c.index()] as usize) {
                return Err(PositionError::PawnSet(format!("{c} cannot play pawn set {set}")));
            }
        }
        pos.set_unmoved(&setup)?;
        for c in Color::ALL {
            let kings = pos.pieces(c, v.king);
            if kings.is_empty() {
                return Err(PositionError::MissingKing(c));
            }
            if kings.several() {
                return Err(PositionError::ExtraKing(c));
            }
            if let Some(pawn) = v.pawn {
                let bad = pos.pieces(c, pawn) & v.promotion_zone[pos.pawn_set(c)];
                if bad.any() {
                    return Err(PositionError::PawnOnPromotionCell { color: c, cell: v.cell_name(bad.lowest()) });
                }
            }
        }
        if setup.castling != 0 && !v.has_castling() {
            return Err(PositionError::Castling(format!("{} has no castling", v.id())));
        }
        if v.slots.is_empty() {
            if setup.castling > 0b11 {
                return Err(PositionError::Castling("only one right per side exists".into()));
            }
        } else {
            pos.check_castling_slots()?;
        }
        pos.set_en_passant(&setup)?;
        let them = pos.side.opponent();
        if pos.king_attacked(them) {
            return Err(PositionError::OpponentInCheck(them));
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// Every right of a fixed-partner variant needs its king and rook at home.
    fn check_castling_slots(&self) -> Result<(), PositionError> {
        let v = self.v;
        if self.castling >> v.slots.len() != 0 {
            return Err(PositionError::Castling(format!("{} has only {} rights", v.id(), v.slots.len())));
        }
        for (i, slot) in v.slots.iter().enumerate() {
            if self.castling >> i & 1 == 0 {
                continue;
            }
            let (king, rook) = (slot.king[0] as usize, slot.rook[0] as usize);
            let partner = v.castle_partner.map(|k| Piece::new(slot.color, k));
            if self.piece_at(king) != Some(Piece::new(slot.color, v.king)) {
                return Err(PositionError::Castling(format!(
                    "{} may castle with {} only with its king on {}",
                    slot.color,
                    v.cell_name(rook),
                    v.cell_name(king)
                )));
            }
            if self.piece_at(rook) != partner {
                return Err(PositionError::Castling(format!(
                    "{} may castle with {} only with its rook there",
                    slot.color,
                    v.cell_name(rook)
                )));
            }
        }
        Ok(())
    }

    /// Unicorns riding with pieces, where the variant has a rider.
    fn set_riders(&mut self, setup: &Setup) -> Result<(), PositionError> {
        let v = self.v;
        let err = |m: String| Err(PositionError::Rider(m));
        let Some(rider) = v.rider else {
            return if setup.riders.is_empty() { Ok(()) } else { err(format!("{} has no riding pieces", v.id())) };
        };
        for &c in &setup.riders {
            let Some(p) = (c < v.cells()).then(|| self.piece_at(c)).flatten() else {
                return err(format!("no piece for a unicorn to ride on {}", v.cell_name(c.min(v.cells() - 1))));
            };
            if p.kind == v.king {
                return err(format!("a unicorn cannot share {} with a king", v.cell_name(c)));
            }
            if p.kind == rider || self.rider_at(c) {
                return err(format!("two unicorns on {}", v.cell_name(c)));
            }
            self.put_rider(c, Piece::new(p.color, rider));
        }
        Ok(())
    }

    /// The unmoved-pawn field, where the variant tracks it.
    fn set_unmoved(&mut self, setup: &Setup) -> Result<(), PositionError> {
        let v = self.v;
        match (&setup.unmoved, v.tracks_unmoved()) {
            (None, false) => Ok(()),
            (Some(_), false) => Err(PositionError::Unmoved(format!("{} has no unmoved-pawn field", v.id()))),
            (None, true) => Err(PositionError::Unmoved(format!("{} needs the unmoved-pawn field", v.id()))),
            (Some(cells), true) => {
                self.unmoved = S::EMPTY;
                let pieces = v.spec.noncombatant;
                for &c in cells {
                    let tracked = c < v.cells()
                        && self.piece_at(c).is_some_and(|q| pieces || v.pawn.is_some_and(|p| q.kind == p));
                    if !tracked {
                        let name = if c < v.cells() { v.cell_name(c) } else { c.to_string() };
                        let what = if pieces { "piece" } else { "pawn" };
                        return Err(PositionError::Unmoved(format!("{name} holds no {what}")));
                    }
                    self.unmoved.insert(c);
                }
                Ok(())
            }
        }
    }

    fn set_en_passant(&mut self, setup: &Setup) -> Result<(), PositionError> {
        let v = self.v;
        let err = |m: String| Err(PositionError::EnPassant(m));
        if setup.ep.is_empty() {
            return match setup.ep_victim {
                Some(_) => err("a pawn is named but no en-passant cell".into()),
                None => Ok(()),
            };
        }
        let mover = self.side.opponent();
        if !v.has_double_steps() || !v.pawn_en_passant[self.pawn_set(mover)] {
            return err(format!("{} has no en passant", v.id()));
        }
        let mut ep = S::EMPTY;
        for &c in &setup.ep {
            if c >= v.cells() || self.piece_at(c).is_some() {
                return err(format!("en-passant cell {} is not empty", v.cell_name(c.min(v.cells() - 1))));
            }
            ep.insert(c);
        }
        // Find the double step that explains the field: its origin is a start
        // cell of the mover, now empty; its destination holds the mover's pawn;
        // its empty middle cells are exactly the field's cells.
        let mut found = self.ep_candidates(ep);
        // Without a named pawn, a single cell reads as a straight double step.
        if setup.ep_victim.is_none() && found.iter().any(|&(_, straight)| straight) {
            found.retain(|&(_, straight)| straight);
        }
        let found: Vec<usize> = found.into_iter().map(|(t, _)| t).collect();
        let n = v.cells();
        let victim = match (setup.ep_victim, found.as_slice()) {
            (Some(vc), _) if found.contains(&vc) => vc,
            (Some(vc), _) => {
                return err(format!("no double step to {} passes exactly those cells", v.cell_name(vc.min(n - 1))));
            }
            (None, [one]) => *one,
            (None, []) => {
                return err("no double step of the side that just moved passes those cells".into());
            }
            (None, _) => return err("ambiguous: name the pawn that moved with @cell".into()),
        };
        self.ep = ep;
        self.ep_victim = victim as u16;
        Ok(())
    }

    /// The pawns of the side that just moved whose double step could have left
    /// exactly `ep` as its empty middle cells: its origin is a start cell, now
    /// empty; its destination holds the pawn (which has moved, where that is
    /// tracked). Each with whether that step is straight.
    fn ep_candidates(&self, ep: S) -> Vec<(usize, bool)> {
        let v = self.v;
        let mover = self.side.opponent();
        let Some(pawn) = v.pawn else { return Vec::new() };
        let set = self.pawn_set(mover);
        let n = v.cells();
        let occ = self.occupied();
        let mut found = Vec::new();
        // A pawn that double-steps alone from a shared cell leaves its
        // unicorn behind on the origin.
        let left_behind = |o: usize| v.rider.is_some_and(|r| self.piece_at(o) == Some(Piece::new(mover, r)));
        for o in v.double_origins[set].cells() {
            if occ.has(o) && !left_behind(o) {
                continue;
            }
            for d in &v.pawn_doubles[set * n + o] {
                let to = d.to as usize;
                if self.piece_at(to) != Some(Piece::new(mover, pawn)) || (v.tracks_unmoved() && self.unmoved.has(to)) {
                    continue;
                }
                let mut empty_mids = S::EMPTY;
                for &m in &d.via[..d.vias as usize] {
                    if !occ.has(m as usize) {
                        empty_mids.insert(m as usize);
                    }
                }
                if empty_mids == ep && !found.iter().any(|&(t, _)| t == to) {
                    found.push((to, d.vias == 1));
                }
            }
        }
        found
    }

    /// Whether the en-passant cells alone do not tell which pawn moved, so a
    /// position string must name it (`Ec3@Dc3`): a lone cell is read as the
    /// middle of a straight double step (RULES.md), so an L step that left one
    /// cell needs the name, and so does a cell that two straight steps explain.
    pub fn ep_needs_victim(&self) -> bool {
        if self.ep.is_empty() {
            return false;
        }
        let found = self.ep_candidates(self.ep);
        let victim = self.ep_victim as usize;
        if self.ep.several() {
            return found.len() != 1;
        }
        let straight: Vec<usize> = found.iter().filter(|c| c.1).map(|c| c.0).collect();
        straight != [victim]
    }

    /// The unvalidated form of this position.
    pub fn to_setup(&self) -> Setup {
        let n = self.v.cells();
        Setup {
            board: (0..n).map(|c| self.piece_at(c)).collect(),
            side: self.side,
            castling: self.castling,
            ep: self.ep.cells().collect(),
            ep_victim: self.ep.any().then_some(self.ep_victim as usize),
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            pawn_sets: self.pawn_set,
            unmoved: self.v.tracks_unmoved().then(|| self.unmoved.cells().collect()),
            riders: self.stacks().cells().collect(),
        }
    }

    /// The variant.
    #[inline(always)]
    pub fn variant(&self) -> &'static Variant<S> {
        self.v
    }

    /// Side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Castling rights: Five Up's bit 0 White, bit 1 Black; with fixed partners
    /// bit `i` is castling slot `i` ([`Variant::castle_slots`]).
    pub fn castling_rights(&self) -> u16 {
        self.castling
    }

    /// The pawn set `color` plays (its pawns' orientation): the index for
    /// [`Variant::pawn_captures`] and friends. In most variants 0 for White,
    /// 1 for Black.
    #[inline(always)]
    pub fn pawn_set(&self, color: Color) -> usize {
        self.pawn_set[color.index()] as usize
    }

    /// Pawns that have not moved, where the variant tracks it
    /// ([`Variant::tracks_unmoved`]); every cell elsewhere.
    pub fn unmoved(&self) -> S {
        self.unmoved
    }

    /// En-passant target cells.
    pub fn ep_cells(&self) -> S {
        self.ep
    }

    /// The pawn that may be taken en passant, if any.
    pub fn ep_victim(&self) -> Option<usize> {
        self.ep.any().then_some(self.ep_victim as usize)
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// Move number.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The Zobrist hash (pieces, side, rights, and en-passant cells when an enemy pawn could use them).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The piece on a cell (on a shared cell, the piece a unicorn rides).
    #[inline(always)]
    pub fn piece_at(&self, cell: usize) -> Option<Piece> {
        Piece::from_code(self.mailbox.as_ref()[cell] & !RIDER)
    }

    /// Whether a friendly unicorn rides on `cell` with its piece.
    #[inline(always)]
    pub fn rider_at(&self, cell: usize) -> bool {
        self.mailbox.as_ref()[cell] & RIDER != 0
    }

    /// The cells that hold a piece and its riding unicorn (empty in variants
    /// without riders).
    #[inline(always)]
    pub fn stacks(&self) -> S {
        match self.v.rider {
            None => S::EMPTY,
            Some(r) => {
                let mut others = S::EMPTY;
                for (k, &b) in self.by_kind[..self.v.kinds].iter().enumerate() {
                    if k != r.index() {
                        others |= b;
                    }
                }
                self.by_kind[r.index()] & others
            }
        }
    }

    /// Each side's cells as line-lookup lanes (wide boards; empty for
    /// `u128`): what `raum_geometry::Lines::attacks_in` reads, together with
    /// [`Position::occupied`].
    #[inline(always)]
    pub fn lanes(&self) -> &[S::Lanes; 2] {
        &self.lanes
    }

    /// Every occupied cell.
    #[inline(always)]
    pub fn occupied(&self) -> S {
        self.by_color[0] | self.by_color[1]
    }

    /// The cells of one side.
    #[inline(always)]
    pub fn color_cells(&self, c: Color) -> S {
        self.by_color[c.index()]
    }

    /// The cells holding a kind, either colour.
    #[inline(always)]
    pub fn kind_cells(&self, k: Kind) -> S {
        self.by_kind[k.index()]
    }

    /// The cells of one side's pieces of one kind.
    #[inline(always)]
    pub fn pieces(&self, c: Color, k: Kind) -> S {
        self.by_kind[k.index()] & self.by_color[c.index()]
    }

    /// The cell of a side's king.
    #[inline(always)]
    pub fn king_cell(&self, c: Color) -> usize {
        self.pieces(c, self.v.king).lowest()
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.king_attacked(self.side)
    }

    /// Whether `color`'s king is attacked (whichever side is to move): what a
    /// make-and-test legality check asks after a move. Under the non-combatant
    /// rule an unmoved king never is.
    pub fn king_attacked(&self, color: Color) -> bool {
        let king = self.king_cell(color);
        if self.v.spec.noncombatant && self.unmoved.has(king) {
            return false;
        }
        self.attacked_by(color.opponent(), king, self.occupied())
    }

    #[inline(always)]
    fn put(&mut self, cell: usize, p: Piece) {
        let b = S::single(cell);
        self.by_kind[p.kind.index()] |= b;
        self.by_color[p.color.index()] |= b;
        self.mailbox.as_mut()[cell] = p.code();
        if S::LANE_WORDS > 0 {
            for &(w, bit) in self.v.lines.lane_toggles(cell) {
                self.lanes[p.color.index()].as_mut()[w as usize] |= 1 << bit;
            }
        }
    }

    #[inline(always)]
    fn take(&mut self, cell: usize, p: Piece) {
        let b = S::single(cell);
        self.by_kind[p.kind.index()] ^= b;
        self.by_color[p.color.index()] ^= b;
        self.mailbox.as_mut()[cell] = 0;
        if S::LANE_WORDS > 0 {
            for &(w, bit) in self.v.lines.lane_toggles(cell) {
                self.lanes[p.color.index()].as_mut()[w as usize] &= !(1 << bit);
            }
        }
    }

    /// Adds a riding unicorn to an occupied cell.
    fn put_rider(&mut self, cell: usize, rider: Piece) {
        self.by_kind[rider.kind.index()] |= S::single(cell);
        self.mailbox.as_mut()[cell] |= RIDER;
    }

    /// Empties a cell, whatever it holds (both men of a shared cell).
    fn clear_cell(&mut self, cell: usize) {
        let code = self.mailbox.as_ref()[cell];
        if let Some(p) = Piece::from_code(code & !RIDER) {
            if code & RIDER != 0
                && let Some(r) = self.v.rider
            {
                self.by_kind[r.index()] &= !S::single(cell);
            }
            self.take(cell, p);
        }
    }

    /// Fills an empty cell from a mailbox byte (a piece and maybe its rider).
    fn fill_cell(&mut self, cell: usize, code: u8) {
        if let Some(p) = Piece::from_code(code & !RIDER) {
            self.put(cell, p);
            if code & RIDER != 0
                && let Some(r) = self.v.rider
            {
                self.put_rider(cell, Piece::new(p.color, r));
            }
        }
    }

    /// The hash keys of what a mailbox byte holds on `cell`.
    fn code_key(&self, code: u8, cell: usize) -> u64 {
        let Some(p) = Piece::from_code(code & !RIDER) else { return 0 };
        let mut h = self.piece_key(p, cell);
        if code & RIDER != 0
            && let Some(r) = self.v.rider
        {
            h ^= self.piece_key(Piece::new(p.color, r), cell);
        }
        h
    }

    #[inline(always)]
    fn piece_key(&self, p: Piece, cell: usize) -> u64 {
        self.v.zobrist.piece(p.color.index(), p.kind.index(), self.v.kinds, cell)
    }

    /// The en-passant part of the hash: only when the side to move has a pawn
    /// that could capture there, as FIDE's repetition rule counts it.
    #[inline(always)]
    fn ep_key(&self) -> u64 {
        if self.ep.is_empty() {
            return 0;
        }
        let Some(pawn) = self.v.pawn else { return 0 };
        let set = self.pawn_set(self.side);
        let n = self.v.cells();
        let our_pawns = self.pieces(self.side, pawn);
        let mut h = 0;
        let mut usable = false;
        for c in self.ep.cells() {
            h ^= self.v.zobrist.ep[c];
            usable |= (self.v.pawn_captures_from[set * n + c] & our_pawns).any();
        }
        if usable { h } else { 0 }
    }

    /// The hash computed from scratch (equals [`Position::hash`] in every valid position).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for cell in self.occupied().cells() {
            h ^= self.code_key(self.mailbox.as_ref()[cell], cell);
        }
        if self.side == Color::Black {
            h ^= self.v.zobrist.side;
        }
        if self.v.tracks_unmoved() {
            for c in self.unmoved.cells() {
                h ^= self.v.zobrist.unmoved[c];
            }
        }
        if self.v.free_pawn_sets() {
            for c in Color::ALL {
                h ^= self.v.zobrist.pawn_set(c.index(), self.pawn_set(c));
            }
        }
        h ^ self.v.zobrist.castling(self.castling) ^ self.ep_key()
    }

    /// Plays a legal move (from [`Position::legal_moves`]); returns what
    /// [`Position::unplay`] needs. Playing a move that is not legal here leaves
    /// the position inconsistent.
    pub fn play(&mut self, m: Move) -> Undo<S> {
        let v = self.v;
        if v.rider.is_some() {
            return self.play_shared(m);
        }
        let undo = Undo {
            captured: 0,
            from_code: 0,
            to_code: 0,
            castling: self.castling,
            unmoved: self.unmoved,
            ep: self.ep,
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            hash: self.hash,
        };
        let mut undo = undo;
        let mut h = self.hash ^ self.ep_key() ^ v.zobrist.castling(self.castling);
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let Some(mover) = self.piece_at(from) else {
            return undo;
        };
        self.halfmove += 1;
        match m.kind() {
            MoveKind::Castle => {
                let (rook_from, rook_to) = self.castle_rook(us, from, to);
                let Some(rook) = self.piece_at(rook_from) else {
                    return undo;
                };
                self.take(from, mover);
                self.take(rook_from, rook);
                self.put(to, mover);
                self.put(rook_to, rook);
                h ^= self.piece_key(mover, from)
                    ^ self.piece_key(mover, to)
                    ^ self.piece_key(rook, rook_from)
                    ^ self.piece_key(rook, rook_to);
                if v.slots.is_empty() {
                    self.castling &= !(1 << us.index());
                }
            }
            kind => {
                let victim_cell = if kind == MoveKind::EnPassant { self.ep_victim as usize } else { to };
                if let Some(victim) = self.piece_at(victim_cell) {
                    undo.captured = victim.code();
                    self.take(victim_cell, victim);
                    h ^= self.piece_key(victim, victim_cell);
                    self.halfmove = 0;
                }
                self.take(from, mover);
                h ^= self.piece_key(mover, from);
                let placed = match m.promotion() {
                    Some(k) => Piece::new(us, k),
                    None => mover,
                };
                self.put(to, placed);
                h ^= self.piece_key(placed, to);
                if Some(mover.kind) == v.pawn {
                    self.halfmove = 0;
                }
            }
        }
        if self.castling != 0 && !v.slots.is_empty() {
            self.castling &= !(v.castle_clear[from] | v.castle_clear[to]);
        }
        if v.tracks_unmoved() {
            for c in [from, to] {
                if self.unmoved.has(c) {
                    self.unmoved.remove(c);
                    h ^= v.zobrist.unmoved[c];
                }
            }
        }
        self.finish_play(m, h);
        undo
    }

    /// The end of every move: en-passant cells after a double step, the move
    /// number, the side to move and the hash (`h`: the hash so far, without
    /// side, castling rights and en-passant part).
    #[inline(always)]
    fn finish_play(&mut self, m: Move, mut h: u64) {
        let v = self.v;
        let (from, to, us) = (m.from(), m.to(), self.side);
        self.ep = S::EMPTY;
        let set = self.pawn_set(us);
        if m.kind() == MoveKind::DoubleStep && v.pawn_en_passant[set] && !v.promotion_zone[set].has(to) {
            let occ = self.occupied();
            let n = v.cells();
            if let Some(d) = v.pawn_doubles[set * n + from].iter().find(|d| d.to as usize == to) {
                for &c in &d.via[..d.vias as usize] {
                    if !occ.has(c as usize) {
                        self.ep.insert(c as usize);
                    }
                }
            }
            self.ep_victim = to as u16;
        }
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.side = us.opponent();
        h ^= v.zobrist.side ^ v.zobrist.castling(self.castling);
        self.hash = h ^ self.ep_key();
        #[cfg(debug_assertions)]
        self.assert_consistent("playing", m);
    }

    /// [`Position::play`] where unicorns ride: each of the move's cells is
    /// rewritten whole (a piece and its rider together) from what it held.
    #[inline(never)]
    fn play_shared(&mut self, m: Move) -> Undo<S> {
        let v = self.v;
        let (from, to) = (m.from(), m.to());
        let us = self.side;
        let mb = |p: &Self, c: usize| p.mailbox.as_ref()[c];
        let (from_code, to_code) = (mb(self, from), mb(self, to));
        let mut undo = Undo {
            captured: 0,
            from_code,
            to_code,
            castling: self.castling,
            unmoved: self.unmoved,
            ep: self.ep,
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            hash: self.hash,
        };
        let mut h = self.hash ^ self.ep_key() ^ v.zobrist.castling(self.castling);
        if Piece::from_code(from_code & !RIDER).is_none() {
            return undo;
        }
        let rider_code = |c: Color| v.rider.map_or(0, |r| Piece::new(c, r).code());
        self.halfmove += 1;
        let (new_from, new_to) = if m.kind() == MoveKind::Castle {
            // King and rook swap; a unicorn riding the rook goes with it.
            self.castling &= !(1 << us.index());
            (to_code, from_code)
        } else {
            let (moving, left) = match m.part() {
                Part::Whole => (from_code, 0),
                Part::Unicorn => (rider_code(us), from_code & !RIDER),
                Part::Piece => (from_code & !RIDER, if from_code & RIDER != 0 { rider_code(us) } else { 0 }),
            };
            if Piece::from_code(moving & !RIDER).is_some_and(|p| Some(p.kind) == v.pawn) {
                self.halfmove = 0;
            }
            let moving = match m.promotion() {
                Some(k) => Piece::new(us, k).code() | (moving & RIDER),
                None => moving,
            };
            let moving_main = Piece::from_code(moving & !RIDER);
            let target = Piece::from_code(to_code & !RIDER);
            let arrived = match target {
                // Joining a friendly man: the unicorn mounts a piece, or a
                // piece mounts a lone unicorn.
                Some(t) if t.color == us => {
                    if moving_main.is_some_and(|p| Some(p.kind) == v.rider) {
                        to_code | RIDER
                    } else {
                        moving | RIDER
                    }
                }
                Some(_) => {
                    undo.captured = to_code;
                    self.halfmove = 0;
                    moving
                }
                None => moving,
            };
            if m.kind() == MoveKind::EnPassant {
                let victim = self.ep_victim as usize;
                let code = mb(self, victim);
                undo.captured = code;
                h ^= self.code_key(code, victim);
                self.clear_cell(victim);
                self.halfmove = 0;
            }
            (left, arrived)
        };
        h ^= self.code_key(from_code, from) ^ self.code_key(to_code, to);
        h ^= self.code_key(new_from, from) ^ self.code_key(new_to, to);
        self.clear_cell(from);
        self.clear_cell(to);
        self.fill_cell(from, new_from);
        self.fill_cell(to, new_to);
        self.finish_play(m, h);
        undo
    }

    /// [`Position::unplay`] where unicorns ride: the two cells (and an
    /// en-passant victim's) get back what they held.
    #[inline(never)]
    fn unplay_shared(&mut self, m: Move, undo: Undo<S>) {
        self.side = self.side.opponent();
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        let (from, to) = (m.from(), m.to());
        self.clear_cell(from);
        self.clear_cell(to);
        self.fill_cell(from, undo.from_code);
        self.fill_cell(to, undo.to_code);
        if m.kind() == MoveKind::EnPassant {
            self.fill_cell(undo.ep_victim as usize, undo.captured);
        }
        self.castling = undo.castling;
        self.unmoved = undo.unmoved;
        self.ep = undo.ep;
        self.ep_victim = undo.ep_victim;
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
        #[cfg(debug_assertions)]
        self.assert_consistent("taking back", m);
    }

    /// Takes back `m`, which must be the last move played with `undo` its result.
    pub fn unplay(&mut self, m: Move, undo: Undo<S>) {
        let v = self.v;
        if v.rider.is_some() {
            return self.unplay_shared(m, undo);
        }
        self.side = self.side.opponent();
        let us = self.side;
        if us == Color::Black {
            self.fullmove -= 1;
        }
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Castle => {
                let (rook_from, rook_to) = self.castle_rook(us, from, to);
                if let (Some(king), Some(rook)) = (self.piece_at(to), self.piece_at(rook_to)) {
                    self.take(to, king);
                    self.take(rook_to, rook);
                    self.put(from, king);
                    self.put(rook_from, rook);
                }
            }
            kind => {
                if let Some(placed) = self.piece_at(to) {
                    self.take(to, placed);
                    let original = match (m.promotion(), v.pawn) {
                        (Some(_), Some(pawn)) => Piece::new(us, pawn),
                        _ => placed,
                    };
                    self.put(from, original);
                }
                if let Some(victim) = Piece::from_code(undo.captured) {
                    let cell = if kind == MoveKind::EnPassant { undo.ep_victim as usize } else { to };
                    self.put(cell, victim);
                }
            }
        }
        self.castling = undo.castling;
        self.unmoved = undo.unmoved;
        self.ep = undo.ep;
        self.ep_victim = undo.ep_victim;
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
        #[cfg(debug_assertions)]
        self.assert_consistent("taking back", m);
    }

    /// Where the rook of `us`'s castling move `from`-`to` starts and lands:
    /// with swap castling `to` is the rook's cell and they trade places; with
    /// fixed partners `to` is the king's destination and the slot says.
    #[inline]
    fn castle_rook(&self, us: Color, from: usize, to: usize) -> (usize, usize) {
        match self.v.slots.iter().find(|s| s.color == us && s.king == [from as u16, to as u16]) {
            Some(s) => (s.rook[0] as usize, s.rook[1] as usize),
            None => (to, from),
        }
    }

    /// A copy with the side to move passed to the opponent (a "null move", for
    /// search): en-passant options lapse and the halfmove clock advances. Only
    /// meaningful when the side to move is not in check.
    pub fn null_move(&self) -> Self {
        let mut p = *self;
        p.hash ^= p.ep_key() ^ p.v.zobrist.side;
        p.ep = S::EMPTY;
        p.halfmove += 1;
        if p.side == Color::Black {
            p.fullmove += 1;
        }
        p.side = p.side.opponent();
        p
    }

    /// A copy with `m` played.
    pub fn play_copy(&self, m: Move) -> Self {
        let mut p = *self;
        p.play(m);
        p
    }

    /// Whether `by` attacks `cell` with occupancy `occ` (under the
    /// non-combatant rule, by a piece that has moved; the cell's own immunity
    /// is not asked: see [`Position::king_attacked`]).
    pub fn attacked_by(&self, by: Color, cell: usize, occ: S) -> bool {
        self.is_attacked(&self.attack_sources(by), cell, occ, S::EMPTY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{VariantId, Width};

    /// Each side's lanes equal those computed from its cells, after every
    /// move and every take-back of random games.
    fn lanes_follow_the_cells<S: Width>(id: VariantId) {
        let v = Variant::<S>::at_width(id);
        let check = |p: &Position<S>| {
            for c in Color::ALL {
                assert_eq!(p.lanes[c.index()], v.lines.lanes_of(p.by_color[c.index()]), "{id}");
            }
        };
        let mut x = 7u64;
        for _ in 0..4 {
            let mut pos = Position::start(v);
            let mut played = Vec::new();
            for _ in 0..120 {
                check(&pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let m = moves[(x >> 33) as usize % moves.len()];
                played.push((m, pos.play(m)));
            }
            while let Some((m, undo)) = played.pop() {
                pos.unplay(m, undo);
                check(&pos);
            }
            assert_eq!(pos, Position::start(v));
        }
    }

    #[test]
    fn lanes_follow_the_cells_in_every_wide_variant() {
        use raum_bitboard::Wide;
        lanes_follow_the_cells::<Wide<8>>(VariantId::BetzaUpright);
        lanes_follow_the_cells::<Wide<8>>(VariantId::Book3d);
        lanes_follow_the_cells::<Wide<8>>(VariantId::Octahedral);
        lanes_follow_the_cells::<Wide<4>>(VariantId::Pyramid);
    }
}
