//! Games for more than two sides: Savard's four-handed Wing Table and his
//! Triquetral board for three or six (RULES.md "Savard's multi-player forms").
//!
//! The sides are data ([`SideDef`]: a letter, a name, the board symmetry that
//! carries White's army and pawn directions onto its own, a team), listed in
//! turn order. Geometry, piece movements and pawn tables are the two-player
//! machinery's ([`crate::Variant`], built once with one pawn set per side);
//! what differs is legality. The two-player generator's check and pin masks
//! assume one opponent, so here a move is legal when, played, it leaves none
//! of the mover's royals attacked by an opposed side (make-and-test), and the
//! two-player games keep their masks and their speed.
//!
//! ```
//! use raum_rules::multi::{MultiId, MultiPosition};
//! use raum_rules::{MultiFn, Width};
//! struct FirstMoves;
//! impl MultiFn for FirstMoves {
//!     type Output = usize;
//!     fn call<S: Width>(self, v: &'static raum_rules::multi::MultiVariant<S>) -> usize {
//!         MultiPosition::start(v).legal_moves().len()
//!     }
//! }
//! assert_eq!(MultiId::WingTable4p.dispatch(FirstMoves), 20);
//! ```

mod game;
mod position;
mod variant;

pub use game::{MultiGame, ResignError};
pub use position::{MultiPosition, MultiUndo};
pub use variant::{MultiSetupError, MultiVariant};

use crate::game_rules::SideDef;
use crate::spec::VariantSpec;

/// Most sides one game seats.
pub const MAX_SIDES: usize = 6;

/// The multi-player games Raum knows (RULES.md "Variant ids").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MultiId {
    /// The Wing Table for four: White and Black against Red and Blue.
    WingTable4p,
    /// The Triquetral board for three, every side for itself.
    Triquetral3p,
    /// The Triquetral board for six: White, Blue, Green against Black, Red, Yellow.
    Triquetral6p,
    /// A game for three to six read from a file while Raum runs ([`crate::file::load`]).
    Custom(crate::file::CustomId),
}

impl MultiId {
    /// Every multi-player game.
    pub const ALL: [MultiId; 3] = [MultiId::WingTable4p, MultiId::Triquetral3p, MultiId::Triquetral6p];

    /// The id on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            MultiId::Custom(c) => crate::file::registry::get(c).def.id(),
            MultiId::WingTable4p => "wing-table-4p",
            MultiId::Triquetral3p => "triquetral-3p",
            MultiId::Triquetral6p => "triquetral-6p",
        }
    }

    /// Looks a game up by id.
    ///
    /// ```
    /// use raum_rules::multi::MultiId;
    /// assert_eq!(MultiId::from_name("triquetral-3p"), Some(MultiId::Triquetral3p));
    /// assert_eq!(MultiId::from_name("triquetral"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<MultiId> {
        MultiId::ALL.into_iter().find(|id| id.name() == name).or_else(|| match crate::file::registry::find(name) {
            Some(crate::GameId::Multi(id)) => Some(id),
            _ => None,
        })
    }

    /// The number that seeds the game's hash keys: the built-in games' place
    /// in [`MultiId::ALL`], so their keys never change.
    pub fn seed(self) -> u64 {
        match self {
            MultiId::Custom(c) => 0x1_0000 + c.0 as u64,
            id => MultiId::ALL.iter().position(|&v| v == id).unwrap_or(0) as u64,
        }
    }

    /// How many cells its board has (which decides its width).
    pub fn cells(self) -> usize {
        match self {
            MultiId::Custom(c) => crate::file::registry::get(c).cells,
            MultiId::WingTable4p => 204,
            MultiId::Triquetral3p => 197,
            MultiId::Triquetral6p => 269,
        }
    }
}

impl core::fmt::Display for MultiId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// A multi-player game as data.
#[derive(Clone, Debug, PartialEq)]
pub struct MultiSpec {
    /// Its id.
    pub id: MultiId,
    /// Human name.
    pub title: &'static str,
    /// Board, pieces, White's army and White's pawn rules (its first pawn
    /// set), the king's rule in check, the stalemate rule; the sides' armies
    /// and pawn sets come from [`MultiSpec::sides`].
    pub board: VariantSpec,
    /// The sides in turn order; the first is White, whose map is the identity.
    pub sides: Vec<SideDef>,
    /// Whether the sides play in teams (the game ends when the first side has
    /// no legal move) or every side for itself (that side is out).
    pub teams: bool,
}
