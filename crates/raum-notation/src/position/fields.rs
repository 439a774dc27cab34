//! The fields of a two-player position string after the board and the side:
//! castling rights, en passant, and the per-variant fields (RULES.md
//! "Per-variant fields": the Book's pawn axes, the unmoved pawns of the games
//! that keep them). A multi-player game writes `-` for rights and en passant
//! and has no per-variant fields.

use crate::error::FenError;
use raum_bitboard::CellSet;
use raum_rules::{Color, Position, Setup, Variant};

/// The fields after `<board> <side> <rights> <ep>` a variant's strings carry
/// before the optional clocks (RULES.md "Per-variant fields").
pub(super) fn extra_fields<S: CellSet>(v: &Variant<S>) -> Vec<&'static str> {
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
pub(super) fn field_layout<S: CellSet>(v: &Variant<S>) -> String {
    let mut parts = vec!["board", "side", "rights", "ep"];
    parts.extend(extra_fields(v));
    format!("{} [halfmove fullmove]", parts.join(" "))
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

/// Reads the rights, en-passant and per-variant fields (`fields[2..]`, the
/// clocks aside) into `setup`.
pub(super) fn read_fields<S: CellSet>(v: &Variant<S>, fields: &[&str], setup: &mut Setup) -> Result<(), FenError> {
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
    for (i, name) in extra_fields(v).iter().enumerate() {
        let field = fields[4 + i];
        match *name {
            "axes" => setup.pawn_sets = parse_axes(v, field)?,
            _ => setup.unmoved = Some(parse_cell_list(v, field).map_err(FenError::BadUnmoved)?),
        }
    }
    Ok(())
}

/// Writes the rights, en-passant and per-variant fields, each after a space.
pub(super) fn write_fields<S: CellSet>(pos: &Position<S>, out: &mut String) {
    let v = pos.variant();
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
}
