//! A piece alone on the board: where it may move and where it may capture,
//! from one cell of an otherwise empty board. What `raum check` shows of a
//! variant file's pieces and what the lab's coverage counts (Aikin's
//! "potential coverage density").

use crate::piece::Piece;
use crate::variant::Variant;
use crate::width::Width;

impl<S: Width> Variant<S> {
    /// `piece` alone on `cell`: the cells it may move to, and the cells it
    /// may capture on (one enemy there at a time, so no other man blocks it).
    pub fn reach(&self, piece: Piece, cell: usize) -> (S, S) {
        let own = S::single(cell);
        let moves = self.targets(piece, cell, own, S::EMPTY);
        let mut captures = S::EMPTY;
        for t in (0..self.cells()).filter(|&t| t != cell) {
            if self.targets(piece, cell, own, S::single(t)).has(t) {
                captures.insert(t);
            }
        }
        (moves, captures)
    }

    /// The cell nearest the middle of the board's box (the first of equals).
    pub fn centre(&self) -> usize {
        let dims = self.spec().shape.dims();
        let mid = |i: usize| f64::from(dims[i] - 1) / 2.0;
        let d = |c: usize| {
            let p = self.board().coord(c);
            (f64::from(p.x) - mid(0)).powi(2) + (f64::from(p.y) - mid(1)).powi(2) + (f64::from(p.z) - mid(2)).powi(2)
        };
        (0..self.cells()).min_by(|&a, &b| d(a).total_cmp(&d(b))).unwrap_or(0)
    }
}
