//! Descriptive moves as the seed games write them: `P-Cc2`, `BxCe4`,
//! `P(Dd2)-Dd3`, `N-Bc1`, or a bare destination `Cc2` for the one pawn that can
//! go there; `=Q` promotes; `+`/`#` mark check and mate. Castling is written as
//! the king's move to its rook's cell: `K-Ea1`.
//!
//! Where unicorns ride (Five Up's unicorn variant) the letter names who moves:
//! `U-Dd2` the unicorn (alone, or a lone one), `W-Cd3` the wizard (alone, or a
//! lone one), `W+U-Cc2` the pair.

use crate::error::MoveError;
use crate::moves::format_move;
use raum_rules::{Kind, Move, MoveKind, Part, Position, Width};

/// Who makes a move: the kind that moves, and whether its riding unicorn
/// goes with it (a pair).
fn mover<S: Width>(pos: &Position<S>, m: Move) -> Option<(Kind, bool)> {
    match (m.shared_piece(), m.part()) {
        (Some(k), Part::Whole) => Some((k, true)),
        (Some(k), Part::Piece) => Some((k, false)),
        (Some(_), Part::Unicorn) => pos.variant().rider().map(|r| (r, false)),
        (None, _) => pos.piece_at(m.from()).map(|p| (p.kind, false)),
    }
}

struct Parsed {
    kind: Option<Kind>,
    /// `W+U`: the piece with its riding unicorn.
    pair: bool,
    from: Option<usize>,
    to: usize,
    promo: Option<Kind>,
}

fn parse_parts<S: Width>(pos: &Position<S>, s: &str) -> Result<Parsed, MoveError> {
    let v = pos.variant();
    let (body, promo) = match s.split_once('=') {
        Some((b, p)) => {
            let mut cs = p.chars();
            let c = cs.next().ok_or_else(|| MoveError::Syntax(s.to_string()))?;
            if cs.next().is_some() {
                return Err(MoveError::Syntax(s.to_string()));
            }
            (b, Some(v.kind_of(c).filter(|_| c.is_ascii_alphabetic()).ok_or(MoveError::BadPiece(c))?))
        }
        None => (s, None),
    };
    if let Some(to) = v.parse_cell(body) {
        return Ok(Parsed { kind: v.pawn(), pair: false, from: None, to, promo });
    }
    let mut chars = body.chars();
    let letter = chars.next().ok_or(MoveError::Empty)?;
    let rest = chars.as_str();
    if !letter.is_ascii_uppercase() {
        return Err(MoveError::Syntax(s.to_string()));
    }
    let kind = v.kind_of(letter).ok_or(MoveError::BadPiece(letter))?;
    // `W+U`: a piece with its riding unicorn.
    let (pair, rest) = match (rest.strip_prefix('+'), v.rider()) {
        (Some(r), Some(rider)) if r.chars().next().is_some_and(|c| v.kind_of(c) == Some(rider)) => (true, &r[1..]),
        _ => (false, rest),
    };
    let (from, rest) = match rest.strip_prefix('(') {
        Some(r) => {
            let (cell, after) = r.split_once(')').ok_or_else(|| MoveError::Syntax(s.to_string()))?;
            (Some(v.parse_cell(cell).ok_or_else(|| MoveError::BadCell(cell.to_string()))?), after)
        }
        None => match split_cells(v, rest) {
            // Seed 003's piece-plus-coordinates form: `N4g8-4f6`.
            Some((from, to)) => return Ok(Parsed { kind: Some(kind), pair, from: Some(from), to, promo }),
            None => (None, rest),
        },
    };
    let rest = rest.strip_prefix(['-', 'x']).unwrap_or(rest);
    let to = v.parse_cell(rest).ok_or_else(|| {
        if rest.len() >= 3 { MoveError::BadCell(rest.to_string()) } else { MoveError::Syntax(s.to_string()) }
    })?;
    Ok(Parsed { kind: Some(kind), pair, from, to, promo })
}

/// `4g8-4f6` or `4g8x4f6` as two cells.
fn split_cells<S: Width>(v: &raum_rules::Variant<S>, s: &str) -> Option<(usize, usize)> {
    s.match_indices(['-', 'x']).find_map(|(i, _)| Some((v.parse_cell(&s[..i])?, v.parse_cell(&s[i + 1..])?)))
}

/// Reads a descriptive move and finds the one legal move it names.
///
/// ```
/// use raum_rules::{Position, Variant, VariantId};
/// let pos = Position::start(Variant::get(VariantId::FiveUp));
/// let m = raum_notation::parse_descriptive(&pos, "N-Bc1").unwrap();
/// assert_eq!(raum_notation::format_move(pos.variant(), m), "Dd1-Bc1");
/// assert!(raum_notation::parse_descriptive(&pos, "Q-Cc3").is_err());
/// ```
pub fn parse_descriptive<S: Width>(pos: &Position<S>, s: &str) -> Result<Move, MoveError> {
    let v = pos.variant();
    let s = s.trim().trim_end_matches(['+', '#', '!', '?']);
    if s.is_empty() {
        return Err(MoveError::Empty);
    }
    let p = parse_parts(pos, s)?;
    let legal = pos.legal_moves();
    let fits = |m: &Move| {
        m.to() == p.to && p.from.is_none_or(|f| f == m.from()) && mover(pos, *m) == p.kind.map(|k| (k, p.pair))
    };
    let candidates: Vec<Move> = legal.iter().copied().filter(fits).collect();
    let chosen: Vec<Move> = candidates.iter().copied().filter(|m| m.promotion() == p.promo).collect();
    match chosen.as_slice() {
        [m] => Ok(*m),
        [] => {
            let why = if p.promo.is_none() && candidates.iter().any(|m| m.promotion().is_some()) {
                ": a promotion needs =X".to_string()
            } else {
                String::new()
            };
            Err(MoveError::Illegal { mv: s.to_string(), why })
        }
        many => Err(MoveError::Ambiguous {
            mv: s.to_string(),
            options: many.iter().map(|&m| format_move(v, m)).collect::<Vec<_>>().join(" or "),
        }),
    }
}

/// Writes a legal move in the shortest unambiguous descriptive form, with `+`
/// or `#` when it checks or mates.
///
/// ```
/// use raum_rules::{Position, Variant, VariantId};
/// let pos = Position::start(Variant::get(VariantId::FiveUp));
/// let m = raum_notation::parse_move(&pos, "Dc2-Cc2").unwrap();
/// assert_eq!(raum_notation::format_descriptive(&pos, m), "Cc2");
/// ```
pub fn format_descriptive<S: Width>(pos: &Position<S>, m: Move) -> String {
    describe(pos, m, &pos.legal_moves())
}

/// Every legal move of `pos` with its descriptive form (as
/// [`format_descriptive`] writes it), generating the moves once for all.
///
/// ```
/// use raum_rules::{Position, Variant, VariantId};
/// let pos = Position::start(Variant::get(VariantId::FiveUp));
/// let all = raum_notation::describe_legal(&pos);
/// assert_eq!(all.len(), 62);
/// assert!(all.iter().all(|(m, text)| *text == raum_notation::format_descriptive(&pos, *m)));
/// ```
pub fn describe_legal<S: Width>(pos: &Position<S>) -> Vec<(Move, String)> {
    let legal = pos.legal_moves();
    legal.iter().map(|&m| (m, describe(pos, m, &legal))).collect()
}

/// [`format_descriptive`] given the position's legal moves.
fn describe<S: Width>(pos: &Position<S>, m: Move, legal: &[Move]) -> String {
    let v = pos.variant();
    let Some(who) = mover(pos, m) else {
        return format_move(v, m);
    };
    let mut letter = v.piece_def(who.0).letter.to_string();
    if let (true, Some(r)) = (who.1, v.rider()) {
        letter.push('+');
        letter.push(v.piece_def(r).letter);
    }
    let us = pos.side_to_move();
    let capture = m.kind() == MoveKind::EnPassant
        || (m.kind() != MoveKind::Castle && pos.piece_at(m.to()).is_some_and(|p| p.color != us));
    let rivals = legal
        .iter()
        .filter(|o| o.to() == m.to() && o.promotion() == m.promotion() && o.from() != m.from())
        .any(|&o| mover(pos, o) == Some(who));
    let to = v.cell_name(m.to());
    let sep = if capture { 'x' } else { '-' };
    let mut s = if rivals {
        format!("{letter}({}){sep}{to}", v.cell_name(m.from()))
    } else if v.pawn().is_some_and(|p| who == (p, false)) && !capture {
        to
    } else {
        format!("{letter}{sep}{to}")
    };
    if let Some(k) = m.promotion() {
        s.push('=');
        s.push(v.piece_def(k).letter);
    }
    let after = pos.play_copy(m);
    if after.is_check() {
        s.push(if after.count_legal() == 0 { '#' } else { '+' });
    }
    s
}
