//! Position strings and moves of the multi-player games (RULES.md "Savard's
//! multi-player forms"): each man is two letters, its side's in lower case
//! then its piece's in upper case (`wK`, `bP`); the side field is a side's
//! letter; castling and en-passant fields are `-`.
//!
//! ```
//! use raum_bitboard::Wide;
//! use raum_notation::{format_multi_position, parse_multi_move, parse_multi_position};
//! use raum_rules::multi::{MultiId, MultiPosition, MultiVariant};
//! let v = MultiVariant::<Wide<4>>::at_width(MultiId::WingTable4p);
//! let start = MultiPosition::start(v);
//! let s = format_multi_position(&start);
//! assert!(s.ends_with(" w - - 0 1"));
//! assert_eq!(parse_multi_position(v, &s).unwrap(), start);
//! let m = parse_multi_move(&start, "2e3-2e4").unwrap();
//! assert_eq!(raum_notation::format_multi_move(v, m), "2e3-2e4");
//! ```

use crate::error::{FenError, MoveError};
use crate::fen::layout;
use crate::moves::split_coordinate;
use raum_bitboard::CellSet;
use raum_rules::Move;
use raum_rules::multi::{MultiPosition, MultiVariant};

/// The layout of the fields, for messages.
const FIELDS: &str = "board side rights ep [halfmove fullmove]";

/// The game's side letters, for messages.
fn side_letters<S: CellSet>(v: &MultiVariant<S>) -> String {
    v.sides().iter().map(|s| s.letter.to_string()).collect::<Vec<_>>().join(" ")
}

/// The game's piece letters, for messages.
fn piece_letters<S: CellSet>(v: &MultiVariant<S>) -> String {
    v.board().pieces().iter().map(|p| p.letter.to_string()).collect::<Vec<_>>().join(" ")
}

/// Reads a position string of a multi-player game.
pub fn parse_multi_position<S: CellSet>(v: &'static MultiVariant<S>, s: &str) -> Result<MultiPosition<S>, FenError> {
    let b = v.board();
    let fields: Vec<&str> = s.split_whitespace().collect();
    if fields.len() != 4 && fields.len() != 6 {
        return Err(FenError::FieldCount { expected: FIELDS.into(), found: fields.len() });
    }
    let layout = layout(b);
    let level_strs: Vec<&str> = fields[0].split('/').collect();
    if level_strs.len() != layout.len() {
        return Err(FenError::LevelCount { expected: layout.len(), found: level_strs.len() });
    }
    let mut men = Vec::new();
    for ((z, ranks), level_str) in layout.iter().zip(&level_strs) {
        let level = b.level_name(*z);
        let rank_strs: Vec<&str> = level_str.split('|').collect();
        if rank_strs.len() != ranks.len() {
            return Err(FenError::RankCount { level, expected: ranks.len(), found: rank_strs.len() });
        }
        for ((y, cells), rank_str) in ranks.iter().zip(&rank_strs) {
            let rank = *y as i32 + 1;
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
                        return Err(FenError::BadPiece { level: level.clone(), rank, ch: '0' });
                    }
                    at = at.saturating_add(count);
                    continue;
                }
                let piece = chars.next();
                let found: String = [Some(c), piece].into_iter().flatten().collect();
                let bad = |why: String| FenError::BadMan { level: level.clone(), rank, found: found.clone(), why };
                let side = v
                    .side_of(c)
                    .ok_or_else(|| bad(format!("a man is a side letter ({}) then a piece letter", side_letters(v))))?;
                let kind = piece
                    .filter(char::is_ascii_uppercase)
                    .and_then(|p| b.kind_of(p))
                    .ok_or_else(|| bad(format!("piece letters: {}", piece_letters(v))))?;
                if let Some(&cell) = cells.get(at) {
                    men.push((cell, side as u8, kind));
                }
                // After a huge run count `at` is saturated: wrapping it back into
                // range would accept a malformed rank.
                at = at.saturating_add(1);
            }
            if at != cells.len() {
                return Err(FenError::CellCount { level: level.clone(), rank, expected: cells.len(), found: at });
            }
        }
    }
    let to_move = fields[1]
        .chars()
        .next()
        .filter(|_| fields[1].chars().count() == 1)
        .and_then(|c| v.side_of(c))
        .ok_or_else(|| FenError::BadMultiSide { found: fields[1].to_string(), letters: side_letters(v) })?;
    if fields[2] != "-" {
        return Err(FenError::BadRights {
            found: fields[2].to_string(),
            why: "this game has no castling: write -".into(),
        });
    }
    if fields[3] != "-" {
        return Err(FenError::BadEnPassant(format!("'{}': this game has no en passant: write -", fields[3])));
    }
    let number = |field: &'static str, s: &str| {
        s.parse::<u32>().map_err(|_| FenError::BadNumber { field, found: s.to_string() })
    };
    let (halfmove, fullmove) =
        if fields.len() == 6 { (number("halfmove", fields[4])?, number("fullmove", fields[5])?) } else { (0, 1) };
    if fullmove == 0 {
        return Err(FenError::BadNumber { field: "fullmove", found: "0".into() });
    }
    MultiPosition::from_men(v, &men, to_move, halfmove, fullmove).map_err(FenError::IllegalMulti)
}

/// Writes a position string (always with the clocks).
pub fn format_multi_position<S: CellSet>(pos: &MultiPosition<S>) -> String {
    let v = pos.variant();
    let b = v.board();
    let mut out = String::new();
    for (li, (_, ranks)) in layout(b).iter().enumerate() {
        if li > 0 {
            out.push('/');
        }
        for (ri, (_, cells)) in ranks.iter().enumerate() {
            if ri > 0 {
                out.push('|');
            }
            let mut empty = 0;
            for &c in cells {
                match pos.man_at(c) {
                    Some((side, kind)) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(v.sides()[side].letter);
                        out.push(b.piece_def(kind).letter);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
        }
    }
    out.push_str(&format!(" {} - - {} {}", pos.mover().letter, pos.halfmove_clock(), pos.fullmove_number()));
    out
}

/// A move in coordinates: `2e3-2e4`, `2f8-2f9=Q`.
pub fn format_multi_move<S: CellSet>(v: &MultiVariant<S>, m: Move) -> String {
    let b = v.board();
    let mut s = format!("{}-{}", b.cell_name(m.from()), b.cell_name(m.to()));
    if let Some(k) = m.promotion() {
        s.push('=');
        s.push(b.piece_def(k).letter);
    }
    s
}

/// Reads a coordinate move (`x` may stand for `-`) and checks that it is legal.
pub fn parse_multi_move<S: CellSet>(pos: &MultiPosition<S>, s: &str) -> Result<Move, MoveError> {
    let v = pos.variant();
    let b = v.board();
    let s = s.trim().trim_end_matches(['+', '#', '!', '?']);
    if s.is_empty() {
        return Err(MoveError::Empty);
    }
    let (from_s, to_s, promo) = split_coordinate(s).ok_or_else(|| MoveError::Syntax(s.to_string()))?;
    let from = b.parse_cell(from_s).ok_or_else(|| MoveError::BadCell(from_s.to_string()))?;
    let to = b.parse_cell(to_s).ok_or_else(|| MoveError::BadCell(to_s.to_string()))?;
    let promo = match promo {
        Some(c) => {
            Some(b.kind_of(c.to_ascii_uppercase()).filter(|_| c.is_ascii_alphabetic()).ok_or(MoveError::BadPiece(c))?)
        }
        None => None,
    };
    if pos.man_at(from).is_none_or(|(side, _)| side != pos.side_to_move()) {
        return Err(MoveError::NoPiece { side: pos.mover().name.to_string(), cell: from_s.to_string() });
    }
    let legal = pos.legal_moves();
    let same: Vec<Move> = legal.iter().copied().filter(|m| m.from() == from && m.to() == to).collect();
    if let Some(&m) = same.iter().find(|m| m.promotion() == promo) {
        return Ok(m);
    }
    let why = if same.iter().any(|m| m.promotion().is_some()) {
        let letters: Vec<String> = b.promotion_kinds().iter().map(|&k| b.piece_def(k).letter.to_string()).collect();
        format!(": a promotion needs =X with X one of {}", letters.join(" "))
    } else if promo.is_some() && !same.is_empty() {
        ": this move does not promote".to_string()
    } else if pos.is_check() {
        ": it does not answer the check".to_string()
    } else {
        String::new()
    };
    Err(MoveError::Illegal { mv: s.to_string(), why })
}

/// A diagram of a multi-player position, level by level (bottom first), each
/// cell two characters wide so that every side's men are told apart: `wK`
/// White's king, `kP` a Black pawn, `..` an empty cell, blank where the
/// bounding box has no cell; `marks` puts `xx` on cells (a man's moves).
pub fn render_multi_diagram<S: CellSet>(pos: &MultiPosition<S>, marks: S) -> String {
    let v = pos.variant();
    let b = v.board();
    let [w, h, d] = b.board().shape().dims();
    let label = h.to_string().len();
    let files: String = (0..w).map(|x| format!(" {} ", (b'a' + x as u8) as char)).collect();
    let mut out = String::new();
    for z in 0..d {
        let rows: Vec<i8> = (0..h)
            .rev()
            .filter(|&y| (0..w).any(|x| b.board().cell_at(raum_geometry::Coord::new(x, y, z)).is_some()))
            .collect();
        if rows.is_empty() {
            continue;
        }
        out.push_str(&format!("Level {}\n", b.level_name(z)));
        for y in rows {
            out.push_str(&format!("{:>label$} ", y + 1));
            for x in 0..w {
                let text = match b.board().cell_at(raum_geometry::Coord::new(x, y, z)) {
                    None => "  ".to_string(),
                    Some(c) if marks.has(c) => "xx".to_string(),
                    Some(c) => match pos.man_at(c) {
                        Some((side, kind)) => format!("{}{}", v.sides()[side].letter, b.piece_def(kind).letter),
                        None => "..".to_string(),
                    },
                };
                out.push_str(&text);
                out.push(' ');
            }
            out.truncate(out.trim_end().len());
            out.push('\n');
        }
        out.push_str(&format!("{:>label$}{}\n\n", "", files.trim_end()));
    }
    let key: Vec<String> = v.sides().iter().map(|s| format!("{} {}", s.letter, s.name)).collect();
    out.push_str(&format!("Sides: {}\n", key.join(", ")));
    out
}
