//! Cell-set tables built once per board: rays, between-sets, lines, leaps.

use crate::board::{Board, GeometryError};
use crate::direction::{DIRECTIONS, Direction, Vector};
use raum_bitboard::CellSet;

/// Precomputed cell sets for one board.
///
/// On a bounded board a ray's cells are strictly increasing (positive direction)
/// or decreasing (negative) in cell number, which is what lets the move generator
/// find a ray's first blocker with one bit scan.
#[derive(Clone, Debug)]
pub struct Tables<S: CellSet> {
    cells: usize,
    rays: Vec<S>,
    between: Vec<S>,
    /// The second arc between two cells of a cyclic line (wrapping boards only;
    /// empty on bounded boards, where no pair has one).
    between_alt: Vec<S>,
    line: Vec<S>,
    /// On a bounded board whose pair tables would be large (sets with lanes): per
    /// pair of cells, the direction from the first to the second ([`NO_DIR`]
    /// if none), from which the between-set and the line are read off the
    /// rays; `between` and `line` are then empty. A few hundred KB instead of
    /// two tables of `cells²` sets (32 MB on 512 cells) that miss the cache.
    dir: Vec<u8>,
    all: S,
}

/// No direction leads from one cell to the other.
const NO_DIR: u8 = u8::MAX;

/// Pair tables larger than this are replaced by the direction table.
const PAIR_TABLES_MAX: usize = 1 << 20;

impl<S: CellSet> Tables<S> {
    /// Builds the tables for `board`.
    pub fn new(board: &Board) -> Result<Self, GeometryError> {
        let n = board.len();
        if n > S::CAPACITY {
            return Err(GeometryError::TooManyCells { cells: n, capacity: S::CAPACITY });
        }
        let mut rays = vec![S::EMPTY; n * 26];
        for cell in 0..n {
            for (d, &v) in DIRECTIONS.iter().enumerate() {
                let mut set = S::EMPTY;
                let mut at = cell;
                while let Some(next) = board.step(at, v) {
                    if next == cell || set.has(next) {
                        break;
                    }
                    set.insert(next);
                    at = next;
                }
                rays[cell * 26 + d] = set;
            }
        }
        let wraps = board.topology().wraps();
        if S::LANE_WORDS > 0 && !wraps && n * n * core::mem::size_of::<S>() > PAIR_TABLES_MAX {
            let mut dir = vec![NO_DIR; n * n];
            for a in 0..n {
                for d in 0..26 {
                    for b in rays[a * 26 + d].cells() {
                        dir[a * n + b] = d as u8;
                    }
                }
            }
            let mut all = S::EMPTY;
            for c in 0..n {
                all.insert(c);
            }
            let (between, between_alt, line) = (Vec::new(), Vec::new(), Vec::new());
            return Ok(Tables { cells: n, rays, between, between_alt, line, dir, all });
        }
        let mut between = vec![S::EMPTY; n * n];
        let mut line = vec![S::EMPTY; n * n];
        let mut all = S::EMPTY;
        for c in 0..n {
            all.insert(c);
        }
        // Where no second arc exists the alternative is every cell, which is
        // never free of pieces (kings stand somewhere), so a test of "either
        // arc empty" needs no separate flag.
        let mut between_alt = if wraps { vec![all; n * n] } else { Vec::new() };
        // The direction a pair was first joined by (wrapping boards only).
        let mut first = vec![u8::MAX; if wraps { n * n } else { 0 }];
        for a in 0..n {
            for d in 0..26 {
                let mut path = S::EMPTY;
                let full = rays[a * 26 + d] | rays[a * 26 + (d + 13) % 26] | S::single(a);
                let mut at = a;
                while let Some(b) = board.step(at, DIRECTIONS[d]) {
                    if b == a || path.has(b) {
                        break;
                    }
                    if wraps && first[a * n + b] != u8::MAX {
                        // The second way round a cycle (directions are taken
                        // positive first, so `between` keeps the positive arc);
                        // any other direction is a second line.
                        if first[a * n + b] as usize != (d + 13) % 26 {
                            return Err(GeometryError::TwoLines { a: board.coord(a), b: board.coord(b) });
                        }
                        between_alt[a * n + b] = path;
                    } else {
                        between[a * n + b] = path;
                        line[a * n + b] = full;
                        if wraps {
                            first[a * n + b] = d as u8;
                        }
                    }
                    path.insert(b);
                    at = b;
                }
            }
        }
        Ok(Tables { cells: n, rays, between, between_alt, line, dir: Vec::new(), all })
    }

    /// Every cell of the board.
    #[inline(always)]
    pub fn all(&self) -> S {
        self.all
    }

    /// Every ray, `[cell * 26 + direction]`, as [`Tables::ray`] reads them.
    pub fn rays(&self) -> &[S] {
        &self.rays
    }

    /// Cells reached by sliding from `cell` in direction `d` on an empty board.
    #[inline(always)]
    pub fn ray(&self, cell: usize, d: Direction) -> S {
        // SAFETY-free hot path: index is in range for every cell and direction.
        self.rays[cell * 26 + d]
    }

    /// Cells strictly between `a` and `b` when they share a line, else empty;
    /// on a cyclic line, the arc met first going from `a` in a positive
    /// direction.
    #[inline(always)]
    pub fn between(&self, a: usize, b: usize) -> S {
        // (Sets without lanes never use the direction table: the test folds away.)
        if S::LANE_WORDS == 0 || self.dir.is_empty() {
            return self.between[a * self.cells + b];
        }
        match self.dir[a * self.cells + b] {
            NO_DIR => S::EMPTY,
            d => self.rays[a * 26 + d as usize] & self.rays[b * 26 + (d as usize + 13) % 26],
        }
    }

    /// On a wrapping board, the other arc between `a` and `b` when they lie on
    /// a cyclic line; every cell of the board when they do not (so that
    /// "`between` or `between_alt` free of pieces" means "joined by an empty
    /// arc"). Bounded boards have no second arcs: do not call it there.
    #[inline(always)]
    pub fn between_alt(&self, a: usize, b: usize) -> S {
        self.between_alt[a * self.cells + b]
    }

    /// Whether some line of the board is a cycle (a wrapping axis).
    #[inline(always)]
    pub fn cyclic(&self) -> bool {
        !self.between_alt.is_empty()
    }

    /// The whole line through `a` and `b` (both included) when they share one,
    /// else empty.
    #[inline(always)]
    pub fn line(&self, a: usize, b: usize) -> S {
        if S::LANE_WORDS == 0 || self.dir.is_empty() {
            return self.line[a * self.cells + b];
        }
        match self.dir[a * self.cells + b] {
            NO_DIR => S::EMPTY,
            d => self.rays[a * 26 + d as usize] | self.rays[a * 26 + (d as usize + 13) % 26] | S::single(a),
        }
    }

    /// Size of the tables in bytes.
    pub fn table_bytes(&self) -> usize {
        (self.rays.len() + self.between.len() + self.between_alt.len() + self.line.len()) * core::mem::size_of::<S>()
            + self.dir.len()
    }

    /// Cells reached from `cell` by one of `vectors` (leaps, wrapping applied).
    pub fn leaps(board: &Board, cell: usize, vectors: &[Vector]) -> S {
        let mut s = S::EMPTY;
        for &v in vectors {
            if let Some(t) = board.step(cell, v).filter(|&t| t != cell) {
                s.insert(t);
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Coord, Shape, Topology};
    use raum_bitboard::Wide;

    fn board() -> Board {
        Board::new(Shape::cuboid(5, 5, 5), Topology::BOUNDED).unwrap()
    }

    #[test]
    fn rays_are_monotone_on_bounded_boards() {
        let b = board();
        let t: Tables<u128> = Tables::new(&b).unwrap();
        for cell in 0..b.len() {
            for d in 0..26 {
                for c in t.ray(cell, d).cells() {
                    assert_eq!(c > cell, d < 13);
                }
            }
        }
    }

    /// On wide boards the between-sets and lines come from the rays and a
    /// direction per pair: the same as stepping from one cell to the other.
    #[test]
    fn compact_between_and_line_equal_stepping() {
        let cube = Board::new(Shape::cuboid(8, 8, 8), Topology::BOUNDED).unwrap();
        let t: Tables<Wide<8>> = Tables::new(&cube).unwrap();
        assert!(!t.dir.is_empty() && t.between.is_empty(), "the compact form");
        assert!(t.table_bytes() < 3 << 19, "{} bytes", t.table_bytes());
        for a in 0..cube.len() {
            let mut expected_between = vec![Wide::<8>::EMPTY; cube.len()];
            let mut expected_line = vec![Wide::<8>::EMPTY; cube.len()];
            for (d, &v) in DIRECTIONS.iter().enumerate() {
                let full = t.ray(a, d) | t.ray(a, (d + 13) % 26) | Wide::single(a);
                let (mut at, mut path) = (a, Wide::<8>::EMPTY);
                while let Some(b) = cube.step(at, v) {
                    expected_between[b] = path;
                    expected_line[b] = full;
                    path.insert(b);
                    at = b;
                }
            }
            for b in 0..cube.len() {
                assert_eq!(t.between(a, b), expected_between[b], "{a} {b}");
                assert_eq!(t.line(a, b), expected_line[b], "{a} {b}");
            }
        }
    }

    #[test]
    fn between_and_line() {
        let b = board();
        let t: Tables<u128> = Tables::new(&b).unwrap();
        let a = b.cell_at(Coord::new(0, 0, 0)).unwrap();
        let z = b.cell_at(Coord::new(4, 4, 4)).unwrap();
        assert_eq!(t.between(a, z).count(), 3);
        assert_eq!(t.line(a, z).count(), 5);
        let k = b.cell_at(Coord::new(1, 2, 0)).unwrap();
        assert_eq!(t.between(a, k), 0);
        assert_eq!(t.line(a, k), 0);
    }

    #[test]
    fn an_even_wrap_that_joins_two_cells_by_two_lines_is_refused() {
        // Round 6 cells, (3, 0, 3) and (-3, 0, 3) are one offset: two diagonals meet.
        let x = Topology { wrap: [true, false, false] };
        for (shape, topology) in [(Shape::cuboid(6, 6, 6), Topology::TORUS), (Shape::cuboid(6, 4, 4), x)] {
            let b = Board::new(shape, topology).unwrap();
            let e = Tables::<Wide<4>>::new(&b).err();
            assert!(matches!(e, Some(GeometryError::TwoLines { .. })), "{e:?}");
        }
        // Too few ranks and levels to go half way round: one line between any two cells.
        let b = Board::new(Shape::cuboid(6, 3, 3), x).unwrap();
        assert!(Tables::<Wide<4>>::new(&b).is_ok());
    }

    #[test]
    fn cylinder_ray_wraps_once() {
        let b = Board::new(Shape::cuboid(5, 5, 5), Topology::CYLINDER).unwrap();
        let t: Tables<u128> = Tables::new(&b).unwrap();
        let c = b.cell_at(Coord::new(1, 0, 2)).unwrap();
        // Leftward from Cb1: Ca1, then Ce1, Cd1, Cc1 — four cells, never itself.
        assert_eq!(t.ray(c, 13).count(), 4);
    }

    #[test]
    fn cyclic_lines_have_two_arcs() {
        for topology in [Topology::CYLINDER, Topology::TORUS] {
            let b = Board::new(Shape::cuboid(5, 5, 5), topology).unwrap();
            let t: Tables<u128> = Tables::new(&b).unwrap();
            assert!(t.cyclic());
            let at = |x, y, z| b.cell_at(Coord::new(x, y, z)).unwrap();
            // Cb1 and Ce1: Cc1, Cd1 one way, Ca1 the other.
            let (b1, e1) = (at(1, 0, 2), at(4, 0, 2));
            assert_eq!(t.between(b1, e1), u128::single(at(2, 0, 2)) | u128::single(at(3, 0, 2)));
            assert_eq!(t.between_alt(b1, e1), u128::single(at(0, 0, 2)));
            assert_eq!(t.between(e1, b1), u128::single(at(0, 0, 2)));
            assert_eq!(t.between_alt(e1, b1), t.between(b1, e1));
            // Neighbours: one arc empty, the other the rest of the cycle.
            assert_eq!(t.between(b1, at(2, 0, 2)), 0);
            assert_eq!(t.between_alt(b1, at(2, 0, 2)).count(), 3);
        }
        let b = Board::new(Shape::cuboid(5, 5, 5), Topology::CYLINDER).unwrap();
        let t: Tables<u128> = Tables::new(&b).unwrap();
        // A diagonal across the joined faces is not a cycle: one arc only.
        let (a1, e2) = (b.cell_at(Coord::new(0, 0, 0)).unwrap(), b.cell_at(Coord::new(4, 1, 0)).unwrap());
        assert_eq!(t.between(a1, e2), 0);
        assert_eq!(t.between_alt(a1, e2), t.all());
        let bounded: Tables<u128> = Tables::new(&board()).unwrap();
        assert!(!bounded.cyclic());
    }
}
