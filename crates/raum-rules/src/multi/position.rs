//! A position of a multi-player game: men of up to six sides, make/unmake,
//! legal moves by make-and-test, hashing and perft.

use super::MAX_SIDES;
use super::variant::{MultiSetupError, MultiVariant};
use crate::game_rules::SideDef;
use crate::moves::{Move, MoveList};
use crate::piece::{Kind, MAX_KINDS};
use crate::width::Width;
use raum_bitboard::CellSet;

/// A position: where every side's men stand, whose turn it is, the clocks.
///
/// A side is still in while it has a man on the board; a side that is out has
/// none. Royals are never captured, so only the game's rule for a side with
/// no legal move ([`MultiPosition::remove_side`]) takes a side out.
#[derive(Clone, Debug)]
pub struct MultiPosition<S: CellSet> {
    v: &'static MultiVariant<S>,
    by_side: [S; MAX_SIDES],
    by_kind: [S; MAX_KINDS],
    occupied: S,
    /// Per cell: 0 empty, else `side << 4 | (kind + 1)`.
    mailbox: Vec<u8>,
    to_move: u8,
    /// Plies since the last capture or pawn move.
    halfmove: u32,
    /// The round, from 1; a round ends when the last side in turn order still in has moved.
    fullmove: u32,
    hash: u64,
}

impl<S: CellSet> PartialEq for MultiPosition<S> {
    fn eq(&self, other: &Self) -> bool {
        core::ptr::eq(self.v, other.v)
            && self.mailbox == other.mailbox
            && self.to_move == other.to_move
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
    }
}

/// What [`MultiPosition::play`] needs to take a move back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MultiUndo {
    captured: u8,
    to_move: u8,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
}

impl<S: CellSet> MultiPosition<S> {
    /// The game's start.
    pub fn start(v: &'static MultiVariant<S>) -> Self {
        Self::from_men(v, v.start_men(), 0, 0, 1).unwrap_or_else(|e| panic!("{}: invalid start: {e}", v.id()))
    }

    /// A position from its men `(cell, side, kind)`, the side to move and the clocks.
    pub fn from_men(
        v: &'static MultiVariant<S>,
        men: &[(usize, u8, Kind)],
        to_move: usize,
        halfmove: u32,
        fullmove: u32,
    ) -> Result<Self, MultiSetupError> {
        let n = v.cells();
        let sides = v.sides.len();
        let b = &v.board;
        if to_move >= sides {
            return Err(MultiSetupError::OutOfRange(format!("side {to_move} does not exist")));
        }
        let mut pos = MultiPosition {
            v,
            by_side: [S::EMPTY; MAX_SIDES],
            by_kind: [S::EMPTY; MAX_KINDS],
            occupied: S::EMPTY,
            mailbox: vec![0; n],
            to_move: to_move as u8,
            halfmove,
            fullmove: fullmove.max(1),
            hash: 0,
        };
        for &(cell, side, kind) in men {
            if cell >= n || side as usize >= sides || kind.index() >= b.kinds {
                return Err(MultiSetupError::OutOfRange(format!("man ({cell}, {side}, {}) is off the tables", kind.0)));
            }
            if pos.mailbox[cell] != 0 {
                return Err(MultiSetupError::Occupied(b.cell_name(cell)));
            }
            if Some(kind) == b.pawn && b.promotion_zone(side as usize).has(cell) {
                return Err(MultiSetupError::PawnOnPromotionCell {
                    side: v.sides[side as usize].name,
                    cell: b.cell_name(cell),
                });
            }
            pos.put(side as usize, kind, cell);
        }
        let mut in_game = 0;
        for s in 0..sides {
            if pos.by_side[s].any() {
                in_game += 1;
                let kings = (pos.by_side[s] & pos.by_kind[b.king.index()]).count() as usize;
                if kings != 1 {
                    return Err(MultiSetupError::Kings { side: v.sides[s].name, kings });
                }
            }
        }
        if pos.by_side[to_move].is_empty() {
            return Err(MultiSetupError::MoverOut(v.sides[to_move].name));
        }
        if in_game < 2 {
            return Err(MultiSetupError::TooFewSides(in_game));
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// The game.
    pub fn variant(&self) -> &'static MultiVariant<S> {
        self.v
    }

    /// The side to move (an index into [`MultiVariant::sides`]).
    pub fn side_to_move(&self) -> usize {
        self.to_move as usize
    }

    /// The side to move's definition.
    pub fn mover(&self) -> &'static SideDef {
        &self.v.sides[self.to_move as usize]
    }

    /// The man on `cell`: (side, kind).
    pub fn man_at(&self, cell: usize) -> Option<(usize, Kind)> {
        match self.mailbox.get(cell) {
            Some(&code) if code != 0 => Some(((code >> 4) as usize, Kind((code & 15) - 1))),
            _ => None,
        }
    }

    /// Every man: (cell, side, kind), by cell.
    pub fn men(&self) -> Vec<(usize, u8, Kind)> {
        self.occupied.cells().filter_map(|c| self.man_at(c).map(|(s, k)| (c, s as u8, k))).collect()
    }

    /// The cells of `side`'s men.
    pub fn side_cells(&self, side: usize) -> S {
        self.by_side[side]
    }

    /// The cells of every man of `kind`.
    pub fn kind_cells(&self, kind: Kind) -> S {
        self.by_kind[kind.index()]
    }

    /// Every occupied cell.
    pub fn occupied(&self) -> S {
        self.occupied
    }

    /// Whether `side` is still in (has a man on the board).
    pub fn is_in(&self, side: usize) -> bool {
        self.by_side[side].any()
    }

    /// The sides still in, in turn order.
    pub fn sides_in(&self) -> Vec<usize> {
        (0..self.v.sides.len()).filter(|&s| self.is_in(s)).collect()
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The round number, from 1.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The Zobrist hash: men, side to move (and so which sides are in).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch.
    pub fn compute_hash(&self) -> u64 {
        let mut h = self.v.side_keys[self.to_move as usize];
        for (cell, side, kind) in self.men() {
            h ^= self.v.key(side as usize, kind, cell);
        }
        h
    }

    /// The men of the sides opposed to `side`.
    #[inline(always)]
    fn opposed_men(&self, side: usize) -> S {
        let mut men = S::EMPTY;
        let mut bits = self.v.opposed[side];
        while bits != 0 {
            men |= self.by_side[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        men
    }

    /// Whether a man of a side opposed to `side` attacks `cell`, with
    /// occupancy `occ` and the man on `gone` (a cell just captured on, or none)
    /// left out.
    #[inline(always)]
    fn attacked_for(&self, side: usize, cell: usize, occ: S, gone: S) -> bool {
        let b = &self.v.board;
        let n = b.cells();
        let enemy = self.opposed_men(side) & !gone;
        if enemy.is_empty() {
            return false;
        }
        for k in 0..b.kinds {
            let theirs = enemy & self.by_kind[k];
            if theirs.is_empty() {
                continue;
            }
            if Some(Kind(k as u8)) == b.pawn {
                let mut bits = self.v.opposed[side];
                while bits != 0 {
                    let t = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if (b.pawn_captures_from[t * n + cell] & theirs & self.by_side[t]).any() {
                        return true;
                    }
                }
                continue;
            }
            if (b.capture_leaps_from[k * n + cell] & theirs).any() {
                return true;
            }
            let slides = &b.capture_slides[k];
            if !slides.lines.is_empty() && (b.slide(cell, slides, occ) & theirs).any() {
                return true;
            }
        }
        false
    }

    /// The royal cell of `side`.
    fn king_cell(&self, side: usize) -> Option<usize> {
        let kings = self.by_side[side] & self.by_kind[self.v.board.king.index()];
        kings.any().then(|| kings.lowest())
    }

    /// Whether `side`'s king is attacked by a side opposed to it.
    pub fn king_attacked(&self, side: usize) -> bool {
        self.king_cell(side).is_some_and(|k| self.attacked_for(side, k, self.occupied, S::EMPTY))
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.king_attacked(self.to_move as usize)
    }

    /// The generator: every legal move, or (`noisy`) the captures and
    /// promotions. Called only from the [`Width`] implementations, so that it
    /// is compiled once per width in this crate (see `movegen.rs`).
    pub(crate) fn generate(&self, list: &mut MoveList, noisy: bool) {
        list.clear();
        let b = &self.v.board;
        let n = b.cells();
        let s = self.to_move as usize;
        let own = self.by_side[s];
        let occ = self.occupied;
        let empty = b.geo.all() & !occ;
        let royal = self.by_kind[b.king.index()];
        // Partners block but are never captured; an enemy royal's cell is never a destination.
        let capturable = self.opposed_men(s) & !royal;
        let king = self.king_cell(s);
        let in_check = king.is_some_and(|k| self.attacked_for(s, k, occ, S::EMPTY));
        // Quiet moves only where a pawn promotes.
        let (empty, pawn_empty) = if noisy { (S::EMPTY, empty & b.promotion_zone(s)) } else { (empty, empty) };
        for from in own.cells() {
            let Some((_, kind)) = self.man_at(from) else { continue };
            let k = kind.index();
            let is_king = kind == b.king;
            let targets = if Some(kind) == b.pawn {
                (b.pawn_steps[s * n + from] & pawn_empty) | (b.pawn_captures[s * n + from] & capturable)
            } else {
                let quiet = if is_king && in_check && !b.king_check_quiet.is_empty() {
                    b.king_check_quiet[from]
                } else {
                    b.move_leaps[k * n + from] | b.slide(from, &b.move_slides[k], occ)
                };
                let capture = b.capture_leaps[k * n + from] | b.slide(from, &b.capture_slides[k], occ);
                (quiet & empty) | (capture & capturable)
            };
            let after = occ & !S::single(from);
            for to in targets.cells() {
                let to_set = S::single(to);
                let safe = match king {
                    Some(kc) => {
                        let kc = if is_king { to } else { kc };
                        !self.attacked_for(s, kc, after | to_set, to_set & capturable)
                    }
                    None => true,
                };
                if !safe {
                    continue;
                }
                if Some(kind) == b.pawn && b.promotion_zone(s).has(to) {
                    for &p in &b.promote_to {
                        list.push(Move::new(from, to, crate::moves::MoveKind::Normal, Some(p)));
                    }
                } else {
                    list.push(Move::normal(from, to));
                }
            }
        }
    }

    #[inline(always)]
    fn put(&mut self, side: usize, kind: Kind, cell: usize) {
        self.by_side[side].insert(cell);
        self.by_kind[kind.index()].insert(cell);
        self.occupied.insert(cell);
        self.mailbox[cell] = (side as u8) << 4 | (kind.0 + 1);
        self.hash ^= self.v.key(side, kind, cell);
    }

    #[inline(always)]
    fn take(&mut self, side: usize, kind: Kind, cell: usize) {
        self.by_side[side].remove(cell);
        self.by_kind[kind.index()].remove(cell);
        self.occupied.remove(cell);
        self.mailbox[cell] = 0;
        self.hash ^= self.v.key(side, kind, cell);
    }

    /// The side after `side` in turn order that is still in.
    fn next_in(&self, side: usize) -> usize {
        let n = self.v.sides.len();
        (1..=n).map(|i| (side + i) % n).find(|&t| self.is_in(t)).unwrap_or(side)
    }

    /// Passes the turn from the side to move to the next side still in.
    fn pass_turn(&mut self) {
        let from = self.to_move as usize;
        let next = self.next_in(from);
        if next <= from {
            self.fullmove += 1;
        }
        self.hash ^= self.v.side_keys[from] ^ self.v.side_keys[next];
        self.to_move = next as u8;
    }

    /// Plays a legal move (from [`MultiPosition::legal_moves`]); the turn
    /// passes to the next side still in.
    pub fn play(&mut self, m: Move) -> MultiUndo {
        let undo = MultiUndo {
            captured: self.mailbox[m.to()],
            to_move: self.to_move,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hash: self.hash,
        };
        let (side, kind) = self.man_at(m.from()).expect("a move starts on a man");
        if let Some((victim, vkind)) = self.man_at(m.to()) {
            self.take(victim, vkind, m.to());
            self.halfmove = 0;
        } else if Some(kind) == self.v.board.pawn {
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }
        self.take(side, kind, m.from());
        self.put(side, m.promotion().unwrap_or(kind), m.to());
        self.pass_turn();
        undo
    }

    /// Takes back `m`, played with [`MultiPosition::play`].
    pub fn unplay(&mut self, m: Move, undo: MultiUndo) {
        let (side, placed) = self.man_at(m.to()).expect("the moved man stands on its destination");
        let kind = match (m.promotion(), self.v.board.pawn) {
            (Some(_), Some(pawn)) => pawn,
            _ => placed,
        };
        self.take(side, placed, m.to());
        self.put(side, kind, m.from());
        if undo.captured != 0 {
            let (victim, vkind) = ((undo.captured >> 4) as usize, Kind((undo.captured & 15) - 1));
            self.put(victim, vkind, m.to());
        }
        self.to_move = undo.to_move;
        self.halfmove = undo.halfmove;
        self.fullmove = undo.fullmove;
        self.hash = undo.hash;
    }

    /// The position after `m`.
    pub fn play_copy(&self, m: Move) -> Self {
        let mut p = self.clone();
        p.play(m);
        p
    }

    /// Takes the side to move out of the game (the rule for a side with no
    /// legal move when every side plays for itself): its men leave the board
    /// and the turn passes to the next side still in. The clocks run on.
    pub fn remove_side(&mut self) {
        self.take_out(self.to_move as usize);
    }

    /// Takes `side` out of the game whether or not it is to move (a side
    /// resigning every side for itself is out as a side with no legal move
    /// is, docs/rules.md): its men leave the board and, if it was to move,
    /// the turn passes to the next side still in (the round going up when
    /// the turn passes back to a side earlier in the turn order). The clocks
    /// run on. The hash follows man by man, as in [`MultiPosition::play`].
    /// A side that is out already, or one that does not exist, is left alone.
    pub fn take_out(&mut self, side: usize) {
        if side >= self.v.sides.len() {
            return;
        }
        for cell in self.by_side[side].cells() {
            if let Some((_, kind)) = self.man_at(cell) {
                self.take(side, kind, cell);
            }
        }
        if side == self.to_move as usize {
            self.pass_turn();
        }
    }

    /// Whether only royals are left on the board.
    pub fn only_royals(&self) -> bool {
        self.occupied == self.by_kind[self.v.board.king.index()]
    }
}

impl<S: Width> MultiPosition<S> {
    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// Fills `list` with every legal move of the side to move.
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        S::multi_generate(self, list, false);
    }

    /// Fills `list` with the legal captures and promotions of the side to
    /// move (what a quiescence search plays).
    pub fn legal_captures_into(&self, list: &mut MoveList) {
        S::multi_generate(self, list, true);
    }

    /// Counts the leaves of the legal move tree `depth` plies deep; a side
    /// with no legal move is a leaf.
    pub fn perft(&self, depth: u32) -> u64 {
        self.clone().perft_in_place(depth)
    }

    fn perft_in_place(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut list = MoveList::new();
        S::multi_generate(self, &mut list, false);
        if depth == 1 {
            return list.len() as u64;
        }
        let mut total = 0;
        for &m in list.iter() {
            let undo = self.play(m);
            total += self.perft_in_place(depth - 1);
            self.unplay(m, undo);
        }
        total
    }
}
