//! Position strings (RULES.md "Position string").

use crate::error::FenError;
use raum_bitboard::CellSet;
use raum_geometry::Coord;
use raum_rules::{CellNaming, Color, Piece, Position, Setup, Variant};

/// The name of level `z` for messages.
fn level_name<S: CellSet>(v: &Variant<S>, z: i8) -> String {
    match v.naming() {
        CellNaming::LevelFileRank { levels } => {
            levels.chars().nth(z as usize).map_or_else(|| z.to_string(), String::from)
        }
    }
}

/// One rank of the board field: its index and its existing cells, files low to high.
type Rank = (i8, Vec<usize>);

/// Existing cells of the board grouped as the board field lists them:
/// levels in notation order (with their index), ranks high to low.
fn layout<S: CellSet>(v: &Variant<S>) -> Vec<(i8, Vec<Rank>)> {
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

fn piece_letter<S: CellSet>(v: &Variant<S>, p: Piece) -> char {
    let l = v.piece_def(p.kind).letter;
    if p.color == Color::White { l } else { l.to_ascii_lowercase() }
}

/// Reads a position string into an unvalidated [`Setup`].
pub fn parse_setup<S: CellSet>(v: &Variant<S>, s: &str) -> Result<Setup, FenError> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    if !(4..=6).contains(&fields.len()) {
        return Err(FenError::FieldCount(fields.len()));
    }
    let mut setup = Setup::empty(v.cells());
    let layout = layout(v);
    let level_strs: Vec<&str> = fields[0].split('/').collect();
    if level_strs.len() != layout.len() {
        return Err(FenError::LevelCount { expected: layout.len(), found: level_strs.len() });
    }
    for ((z, ranks), level_str) in layout.iter().zip(&level_strs) {
        let level = level_name(v, *z);
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
                } else {
                    let kind = v.kind_of(c).filter(|_| c.is_ascii_alphabetic());
                    let Some(kind) = kind else {
                        return Err(FenError::BadPiece { level: level.clone(), rank, ch: c });
                    };
                    let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
                    if let Some(&cell) = cells.get(at) {
                        setup.board[cell] = Some(Piece::new(color, kind));
                    }
                    at += 1;
                }
            }
            if at != cells.len() {
                return Err(FenError::CellCount { level: level.clone(), rank, expected: cells.len(), found: at });
            }
        }
    }
    setup.side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(FenError::BadSide(other.to_string())),
    };
    setup.castling = match fields[2] {
        "-" => 0,
        "K" => 1,
        "k" => 2,
        "Kk" => 3,
        other => return Err(FenError::BadRights(other.to_string())),
    };
    if fields[3] != "-" {
        let (cells, victim) = match fields[3].split_once('@') {
            Some((c, p)) => (c, Some(p)),
            None => (fields[3], None),
        };
        let cell =
            |name: &str| v.parse_cell(name).ok_or_else(|| FenError::BadEnPassant(format!("'{name}' is not a cell")));
        for name in cells.split(',') {
            setup.ep.push(cell(name)?);
        }
        setup.ep.sort_unstable();
        setup.ep.dedup();
        if let Some(p) = victim {
            setup.ep_victim = Some(cell(p)?);
        }
    }
    let number = |i: usize, field: &'static str, default: u32| -> Result<u32, FenError> {
        match fields.get(i) {
            None => Ok(default),
            Some(s) => s.parse::<u32>().map_err(|_| FenError::BadNumber { field, found: s.to_string() }),
        }
    };
    setup.halfmove = number(4, "halfmove clock", 0)?;
    setup.fullmove = number(5, "fullmove number", 1)?;
    if setup.fullmove == 0 {
        return Err(FenError::BadNumber { field: "fullmove number", found: "0".into() });
    }
    Ok(setup)
}

/// Reads and validates a position string.
///
/// ```
/// use raum_rules::{Variant, VariantId};
/// let v = Variant::get(VariantId::FiveUp);
/// let err = raum_notation::parse_position(v, "5|5|5|5|5 w - -").unwrap_err();
/// assert_eq!(err.to_string(), "board: expected 5 levels separated by '/', found 1");
/// ```
pub fn parse_position<S: CellSet>(v: &'static Variant<S>, s: &str) -> Result<Position<S>, FenError> {
    let setup = parse_setup(v, s)?;
    Ok(Position::from_setup(v, setup)?)
}

/// Writes a position string (always with both clocks).
pub fn format_position<S: CellSet>(pos: &Position<S>) -> String {
    let v = pos.variant();
    let mut out = String::new();
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
                match pos.piece_at(c) {
                    Some(p) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(piece_letter(v, p));
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
        }
    }
    out.push(' ');
    out.push(pos.side_to_move().letter());
    out.push(' ');
    out.push_str(match pos.castling_rights() {
        0 => "-",
        1 => "K",
        2 => "k",
        _ => "Kk",
    });
    out.push(' ');
    let ep = pos.ep_cells();
    if ep.is_empty() {
        out.push('-');
    } else {
        let names: Vec<String> = ep.cells().map(|c| v.cell_name(c)).collect();
        out.push_str(&names.join(","));
        if let Some(victim) = pos.ep_victim().filter(|_| needs_victim(pos)) {
            out.push('@');
            out.push_str(&v.cell_name(victim));
        }
    }
    out.push_str(&format!(" {} {}", pos.halfmove_clock(), pos.fullmove_number()));
    out
}

/// Whether the en-passant cells alone do not name the pawn that moved: a single
/// cell is read as the middle of a straight double step, so an L step that left
/// only one middle cell empty needs `@`.
fn needs_victim<S: CellSet>(pos: &Position<S>) -> bool {
    let ep = pos.ep_cells();
    if ep.several() {
        return false;
    }
    let (Some(victim), Some(mid)) = (pos.ep_victim(), ep.cells().next()) else {
        return false;
    };
    let b = pos.variant().board();
    let (m, t) = (b.coord(mid), b.coord(victim));
    let step = raum_geometry::Vector::new(t.x - m.x, t.y - m.y, t.z - m.z);
    // Straight: the origin is one step behind the middle cell on the same line.
    let origin = b.cell_at(m.offset(step.neg()));
    !origin.is_some_and(|o| pos.variant().double_origin(pos.side_to_move().opponent(), o))
}

/// The start position's string.
pub fn start_string<S: CellSet>(v: &'static Variant<S>) -> String {
    format_position(&Position::start(v))
}
