//! Error types of the rules layer.

use crate::piece::Color;
use thiserror::Error;

/// A variant name that Raum cannot play.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum UnknownVariant {
    /// Not a variant id at all.
    #[error("unknown variant '{0}' (known: {list})", list = crate::spec::KNOWN_VARIANTS.iter().map(|v| v.0).collect::<Vec<_>>().join(", "))]
    Unknown(String),
    /// A variant of RULES.md that is not implemented yet.
    #[error("variant '{0}' is known but not playable yet (playable: {list})", list = crate::spec::KNOWN_VARIANTS.iter().filter(|v| v.1.is_some()).map(|v| v.0).collect::<Vec<_>>().join(", "))]
    NotYet(String),
    /// A game for more than two sides ([`crate::multi::MultiId`]), asked of
    /// something that plays two-player variants only.
    #[error("'{0}' is a game for more than two players, which this command does not play yet")]
    MultiPlayer(String),
}

/// A variant description that cannot be compiled.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum VariantError {
    /// The board itself is invalid.
    #[error(transparent)]
    Geometry(#[from] raum_geometry::GeometryError),
    /// More kinds than [`crate::MAX_KINDS`].
    #[error("{0} piece kinds, more than supported")]
    TooManyKinds(usize),
    /// A letter that names no piece of the variant.
    #[error("no piece with letter '{0}'")]
    UnknownLetter(char),
    /// A feature the rules core does not support yet.
    #[error("unsupported: {0}")]
    Unsupported(String),
}

/// Why a [`crate::Setup`] is not a legal position.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// The board has the wrong number of cells.
    #[error("the board lists {got} cells, the variant has {expected}")]
    CellCount {
        /// Cells of the variant.
        expected: usize,
        /// Cells given.
        got: usize,
    },
    /// A piece kind the variant does not define.
    #[error("piece kind {0} does not exist in this variant")]
    UnknownKind(u8),
    /// A side has no king.
    #[error("{0} has no king")]
    MissingKing(Color),
    /// A side has more than one king.
    #[error("{0} has more than one king")]
    ExtraKing(Color),
    /// The side not to move is in check.
    #[error("{0} is in check but it is not {0}'s move")]
    OpponentInCheck(Color),
    /// A pawn stands where it would already have promoted.
    #[error("{color} pawn on its promotion cell {cell}")]
    PawnOnPromotionCell {
        /// Its colour.
        color: Color,
        /// Cell name.
        cell: String,
    },
    /// Castling rights that the variant or board cannot have.
    #[error("invalid castling rights: {0}")]
    Castling(String),
    /// An en-passant field inconsistent with the board.
    #[error("invalid en passant: {0}")]
    EnPassant(String),
    /// An unmoved-pawn field inconsistent with the board or the variant.
    #[error("invalid unmoved men: {0}")]
    Unmoved(String),
    /// Not a start position (The Book of 3D-Chess's free initial projection).
    #[error("not a start position: {0}")]
    Projection(String),
    /// A pawn orientation the variant or side cannot play.
    #[error("invalid pawn axes: {0}")]
    PawnSet(String),
    /// A shared cell the rules do not allow (a unicorn with a king, with
    /// another unicorn, or where no unicorn may ride).
    #[error("invalid shared cell: {0}")]
    Rider(String),
}
