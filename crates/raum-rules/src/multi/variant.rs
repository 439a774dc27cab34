//! A multi-player game with every table built.

use super::{MAX_SIDES, MultiId, MultiSpec};
use crate::error::VariantError;
use crate::game_rules::SideDef;
use crate::piece::Kind;
use crate::spec::PawnSet;
use crate::variant::Variant;
use raum_bitboard::CellSet;
use thiserror::Error;

/// Why a list of men is not a position of a multi-player game.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MultiSetupError {
    /// A side that has men has no king, or more than one.
    #[error("{side} has {kings} kings; a side still in has exactly one")]
    Kings {
        /// The side's name.
        side: &'static str,
        /// How many it has.
        kings: usize,
    },
    /// A pawn stands where it would already have promoted.
    #[error("{side} pawn on its promotion cell {cell}")]
    PawnOnPromotionCell {
        /// The side's name.
        side: &'static str,
        /// The cell's name.
        cell: String,
    },
    /// The side to move has no men: it is out of the game.
    #[error("{0} is to move but has no men on the board")]
    MoverOut(&'static str),
    /// Fewer than two sides have men.
    #[error("only {0} side(s) have men on the board; a game needs two")]
    TooFewSides(usize),
    /// Two men on one cell.
    #[error("two men on {0}")]
    Occupied(String),
    /// A side, kind or cell out of range.
    #[error("{0}")]
    OutOfRange(String),
}

/// A multi-player game compiled into tables: the board's [`Variant`] (one
/// pawn set per side, in turn order) plus the sides, who opposes whom, the
/// start and the hash keys.
#[derive(Debug)]
pub struct MultiVariant<S: CellSet> {
    pub(crate) id: MultiId,
    pub(crate) title: &'static str,
    pub(crate) board: Variant<S>,
    pub(crate) sides: Vec<SideDef>,
    pub(crate) teams: bool,
    /// Per side: the sides (bits) whose men may capture and check its men.
    pub(crate) opposed: [u8; MAX_SIDES],
    /// The start: (cell, side, kind).
    pub(crate) start: Vec<(usize, u8, Kind)>,
    /// `[(side * kinds + kind) * cells + cell]`.
    pub(crate) keys: Vec<u64>,
    /// The side to move's key.
    pub(crate) side_keys: [u64; MAX_SIDES],
}

impl<S: CellSet> MultiVariant<S> {
    /// Compiles a multi-player description.
    pub fn build(spec: MultiSpec) -> Result<Self, VariantError> {
        let n_sides = spec.sides.len();
        if !(2..=MAX_SIDES).contains(&n_sides) {
            return Err(VariantError::Unsupported(format!("{n_sides} sides (2 to {MAX_SIDES} are supported)")));
        }
        let dims = spec.board.shape.dims();
        let mut board_spec = spec.board.clone();
        let white = board_spec
            .pawn_sets
            .first()
            .ok_or_else(|| VariantError::Unsupported("White's pawn rules are missing".into()))?
            .rules
            .clone();
        board_spec.pawn_sets = spec
            .sides
            .iter()
            .map(|s| PawnSet { name: s.name.to_lowercase(), rules: white.mirrored(s.map, dims) })
            .collect();
        board_spec.start_sets = [0, 1];
        board_spec.mirror = spec.sides[1].map;
        let board = Variant::<S>::build(board_spec)?;
        let n = board.cells();
        let kinds = board.kinds;

        let mut opposed = [0u8; MAX_SIDES];
        for (s, side) in spec.sides.iter().enumerate() {
            for (t, other) in spec.sides.iter().enumerate() {
                if t != s && (!spec.teams || other.team != side.team) {
                    opposed[s] |= 1 << t;
                }
            }
        }

        let mut start = Vec::new();
        let mut taken = vec![false; n];
        for (s, side) in spec.sides.iter().enumerate() {
            for &(at, letter) in &spec.board.army {
                let image = side.map.cell(at, dims);
                let cell = board.board().cell_at(image).ok_or_else(|| {
                    VariantError::Unsupported(format!("{}'s army leaves the board at {image:?}", side.name))
                })?;
                let kind = board.kind_of(letter).ok_or(VariantError::UnknownLetter(letter))?;
                if std::mem::replace(&mut taken[cell], true) {
                    return Err(VariantError::Unsupported(format!("two armies meet on {}", board.cell_name(cell))));
                }
                start.push((cell, s as u8, kind));
            }
        }
        start.sort_unstable_by_key(|&(cell, _, _)| cell);

        // Hash keys of their own: the board's keys know two sides.
        let mut seed = 0x5EA7_0F5A_u64 ^ spec.id.seed().wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut next = move || {
            seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let keys = (0..n_sides * kinds * n).map(|_| next()).collect();
        let side_keys = core::array::from_fn(|_| next());

        Ok(MultiVariant {
            id: spec.id,
            title: spec.title,
            board,
            sides: spec.sides,
            teams: spec.teams,
            opposed,
            start,
            keys,
            side_keys,
        })
    }

    /// Its id.
    pub fn id(&self) -> MultiId {
        self.id
    }

    /// Human name.
    pub fn title(&self) -> &'static str {
        self.title
    }

    /// The board: geometry, cell names, pieces and their movements, each
    /// side's pawn set (index = side).
    pub fn board(&self) -> &Variant<S> {
        &self.board
    }

    /// How many cells the board has.
    pub fn cells(&self) -> usize {
        self.board.cells()
    }

    /// The sides in turn order.
    pub fn sides(&self) -> &[SideDef] {
        &self.sides
    }

    /// The side with this letter.
    pub fn side_of(&self, letter: char) -> Option<usize> {
        self.sides.iter().position(|s| s.letter == letter)
    }

    /// Whether the sides play in teams.
    pub fn teams(&self) -> bool {
        self.teams
    }

    /// Whether `a` and `b` are opposed: `a`'s men may capture `b`'s and check `b`'s king.
    pub fn opposed(&self, a: usize, b: usize) -> bool {
        self.opposed[a] & (1 << b) != 0
    }

    /// The start: (cell, side, kind), by cell.
    pub fn start_men(&self) -> &[(usize, u8, Kind)] {
        &self.start
    }

    #[inline(always)]
    pub(crate) fn key(&self, side: usize, kind: Kind, cell: usize) -> u64 {
        self.keys[(side * self.board.kinds + kind.index()) * self.board.cells() + cell]
    }
}
