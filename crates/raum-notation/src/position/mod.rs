//! Position strings (RULES.md "Position string"), for every game:
//! `<board> <side> <rights> <ep> [per-variant fields] [<halfmove> <fullmove>]`.
//!
//! The board field is one notation for every game ([`board`]); what differs
//! is how a man is written and what the fields after it hold:
//! - two sides: a man is one letter, White's upper case and Black's lower
//!   case (`K`, `k`), or a piece and its riding unicorn (`(WU)`); the side is
//!   `w` or `b`; castling rights, en passant and the per-variant fields follow
//!   ([`fields`]);
//! - more sides (RULES.md "Savard's multi-player forms"): a man is two
//!   letters, its side's in lower case then its piece's in upper case (`wK`,
//!   `bP`); the side is a side's letter; rights and en passant are `-`.
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

pub(crate) mod board;
mod fields;

use crate::error::FenError;
use board::{At, read_board, read_clocks, write_board};
use fields::{extra_fields, field_layout, read_fields, write_fields};
use raum_bitboard::CellSet;
use raum_rules::multi::{MultiPosition, MultiVariant};
use raum_rules::{Color, Kind, Piece, Position, Setup, Variant};
use std::iter::Peekable;
use std::str::Chars;

/// A two-player man as the board field writes it.
enum Man {
    /// A piece alone: `W`, `w`.
    Alone(Piece),
    /// A piece and its riding unicorn: `(WU)`.
    Ridden(Piece),
}

/// A piece's letter: White's upper case, Black's lower case.
fn piece_letter<S: CellSet>(v: &Variant<S>, p: Piece) -> char {
    let l = v.piece_def(p.kind).letter;
    if p.color == Color::White { l } else { l.to_ascii_lowercase() }
}

/// Reads a two-player man that starts with `c`.
fn read_man<S: CellSet>(v: &Variant<S>, c: char, chars: &mut Peekable<Chars>, at: &At) -> Result<Man, FenError> {
    if c != '(' {
        let Some(kind) = v.kind_of(c).filter(|_| c.is_ascii_alphabetic()) else {
            return Err(FenError::BadPiece { level: at.level.clone(), rank: at.rank, ch: c });
        };
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        return Ok(Man::Alone(Piece::new(color, kind)));
    }
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
        level: at.level.clone(),
        rank: at.rank,
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
    Ok(Man::Ridden(Piece::new(color, pk)))
}

/// Reads a position string of a two-player game into an unvalidated [`Setup`].
pub fn parse_setup<S: CellSet>(v: &Variant<S>, s: &str) -> Result<Setup, FenError> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    let base = 4 + extra_fields(v).len();
    if fields.len() != base && fields.len() != base + 2 {
        return Err(FenError::FieldCount { expected: field_layout(v), found: fields.len() });
    }
    let mut setup = Setup::empty(v.cells());
    for (cell, man) in read_board(v, fields[0], |c, chars, at| read_man(v, c, chars, at))? {
        match man {
            Man::Alone(p) => setup.board[cell] = Some(p),
            Man::Ridden(p) => {
                setup.board[cell] = Some(p);
                setup.riders.push(cell);
            }
        }
    }
    setup.riders.sort_unstable();
    setup.side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(FenError::BadSide(other.to_string())),
    };
    read_fields(v, &fields, &mut setup)?;
    (setup.halfmove, setup.fullmove) = read_clocks(&fields, base)?;
    Ok(setup)
}

/// Reads and validates a position string of a two-player game.
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

/// Writes a two-player position string (always with both clocks).
pub fn format_position<S: CellSet>(pos: &Position<S>) -> String {
    let v = pos.variant();
    let mut out = write_board(v, |c, text| {
        let Some(p) = pos.piece_at(c) else { return };
        match v.rider().filter(|_| pos.rider_at(c)) {
            Some(r) => {
                text.push('(');
                text.push(piece_letter(v, p));
                text.push(piece_letter(v, Piece::new(p.color, r)));
                text.push(')');
            }
            None => text.push(piece_letter(v, p)),
        }
    });
    out.push(' ');
    out.push(pos.side_to_move().letter());
    write_fields(pos, &mut out);
    out.push_str(&format!(" {} {}", pos.halfmove_clock(), pos.fullmove_number()));
    out
}

/// The start position's string.
pub fn start_string<S: CellSet>(v: &'static Variant<S>) -> String {
    format_position(&Position::start(v))
}

/// The fields of a multi-player position string, for messages.
const MULTI_FIELDS: &str = "board side rights ep [halfmove fullmove]";

/// The game's side letters, for messages.
fn side_letters<S: CellSet>(v: &MultiVariant<S>) -> String {
    v.sides().iter().map(|s| s.letter.to_string()).collect::<Vec<_>>().join(" ")
}

/// The game's piece letters, for messages.
fn piece_letters<S: CellSet>(v: &MultiVariant<S>) -> String {
    v.board().pieces().iter().map(|p| p.letter.to_string()).collect::<Vec<_>>().join(" ")
}

/// Reads a multi-player man, `c` its side's letter.
fn read_multi_man<S: CellSet>(
    v: &MultiVariant<S>,
    c: char,
    chars: &mut Peekable<Chars>,
    at: &At,
) -> Result<(u8, Kind), FenError> {
    let piece = chars.next();
    let found: String = [Some(c), piece].into_iter().flatten().collect();
    let bad = |why: String| FenError::BadMan { level: at.level.clone(), rank: at.rank, found: found.clone(), why };
    let side =
        v.side_of(c).ok_or_else(|| bad(format!("a man is a side letter ({}) then a piece letter", side_letters(v))))?;
    let kind = piece
        .filter(char::is_ascii_uppercase)
        .and_then(|p| v.board().kind_of(p))
        .ok_or_else(|| bad(format!("piece letters: {}", piece_letters(v))))?;
    Ok((side as u8, kind))
}

/// Reads a position string of a multi-player game.
pub fn parse_multi_position<S: CellSet>(v: &'static MultiVariant<S>, s: &str) -> Result<MultiPosition<S>, FenError> {
    let b = v.board();
    let fields: Vec<&str> = s.split_whitespace().collect();
    if fields.len() != 4 && fields.len() != 6 {
        return Err(FenError::FieldCount { expected: MULTI_FIELDS.into(), found: fields.len() });
    }
    let men: Vec<(usize, u8, Kind)> = read_board(b, fields[0], |c, chars, at| read_multi_man(v, c, chars, at))?
        .into_iter()
        .map(|(cell, (side, kind))| (cell, side, kind))
        .collect();
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
    let (halfmove, fullmove) = read_clocks(&fields, 4)?;
    MultiPosition::from_men(v, &men, to_move, halfmove, fullmove).map_err(FenError::IllegalMulti)
}

/// Writes a multi-player position string (always with the clocks).
pub fn format_multi_position<S: CellSet>(pos: &MultiPosition<S>) -> String {
    let v = pos.variant();
    let b = v.board();
    let mut out = write_board(b, |c, text| {
        if let Some((side, kind)) = pos.man_at(c) {
            text.push(v.sides()[side].letter);
            text.push(b.piece_def(kind).letter);
        }
    });
    out.push_str(&format!(" {} - - {} {}", pos.mover().letter, pos.halfmove_clock(), pos.fullmove_number()));
    out
}
