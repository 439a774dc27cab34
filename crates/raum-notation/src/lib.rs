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

mod descriptive;
mod diagram;
mod error;
mod fen;
mod moves;
mod multi;
mod multi_record;
mod record;

pub use descriptive::{describe_legal, format_descriptive, parse_descriptive};
pub use diagram::{Marks, RECONSTRUCTION_NOTE, render_diagram};
pub use error::{FenError, MoveError};
pub use fen::{format_position, parse_position, parse_setup, start_string};
pub use moves::{format_move, parse_coordinate, parse_move};
pub use multi::{
    format_multi_move, format_multi_position, parse_multi_move, parse_multi_position, render_multi_diagram,
};
pub use multi_record::{
    MultiRecord, describe_multi_end, format_multi_resignation, format_multi_result, multi_game_termination,
    multi_termination, parse_multi_records, parse_multi_resignation, parse_multi_result, write_multi_records,
};
pub use record::{
    Record, RecordError, RecordMove, RecordResult, ReplayError, parse_records, record_date, record_variants,
    termination_of, write_records,
};
