//! `[pieces]` and `[army]`: the piece table, each piece's movement, and
//! White's army.

use super::motion::{self, ATOM_LETTERS, Atom, Mode, Part};
use super::reader::{Reader, Table, letter};
use super::tree::{Loc, Val};
use crate::piece_def::{Motion, PieceDef, Role};
use crate::spec::CellNaming;
use raum_geometry::{Coord, Shape};

/// A piece as read, before references between pieces are resolved.
struct Raw {
    letter: char,
    name: String,
    role: Role,
    parts: Vec<Part>,
    moves_at: Option<(Loc, String)>,
}

/// Reads `[pieces]`: letter = { name, role, moves }, or `false` to drop a
/// piece of the file this one extends.
pub(crate) fn read_pieces(mut t: Table, r: &mut Reader) -> Vec<(PieceDef, String)> {
    let mut raw: Vec<Raw> = Vec::new();
    for e in t.entries() {
        let path = t.key_path(&e.key);
        let Some(l) = letter(&e.key).filter(|c| c.is_ascii_uppercase()) else {
            r.error(e.key_at, &path, "a piece's key is its letter, one capital A-Z");
            continue;
        };
        if ATOM_LETTERS.contains(&l) {
            r.error(
                e.key_at,
                &path,
                format!("'{l}' names a direction family in movements; give the piece another letter"),
            );
            continue;
        }
        if matches!(e.node.val, Val::Bool(false)) {
            continue;
        }
        let Some(mut p) = Table::of(&e.node, &path, r) else { continue };
        let name = p.req_str("name", r).map(|(s, _)| s.to_string()).unwrap_or_default();
        let role = match p.str("role", r) {
            None | Some(("piece", _)) => Role::Piece,
            Some(("king", _)) => Role::King,
            Some(("pawn", _)) => Role::Pawn,
            Some((other, at)) => {
                r.error(at, &p.key_path("role"), format!("unknown role '{other}' (known: king, pawn, piece)"));
                p.get("moves");
                p.finish(r, &["name", "role", "moves"]);
                continue;
            }
        };
        let mut parts = Vec::new();
        let mut moves_at = None;
        match (p.str("moves", r), role) {
            (Some((_, at)), Role::Pawn) => {
                r.error(at, &p.key_path("moves"), "a pawn moves by the [pawn] section, not by a movement");
            }
            (None, Role::Pawn) => {}
            (None, _) => r.error(p.at, &p.key_path("moves"), "missing"),
            (Some((s, at)), _) => match motion::parse(s) {
                Ok(ps) => {
                    parts = ps;
                    moves_at = Some((at, p.key_path("moves")));
                }
                Err((i, m)) => r.error_in(at, i, &p.key_path("moves"), m),
            },
        }
        p.finish(r, &["name", "role", "moves"]);
        raw.push(Raw { letter: l, name, role, parts, moves_at });
    }
    let mut out = Vec::new();
    for i in 0..raw.len() {
        let (moves, captures) = resolve(&raw, i, &mut Vec::new(), r).unwrap_or_default();
        let p = &raw[i];
        let def = PieceDef {
            letter: p.letter,
            name: "",
            role: p.role,
            moves: motion::canonical(moves),
            captures: motion::canonical(captures),
        };
        out.push((def, p.name.clone()));
    }
    out
}

/// The moves and captures of piece `i`, following references to other
/// pieces; `None` after reporting a problem.
fn resolve(raw: &[Raw], i: usize, stack: &mut Vec<usize>, r: &mut Reader) -> Option<(Motion, Motion)> {
    let p = &raw[i];
    let (at, path) = p.moves_at.clone().unwrap_or((Loc { src: 0, start: 0 }, String::new()));
    let mut moves = Motion::default();
    let mut captures = Motion::default();
    stack.push(i);
    let mut ok = true;
    for part in &p.parts {
        let m = match part.atom {
            Atom::Piece(l) => {
                if part.rider {
                    r.error_in(at, part.at, &path, format!("'{l}*': a piece cannot be a rider's step"));
                    ok = false;
                    continue;
                }
                let Some(j) = raw.iter().position(|q| q.letter == l) else {
                    r.error_in(at, part.at, &path, format!("no piece has the letter '{l}'"));
                    ok = false;
                    continue;
                };
                if raw[j].role == Role::Pawn {
                    r.error_in(at, part.at, &path, format!("'{l}' is a pawn, which has no movement to borrow"));
                    ok = false;
                    continue;
                }
                if stack.contains(&j) {
                    r.error_in(
                        at,
                        part.at,
                        &path,
                        format!("'{l}' refers back to this piece: the movements go round in a circle"),
                    );
                    ok = false;
                    continue;
                }
                let Some((jm, jc)) = resolve(raw, j, stack, r) else {
                    ok = false;
                    continue;
                };
                (jm, jc)
            }
            _ => match motion::part_motion(part) {
                Ok(m) => (m.clone(), m),
                Err((o, msg)) => {
                    r.error_in(at, o, &path, msg);
                    ok = false;
                    continue;
                }
            },
        };
        if part.mode != Mode::Capture {
            moves = moves.with(m.0);
        }
        if part.mode != Mode::Move {
            captures = captures.with(m.1);
        }
    }
    stack.pop();
    ok.then_some((moves, captures))
}

/// Reads `army.white`: rows such as `"Ea1 RWKGR"`, a cell and then one
/// letter per file from it (`.` leaves a cell empty). A letter on a cell that
/// already holds a man is allowed only for the riding piece.
pub(crate) fn read_army(
    rows: Vec<(&str, Loc, String)>,
    pieces: &[PieceDef],
    rider: Option<char>,
    naming: CellNaming,
    shape: &Shape,
    r: &mut Reader,
) -> Vec<(Coord, char)> {
    let mut army: Vec<(Coord, char)> = Vec::new();
    for (s, at, path) in rows {
        let Some((cell, letters)) = s.trim().split_once(char::is_whitespace) else {
            r.error(at, &path, "a row is a cell and letters, as \"Ea1 RWKGR\"");
            continue;
        };
        let Some(start) = super::board::coord(cell, at, &path, naming, shape.dims(), r) else { continue };
        let offset = s.len() - s.trim_start().len() + cell.len() + (letters.len() - letters.trim_start().len()) + 1;
        for (i, l) in letters.trim().chars().enumerate() {
            let x = i32::from(start.x) + i as i32;
            if x >= i32::from(shape.dims()[0]) {
                r.error_in(at, offset + i, &path, format!("'{l}' would stand past the board's last file"));
                break;
            }
            let c = Coord::new(x as i8, start.y, start.z);
            if l == '.' {
                continue;
            }
            if !shape.contains(c) {
                r.error_in(at, offset + i, &path, format!("'{l}' would stand on a cell that is not on the board"));
                break;
            }
            if !pieces.iter().any(|p| p.letter == l) {
                r.error_in(at, offset + i, &path, format!("no piece has the letter '{l}'"));
                continue;
            }
            if army.iter().any(|&(o, _)| o == c) && rider != Some(l) {
                r.error_in(at, offset + i, &path, "a second man on one cell (only the riding piece may share a cell)");
                continue;
            }
            army.push((c, l));
        }
    }
    army
}
