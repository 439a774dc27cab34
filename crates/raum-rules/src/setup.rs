//! An unvalidated position: what a position string describes.

use crate::piece::{Color, Piece};

/// An arrangement of pieces and state, not yet checked for legality.
/// Turn it into a [`crate::Position`] with [`crate::Position::from_setup`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The piece on each cell, by cell number.
    pub board: Vec<Option<Piece>>,
    /// Side to move.
    pub side: Color,
    /// Castling rights: Five Up's once-per-game right is bit 0 White, bit 1
    /// Black; with fixed partners bit `i` is the variant's castling slot `i`
    /// ([`crate::Variant::castle_slots`]).
    pub castling: u16,
    /// En-passant target cells, ascending.
    pub ep: Vec<usize>,
    /// The pawn that double-stepped, when `ep` is not empty.
    pub ep_victim: Option<usize>,
    /// Plies since the last capture or pawn move.
    pub halfmove: u32,
    /// Move number, starting at 1.
    pub fullmove: u32,
    /// The pawn set (orientation) each side plays, White's then Black's
    /// ([`crate::Variant::pawn_set_name`]).
    pub pawn_sets: [u8; 2],
    /// The cells of pawns that have not moved, where the variant keeps that as
    /// position state ([`crate::Variant::tracks_unmoved`]); `None` elsewhere.
    pub unmoved: Option<Vec<usize>>,
    /// Cells where a friendly unicorn shares the cell with the piece on
    /// `board` (Five Up's unicorn variant: `(WU)` in position strings),
    /// ascending; empty elsewhere.
    pub riders: Vec<usize>,
}

impl Setup {
    /// An empty board of `cells` cells, White to move, no rights.
    pub fn empty(cells: usize) -> Self {
        Setup {
            board: vec![None; cells],
            side: Color::White,
            castling: 0,
            ep: Vec::new(),
            ep_victim: None,
            halfmove: 0,
            fullmove: 1,
            pawn_sets: [0, 1],
            unmoved: None,
            riders: Vec::new(),
        }
    }
}
