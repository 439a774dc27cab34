//! A variant described as data: board, pieces, army, pawn rules, castling.
//!
//! A [`VariantSpec`] is plain data; [`crate::Variant`] compiles it into the
//! tables the move generator reads.

use crate::motion::PieceDef;
use raum_geometry::{Coord, Shape, Topology, Vector};

/// The variants Raum knows by name (RULES.md "Variant ids").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VariantId {
    /// Five Up (Jim Aikin), 5x5x5.
    FiveUp,
    /// Raumschach (Dickins set-up), 5x5x5.
    Raumschach,
}

/// Every variant id of RULES.md, with whether Raum plays it yet.
pub const KNOWN_VARIANTS: &[(&str, Option<VariantId>)] = &[
    ("five-up", Some(VariantId::FiveUp)),
    ("raumschach", Some(VariantId::Raumschach)),
    ("five-up-cylinder", None),
    ("five-up-torus", None),
    ("five-up-unicorn", None),
    ("octahedral", None),
    ("pyramid", None),
    ("betza-upright", None),
    ("betza-mixed", None),
    ("betza-flat", None),
    ("betza-very3d", None),
    ("book-3d", None),
    ("wing-table", None),
    ("wing-table-alt", None),
    ("forced-3d", None),
    ("triquetral", None),
];

impl VariantId {
    /// Every playable variant.
    pub const ALL: [VariantId; 2] = [VariantId::FiveUp, VariantId::Raumschach];

    /// The id used on the command line and in records.
    pub const fn name(self) -> &'static str {
        match self {
            VariantId::FiveUp => "five-up",
            VariantId::Raumschach => "raumschach",
        }
    }

    /// Looks a variant up by id.
    ///
    /// ```
    /// use raum_rules::VariantId;
    /// assert_eq!(VariantId::from_name("five-up"), Ok(VariantId::FiveUp));
    /// assert!(VariantId::from_name("octahedral").unwrap_err().to_string().contains("not playable yet"));
    /// ```
    pub fn from_name(name: &str) -> Result<VariantId, crate::UnknownVariant> {
        match KNOWN_VARIANTS.iter().find(|(n, _)| *n == name) {
            Some((_, Some(id))) => Ok(*id),
            Some((_, None)) => Err(crate::UnknownVariant::NotYet(name.to_string())),
            None => Err(crate::UnknownVariant::Unknown(name.to_string())),
        }
    }
}

impl core::fmt::Display for VariantId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for VariantId {
    type Err = crate::UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        VariantId::from_name(s)
    }
}

/// How cells are named in a variant's notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellNaming {
    /// Level letter, file letter, rank number: `Cc3` (Five Up, Raumschach).
    LevelFileRank {
        /// Level letters in notation order.
        levels: &'static str,
    },
}

/// Axes that Black's army mirrors White's across (each flipped axis maps
/// `c -> size - 1 - c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mirror {
    /// Flip files, ranks, levels.
    pub flip: [bool; 3],
}

impl Mirror {
    /// The image of a cell.
    pub fn cell(self, c: Coord, dims: [i8; 3]) -> Coord {
        let f = |v: i8, axis: usize| {
            if self.flip[axis] { dims[axis] - 1 - v } else { v }
        };
        Coord::new(f(c.x, 0), f(c.y, 1), f(c.z, 2))
    }
    /// The image of a displacement.
    pub fn vector(self, v: Vector) -> Vector {
        let f = |c: i8, axis: usize| if self.flip[axis] { -c } else { c };
        Vector::new(f(v.x, 0), f(v.y, 1), f(v.z, 2))
    }
}

/// Pawn rules, given for White; Black's are the [`VariantSpec::mirror`] image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PawnRules {
    /// Quiet single steps.
    pub steps: Vec<Vector>,
    /// Capture vectors.
    pub captures: Vec<Vector>,
    /// Cells from which a pawn may make a double step (its start cells).
    pub double_origins: Vec<Coord>,
    /// Double steps as pairs of single steps. `[f, f]` is a straight double step
    /// (its middle cell must be empty); `[f, u]` is an L step, blocked only when
    /// both of its possible middle cells are occupied.
    pub double_steps: Vec<[Vector; 2]>,
    /// Whether a double step can be taken en passant on any empty middle cell.
    pub en_passant: bool,
    /// Cells where the pawn promotes.
    pub promotion_cells: Vec<Coord>,
    /// Letters of the kinds it may promote to.
    pub promote_to: Vec<char>,
}

/// The castling rule, a named hook.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingRule {
    /// No castling.
    None,
    /// Five Up: once per game, the king swaps places with any own rook on one
    /// orthogonal line with only empty cells between; not out of, through or into
    /// check.
    SwapOnce {
        /// Letter of the partner piece.
        rook: char,
    },
}

/// A variant as data.
#[derive(Clone, Debug)]
pub struct VariantSpec {
    /// Its id.
    pub id: VariantId,
    /// Human name.
    pub title: &'static str,
    /// Which cells exist.
    pub shape: Shape,
    /// Which axes wrap.
    pub topology: Topology,
    /// How cells are named.
    pub naming: CellNaming,
    /// The piece table; a kind is an index into it.
    pub pieces: Vec<PieceDef>,
    /// White's start: cells and piece letters.
    pub army: Vec<(Coord, char)>,
    /// How Black's army and pawn rules mirror White's.
    pub mirror: Mirror,
    /// Pawn rules (for White).
    pub pawns: PawnRules,
    /// Castling.
    pub castling: CastlingRule,
}
