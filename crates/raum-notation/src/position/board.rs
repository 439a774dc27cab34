//! The board field of a position string, for every game: levels in notation
//! order separated by `/`, each level's ranks from high to low separated by
//! `|`, each rank its existing cells from low files to high, a number standing
//! for that many empty cells. How a man is written is the caller's: one
//! letter, or a piece and its riding unicorn `(WU)`, for two sides; a side's
//! letter then a piece's (`wK`) for more.

use crate::error::FenError;
use raum_bitboard::CellSet;
use raum_geometry::Coord;
use raum_rules::Variant;
use std::iter::Peekable;
use std::str::Chars;

/// One rank of the board field: its index and its existing cells, files low to high.
pub(crate) type Rank = (i8, Vec<usize>);

/// Existing cells of the board grouped as the board field lists them:
/// levels in notation order (with their index), ranks high to low.
pub(crate) fn layout<S: CellSet>(v: &Variant<S>) -> Vec<(i8, Vec<Rank>)> {
    let [w, h, d] = v.board().shape().dims();
    let mut levels = Vec::new();
    for z in 0..d {
        let mut ranks = Vec::new();
        for y in (0..h).rev() {
            let cells: Vec<usize> = (0..w).filter_map(|x| v.board().cell_at(Coord::new(x, y, z))).collect();
            if !cells.is_empty() {
                ranks.push((y, cells));
            }
        }
        if !ranks.is_empty() {
            levels.push((z, ranks));
        }
    }
    levels
}

/// Where in the board field a man is being read, for messages.
pub(crate) struct At {
    /// The level's name.
    pub level: String,
    /// The rank's number (from 1).
    pub rank: i32,
}

/// Reads the board field of `v`'s board. Every character that is not a digit
/// starts a man, which `man` reads: it is given that character and the rest of
/// the rank, takes what its notation needs, and returns the man or what is
/// wrong. Returns each man with its cell.
pub(crate) fn read_board<S: CellSet, M>(
    v: &Variant<S>,
    field: &str,
    mut man: impl FnMut(char, &mut Peekable<Chars>, &At) -> Result<M, FenError>,
) -> Result<Vec<(usize, M)>, FenError> {
    let layout = layout(v);
    let level_strs: Vec<&str> = field.split('/').collect();
    if level_strs.len() != layout.len() {
        return Err(FenError::LevelCount { expected: layout.len(), found: level_strs.len() });
    }
    let mut men = Vec::new();
    for ((z, ranks), level_str) in layout.iter().zip(&level_strs) {
        let level = v.level_name(*z);
        let rank_strs: Vec<&str> = level_str.split('|').collect();
        if rank_strs.len() != ranks.len() {
            return Err(FenError::RankCount { level, expected: ranks.len(), found: rank_strs.len() });
        }
        for ((y, cells), rank_str) in ranks.iter().zip(&rank_strs) {
            let at_rank = At { level: level.clone(), rank: *y as i32 + 1 };
            let mut at = 0usize;
            let mut chars = rank_str.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    let mut count = d as usize;
                    while let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                        count = count.saturating_mul(10).saturating_add(d2 as usize);
                        chars.next();
                    }
                    if count == 0 {
                        return Err(FenError::BadPiece { level: level.clone(), rank: at_rank.rank, ch: '0' });
                    }
                    at = at.saturating_add(count);
                    continue;
                }
                let m = man(c, &mut chars, &at_rank)?;
                if let Some(&cell) = cells.get(at) {
                    men.push((cell, m));
                }
                // After a huge run count `at` is saturated: wrapping it back into
                // range would accept a malformed rank.
                at = at.saturating_add(1);
            }
            if at != cells.len() {
                return Err(FenError::CellCount { level, rank: at_rank.rank, expected: cells.len(), found: at });
            }
        }
    }
    Ok(men)
}

/// Writes the board field of `v`'s board: `man` writes the man on a cell into
/// the string it is given, or nothing where the cell is empty.
pub(crate) fn write_board<S: CellSet>(v: &Variant<S>, mut man: impl FnMut(usize, &mut String)) -> String {
    let mut out = String::new();
    let mut text = String::new();
    for (li, (_, ranks)) in layout(v).iter().enumerate() {
        if li > 0 {
            out.push('/');
        }
        for (ri, (_, cells)) in ranks.iter().enumerate() {
            if ri > 0 {
                out.push('|');
            }
            let mut empty = 0;
            for &c in cells {
                text.clear();
                man(c, &mut text);
                if text.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push_str(&text);
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
        }
    }
    out
}

/// The optional clocks after a position string's other fields: `fields[at]`
/// the halfmove clock, `fields[at + 1]` the fullmove number (from 1), or
/// neither (0 and 1).
pub(crate) fn read_clocks(fields: &[&str], at: usize) -> Result<(u32, u32), FenError> {
    let number = |i: usize, field: &'static str, default: u32| -> Result<u32, FenError> {
        let n = match fields.get(i) {
            None => default,
            Some(s) => s.parse::<u32>().map_err(|_| FenError::BadNumber { field, found: s.to_string() })?,
        };
        if n > crate::MAX_MOVE_NUMBER {
            return Err(FenError::NumberTooLarge { field, found: n, max: crate::MAX_MOVE_NUMBER });
        }
        Ok(n)
    };
    let halfmove = number(at, "halfmove clock", 0)?;
    let fullmove = number(at + 1, "fullmove number", 1)?;
    if fullmove == 0 {
        return Err(FenError::BadNumber { field: "fullmove number", found: "0".into() });
    }
    Ok((halfmove, fullmove))
}
