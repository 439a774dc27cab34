//! A piece as data: how it moves and captures ([`Motion`]), its role (king, pawn
//! or any other piece) and its definition ([`PieceDef`]).

use raum_geometry::{Family, Vector, leap_vectors};

/// One mode of motion (moving, or capturing): the direction families a piece
/// slides along and the vectors it leaps by. A one-step piece is a leaper whose
/// vectors are unit steps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Motion {
    /// Direction families slid along, stopping at the first occupied cell.
    pub slides: Vec<Family>,
    /// Single sliding directions beyond whole families (Betza's 14-direction
    /// rook slides along the orthogonals plus the eight diagonals that change
    /// the level).
    pub rays: Vec<Vector>,
    /// Leap vectors (they jump; nothing blocks them).
    pub leaps: Vec<Vector>,
    /// Sliding directions with a range: at most that many cells, stopping
    /// at the first occupied one (`O*2` in a variant file). A direction is
    /// here only where it is not slid along without a limit.
    pub ranged: Vec<(Vector, u8)>,
}

impl Motion {
    /// Slides along the given families.
    pub fn slider(families: &[Family]) -> Self {
        Motion { slides: families.to_vec(), rays: Vec::new(), leaps: Vec::new(), ranged: Vec::new() }
    }

    /// Slides along the given unit directions (each a member of
    /// [`raum_geometry::DIRECTIONS`]).
    pub fn ray_slider(directions: &[Vector]) -> Self {
        Motion { slides: Vec::new(), rays: directions.to_vec(), leaps: Vec::new(), ranged: Vec::new() }
    }

    /// One step in each direction of the given families.
    pub fn stepper(families: &[Family]) -> Self {
        let leaps = raum_geometry::DIRECTIONS
            .iter()
            .copied()
            .filter(|v| families.iter().any(|f| f.dimensions() == v.dimensions()))
            .collect();
        Motion { slides: Vec::new(), rays: Vec::new(), leaps, ranged: Vec::new() }
    }

    /// An (a,b,c)-leaper.
    pub fn leaper(a: i8, b: i8, c: i8) -> Self {
        Motion { slides: Vec::new(), rays: Vec::new(), leaps: leap_vectors(a, b, c), ranged: Vec::new() }
    }

    /// A leaper with exactly these vectors.
    pub fn leaps(vectors: &[Vector]) -> Self {
        Motion { slides: Vec::new(), rays: Vec::new(), leaps: vectors.to_vec(), ranged: Vec::new() }
    }

    /// The sliding directions (indices into [`raum_geometry::DIRECTIONS`]),
    /// ascending, each once: without a limit and with a range alike.
    pub fn slide_directions(&self) -> Vec<u8> {
        let mut v: Vec<u8> =
            self.slides.iter().flat_map(|&f| raum_geometry::family_directions(f)).map(|d| d as u8).collect();
        let index = |r: &Vector| raum_geometry::DIRECTIONS.iter().position(|d| d == r).map(|d| d as u8);
        v.extend(self.rays.iter().filter_map(index));
        v.extend(self.ranged.iter().filter_map(|(r, _)| index(r)));
        v.sort_unstable();
        v.dedup();
        v
    }

    /// How far it slides along direction `d` (an index into
    /// [`raum_geometry::DIRECTIONS`]): `None` if it does not, `Some(u8::MAX)`
    /// without a limit.
    pub fn reach(&self, d: u8) -> Option<u8> {
        let dir = raum_geometry::DIRECTIONS.get(d as usize)?;
        if self.rays.contains(dir) || self.slides.iter().any(|f| f.dimensions() == dir.dimensions()) {
            return Some(u8::MAX);
        }
        self.ranged.iter().filter(|(r, _)| r == dir).map(|&(_, n)| n).max()
    }

    /// Whether some direction is slid along with a range.
    pub fn has_range(&self) -> bool {
        !self.ranged.is_empty()
    }

    /// This motion plus another.
    pub fn with(mut self, other: Motion) -> Self {
        for f in other.slides {
            if !self.slides.contains(&f) {
                self.slides.push(f);
            }
        }
        for r in other.rays {
            if !self.rays.contains(&r) {
                self.rays.push(r);
            }
        }
        for v in other.leaps {
            if !self.leaps.contains(&v) {
                self.leaps.push(v);
            }
        }
        self.ranged.extend(other.ranged);
        self
    }
}

/// What a piece kind is for the rules beyond its motion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A royal piece: it may not be left attacked.
    King,
    /// Moves by the variant's pawn rules ([`crate::PawnRules`]), not by [`Motion`].
    Pawn,
    /// Any other piece.
    Piece,
}

/// A piece kind in a variant's piece table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDef {
    /// Letter in position strings and moves (upper case).
    pub letter: char,
    /// English name.
    pub name: &'static str,
    /// Role.
    pub role: Role,
    /// Non-capturing moves.
    pub moves: Motion,
    /// Captures; the cells it attacks.
    pub captures: Motion,
}

impl PieceDef {
    /// A piece that moves as it captures.
    pub fn new(letter: char, name: &'static str, role: Role, motion: Motion) -> Self {
        PieceDef { letter, name, role, moves: motion.clone(), captures: motion }
    }

    /// A piece whose captures differ from its moves (the Five Up king).
    pub fn split(letter: char, name: &'static str, role: Role, moves: Motion, captures: Motion) -> Self {
        PieceDef { letter, name, role, moves, captures }
    }
}
