//! Coordinate moves, for every game: `Ec2-Ec4`, `Bb4-Ab5=Q`, castling `Ec1-Ea1`
//! (king's cell to rook's cell), `2e3-2e4` with more sides. Input also accepts
//! `x` for `-`.

use crate::descriptive::parse_descriptive;
use crate::error::MoveError;
use raum_rules::multi::{MultiPosition, MultiVariant};
use raum_rules::{Kind, Move, MoveList, Part, Position, Variant, Width};

/// A move in coordinate notation.
///
/// ```
/// use raum_rules::{Position, Variant, VariantId};
/// let v = Variant::get(VariantId::FiveUp);
/// let pos = Position::start(v);
/// let m = raum_notation::parse_coordinate(&pos, "Ec2-Ec4").unwrap();
/// assert_eq!(raum_notation::format_move(v, m), "Ec2-Ec4");
/// ```
pub fn format_move<S: Width>(v: &Variant<S>, m: Move) -> String {
    let mut s = shared_prefix(v, m);
    s.push_str(&format!("{}-{}", v.cell_name(m.from()), v.cell_name(m.to())));
    if let Some(k) = m.promotion() {
        s.push('=');
        s.push(v.piece_def(k).letter);
    }
    s
}

/// Who moves from a shared cell, as RULES.md writes it: `U:` (the unicorn
/// alone), `W:` (the piece alone), `W+U:` (both); empty for every other move.
pub(crate) fn shared_prefix<S: Width>(v: &Variant<S>, m: Move) -> String {
    let (Some(piece), Some(rider)) = (m.shared_piece(), v.rider()) else { return String::new() };
    let (p, u) = (v.piece_def(piece).letter, v.piece_def(rider).letter);
    match m.part() {
        Part::Whole => format!("{p}+{u}:"),
        Part::Unicorn => format!("{u}:"),
        Part::Piece => format!("{p}:"),
    }
}

/// Splits a `U:`, `W:` or `W+U:` prefix off a move (letters in either case).
fn split_prefix(s: &str) -> (Option<&str>, &str) {
    match s.split_once(':') {
        Some((prefix, rest)) => (Some(prefix), rest),
        None => (None, s),
    }
}

/// Splits `Ec2-Ec4=Q` into cells and promotion letter; `None` if not that shape.
pub(crate) fn split_coordinate(s: &str) -> Option<(&str, &str, Option<char>)> {
    let (body, promo) = match s.split_once('=') {
        Some((b, p)) => {
            let mut cs = p.chars();
            let c = cs.next()?;
            if cs.next().is_some() {
                return None;
            }
            (b, Some(c))
        }
        None => (s, None),
    };
    let i = body.find(['-', 'x'])?;
    let (from, to) = (&body[..i], &body[i + 1..]);
    // A descriptive move such as `P-Cc2` also has a dash; a coordinate move has
    // a cell name on both sides (which may still be off the board: `Ka1-Kz9`
    // is a coordinate move with a bad cell).
    if !looks_like_cell(from) || !looks_like_cell(to) {
        return None;
    }
    Some((from, to, promo))
}

/// Whether `c` has the shape of a cell name in one of the notations: a level
/// (letter, Roman numeral or digit) then a lower-case file and a rank (`Cc3`,
/// `VIIe5`, `4e4`), or an upper-case file, a rank and a level (`E2α`,
/// `E2alpha`, `E2.1`).
fn looks_like_cell(c: &str) -> bool {
    let b = c.as_bytes();
    let level_first = c.find(|ch: char| ch.is_ascii_lowercase()).is_some_and(|i| {
        let level = &c[..i];
        i >= 1
            && (level.chars().all(|ch| ch.is_ascii_uppercase()) || level.chars().all(|ch| ch.is_ascii_digit()))
            && c.len() > i + 1
    });
    let file_first = b.len() >= 3 && b[0].is_ascii_uppercase() && b[1].is_ascii_digit() && {
        let rest = c[1..].trim_start_matches(|ch: char| ch.is_ascii_digit());
        rest.starts_with('.') || (!rest.is_empty() && rest.chars().all(char::is_alphabetic))
    };
    level_first || file_first
}

/// What reading a coordinate move needs of a position, whatever the game.
trait Mover<S: Width> {
    /// The board, its cells and its pieces.
    fn board(&self) -> &Variant<S>;
    /// Whether the side to move has a man on `cell`.
    fn moves_from(&self, cell: usize) -> bool;
    /// The side to move's name.
    fn mover_name(&self) -> String;
    /// The legal moves.
    fn legal(&self) -> MoveList;
    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;
    /// Whether `cell` holds a piece and its riding unicorn.
    fn shared(&self, cell: usize) -> bool;
    /// The piece's kind on `cell`.
    fn kind_at(&self, cell: usize) -> Option<Kind>;
}

impl<S: Width> Mover<S> for Position<S> {
    fn board(&self) -> &Variant<S> {
        self.variant()
    }
    fn moves_from(&self, cell: usize) -> bool {
        self.piece_at(cell).is_some_and(|p| p.color == self.side_to_move())
    }
    fn mover_name(&self) -> String {
        self.side_to_move().to_string()
    }
    fn legal(&self) -> MoveList {
        self.legal_moves()
    }
    fn in_check(&self) -> bool {
        self.is_check()
    }
    fn shared(&self, cell: usize) -> bool {
        self.rider_at(cell)
    }
    fn kind_at(&self, cell: usize) -> Option<Kind> {
        self.piece_at(cell).map(|p| p.kind)
    }
}

impl<S: Width> Mover<S> for MultiPosition<S> {
    fn board(&self) -> &Variant<S> {
        self.variant().board()
    }
    fn moves_from(&self, cell: usize) -> bool {
        self.man_at(cell).is_some_and(|(side, _)| side == self.side_to_move())
    }
    fn mover_name(&self) -> String {
        self.mover().name.to_string()
    }
    fn legal(&self) -> MoveList {
        self.legal_moves()
    }
    fn in_check(&self) -> bool {
        self.is_check()
    }
    fn shared(&self, _: usize) -> bool {
        false
    }
    fn kind_at(&self, cell: usize) -> Option<Kind> {
        self.man_at(cell).map(|(_, kind)| kind)
    }
}

/// Reads a coordinate move and checks that it is legal in `pos`.
pub fn parse_coordinate<S: Width>(pos: &Position<S>, s: &str) -> Result<Move, MoveError> {
    read_coordinate(pos, s)
}

/// Reads a coordinate move of a multi-player game (`x` may stand for `-`)
/// and checks that it is legal.
pub fn parse_multi_move<S: Width>(pos: &MultiPosition<S>, s: &str) -> Result<Move, MoveError> {
    read_coordinate(pos, s)
}

/// A move in coordinates in a multi-player game: `2e3-2e4`, `2f8-2f9=Q`.
pub fn format_multi_move<S: Width>(v: &MultiVariant<S>, m: Move) -> String {
    format_move(v.board(), m)
}

/// Reads a coordinate move and checks that it is legal in `pos`, any game.
fn read_coordinate<S: Width>(pos: &impl Mover<S>, s: &str) -> Result<Move, MoveError> {
    let v = pos.board();
    let s = s.trim().trim_end_matches(['+', '#', '!', '?']);
    if s.is_empty() {
        return Err(MoveError::Empty);
    }
    let (prefix, body) = split_prefix(s);
    let (from_s, to_s, promo) = split_coordinate(body).ok_or_else(|| MoveError::Syntax(s.to_string()))?;
    let from = v.parse_cell(from_s).ok_or_else(|| MoveError::BadCell(from_s.to_string()))?;
    let to = v.parse_cell(to_s).ok_or_else(|| MoveError::BadCell(to_s.to_string()))?;
    let promo = match promo {
        Some(c) => Some(v.kind_of(c).filter(|_| c.is_ascii_alphabetic()).ok_or(MoveError::BadPiece(c))?),
        None => None,
    };
    if !pos.moves_from(from) {
        return Err(MoveError::NoPiece { side: pos.mover_name(), cell: from_s.to_string() });
    }
    let legal = pos.legal();
    let same_cells: Vec<Move> = legal.iter().copied().filter(|m| m.from() == from && m.to() == to).collect();
    // From a shared cell the prefix says who moves; elsewhere there is none.
    let shared = pos.shared(from);
    let prefix_ok = |m: &Move| match prefix {
        None => !shared,
        Some(p) => shared && shared_prefix(v, *m).trim_end_matches(':').eq_ignore_ascii_case(p.trim()),
    };
    if let Some(&m) = same_cells.iter().find(|m| m.promotion() == promo && prefix_ok(m)) {
        return Ok(m);
    }
    let why = if shared && !same_cells.is_empty() && !same_cells.iter().any(prefix_ok) {
        let p = pos.kind_at(from).map_or('?', |k| v.piece_def(k).letter);
        let u = v.rider().map_or('U', |r| v.piece_def(r).letter);
        format!(": {from_s} holds a piece and its unicorn: say who moves with {u}:, {p}: or {p}+{u}:")
    } else if prefix.is_some() && !shared {
        format!(": {from_s} holds one man: write the move without a prefix")
    } else if same_cells.iter().any(|m| m.promotion().is_some()) {
        let letters: Vec<String> = v.promotion_kinds().iter().map(|&k| v.piece_def(k).letter.to_string()).collect();
        format!(": a promotion needs =X with X one of {}", letters.join(" "))
    } else if promo.is_some() && !same_cells.is_empty() {
        ": this move does not promote".to_string()
    } else if pos.in_check() {
        ": it does not answer the check".to_string()
    } else {
        String::new()
    };
    Err(MoveError::Illegal { mv: s.to_string(), why })
}

/// Reads a move in either notation: coordinate (`Ec2-Ec4`) or descriptive
/// (`P-Cc2`, `BxCe4`, `P(Dd2)-Dd3`, bare `Cc2`).
pub fn parse_move<S: Width>(pos: &Position<S>, s: &str) -> Result<Move, MoveError> {
    let t = s.trim().trim_end_matches(['+', '#', '!', '?']);
    if t.is_empty() {
        return Err(MoveError::Empty);
    }
    if split_coordinate(split_prefix(t).1).is_some() { parse_coordinate(pos, t) } else { parse_descriptive(pos, t) }
}
