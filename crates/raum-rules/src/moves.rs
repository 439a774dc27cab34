//! Moves packed in a `u32`, and fixed-capacity move lists.

use crate::piece::Kind;

/// What kind of special handling a move needs when played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A plain move or capture (promotion included).
    Normal = 0,
    /// A pawn's double step: it may leave en-passant targets.
    DoubleStep = 1,
    /// An en-passant capture: `to` is the passed cell; the captured pawn stands elsewhere.
    EnPassant = 2,
    /// Castling: `from` is the king's cell, `to` the partner rook's cell.
    Castle = 3,
}

/// Who moves from a cell that holds a piece and its riding unicorn (Five Up's
/// unicorn variant, RULES.md): the pair, the unicorn alone or the piece alone.
/// A move from a cell holding one man is always [`Part::Whole`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// Everything on the cell (one man, or the pair together: `W+U:`).
    Whole = 0,
    /// The riding unicorn alone (`U:`); the piece stays.
    Unicorn = 1,
    /// The piece alone (`W:`); the unicorn stays.
    Piece = 2,
}

/// A move: 9-bit from and to cells (boards up to 512 cells), a promotion kind,
/// a [`MoveKind`], and for a move from a shared cell its [`Part`] and the
/// kind of the piece there (so that the move writes itself: `W+U:Eb1-Cc2`),
/// in one `u32`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u32);

impl Move {
    const CELL: u32 = 0x1FF;

    /// A move of the given kind, optionally promoting.
    #[inline(always)]
    pub const fn new(from: usize, to: usize, kind: MoveKind, promotion: Option<Kind>) -> Move {
        let promo = match promotion {
            Some(k) => k.0 as u32 + 1,
            None => 0,
        };
        Move(from as u32 | (to as u32) << 9 | promo << 18 | (kind as u32) << 22)
    }

    /// A plain move.
    #[inline(always)]
    pub const fn normal(from: usize, to: usize) -> Move {
        Move::new(from, to, MoveKind::Normal, None)
    }

    /// Origin cell.
    #[inline(always)]
    pub const fn from(self) -> usize {
        (self.0 & Self::CELL) as usize
    }

    /// Destination cell (the rook's cell for castling).
    #[inline(always)]
    pub const fn to(self) -> usize {
        (self.0 >> 9 & Self::CELL) as usize
    }

    /// The kind promoted to.
    #[inline(always)]
    pub const fn promotion(self) -> Option<Kind> {
        match self.0 >> 18 & 0xF {
            0 => None,
            p => Some(Kind(p as u8 - 1)),
        }
    }

    /// Special handling.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 22 & 3 {
            0 => MoveKind::Normal,
            1 => MoveKind::DoubleStep,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castle,
        }
    }

    /// The same move made by `part` of a shared cell whose piece is `piece`.
    #[inline(always)]
    pub const fn with_part(self, part: Part, piece: Kind) -> Move {
        Move(self.0 & !(0x3F << 24) | (part as u32) << 24 | (piece.0 as u32 + 1) << 26)
    }

    /// The kind of the piece on the move's cell when the move comes from a
    /// shared cell (a piece and its riding unicorn), whichever part moves.
    #[inline(always)]
    pub const fn shared_piece(self) -> Option<Kind> {
        match self.0 >> 26 & 0xF {
            0 => None,
            k => Some(Kind(k as u8 - 1)),
        }
    }

    /// Who moves from a shared cell ([`Part::Whole`] for every other move).
    #[inline(always)]
    pub const fn part(self) -> Part {
        match self.0 >> 24 & 3 {
            0 => Part::Whole,
            1 => Part::Unicorn,
            _ => Part::Piece,
        }
    }

    /// The packed bits.
    pub const fn bits(self) -> u32 {
        self.0
    }
}

impl core::fmt::Debug for Move {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Move({}->{} {:?}", self.from(), self.to(), self.kind())?;
        if let Some(p) = self.promotion() {
            write!(f, " ={}", p.0)?;
        }
        if self.part() != Part::Whole {
            write!(f, " {:?}", self.part())?;
        }
        f.write_str(")")
    }
}

/// Most moves a [`MoveList`] holds; far above any reachable position's count.
pub const MAX_MOVES: usize = 2048;

/// A fixed-capacity list of moves, filled by the generator without allocating
/// (and without initialising the unused capacity).
#[derive(Clone, Default)]
pub struct MoveList {
    moves: arrayvec::ArrayVec<Move, MAX_MOVES>,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a move; silently drops it if the list is full (impossible in
    /// reachable positions: see [`MAX_MOVES`]).
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        let _ = self.moves.try_push(m);
    }

    /// Removes every move.
    pub fn clear(&mut self) {
        self.moves.clear();
    }
}

impl core::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves
    }
}

impl core::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves
    }
}

impl core::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
