//! The Book of 3D-Chess's free initial projection (seed 004, 3.2): "Any
//! positioning whose orthogonal projection onto any one of the base planes
//! shows the initial position of 2D-chess is allowed", each side choosing
//! independently. A side's pawn axes name its plane: the altus axis is the
//! plane's normal, the forward axis points from the officers' row to the
//! pawns' row, and the third axis runs along the files.

use crate::error::PositionError;
use crate::piece::Color;
use crate::position::Position;
use raum_bitboard::CellSet;

const AXES: [char; 3] = ['x', 'y', 'z'];
/// FIDE's back row, and the same row seen from the plane's other side.
const BACK_ROWS: [&str; 2] = ["RNBQKBNR", "RNBKQBNR"];
const ARMY: [(char, usize); 6] = [('K', 1), ('Q', 1), ('R', 2), ('B', 2), ('N', 2), ('P', 8)];

impl<S: CellSet> Position<S> {
    /// Whether this is a start position of a variant with a free initial
    /// projection (The Book of 3D-Chess): each side's sixteen men, projected
    /// along its altus axis, form FIDE's array (king and queen either way
    /// round, as a projection can be seen from either side of its plane), the
    /// officers on the edge row and the pawns in front of them along the
    /// forward axis; every pawn unmoved. Errors name the side, the plane and
    /// what is wrong. Variants without free pawn sets accept only their start.
    ///
    /// ```
    /// use raum_rules::{Position, Variant, VariantId};
    /// let v = Variant::<raum_bitboard::Wide<8>>::at_width(VariantId::Book3d);
    /// assert!(Position::start(v).check_start().is_ok());
    /// ```
    pub fn check_start(&self) -> Result<(), PositionError> {
        let v = self.v;
        if !v.free_pawn_sets() {
            return if *self == Position::start(v) {
                Ok(())
            } else {
                Err(PositionError::Projection(format!("{} has one start position", v.id())))
            };
        }
        if self.side != Color::White || self.ep.any() || self.halfmove != 0 || self.fullmove != 1 {
            return Err(PositionError::Projection("a start has White to move, no en passant and clocks 0 1".into()));
        }
        for c in Color::ALL {
            self.check_side(c)?;
        }
        Ok(())
    }

    fn check_side(&self, c: Color) -> Result<(), PositionError> {
        let v = self.v;
        let Some((axis, sign, altus)) = crate::file::parse_orientation(v.pawn_set_name(self.pawn_set(c))) else {
            return Err(PositionError::Projection(format!("{c}'s pawn set is not an orientation")));
        };
        let files = 3 - axis - altus;
        let plane = format!("the {}{} plane", AXES[axis.min(files)], AXES[axis.max(files)]);
        let err = |what: String| {
            Err(PositionError::Projection(format!(
                "{c}, projected along {} onto {plane} (forward {}{}): {what}",
                AXES[altus],
                if sign > 0 { '+' } else { '-' },
                AXES[axis]
            )))
        };
        let men: Vec<usize> = self.by_color[c.index()].cells().collect();
        for (letter, count) in ARMY {
            let have = men.iter().filter(|&&m| self.letter(m) == letter).count();
            if have != count {
                return err(format!("{have} of kind {letter}, FIDE's array has {count}"));
            }
        }
        if men.len() != 16 {
            return err(format!("{} men, FIDE's array has 16", men.len()));
        }
        let mut row: [[Option<usize>; 8]; 2] = [[None; 8]; 2];
        for &m in &men {
            let at = v.board.coord(m);
            let p = [at.x, at.y, at.z];
            let rank = if sign > 0 { p[axis] } else { 7 - p[axis] };
            let (file, pawn) = (p[files] as usize, self.letter(m) == 'P');
            let want = if pawn { 1 } else { 0 };
            if rank != want {
                let who = if pawn { "a pawn" } else { "an officer" };
                let place = if pawn { "the second row" } else { "the edge row" };
                return err(format!(
                    "{who} on {} projects onto row {} from the edge; it belongs on {place}",
                    v.cell_name(m),
                    rank + 1
                ));
            }
            if let Some(other) = row[want as usize][file] {
                return err(format!("{} and {} project onto the same cell", v.cell_name(other), v.cell_name(m)));
            }
            row[want as usize][file] = Some(m);
        }
        let back: String = row[0].iter().map(|m| m.map_or('?', |m| self.letter(m))).collect();
        if !BACK_ROWS.contains(&back.as_str()) {
            return err(format!(
                "the back row reads {back} along {}; FIDE's is {} (or {} seen from the other side)",
                AXES[files], BACK_ROWS[0], BACK_ROWS[1]
            ));
        }
        let pawns = self.by_kind[v.pawn.map_or(0, |p| p.index())] & self.by_color[c.index()];
        if v.tracks_unmoved() && (pawns & !self.unmoved).any() {
            return err(format!(
                "the pawn on {} is not listed as unmoved",
                v.cell_name((pawns & !self.unmoved).lowest())
            ));
        }
        Ok(())
    }

    fn letter(&self, cell: usize) -> char {
        self.piece_at(cell).map_or('?', |p| self.v.piece_def(p.kind).letter)
    }
}
