//! Error types: each says what was wrong and where.

use raum_rules::PositionError;
use thiserror::Error;

/// A position string that cannot be read.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum FenError {
    /// Too few or too many space-separated fields.
    #[error("expected the space-separated fields {expected}, found {found} fields")]
    FieldCount {
        /// The variant's fields.
        expected: String,
        /// How many were given.
        found: usize,
    },
    /// The board field lists the wrong number of levels.
    #[error("board: expected {expected} levels separated by '/', found {found}")]
    LevelCount {
        /// Levels on the board.
        expected: usize,
        /// Levels given.
        found: usize,
    },
    /// A level lists the wrong number of ranks.
    #[error("board, level {level}: expected {expected} ranks separated by '|', found {found}")]
    RankCount {
        /// Level name.
        level: String,
        /// Ranks expected.
        expected: usize,
        /// Ranks given.
        found: usize,
    },
    /// A rank lists the wrong number of cells.
    #[error("board, level {level} rank {rank}: expected {expected} cells, found {found}")]
    CellCount {
        /// Level name.
        level: String,
        /// Rank number.
        rank: i32,
        /// Cells expected.
        expected: usize,
        /// Cells given.
        found: usize,
    },
    /// A character that is neither a piece letter nor a digit.
    #[error("board, level {level} rank {rank}: '{ch}' is not a piece letter of this variant")]
    BadPiece {
        /// Level name.
        level: String,
        /// Rank number.
        rank: i32,
        /// The character.
        ch: char,
    },
    /// The side field is not `w` or `b`.
    #[error("side to move must be 'w' or 'b', found '{0}'")]
    BadSide(String),
    /// Unreadable castling rights.
    #[error("castling rights '{found}': {why}")]
    BadRights {
        /// The field.
        found: String,
        /// What is wrong.
        why: String,
    },
    /// Unreadable pawn axes (The Book of 3D-Chess).
    #[error("pawn axes '{found}': {why}")]
    BadAxes {
        /// The field.
        found: String,
        /// What is wrong.
        why: String,
    },
    /// A shared cell `(WU)` that is malformed or not allowed here.
    #[error("board, level {level} rank {rank}: shared cell '{found}': {why}")]
    BadShared {
        /// Level name.
        level: String,
        /// Rank number.
        rank: i32,
        /// The text read.
        found: String,
        /// What is wrong.
        why: String,
    },
    /// Unreadable unmoved-pawn field.
    #[error("unmoved field: {0}")]
    BadUnmoved(String),
    /// Unreadable en-passant field.
    #[error("en passant field: {0}")]
    BadEnPassant(String),
    /// A clock that is not a number.
    #[error("{field} must be a non-negative number, found '{found}'")]
    BadNumber {
        /// Which clock.
        field: &'static str,
        /// What was found.
        found: String,
    },
    /// A clock past [`crate::MAX_MOVE_NUMBER`].
    #[error("{field} {found} is past {max}: no game is that long")]
    NumberTooLarge {
        /// Which clock.
        field: &'static str,
        /// What was found.
        found: u32,
        /// The largest taken.
        max: u32,
    },
    /// A multi-player board cell that is not a man of the game (two letters: side, piece).
    #[error("board, level {level} rank {rank}: '{found}' is not a man of this game ({why})")]
    BadMan {
        /// Level name.
        level: String,
        /// Rank number.
        rank: i32,
        /// The text read.
        found: String,
        /// What is wrong.
        why: String,
    },
    /// A multi-player side field that names no side of the game.
    #[error("side to move must be one of {letters}, found '{found}'")]
    BadMultiSide {
        /// The field.
        found: String,
        /// The game's side letters.
        letters: String,
    },
    /// A multi-player position string that is well formed but not a position of the game.
    #[error("illegal position: {0}")]
    IllegalMulti(raum_rules::multi::MultiSetupError),
    /// The string is well formed but the position is illegal. (The message
    /// includes the reason, so it is not also given as the error's source:
    /// a report of the whole chain would say it twice.)
    #[error("illegal position: {0}")]
    Illegal(PositionError),
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> Self {
        FenError::Illegal(e)
    }
}

/// A move that cannot be read or is not legal.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// Empty input.
    #[error("empty move")]
    Empty,
    /// Not in any move syntax.
    #[error(
        "'{0}' is not a move (write it in coordinates, from cell to cell as in Dc2-Cc2, with =Q and the like for \
         a promotion; or descriptively: a piece letter, - or x, the target cell, as in P-Cc2 or BxCe4; the examples' \
         cells are a 5x5x5 board's)"
    )]
    Syntax(String),
    /// A cell name that does not exist.
    #[error("'{0}' is not a cell of this board")]
    BadCell(String),
    /// A piece letter the variant does not have.
    #[error("'{0}' is not a piece letter of this variant")]
    BadPiece(char),
    /// Nothing (of the side to move) on the origin cell.
    #[error("no {side} piece on {cell}")]
    NoPiece {
        /// Side to move.
        side: String,
        /// The cell.
        cell: String,
    },
    /// Well formed but not legal here.
    #[error("{mv} is not legal here{why}")]
    Illegal {
        /// The move as typed.
        mv: String,
        /// A hint, starting with ": ", or empty.
        why: String,
    },
    /// More than one legal move fits.
    #[error("{mv} is ambiguous: it could be {options}")]
    Ambiguous {
        /// The move as typed.
        mv: String,
        /// The candidates, in coordinate notation.
        options: String,
    },
}
