//! Notation for Raum: position strings, coordinate moves (`Ec2-Ec4`),
//! descriptive moves (`P-Cc2`, `BxCe4`, `P(Dd2)-Dd3`), text diagrams in the
//! seed documents' style and PGN-style game records. Cell names (`Cc3`) come from the rules crate
//! ([`raum_rules::Variant::cell_name`]), since each variant's naming scheme is data.
//!
//! ```
//! use raum_notation::{format_position, parse_move, parse_position};
//! use raum_rules::{Variant, VariantId};
//! let v = Variant::get(VariantId::FiveUp);
//! let mut pos = parse_position(v, &raum_notation::start_string(v)).unwrap();
//! let m = parse_move(&pos, "P-Cc2").unwrap();
//! pos.play(m);
//! assert!(format_position(&pos).ends_with(" b Kk - 0 1"));
//! ```

mod any;
mod descriptive;
mod diagram;
mod error;
mod moves;
mod position;
mod record;

pub use any::{format_game_move, format_game_position, format_game_start, parse_game, parse_game_move};
pub use descriptive::{describe_legal, format_descriptive, parse_descriptive};
pub use diagram::{Marks, RECONSTRUCTION_NOTE, render_diagram, render_multi_diagram};
pub use error::{FenError, MoveError};

/// The largest halfmove clock and fullmove number a position string may
/// give: no game is a million moves long, and a bound keeps the move counter
/// from wrapping round.
pub const MAX_MOVE_NUMBER: u32 = 1_000_000;
pub use moves::{format_move, format_multi_move, parse_coordinate, parse_move, parse_multi_move};
pub use position::{
    format_multi_position, format_position, parse_multi_position, parse_position, parse_setup, start_string,
};

pub use record::{
    Record, RecordError, RecordMove, RecordResult, RecordedGame, ReplayError, describe_end, format_resignation,
    format_result, game_termination, parse_records, parse_records_in, parse_resignation, parse_result, record_date,
    record_variants, termination, termination_of, write_records,
};
