//! The rules of 3D chess variants, generic over board shape and width.
//!
//! A variant is *data* ([`VariantSpec`]: board, pieces, army, pawn rules,
//! castling hook) compiled once into tables ([`Variant`]). A [`Setup`] is an
//! unvalidated position; [`Position`] is a legal one, with legal move
//! generation, make/unmake, Zobrist hashing and game outcomes.
//!
//! ```
//! use raum_rules::{Position, Variant, VariantId};
//! let v = Variant::get(VariantId::FiveUp);
//! let pos = Position::start(v);
//! assert_eq!(pos.count_legal(), 62);
//! ```

mod any_game;
mod attacks;
mod consistency;
pub mod cpu;
mod error;
pub mod file;
mod game;
mod game_rules;
mod movegen;
mod moves;
pub mod multi;
mod naming;
mod outcome;
mod piece;
mod piece_def;
mod position;
mod projection;
mod reach;
mod setup;
mod spec;
mod variant;
mod variants;
mod width;
mod zobrist;

pub use any_game::{AnyGame, GameId, OtherGame};
pub use consistency::set_full_checks;
pub use error::{PositionError, UnknownVariant, VariantError};
pub use game::{Game, IllegalMove};
pub use game_rules::{Action, GameRules, SideDef};
pub use moves::{MAX_MOVES, Move, MoveKind, MoveList, Part};
pub use outcome::{DrawReason, End, GameResult, Outcome, Points};
pub use piece::{Color, Kind, MAX_KINDS, Piece};
pub use piece_def::{Motion, PieceDef, Role};
pub use position::{Position, Undo};
pub use setup::Setup;
pub use spec::{
    CastlingRule, CellNaming, KNOWN_VARIANTS, LevelLetters, Mirror, PawnRules, StalemateRule, VariantId, VariantSpec,
};
pub use variant::{DoubleStep, Geometry, PawnShift, PawnShifts, Variant};
pub use width::{CellWidth, GameAt, MultiFn, MultiGameAt, VariantFn, Width};

/// Raum's built-in variants use boards of at most 128 cells: this is their cell set.
pub type Cells = u128;
