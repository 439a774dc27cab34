//! A variant described as data: board, pieces, army, pawn rules, castling.
//!
//! A [`VariantSpec`] is plain data; [`crate::Variant`] compiles it into the
//! tables the move generator reads.

use crate::piece_def::{Motion, PieceDef};
use raum_geometry::{Coord, Shape, Topology, Vector};

/// The variants Raum knows by name (RULES.md "Variant ids").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VariantId {
    /// Five Up (Jim Aikin), 5x5x5.
    FiveUp,
    /// Raumschach (Dickins set-up), 5x5x5.
    Raumschach,
    /// Octahedral Chess (Michael D. Ward): nine levels 2x2..10x10, 340 cells.
    Octahedral,
    /// Pyramid Chess: Octahedral's levels V..IX, 220 cells.
    Pyramid,
    /// Betza's 3D Chess, Upright rules: 8x8x8.
    BetzaUpright,
    /// Betza's 3D Chess, Mixed rules.
    BetzaMixed,
    /// Betza's 3D Chess, Flat rules.
    BetzaFlat,
    /// Betza's 3D Chess, Very 3D rules.
    BetzaVery3d,
    /// The Book of 3D-Chess (Karlson, Puchta, Herrmann): 8x8x8, pawns with forward and altus axes.
    Book3d,
    // Later additions go last: the discriminant seeds a variant's hash keys.
    /// Five Up on the hypercylinder: the a and e faces joined.
    FiveUpCylinder,
    /// Five Up on the hypertorus: every axis wraps, and a piece that has not
    /// moved can neither capture nor be captured.
    FiveUpTorus,
    /// Five Up with a riding unicorn per side: a (1,1,2)-leaper that shares a
    /// cell with a friendly piece and moves with it.
    FiveUpUnicorn,
    /// Savard's 3D Wing Table Chess: 156 cells on three levels, the Airman army (a reconstruction).
    WingTable,
    /// The Wing Table with four unicorns a side instead of the Airmen.
    WingTableAlt,
    /// Savard's Forced 3D Chess: 112 cells on four levels, Black's array turned (a reconstruction).
    Forced3d,
    /// Savard's Triquetral Cube Chess for two: 173 cells on levels 4-8 (a reconstruction).
    Triquetral,
    /// A game for two read from a file while Raum runs ([`crate::file::load`]).
    Custom(crate::file::CustomId),
}

/// Every variant id of RULES.md, with its two-player id where it has one
/// (the multi-player games are [`crate::multi::MultiId`]s).
pub const KNOWN_VARIANTS: &[(&str, Option<VariantId>)] = &[
    ("five-up", Some(VariantId::FiveUp)),
    ("raumschach", Some(VariantId::Raumschach)),
    ("five-up-cylinder", Some(VariantId::FiveUpCylinder)),
    ("five-up-torus", Some(VariantId::FiveUpTorus)),
    ("five-up-unicorn", Some(VariantId::FiveUpUnicorn)),
    ("octahedral", Some(VariantId::Octahedral)),
    ("pyramid", Some(VariantId::Pyramid)),
    ("betza-upright", Some(VariantId::BetzaUpright)),
    ("betza-mixed", Some(VariantId::BetzaMixed)),
    ("betza-flat", Some(VariantId::BetzaFlat)),
    ("betza-very3d", Some(VariantId::BetzaVery3d)),
    ("book-3d", Some(VariantId::Book3d)),
    ("wing-table", Some(VariantId::WingTable)),
    ("wing-table-alt", Some(VariantId::WingTableAlt)),
    ("forced-3d", Some(VariantId::Forced3d)),
    ("triquetral", Some(VariantId::Triquetral)),
    ("wing-table-4p", None),
    ("triquetral-3p", None),
    ("triquetral-6p", None),
];

impl VariantId {
    /// Every playable variant. Later additions go last: the fuzz targets pick a
    /// variant by index, so the corpus keeps its meaning.
    pub const ALL: [VariantId; 16] = [
        VariantId::FiveUp,
        VariantId::Raumschach,
        VariantId::Octahedral,
        VariantId::Pyramid,
        VariantId::BetzaUpright,
        VariantId::BetzaMixed,
        VariantId::BetzaFlat,
        VariantId::BetzaVery3d,
        VariantId::Book3d,
        VariantId::FiveUpCylinder,
        VariantId::FiveUpTorus,
        VariantId::FiveUpUnicorn,
        VariantId::WingTable,
        VariantId::WingTableAlt,
        VariantId::Forced3d,
        VariantId::Triquetral,
    ];

    /// The number that seeds the variant's hash keys: the built-in games'
    /// place in [`VariantId::ALL`], so their keys never change.
    pub fn seed(self) -> u64 {
        match self {
            VariantId::Custom(c) => 0x1_0000 + c.0 as u64,
            id => VariantId::ALL.iter().position(|&v| v == id).unwrap_or(0) as u64,
        }
    }

    /// The id used on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            VariantId::Custom(c) => crate::file::registry::get(c).def.id(),
            VariantId::FiveUp => "five-up",
            VariantId::FiveUpCylinder => "five-up-cylinder",
            VariantId::FiveUpTorus => "five-up-torus",
            VariantId::FiveUpUnicorn => "five-up-unicorn",
            VariantId::Raumschach => "raumschach",
            VariantId::Octahedral => "octahedral",
            VariantId::Pyramid => "pyramid",
            VariantId::BetzaUpright => "betza-upright",
            VariantId::BetzaMixed => "betza-mixed",
            VariantId::BetzaFlat => "betza-flat",
            VariantId::BetzaVery3d => "betza-very3d",
            VariantId::Book3d => "book-3d",
            VariantId::WingTable => "wing-table",
            VariantId::WingTableAlt => "wing-table-alt",
            VariantId::Forced3d => "forced-3d",
            VariantId::Triquetral => "triquetral",
        }
    }

    /// Looks a variant up by id.
    ///
    /// ```
    /// use raum_rules::VariantId;
    /// assert_eq!(VariantId::from_name("five-up"), Ok(VariantId::FiveUp));
    /// assert!(VariantId::from_name("wing-table-4p").unwrap_err().to_string().contains("more than two players"));
    /// ```
    pub fn from_name(name: &str) -> Result<VariantId, crate::UnknownVariant> {
        if crate::multi::MultiId::from_name(name).is_some() {
            return Err(crate::UnknownVariant::MultiPlayer(name.to_string()));
        }
        match KNOWN_VARIANTS.iter().find(|(n, _)| *n == name) {
            Some((_, Some(id))) => Ok(*id),
            Some((_, None)) => Err(crate::UnknownVariant::NotYet(name.to_string())),
            None => match crate::file::registry::find(name) {
                Some(crate::GameId::Two(id)) => Ok(id),
                Some(crate::GameId::Multi(_)) => Err(crate::UnknownVariant::MultiPlayer(name.to_string())),
                None => Err(crate::UnknownVariant::Unknown(name.to_string())),
            },
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

/// How cells are named in a variant's notation (RULES.md "Cell names").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellNaming {
    /// Level letter, file letter, rank number: `Cc3` (Five Up, Raumschach).
    LevelFileRank {
        /// Level letters in notation order.
        levels: LevelLetters,
    },
    /// Roman level, file letter, rank number: `Ve5` (Octahedral, Pyramid).
    RomanFileRank {
        /// The numeral of the first level in notation order (1 for I, 5 for V).
        first: u8,
    },
    /// Level number, file letter, rank number: `4e4` (Betza), `2c10`
    /// (Savard's boards).
    NumberFileRank {
        /// The number of the bottom level (4 on the Triquetral board, whose
        /// lower levels belong to the multi-player wings).
        first: u8,
    },
    /// Upper-case file, rank, Greek level: `E2α` (The Book of 3D-Chess); input
    /// also takes `E2alpha` and `E2.1`.
    FileRankGreek,
}

/// The level letters of a [`CellNaming::LevelFileRank`] board, in notation
/// order: up to 26 distinct capitals, held inline (a board read from a file
/// keeps nothing for good).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct LevelLetters {
    letters: [u8; 26],
    len: u8,
}

impl LevelLetters {
    /// The letters of `s`: `None` unless it is 1 to 26 distinct capitals A-Z.
    pub fn new(s: &str) -> Option<LevelLetters> {
        let b = s.as_bytes();
        let distinct = b.iter().enumerate().all(|(i, c)| !b[..i].contains(c));
        if b.is_empty() || b.len() > 26 || !distinct || !b.iter().all(u8::is_ascii_uppercase) {
            return None;
        }
        let mut letters = [0; 26];
        letters[..b.len()].copy_from_slice(b);
        Some(LevelLetters { letters, len: b.len() as u8 })
    }

    /// The letters, in notation order.
    pub fn as_str(&self) -> &str {
        // Only ASCII capitals are ever stored.
        core::str::from_utf8(&self.letters[..self.len as usize]).unwrap_or_default()
    }
}

impl core::fmt::Debug for LevelLetters {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

/// The symmetry of the board that carries White's army onto Black's: the
/// axes may be permuted (Forced 3D Chess turns Black's array so that files
/// become levels), then each flipped axis maps `c -> size - 1 - c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mirror {
    /// Flip files, ranks, levels (of the image).
    pub flip: [bool; 3],
    /// The axis each image axis takes its coordinate from: `[0, 1, 2]` keeps
    /// the axes, `[2, 1, 0]` swaps files and levels. Swapped axes must have
    /// the same size.
    pub axes: [u8; 3],
}

impl Mirror {
    /// A reflection in the flipped axes, no axes swapped.
    ///
    /// ```
    /// use raum_rules::Mirror;
    /// use raum_geometry::Coord;
    /// let m = Mirror::flips([false, true, true]);
    /// assert_eq!(m.cell(Coord::new(1, 0, 0), [5, 5, 5]), Coord::new(1, 4, 4));
    /// ```
    pub const fn flips(flip: [bool; 3]) -> Mirror {
        Mirror { flip, axes: [0, 1, 2] }
    }

    /// The image of a cell.
    pub fn cell(self, c: Coord, dims: [i8; 3]) -> Coord {
        let src = [c.x, c.y, c.z];
        let f = |axis: usize| {
            let v = src[self.axes[axis] as usize];
            if self.flip[axis] { dims[axis] - 1 - v } else { v }
        };
        Coord::new(f(0), f(1), f(2))
    }

    /// The image of a displacement.
    pub fn vector(self, v: Vector) -> Vector {
        let src = [v.x, v.y, v.z];
        let f = |axis: usize| {
            let c = src[self.axes[axis] as usize];
            if self.flip[axis] { -c } else { c }
        };
        Vector::new(f(0), f(1), f(2))
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
    /// Octahedral's pawn-column rule: a quiet pawn move may not end on, or
    /// pass through, a cell whose file and rank hold another pawn on any level.
    pub column_rule: bool,
}

impl PawnRules {
    /// The same rules seen through `mirror` on a board of size `dims`.
    pub fn mirrored(&self, mirror: Mirror, dims: [i8; 3]) -> PawnRules {
        let v = |vs: &[Vector]| vs.iter().map(|&x| mirror.vector(x)).collect();
        let c = |cs: &[Coord]| cs.iter().map(|&x| mirror.cell(x, dims)).collect();
        PawnRules {
            steps: v(&self.steps),
            captures: v(&self.captures),
            double_origins: c(&self.double_origins),
            double_steps: self.double_steps.iter().map(|&[a, b]| [mirror.vector(a), mirror.vector(b)]).collect(),
            en_passant: self.en_passant,
            promotion_cells: c(&self.promotion_cells),
            promote_to: self.promote_to.clone(),
            column_rule: self.column_rule,
        }
    }
}

/// One way pawns can be oriented: a name (as position strings write it) and
/// the rules, already turned the way those pawns move. Most variants have two,
/// White's and its mirror image for Black; The Book of 3D-Chess has one per
/// choice of forward and altus axes, and each side picks one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PawnSet {
    /// The name in position strings (`+yz`), or the side's name where fixed.
    pub name: String,
    /// The rules.
    pub rules: PawnRules,
}

/// One castling move of a variant with fixed partners (FIDE-style): where king
/// and rook start and land, what must be empty and what must not be attacked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastleSlot {
    /// The side it belongs to.
    pub color: crate::Color,
    /// The right's letter in position strings (`K`, `q`), or `None` where
    /// rights are written as the rook's cell (Betza).
    pub letter: Option<char>,
    /// King's start and destination.
    pub king: [Coord; 2],
    /// Rook's start and destination.
    pub rook: [Coord; 2],
    /// Cells that must be empty.
    pub empty: Vec<Coord>,
    /// Cells the king crosses, which must not be attacked (the destination is
    /// tested too, and the start by the rule that one may not castle in check).
    pub crossed: Vec<Coord>,
}

/// The castling rule, a named hook.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// Fixed partners (Octahedral, Betza): each slot is one right, lost when
    /// the king moves or its rook leaves (or is taken on) its start cell.
    /// Written as the king's move.
    Slots {
        /// Letter of the partner piece.
        rook: char,
        /// Every slot, both sides; a right per slot.
        slots: Vec<CastleSlot>,
    },
}

/// What a stalemate scores (a named hook).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StalemateRule {
    /// A draw (FIDE, and every variant that says nothing).
    Draw,
    /// Savard's rule (as in Leaping Bat Chess): 3/5 of a point for the side
    /// that stalemates, 2/5 for the side stalemated.
    ThreeFifths,
}

/// A variant as data.
#[derive(Clone, Debug, PartialEq)]
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
    /// The ways pawns may be oriented (see [`PawnSet`]).
    pub pawn_sets: Vec<PawnSet>,
    /// The pawn set each side starts with (White, Black).
    pub start_sets: [u8; 2],
    /// Whether a side's pawn set is part of the position (The Book of 3D-Chess:
    /// each side chooses its axes) rather than fixed by the variant.
    pub free_pawn_sets: bool,
    /// Whether which pawns have moved is part of the position (a field of the
    /// position string) rather than told by the board: where pawns can return
    /// to a start cell (Octahedral) or start anywhere (The Book of 3D-Chess).
    pub track_unmoved: bool,
    /// The non-combatant rule (Five Up on the hypertorus): a piece that has
    /// not yet moved can neither capture nor be captured, so it gives no check,
    /// guards nothing, and an unmoved king cannot be in check. Which pieces
    /// have not moved is then position state for every piece, not only pawns
    /// (`track_unmoved` must be set).
    pub noncombatant: bool,
    /// The letter of a kind that may share a cell with one friendly non-royal
    /// man of another kind and ride with it (Five Up's unicorn, RULES.md): a
    /// lone rider neither captures nor attacks; a pair attacks by both men's
    /// moves and moves by either (jumping only by a leaper's move); capturing
    /// a pair takes both. An army entry with this letter on a cell that
    /// already holds a piece starts riding it.
    pub rider: Option<char>,
    /// Castling.
    pub castling: CastlingRule,
    /// The king's quiet moves while its side is in check, where they are
    /// fewer than its usual ones (Savard: the six orthogonal steps; its
    /// captures stay as always). Steps only.
    pub king_in_check: Option<Motion>,
    /// What a stalemate scores.
    pub stalemate: StalemateRule,
    /// The move-count rule: the game is drawn after this many moves (rounds:
    /// one move of every side still in) without a capture or a pawn move;
    /// 0: never (RULES.md: 50).
    pub move_limit: u16,
    /// The repetition rule: the game is drawn when a position occurs this
    /// many times; 0: never (RULES.md: 3).
    pub repetition: u8,
    /// The board is a reconstruction (RULES.md: the seed's pictures are lost),
    /// which every interface that shows or describes it says.
    pub reconstruction: bool,
}

impl VariantSpec {
    /// White's pawn rules and their mirror image for Black, the usual pair.
    pub fn mirrored_pawns(white: PawnRules, mirror: Mirror, dims: [i8; 3]) -> Vec<PawnSet> {
        let black = white.mirrored(mirror, dims);
        vec![PawnSet { name: "white".into(), rules: white }, PawnSet { name: "black".into(), rules: black }]
    }
}
