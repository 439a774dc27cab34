//! Colours, piece kinds and pieces.

use core::fmt;

/// A side. Two-player variants use White and Black; the type is an index so
/// that multi-player variants (Triquetral) can add more later.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Moves first; upper-case letters.
    White = 0,
    /// Moves second; lower-case letters.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[inline(always)]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `w` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "White",
            Color::Black => "Black",
        })
    }
}

/// A piece kind: an index into its variant's piece table ([`crate::Variant::pieces`]).
///
/// Kinds are per variant because the same letter can mean different pieces
/// (`U` slides on 3D diagonals in Raumschach but leaps in Five Up's unicorn variant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kind(pub u8);

impl Kind {
    /// The kind's index.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Most piece kinds one variant may define.
pub const MAX_KINDS: usize = 10;

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub kind: Kind,
}

impl Piece {
    /// A piece from colour and kind.
    pub const fn new(color: Color, kind: Kind) -> Self {
        Piece { color, kind }
    }

    /// The mailbox byte: 0 is an empty cell; [`RIDER`] may be added.
    #[inline(always)]
    pub(crate) const fn code(self) -> u8 {
        ((self.color as u8) << 4) | (self.kind.0 + 1)
    }

    #[inline(always)]
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 {
            None
        } else {
            let color = if code >> 4 == 0 { Color::White } else { Color::Black };
            Some(Piece { color, kind: Kind((code & 15) - 1) })
        }
    }
}

/// Mailbox bit: a friendly unicorn rides on the cell with its piece.
pub(crate) const RIDER: u8 = 0x80;
