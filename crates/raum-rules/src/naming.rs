//! Cell names (`Cc3`, `Ve5`, `4e4`, `2c10`, `E2α`), per the variant's naming scheme.

use crate::spec::CellNaming;
use crate::variant::Variant;
use raum_bitboard::CellSet;
use raum_geometry::Coord;

const ROMAN: [&str; 9] = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"];
const GREEK: [char; 8] = ['α', 'β', 'γ', 'δ', 'ε', 'ζ', 'η', 'θ'];
const GREEK_NAMES: [&str; 8] = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"];

/// A rank number of one or two digits, 1-based, as a 0-based index.
fn rank(digits: &str) -> Option<i8> {
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
        return None;
    }
    Some(digits.parse::<i8>().ok()? - 1)
}

impl<S: CellSet> Variant<S> {
    /// The name of level `z` (0-based in notation order): `C`, `V`, `4`, `α`.
    pub fn level_name(&self, z: i8) -> String {
        level_name(self.spec.naming, z)
    }

    /// The name of a cell, e.g. `Ec1`.
    ///
    /// ```
    /// use raum_rules::{Variant, VariantId};
    /// let v = Variant::get(VariantId::FiveUp);
    /// let c = v.parse_cell("Ec1").unwrap();
    /// assert_eq!(v.cell_name(c), "Ec1");
    /// ```
    pub fn cell_name(&self, cell: usize) -> String {
        coord_name(self.spec.naming, self.board.coord(cell))
    }

    /// The cell with this name, if it exists on the board. The Book of
    /// 3D-Chess also takes ASCII levels: `E2alpha`, `E2.1`.
    ///
    /// ```
    /// use raum_rules::{Variant, VariantId};
    /// let v = Variant::<raum_bitboard::Wide<8>>::at_width(VariantId::Book3d);
    /// let c = v.parse_cell("E2alpha").unwrap();
    /// assert_eq!(v.cell_name(c), "E2α");
    /// assert_eq!(v.parse_cell("E2.1"), Some(c));
    /// assert_eq!(v.parse_cell("I3α"), None);
    /// ```
    pub fn parse_cell(&self, name: &str) -> Option<usize> {
        self.board.cell_at(parse_coord(self.spec.naming, name)?)
    }
}

/// The coordinates a cell name gives under a naming scheme, whether or not
/// the cell exists on a board (variant files name cells before the board is built).
pub(crate) fn parse_coord(naming: CellNaming, name: &str) -> Option<Coord> {
    let file = |f: char, base: u8| -> Option<i8> {
        (f.is_ascii_alphabetic() && f as u32 >= base as u32).then(|| (f as u8 - base) as i8)
    };
    Some(match naming {
        CellNaming::LevelFileRank { levels } => {
            let mut chars = name.chars();
            let z = levels.as_str().find(chars.next()?)?;
            let x = file(chars.next().filter(char::is_ascii_lowercase)?, b'a')?;
            Coord::new(x, rank(chars.as_str())?, z as i8)
        }
        CellNaming::RomanFileRank { first } => {
            let numeral_len = name.find(|c: char| !matches!(c, 'I' | 'V' | 'X'))?;
            let level = ROMAN.iter().position(|&r| r == &name[..numeral_len])? as i8 + 1;
            let mut chars = name[numeral_len..].chars();
            let x = file(chars.next().filter(char::is_ascii_lowercase)?, b'a')?;
            Coord::new(x, rank(chars.as_str())?, level - first as i8)
        }
        CellNaming::NumberFileRank { first } => {
            let digits = name.find(|c: char| !c.is_ascii_digit())?;
            // The level is a number from `first` up (one or two digits); its
            // 1-based rank parser also rejects an empty or zero-led number.
            let level = rank(&name[..digits])? + 1;
            let mut chars = name[digits..].chars();
            let x = file(chars.next().filter(char::is_ascii_lowercase)?, b'a')?;
            let z = level - first as i8;
            Coord::new(x, rank(chars.as_str())?, (z >= 0).then_some(z)?)
        }
        CellNaming::FileRankGreek => {
            let mut chars = name.chars();
            let x = file(chars.next().filter(char::is_ascii_uppercase)?, b'A')?;
            let rest = chars.as_str();
            let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
            let (y, level) = (rank(&rest[..digits])?, &rest[digits..]);
            let z = if let Some(n) = level.strip_prefix('.') {
                (n.len() == 1).then_some(())?;
                n.parse::<i8>().ok()? - 1
            } else if let Some(g) = GREEK.iter().position(|g| level.chars().eq([*g])) {
                g as i8
            } else {
                GREEK_NAMES.iter().position(|g| g.eq_ignore_ascii_case(level))? as i8
            };
            Coord::new(x, y, z)
        }
    })
}

/// The name of level `z` (0-based in notation order) under a naming scheme.
pub(crate) fn level_name(naming: CellNaming, z: i8) -> String {
    let z = z.max(0) as usize;
    match naming {
        CellNaming::LevelFileRank { levels } => levels.as_str().chars().nth(z).map_or_else(|| "?".into(), String::from),
        CellNaming::RomanFileRank { first } => {
            ROMAN.get(z + first as usize - 1).map_or_else(|| "?".into(), |r| r.to_string())
        }
        CellNaming::NumberFileRank { first } => (z + first as usize).to_string(),
        CellNaming::FileRankGreek => GREEK.get(z).map_or_else(|| "?".into(), |g| g.to_string()),
    }
}

/// The name of the cell at `c` under a naming scheme.
pub(crate) fn coord_name(naming: CellNaming, c: Coord) -> String {
    let level = level_name(naming, c.z);
    match naming {
        CellNaming::FileRankGreek => format!("{}{}{}", (b'A' + c.x as u8) as char, c.y + 1, level),
        _ => format!("{}{}{}", level, (b'a' + c.x as u8) as char, c.y + 1),
    }
}
