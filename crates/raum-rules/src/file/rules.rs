//! `[castling]` and `[rules]`: the named hooks a file switches on.

use super::reader::{Reader, Table, letter};
use crate::piece::Color;
use crate::piece_def::{Motion, PieceDef, Role};
use crate::spec::{CastleSlot, CastlingRule, CellNaming, Mirror, StalemateRule};
use raum_geometry::{Coord, Shape};

/// The keys of `[rules]`.
pub(crate) const RULES_KEYS: &[&str] =
    &["king-in-check", "stalemate", "noncombatant", "rider", "move-limit", "repetition"];

/// The keys of `[castling]`.
pub(crate) const CASTLING_KEYS: &[&str] = &["kind", "partner", "slots"];

/// What `[rules]` says.
pub(crate) struct RulesDef {
    pub king_in_check: Option<Motion>,
    pub stalemate: StalemateRule,
    pub noncombatant: bool,
    pub rider: Option<char>,
    pub move_limit: u16,
    pub repetition: u8,
}

/// Reads `[rules]` (every key optional).
pub(crate) fn read_rules(t: Option<Table>, pieces: &[PieceDef], r: &mut Reader) -> RulesDef {
    let mut out = RulesDef {
        king_in_check: None,
        stalemate: StalemateRule::Draw,
        noncombatant: false,
        rider: None,
        move_limit: 50,
        repetition: 3,
    };
    let Some(mut t) = t else { return out };
    if let Some((s, at)) = t.str("king-in-check", r) {
        let path = t.key_path("king-in-check");
        match super::motion::parse(s) {
            Err((i, m)) => r.error_in(at, i, &path, m),
            Ok(parts) => {
                let mut m = Motion::default();
                for p in &parts {
                    if p.rider || matches!(p.atom, super::motion::Atom::Piece(_)) || p.mode != super::motion::Mode::Both
                    {
                        r.error_in(at, p.at, &path, "the king's moves in check are plain steps or leaps");
                        continue;
                    }
                    if let Ok(pm) = super::motion::part_motion(p) {
                        m = m.with(pm);
                    }
                }
                out.king_in_check = Some(super::motion::canonical(m));
            }
        }
    }
    match t.str("stalemate", r) {
        None | Some(("draw", _)) => {}
        Some(("three-fifths", _)) => out.stalemate = StalemateRule::ThreeFifths,
        Some((other, at)) => r.error(
            at,
            &t.key_path("stalemate"),
            format!("unknown stalemate rule '{other}' (known: draw, three-fifths)"),
        ),
    }
    out.noncombatant = t.bool("noncombatant", r);
    match t.int("move-limit", r) {
        None => {}
        Some((n, _)) if (0..=1000).contains(&n) => out.move_limit = n as u16,
        Some((_, at)) => r.error(at, &t.key_path("move-limit"), "the move limit is 0 (none) to 1000 moves"),
    }
    match t.int("repetition", r) {
        None => {}
        Some((n, _)) if n == 0 || (2..=9).contains(&n) => out.repetition = n as u8,
        Some((_, at)) => r.error(at, &t.key_path("repetition"), "a position repeated 2 to 9 times draws, or 0: never"),
    }
    if let Some((s, at)) = t.str("rider", r) {
        match letter(s).and_then(|l| pieces.iter().find(|p| p.letter == l)) {
            None => r.error(at, &t.key_path("rider"), format!("no piece has the letter '{s}'")),
            Some(p) if p.role != Role::Piece => {
                r.error(at, &t.key_path("rider"), "the riding piece is neither a king nor a pawn")
            }
            Some(p) => out.rider = Some(p.letter),
        }
    }
    t.finish(r, RULES_KEYS);
    out
}

/// Reads `[castling]`: `kind = "none" | "swap-once" | "slots"`, the partner's
/// letter, and for slots White's castlings (Black's are their images).
pub(crate) fn read_castling(
    t: Option<Table>,
    pieces: &[PieceDef],
    naming: CellNaming,
    shape: &Shape,
    mirror: Option<Mirror>,
    r: &mut Reader,
) -> CastlingRule {
    let Some(mut t) = t else { return CastlingRule::None };
    let kind = t.req_str("kind", r);
    let partner = t.str("partner", r);
    let slots = t.tables("slots", r);
    let rook = |r: &mut Reader, t: &Table| -> Option<char> {
        let Some((s, at)) = partner else {
            r.error(t.at, &t.key_path("partner"), "missing: the letter of the piece the king castles with");
            return None;
        };
        let p = letter(s).and_then(|l| pieces.iter().find(|p| p.letter == l && p.role == Role::Piece));
        if p.is_none() {
            r.error(at, &t.key_path("partner"), format!("'{s}' is not the letter of a piece (not a king or pawn)"));
        }
        p.map(|p| p.letter)
    };
    let rule = match kind {
        None | Some(("none", _)) => CastlingRule::None,
        Some(("swap-once", _)) => match rook(r, &t) {
            Some(rook) => CastlingRule::SwapOnce { rook },
            None => CastlingRule::None,
        },
        Some(("slots", at)) => {
            let rook = rook(r, &t);
            if slots.is_empty() {
                r.error(at, &t.key_path("slots"), "castling by slots needs at least one slot");
            }
            let white: Vec<CastleSlot> = slots.into_iter().filter_map(|s| slot(s, naming, shape, r)).collect();
            match (rook, mirror) {
                (Some(rook), Some(m)) => {
                    let dims = shape.dims();
                    let black = white.iter().map(|s| {
                        let c = |x: Coord| m.cell(x, dims);
                        CastleSlot {
                            color: Color::Black,
                            letter: s.letter.map(|l| l.to_ascii_lowercase()),
                            king: s.king.map(c),
                            rook: s.rook.map(c),
                            empty: s.empty.iter().map(|&x| c(x)).collect(),
                            crossed: s.crossed.iter().map(|&x| c(x)).collect(),
                        }
                    });
                    let slots = white.iter().cloned().chain(black).collect();
                    CastlingRule::Slots { rook, slots }
                }
                _ => CastlingRule::None,
            }
        }
        Some((other, at)) => {
            r.error(at, &t.key_path("kind"), format!("unknown castling '{other}' (known: none, swap-once, slots)"));
            CastlingRule::None
        }
    };
    if mirror.is_none() && rule != CastlingRule::None {
        r.error(t.at, "castling", "castling in a game of more than two sides is not supported yet");
    }
    t.finish(r, CASTLING_KEYS);
    rule
}

/// One of White's castlings.
fn slot(mut t: Table, naming: CellNaming, shape: &Shape, r: &mut Reader) -> Option<CastleSlot> {
    let cells = |t: &mut Table, key: &str, r: &mut Reader, n: Option<usize>| -> Option<Vec<Coord>> {
        let (s, at) = if n.is_some() { t.req_str(key, r)? } else { t.str(key, r).unwrap_or(("", t.at)) };
        let path = t.key_path(key);
        let mut out = Vec::new();
        for name in s.split_whitespace() {
            let c = super::board::coord(name, at, &path, naming, shape.dims(), r)?;
            if !shape.contains(c) {
                r.error(at, &path, format!("{name} is not on the board"));
                return None;
            }
            out.push(c);
        }
        if let Some(n) = n.filter(|&n| n != out.len()) {
            r.error(at, &path, format!("expected {n} cells, the start and the destination"));
            return None;
        }
        Some(out)
    };
    let king = cells(&mut t, "king", r, Some(2));
    let rook = cells(&mut t, "rook", r, Some(2));
    let empty = cells(&mut t, "empty", r, None);
    let crossed = cells(&mut t, "crossed", r, None);
    let letter = match t.str("letter", r) {
        None => None,
        Some((s, at)) => match letter(s).filter(char::is_ascii_uppercase) {
            Some(l) => Some(l),
            None => {
                r.error(at, &t.key_path("letter"), "the right's letter is one capital (Black's is its lower case)");
                None
            }
        },
    };
    t.finish(r, &["letter", "king", "rook", "empty", "crossed"]);
    let (king, rook) = (king?, rook?);
    Some(CastleSlot {
        color: Color::White,
        letter,
        king: [king[0], king[1]],
        rook: [rook[0], rook[1]],
        empty: empty?,
        crossed: crossed?,
    })
}
