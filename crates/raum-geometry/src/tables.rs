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
    line: Vec<S>,
    all: S,
}

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
        let mut between = vec![S::EMPTY; n * n];
        let mut line = vec![S::EMPTY; n * n];
        if !board.topology().wraps() {
            for a in 0..n {
                for d in 0..26 {
                    let mut path = S::EMPTY;
                    let full = rays[a * 26 + d] | rays[a * 26 + (d + 13) % 26] | S::single(a);
                    let mut at = a;
                    while let Some(b) = board.step(at, DIRECTIONS[d]) {
                        between[a * n + b] = path;
                        line[a * n + b] = full;
                        path.insert(b);
                        at = b;
                    }
                }
            }
        }
        let mut all = S::EMPTY;
        for c in 0..n {
            all.insert(c);
        }
        Ok(Tables { cells: n, rays, between, line, all })
    }

    /// Every cell of the board.
    #[inline(always)]
    pub fn all(&self) -> S {
        self.all
    }

    /// Cells reached by sliding from `cell` in direction `d` on an empty board.
    #[inline(always)]
    pub fn ray(&self, cell: usize, d: Direction) -> S {
        // SAFETY-free hot path: index is in range for every cell and direction.
        self.rays[cell * 26 + d]
    }

    /// Cells strictly between `a` and `b` when they share a line (bounded boards),
    /// else empty.
    #[inline(always)]
    pub fn between(&self, a: usize, b: usize) -> S {
        self.between[a * self.cells + b]
    }

    /// The whole line through `a` and `b` (both included) when they share one
    /// (bounded boards), else empty.
    #[inline(always)]
    pub fn line(&self, a: usize, b: usize) -> S {
        self.line[a * self.cells + b]
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
    fn cylinder_ray_wraps_once() {
        let b = Board::new(Shape::cuboid(5, 5, 5), Topology::CYLINDER).unwrap();
        let t: Tables<u128> = Tables::new(&b).unwrap();
        let c = b.cell_at(Coord::new(1, 0, 2)).unwrap();
        // Leftward from Cb1: Ca1, then Ce1, Cd1, Cc1 — four cells, never itself.
        assert_eq!(t.ray(c, 13).count(), 4);
    }
}
