//! Text diagrams. Two sides: in the seed documents' style, levels side by
//! side, rank numbers on every other level, file letters and level names
//! underneath. More sides ([`render_multi_diagram`]): a level under another,
//! each man two characters (side, piece).
//!
//! ```text
//!    _ _ _ _ _     _ _ _ _ _     _ _ _ _ _     _ _ _ _ _     _ _ _ _ _
//! 5 |r|w|k|g|r|   |n|b|q|n|b| 5 |_|_|_|_|_|   |_|_|_|_|_| 5 |_|_|_|_|_|
//! ...
//! A  a b c d e  B  a b c d e  C  a b c d e  D  a b c d e  E  a b c d e
//! ```

use raum_bitboard::CellSet;
use raum_geometry::Coord;
use raum_rules::multi::MultiPosition;
use raum_rules::{CellNaming, Color, Setup, Variant};

/// Cells to mark instead of showing their contents, as the seed figures mark a
/// piece's destinations.
#[derive(Clone, Copy, Debug)]
pub struct Marks<S> {
    /// Cells drawn as `mark`.
    pub cells: S,
    /// The marking character (the seeds use `x`).
    pub mark: char,
}

/// Draws a board like the seed's figures. Black pawns are drawn `o`, as the
/// seed does, so they stand out from White's `P`. Takes a [`Setup`] so that
/// figure-style boards (a lone piece, no kings) can be drawn too.
///
/// ```
/// use raum_rules::{Position, Variant, VariantId};
/// let pos = Position::start(Variant::get(VariantId::FiveUp));
/// let text = raum_notation::render_diagram(pos.variant(), &pos.to_setup(), None);
/// assert!(text.lines().nth(1).unwrap().starts_with("5 |r|w|k|g|r|   |n|b|q|n|b| 5 |_|"));
/// ```
pub fn render_diagram<S: CellSet>(v: &Variant<S>, setup: &Setup, marks: Option<Marks<S>>) -> String {
    let [w, h, d] = v.board().shape().dims();
    let level_names: Vec<String> = (0..d).map(|z| v.level_name(z)).collect();
    let name_width = level_names.iter().map(|n| n.chars().count()).max().unwrap_or(1);
    let label_width = h.to_string().len().max(name_width);
    let upper_files = matches!(v.naming(), CellNaming::FileRankGreek);
    let block_width = label_width + 2 * w as usize + 2;
    // As many levels side by side as fit in a 100-column terminal.
    let per_row = ((DIAGRAM_COLUMNS + 1) / (block_width + 1)).max(1);
    let mut out = String::new();
    let levels: Vec<i8> = (0..d).collect();
    for row in levels.chunks(per_row) {
        let mut lines = Vec::new();
        let header: Vec<String> =
            row.iter().map(|_| format!("{}  {} ", " ".repeat(label_width), vec!["_"; w as usize].join(" "))).collect();
        lines.push(header.join(" "));
        for y in (0..h).rev() {
            let mut parts = Vec::new();
            for (i, &z) in row.iter().enumerate() {
                let label = if i % 2 == 0 { format!("{:>label_width$}", y + 1) } else { " ".repeat(label_width) };
                // A wall stands beside every cell that exists; where the
                // bounding box has no cell there is only blank (irregular boards).
                let exists = |x: i8| (0..w).contains(&x) && v.board().cell_at(Coord::new(x, y, z)).is_some();
                let wall = |x: i8| if exists(x - 1) || exists(x) { '|' } else { ' ' };
                let mut s = format!("{label} ");
                for x in 0..w {
                    s.push(wall(x));
                    s.push(cell_char(v, setup, marks, Coord::new(x, y, z)));
                }
                s.push(wall(w));
                parts.push(s);
            }
            lines.push(parts.join(" "));
        }
        let footer: Vec<String> = row
            .iter()
            .map(|&z| {
                let name = &level_names[z as usize];
                let base = if upper_files { b'A' } else { b'a' };
                let files: Vec<String> = (0..w).map(|x| ((base + x as u8) as char).to_string()).collect();
                let pad = label_width - name.chars().count();
                format!("{name}{}  {} ", " ".repeat(pad), files.join(" "))
            })
            .collect();
        lines.push(footer.join(" "));
        out.push_str(&lines.join("\n"));
        out.push('\n');
    }
    // A cell shows one letter: shared cells (a piece and its riding unicorn)
    // are listed under the levels, as position strings write them.
    if let (Some(r), false) = (v.rider(), setup.riders.is_empty()) {
        let shared: Vec<String> = setup
            .riders
            .iter()
            .filter_map(|&c| {
                let p = setup.board.get(c).copied().flatten()?;
                let letter = |k| {
                    let l = v.piece_def(k).letter;
                    if p.color == raum_rules::Color::White { l } else { l.to_ascii_lowercase() }
                };
                Some(format!("{} ({}{})", v.cell_name(c), letter(p.kind), letter(r)))
            })
            .collect();
        out.push_str(&format!("Riding unicorns: {}\n", shared.join(", ")));
    }
    if v.is_reconstruction() {
        out.push_str(RECONSTRUCTION_NOTE);
        out.push('\n');
    }
    out
}

/// What a diagram of a reconstructed board says under it (Savard's boards:
/// RULES.md rebuilds them from the seed's words, its pictures being lost).
pub const RECONSTRUCTION_NOTE: &str = "Board: a reconstruction (RULES.md; the seed's pictures are lost)";

/// The widest line a diagram may have: levels wrap into rows beyond it.
pub const DIAGRAM_COLUMNS: usize = 100;

/// What one cell shows: a piece letter (Black's pawns `o`), `_` for an empty
/// cell, the mark, or a blank where the bounding box has no cell.
fn cell_char<S: CellSet>(v: &Variant<S>, setup: &Setup, marks: Option<Marks<S>>, at: Coord) -> char {
    match v.board().cell_at(at) {
        None => ' ',
        Some(c) if marks.is_some_and(|m| m.cells.has(c)) => marks.map_or('x', |m| m.mark),
        Some(c) => match setup.board.get(c).copied().flatten() {
            None => '_',
            Some(p) if Some(p.kind) == v.pawn() && p.color == Color::Black => 'o',
            Some(p) => {
                let l = v.piece_def(p.kind).letter;
                if p.color == Color::White { l } else { l.to_ascii_lowercase() }
            }
        },
    }
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
        let rows: Vec<i8> =
            (0..h).rev().filter(|&y| (0..w).any(|x| b.board().cell_at(Coord::new(x, y, z)).is_some())).collect();
        if rows.is_empty() {
            continue;
        }
        out.push_str(&format!("Level {}\n", b.level_name(z)));
        for y in rows {
            out.push_str(&format!("{:>label$} ", y + 1));
            for x in 0..w {
                let text = match b.board().cell_at(Coord::new(x, y, z)) {
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
