//! Position strings (RULES.md "Position string").

use crate::error::FenError;
use raum_bitboard::CellSet;
use raum_geometry::Coord;
use raum_rules::{Color, Piece, Position, Setup, Variant};

/// The name of level `z` for messages.
fn level_name<S: CellSet>(v: &Variant<S>, z: i8) -> String {
    v.level_name(z)
}

/// The fields after `<board> <side> <rights> <ep>` a variant's strings carry
/// before the optional clocks (RULES.md "Per-variant fields").
fn extra_fields<S: CellSet>(v: &Variant<S>) -> Vec<&'static str> {
    let mut f = Vec::new();
    if v.free_pawn_sets() {
        f.push("axes");
    }
    if v.tracks_unmoved() {
        f.push("unmoved");
    }
    f
}

/// The expected layout of the fields, for messages.
fn field_layout<S: CellSet>(v: &Variant<S>) -> String {
    let mut parts = vec!["board", "side", "rights", "ep"];
    parts.extend(extra_fields(v));
    format!("{} [halfmove fullmove]", parts.join(" "))
}

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

fn piece_letter<S: CellSet>(v: &Variant<S>, p: Piece) -> char {
    let l = v.piece_def(p.kind).letter;
    if p.color == Color::White { l } else { l.to_ascii_lowercase() }
}

/// Reads a position string into an unvalidated [`Setup`].
pub fn parse_setup<S: CellSet>(v: &Variant<S>, s: &str) -> Result<Setup, FenError> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    let extra = extra_fields(v);
    let base = 4 + extra.len();
    if fields.len() != base && fields.len() != base + 2 {
        return Err(FenError::FieldCount { expected: field_layout(v), found: fields.len() });
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
                } else if c == '(' {
                    // A piece and its riding unicorn: `(WU)`, `(pu)`.
                    let mut inner = String::new();
                    let mut closed = false;
                    for c2 in chars.by_ref() {
                        if c2 == ')' {
                            closed = true;
                            break;
                        }
                        inner.push(c2);
                        if inner.chars().count() > 8 {
                            break;
                        }
                    }
                    let bad = |why: &str| FenError::BadShared {
                        level: level.clone(),
                        rank,
                        found: format!("({inner}{}", if closed { ")" } else { "" }),
                        why: why.to_string(),
                    };
                    let Some(rider) = v.rider() else {
                        return Err(bad(&format!("{} has no riding unicorns", v.id())));
                    };
                    if !closed {
                        return Err(bad("no closing ')'"));
                    }
                    let letters: Vec<char> = inner.chars().collect();
                    let [p, u] = letters[..] else {
                        return Err(bad("write a piece letter then the unicorn's, e.g. (WU)"));
                    };
                    let (Some(pk), Some(uk)) = (v.kind_of(p).filter(|_| p.is_ascii_alphabetic()), v.kind_of(u)) else {
                        return Err(bad("not piece letters of this variant"));
                    };
                    if uk != rider || !u.is_ascii_alphabetic() {
                        return Err(bad("the second letter must be the unicorn's (the piece comes first)"));
                    }
                    if pk == rider {
                        return Err(bad("two unicorns cannot share a cell"));
                    }
                    if p.is_ascii_uppercase() != u.is_ascii_uppercase() {
                        return Err(bad("a unicorn rides only with a piece of its own side"));
                    }
                    let color = if p.is_ascii_uppercase() { Color::White } else { Color::Black };
                    if let Some(&cell) = cells.get(at) {
                        setup.board[cell] = Some(Piece::new(color, pk));
                        setup.riders.push(cell);
                    }
                    at = at.saturating_add(1);
                } else {
                    let kind = v.kind_of(c).filter(|_| c.is_ascii_alphabetic());
                    let Some(kind) = kind else {
                        return Err(FenError::BadPiece { level: level.clone(), rank, ch: c });
                    };
                    let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
                    if let Some(&cell) = cells.get(at) {
                        setup.board[cell] = Some(Piece::new(color, kind));
                    }
                    // After a huge run count `at` is saturated: wrapping it back into
                    // range would accept a malformed rank.
                    at = at.saturating_add(1);
                }
            }
            if at != cells.len() {
                return Err(FenError::CellCount { level: level.clone(), rank, expected: cells.len(), found: at });
            }
        }
    }
    setup.riders.sort_unstable();
    setup.side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(FenError::BadSide(other.to_string())),
    };
    setup.castling = parse_rights(v, fields[2])?;
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
    for (i, name) in extra.iter().enumerate() {
        let field = fields[4 + i];
        match *name {
            "axes" => setup.pawn_sets = parse_axes(v, field)?,
            _ => setup.unmoved = Some(parse_cell_list(v, field).map_err(FenError::BadUnmoved)?),
        }
    }
    setup.halfmove = number(base, "halfmove clock", 0)?;
    setup.fullmove = number(base + 1, "fullmove number", 1)?;
    if setup.fullmove == 0 {
        return Err(FenError::BadNumber { field: "fullmove number", found: "0".into() });
    }
    Ok(setup)
}

/// `-` or a comma-separated list of cell names.
fn parse_cell_list<S: CellSet>(v: &Variant<S>, field: &str) -> Result<Vec<usize>, String> {
    if field == "-" {
        return Ok(Vec::new());
    }
    let mut cells = Vec::new();
    for name in field.split(',') {
        let cell = v.parse_cell(name).ok_or_else(|| format!("'{name}' is not a cell of {}", v.id()))?;
        if cells.contains(&cell) {
            return Err(format!("{name} is listed twice"));
        }
        cells.push(cell);
    }
    cells.sort_unstable();
    Ok(cells)
}

/// The castling field: `Kk` (Five Up), `KQkq` letters (Octahedral) or the
/// rook cells whose right is held (Betza).
fn parse_rights<S: CellSet>(v: &Variant<S>, field: &str) -> Result<u16, FenError> {
    let slots: Vec<_> = v.castle_slots().collect();
    let bad = |why: String| FenError::BadRights { found: field.to_string(), why };
    if field == "-" {
        return Ok(0);
    }
    if !v.has_castling() {
        return Err(bad(format!("{} has no castling: write '-'", v.id())));
    }
    if slots.is_empty() {
        return match field {
            "K" => Ok(1),
            "k" => Ok(2),
            "Kk" => Ok(3),
            _ => Err(bad("expected '-', 'K', 'k' or 'Kk'".into())),
        };
    }
    let mut rights = 0u16;
    if slots.iter().all(|s| s.1.is_some()) {
        let letters: String = slots.iter().filter_map(|s| s.1).collect();
        for ch in field.chars() {
            let i = slots
                .iter()
                .position(|s| s.1 == Some(ch))
                .ok_or_else(|| bad(format!("'{ch}' is not one of {letters}")))?;
            if rights >> i & 1 == 1 {
                return Err(bad(format!("'{ch}' is given twice")));
            }
            rights |= 1 << i;
        }
    } else {
        for cell in parse_cell_list(v, field).map_err(bad)? {
            let i = slots
                .iter()
                .position(|s| s.4 == cell)
                .ok_or_else(|| bad(format!("{} is not a castling rook's start cell", v.cell_name(cell))))?;
            rights |= 1 << i;
        }
    }
    Ok(rights)
}

/// The pawn-axes field of The Book of 3D-Chess: White's and Black's, `+yz,-yz`.
fn parse_axes<S: CellSet>(v: &Variant<S>, field: &str) -> Result<[u8; 2], FenError> {
    let bad = |why: String| FenError::BadAxes { found: field.to_string(), why };
    let parts: Vec<&str> = field.split(',').collect();
    let [white, black] = parts[..] else {
        return Err(bad("expected White's and Black's axes separated by a comma, e.g. '+yz,-yz'".into()));
    };
    let set = |s: &str| {
        v.pawn_set_by_name(s).map(|i| i as u8).ok_or_else(|| {
            bad(format!("'{s}' is not a sign, a forward axis and a different altus axis (x, y, z), e.g. '+yz'"))
        })
    };
    Ok([set(white)?, set(black)?])
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
                        match v.rider().filter(|_| pos.rider_at(c)) {
                            Some(r) => {
                                out.push('(');
                                out.push(piece_letter(v, p));
                                out.push(piece_letter(v, Piece::new(p.color, r)));
                                out.push(')');
                            }
                            None => out.push(piece_letter(v, p)),
                        }
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
    out.push_str(&format_rights(pos));
    out.push(' ');
    let ep = pos.ep_cells();
    if ep.is_empty() {
        out.push('-');
    } else {
        let names: Vec<String> = ep.cells().map(|c| v.cell_name(c)).collect();
        out.push_str(&names.join(","));
        if let Some(victim) = pos.ep_victim().filter(|_| pos.ep_needs_victim()) {
            out.push('@');
            out.push_str(&v.cell_name(victim));
        }
    }
    if v.free_pawn_sets() {
        let w = v.pawn_set_name(pos.pawn_set(Color::White));
        let b = v.pawn_set_name(pos.pawn_set(Color::Black));
        out.push_str(&format!(" {w},{b}"));
    }
    if v.tracks_unmoved() {
        out.push(' ');
        out.push_str(&cell_list(v, pos.unmoved()));
    }
    out.push_str(&format!(" {} {}", pos.halfmove_clock(), pos.fullmove_number()));
    out
}

/// `-` or the cells' names, comma-separated, in cell order.
fn cell_list<S: CellSet>(v: &Variant<S>, cells: S) -> String {
    if cells.is_empty() {
        return "-".into();
    }
    cells.cells().map(|c| v.cell_name(c)).collect::<Vec<_>>().join(",")
}

/// The castling field as [`parse_rights`] reads it.
fn format_rights<S: CellSet>(pos: &Position<S>) -> String {
    let v = pos.variant();
    let rights = pos.castling_rights();
    let slots: Vec<_> = v.castle_slots().collect();
    if rights == 0 {
        return "-".into();
    }
    if slots.is_empty() {
        return match rights {
            1 => "K",
            2 => "k",
            _ => "Kk",
        }
        .into();
    }
    let held = slots.iter().enumerate().filter(|(i, _)| rights >> i & 1 == 1);
    if slots.iter().all(|s| s.1.is_some()) {
        held.filter_map(|(_, s)| s.1).collect()
    } else {
        let rooks = held.fold(S::EMPTY, |acc, (_, s)| acc | S::single(s.4));
        cell_list(v, rooks)
    }
}

/// The start position's string.
pub fn start_string<S: CellSet>(v: &'static Variant<S>) -> String {
    format_position(&Position::start(v))
}
