//! Cell names (`Cc3`), per the variant's naming scheme.

use crate::spec::CellNaming;
use crate::variant::Variant;
use raum_bitboard::CellSet;
use raum_geometry::Coord;

impl<S: CellSet> Variant<S> {
    /// The name of a cell, e.g. `Cc3`.
    ///
    /// ```
    /// use raum_rules::{Variant, VariantId};
    /// let v = Variant::get(VariantId::FiveUp);
    /// let c = v.parse_cell("Ec1").unwrap();
    /// assert_eq!(v.cell_name(c), "Ec1");
    /// ```
    pub fn cell_name(&self, cell: usize) -> String {
        let c = self.board.coord(cell);
        match self.spec.naming {
            CellNaming::LevelFileRank { levels } => {
                let level = levels.as_bytes().get(c.z as usize).map_or('?', |&b| b as char);
                format!("{}{}{}", level, (b'a' + c.x as u8) as char, c.y + 1)
            }
        }
    }

    /// The cell with this name, if it exists on the board.
    pub fn parse_cell(&self, name: &str) -> Option<usize> {
        match self.spec.naming {
            CellNaming::LevelFileRank { levels } => {
                let mut chars = name.chars();
                let level = chars.next()?;
                let file = chars.next()?;
                let rank: String = chars.collect();
                let z = levels.find(level)?;
                if !file.is_ascii_lowercase()
                    || rank.is_empty()
                    || !rank.bytes().all(|b| b.is_ascii_digit())
                    || rank.len() > 2
                {
                    return None;
                }
                let x = file as i8 - b'a' as i8;
                let y: i8 = rank.parse::<i8>().ok()? - 1;
                self.board.cell_at(Coord::new(x, y, z as i8))
            }
        }
    }
}
