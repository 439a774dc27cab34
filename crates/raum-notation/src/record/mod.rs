//! Game records: the PGN-style text of RULES.md, for games of any number of
//! sides. A file holds one or more games, each a tag section (`[Variant
//! "five-up"]`, the PGN tags with a name tag per side, any others, which are
//! kept) and movetext: move numbers, moves, `{comments}` and the result,
//! which gives each side's score in turn order (`1-0`, `3/5-2/5`, `1-0-1-0`,
//! `1/3-1/3-1/3`; `*` unfinished).
//!
//! Two-player records write moves in descriptive notation, White's and
//! Black's after one number (`1. P-Cc2 P-Cc4`), and tell a resignation by
//! the result and the `Termination` tag, as PGN does. Records of more sides
//! (RULES.md "Savard's multi-player forms", Records) number each round once,
//! followed by one coordinate move per side still in, in turn order; a side
//! that resigns is written where it resigned, between moves, as its name
//! tag's word and `-resigns` (`Blue-resigns`; read in any case): RULES.md
//! gives resigning no rule and PGN no token for it, and the web app's rule
//! (docs/rules.md: every side for itself the side is out and its men leave
//! the board, with teams its team loses) changes the position, so a record
//! must say where it happened to replay what follows. It is not a move: the
//! round it falls in still has one move per side still in.
//!
//! Reading is two steps: [`parse_records`] reads the text (tags, moves as
//! written, comments, result) without the rules, and [`Record::replay`]
//! plays it under the rules of the game its `Variant` tag names, refusing a
//! move that is illegal, ambiguous or unreadable by its number (`move 2...
//! BxEb3: not legal here`; with more sides by its round and side: `round 3,
//! Red, 2c5-2d5: not legal here`).
//!
//! A round (a move number, for two sides) is the moves from the side to move
//! that is first in turn order among the sides still in to the next: the
//! position's fullmove number goes up between rounds. A side that leaves the
//! game (every side for itself, a side with no legal move is out) has no move
//! in the rounds after, so the writer finds the rounds by replaying the moves
//! under the game's rules; a record that does not replay (an illegal move, an
//! unknown game) is numbered as far as it replays, and then as if the sides
//! still in stayed in.
//!
//! ```
//! use raum_notation::{parse_records, RecordResult};
//! use raum_rules::{End, GameRules};
//! let text = "[Variant \"five-up\"]\n[Result \"0-1\"]\n\n1. P-Cc2 P-Cc4 2. B-Ca1 BxEb2# 0-1\n";
//! let records = parse_records(text).unwrap();
//! assert_eq!(records[0].result, RecordResult::BlackWins.scores());
//! let game = records[0].replay().unwrap();
//! assert_eq!(game.moves().len(), 4);
//! assert_eq!(game.result().unwrap().end, End::Checkmate { side: 0 });
//! assert_eq!(records[0].to_string(), text);
//!
//! let text = "[Variant \"wing-table-4p\"]\n[Result \"*\"]\n\n\
//!             1. 2e3-2e4 2c8-2d8 2h10-2h9 2j5-2i5 2. 2f3-2f4 *\n";
//! let records = parse_records(text).unwrap();
//! assert_eq!(records[0].to_string(), text);
//! let game = records[0].replay().unwrap();
//! assert_eq!((game.moves().len(), game.sides()[game.side_to_move()].name), (5, "Red"));
//!
//! // Every side for itself, Blue resigns on its turn: Green moves next.
//! let text = "[Variant \"triquetral-3p\"]\n[Result \"*\"]\n\n1. 6f3-6f4 Blue-resigns 3f6-4f6 2. 6g3-6g4 *\n";
//! let game = parse_records(text).unwrap()[0].replay().unwrap();
//! assert!(!game.is_in(1));
//! assert!(raum_notation::Record::from_game(&game).to_string().ends_with("\n\n1. 6f3-6f4 Blue-resigns 3f6-4f6 2. 6g3-6g4 *\n"));
//! ```

mod game;
mod reader;
mod result;
mod syntax;
#[cfg(test)]
mod tests;

pub use game::{RecordedGame, format_resignation};
pub use reader::{parse_records, parse_records_in};
pub use result::{
    RecordResult, describe_end, format_result, game_termination, parse_result, termination, termination_of,
};
pub use syntax::record_variants;

use crate::any::{parse_game, parse_game_move};
use crate::error::MoveError;
use raum_rules::{AnyGame, GameId, GameResult, GameRules, Points};
use syntax::{push_comment, write_tags, write_wrapped};
use thiserror::Error;

/// One move of a record: the text as written (`P-Cc2`, `BxEb2#`, a
/// coordinate move, or a resignation `Blue-resigns`) and the comment that follows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The move as written.
    pub text: String,
    /// The comment after the move, whitespace collapsed; engines write
    /// `+0.35/12` (White's view, then depth).
    pub comment: Option<String>,
}

/// One game of a record file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The tags in the order they are written, unknown ones included.
    pub tags: Vec<(String, String)>,
    /// The number (round) of the first move and the side (index in turn
    /// order) that makes it: the start's, or the reader's first number. The
    /// writer numbers the moves by replaying; this numbers a record that
    /// cannot start (an unknown game, a bad `FEN`).
    pub first: (u32, usize),
    /// A comment before the first move.
    pub intro: Option<String>,
    /// The moves and resignations in order, as written.
    pub moves: Vec<RecordMove>,
    /// Each side's score in turn order; `None` for `*`, a game not over
    /// (kept equal to the `Result` tag by [`Record::set_result`]).
    pub result: Option<Vec<Points>>,
}

/// Text that is not a record: says which game, which line and what.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("game {game}, line {line}: {what}")]
pub struct RecordError {
    /// The game's number in the text, from 1.
    pub game: usize,
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

/// A record that does not replay under the rules.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ReplayError {
    /// A tag the replay needs is missing or wrong.
    #[error("{0}")]
    Tag(String),
    /// A move of a two-player record that cannot be played: `move 2... BxEb3: not legal here`.
    #[error("move {number}{dots} {text}: {why}", dots = if *black { "..." } else { "." })]
    Move {
        /// Its move number.
        number: u32,
        /// Whether it is Black's move.
        black: bool,
        /// The move as written.
        text: String,
        /// Why it cannot be played.
        why: String,
    },
    /// A move or resignation of a record of more sides that cannot be
    /// played: `round 3, Red, 2c5-2d5: not legal here`.
    #[error("round {round}, {side}, {text}: {why}")]
    Turn {
        /// Its round.
        round: u32,
        /// The side whose move it is.
        side: String,
        /// The move as written.
        text: String,
        /// Why it cannot be played.
        why: String,
    },
    /// A result that does not fit the game: too many or too few scores, or
    /// other scores than the rules gave (`the record says 1/2-1/2, but the
    /// game ended 0-1 (White is checkmated)`).
    #[error("the record says {said}, but {why}")]
    Result {
        /// The record's result, as written.
        said: String,
        /// What is wrong with it.
        why: String,
    },
}

pub(crate) const UNKNOWN_DATE: &str = "????.??.??";

/// The end of a resignation word: `Blue-resigns`.
const RESIGNS: &str = "-resigns";

/// The side name of a word written as a resignation (`<name>-resigns`, in
/// any case), whatever the name; `None` for any other word.
fn resignation_name(text: &str) -> Option<&str> {
    let cut = text.len().checked_sub(RESIGNS.len()).filter(|&cut| cut > 0 && text.is_char_boundary(cut))?;
    text[cut..].eq_ignore_ascii_case(RESIGNS).then(|| &text[..cut])
}

/// Reads a resignation word of a game of `id`: `None` if `text` is not
/// written as one, else the side that resigns (index in turn order) or why
/// the name is not one of the game's sides.
///
/// ```
/// use raum_notation::parse_resignation;
/// use raum_rules::GameId;
/// let id = GameId::from_name("triquetral-3p").unwrap();
/// assert_eq!(parse_resignation(id, "GREEN-resigns"), Some(Ok(2)));
/// assert_eq!(parse_resignation(id, "2e3-2e4"), None);
/// assert!(parse_resignation(id, "Black-resigns").unwrap().unwrap_err().starts_with("Black is not a side"));
/// ```
pub fn parse_resignation(id: GameId, text: &str) -> Option<Result<usize, String>> {
    let name = resignation_name(text)?;
    let sides = id.sides();
    Some(sides.iter().position(|s| s.name.eq_ignore_ascii_case(name)).ok_or_else(|| {
        let names: Vec<&str> = sides.iter().map(|s| s.name).collect();
        format!("{name} is not a side of {id} (its sides: {})", names.join(", "))
    }))
}

/// A move error without repeating the move (the replay error names it).
pub(crate) fn move_error_text(e: &MoveError) -> String {
    match e {
        MoveError::Illegal { why, .. } => format!("not legal here{why}"),
        MoveError::Ambiguous { options, .. } => format!("ambiguous: it could be {options}"),
        other => other.to_string(),
    }
}

/// Plays one movetext word on `game`: a resignation, or a move of the side
/// to move. Says why it cannot be played.
fn apply(game: &mut AnyGame, text: &str) -> Result<(), String> {
    if let Some(side) = parse_resignation(game.id(), text) {
        return game.resign(side?).map_err(|e| e.to_string());
    }
    let m = parse_game_move(game, text).map_err(|e| move_error_text(&e))?;
    game.play(m).map_err(|_| "not legal here".to_string())
}

/// How a game ended, for messages: `0-1 (White is checkmated)`.
fn describe(game: &AnyGame, r: &GameResult) -> String {
    format!("{} ({})", format_result(Some(&r.scores)), describe_end(game.sides(), r.end))
}

/// The sides still in, in turn order.
fn sides_in(game: &AnyGame) -> Vec<usize> {
    (0..game.sides().len()).filter(|&s| game.is_in(s)).collect()
}

impl Record {
    /// An empty record of `id` from its start: `Event`, `Site`, `Date`,
    /// `Round`, a tag per side in turn order (`White` and `Black`: the seven
    /// PGN tags for two sides), unknown values `?`, then `Result` and `Variant`.
    pub fn new(id: impl Into<GameId>) -> Record {
        let id = id.into();
        let mut tags: Vec<(String, String)> = [("Event", "?"), ("Site", "?"), ("Date", UNKNOWN_DATE), ("Round", "?")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        tags.extend(id.sides().iter().map(|s| (s.name.to_string(), "?".to_string())));
        tags.push(("Result".into(), "*".into()));
        tags.push(("Variant".into(), id.name().into()));
        if let Some(hash) = raum_rules::file::variant_hash(id) {
            tags.push(("VariantHash".into(), hash));
        }
        Record { tags, first: (1, 0), intro: None, moves: Vec::new(), result: None }
    }

    /// A record of `game`: its start (with `SetUp` and `FEN` unless it is the
    /// game's start), its moves (and, more than two sides, its resignations)
    /// as records write them ([`RecordedGame::written`]), and the result and
    /// `Termination` the rules give it ([`game_termination`]; `*` if they do
    /// not end it).
    pub fn from_game(game: &impl RecordedGame) -> Record {
        let mut r = Record::new(game.game_id());
        if let Some(fen) = game.set_up() {
            r.set_tag("SetUp", "1");
            r.set_tag("FEN", &fen);
        }
        r.first = game.first_turn();
        for text in game.written() {
            r.push(text, None);
        }
        if let (Some(o), Some(termination)) = (game.result(), game_termination(game)) {
            r.set_result(Some(o.scores));
            r.set_tag("Termination", termination);
        }
        r
    }

    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// Sets a tag, in its place if it is there, else at the end.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Sets the result (each side's score in turn order, `None` for `*`) and its tag.
    pub fn set_result(&mut self, result: Option<Vec<Points>>) {
        self.set_tag("Result", &format_result(result.as_deref()));
        self.result = result;
    }

    /// The result as written: `1-0`, `1-0-1-0`, `*`.
    pub fn result_text(&self) -> String {
        format_result(self.result.as_deref())
    }

    /// Appends a move as written, or a resignation ([`format_resignation`]),
    /// with an optional comment.
    pub fn push(&mut self, text: impl Into<String>, comment: Option<String>) {
        self.moves.push(RecordMove { text: text.into(), comment });
    }

    /// The game the `Variant` tag names. A `VariantHash` tag (a game of a
    /// variant file) must be the loaded file's: a record never replays under
    /// rules other than its own.
    pub fn variant(&self) -> Result<GameId, ReplayError> {
        let name = self
            .tag("Variant")
            .ok_or_else(|| ReplayError::Tag("no [Variant \"...\"] tag: a record must name its variant".into()))?;
        let id = GameId::from_name(name).map_err(|e| ReplayError::Tag(format!("[Variant \"{name}\"]: {e}")))?;
        if let Some(pinned) = self.tag("VariantHash") {
            match raum_rules::file::variant_hash(id) {
                Some(hash) if hash == pinned => {}
                Some(hash) => {
                    return Err(ReplayError::Tag(format!(
                        "[VariantHash \"{pinned}\"]: the record was played under another version of the file of \
                         '{name}' (the one loaded has hash {hash})"
                    )));
                }
                None => {
                    return Err(ReplayError::Tag(format!(
                        "[VariantHash \"{pinned}\"]: '{name}' is a built-in game, not a variant file"
                    )));
                }
            }
        }
        Ok(id)
    }

    /// The game at its start: the `FEN` tag's position, or the game's start.
    pub fn start(&self) -> Result<AnyGame, ReplayError> {
        let id = self.variant()?;
        match self.tag("FEN") {
            Some(fen) => parse_game(id, fen).map_err(|e| ReplayError::Tag(format!("[FEN \"{fen}\"]: {e}"))),
            None => Ok(AnyGame::start(id)),
        }
    }

    /// Plays the record's moves and resignations under the rules of the game
    /// its `Variant` tag names, from its start. Refuses a move that is not
    /// legal, ambiguous or not readable (by its number, or round and side), a
    /// resignation of a side the game does not have or that is out already
    /// (the same way), a move or resignation after the game ended, a result
    /// whose number of scores is not the number of sides, and a result that
    /// contradicts a game the rules ended (`*` included).
    pub fn replay(&self) -> Result<AnyGame, ReplayError> {
        let mut game = self.start()?;
        let sides = game.sides();
        for rm in &self.moves {
            let (number, side) = (game.fullmove_number(), game.side_to_move());
            let fail = |why: String| match sides.len() {
                2 => ReplayError::Move { number, black: side == 1, text: rm.text.clone(), why },
                _ => {
                    ReplayError::Turn { round: number, side: sides[side].name.to_string(), text: rm.text.clone(), why }
                }
            };
            if let Some(o) = game.result() {
                return Err(fail(format!("the game was already over: {}", describe(&game, &o))));
            }
            apply(&mut game, &rm.text).map_err(fail)?;
        }
        if let Some(scores) = &self.result
            && scores.len() != sides.len()
        {
            let why =
                format!("{} has {} sides: a result gives each side's score, in turn order", game.id(), sides.len());
            return Err(ReplayError::Result { said: self.result_text(), why });
        }
        if let Some(o) = game.result()
            && self.result.as_ref() != Some(&o.scores)
        {
            let why = format!("the game ended {}", describe(&game, &o));
            return Err(ReplayError::Result { said: self.result_text(), why });
        }
        Ok(game)
    }

    /// Each move's number (round) and whether it begins its round (see the
    /// module's notes: by replay as far as the moves go).
    fn numbering(&self) -> Vec<(u32, bool)> {
        let mut out = Vec::with_capacity(self.moves.len());
        // The sides in, the side to move and the round where the replay stops.
        let (sides_in, mut to_move, mut round) = match self.variant().map(|id| (id, self.start())) {
            Ok((_, Ok(mut game))) => {
                let mut last_round = None;
                for rm in &self.moves {
                    let round = game.fullmove_number();
                    let begins = match last_round {
                        Some(last) => round > last,
                        None => sides_in(&game).first() == Some(&game.side_to_move()),
                    };
                    if game.result().is_some() || apply(&mut game, &rm.text).is_err() {
                        break;
                    }
                    out.push((round, begins));
                    last_round = Some(round);
                }
                (sides_in(&game), game.side_to_move(), game.fullmove_number())
            }
            Ok((id, Err(_))) => ((0..id.sides().len()).collect(), self.first.1, self.first.0),
            Err(_) => {
                let names = ["White", "Black", "Red", "Blue", "Green", "Yellow"];
                let named = self.tags.iter().filter(|(k, _)| names.contains(&k.as_str())).count();
                ((0..named.max(2)).collect(), self.first.1, self.first.0)
            }
        };
        // The rest: the sides still in take turns.
        if !sides_in.contains(&to_move) {
            to_move = sides_in.iter().copied().find(|&s| s > to_move).unwrap_or(sides_in[0]);
        }
        let mut at = sides_in.iter().position(|&s| s == to_move).unwrap_or(0);
        let mut begins = at == 0;
        for rm in &self.moves[out.len()..] {
            if resignation_name(&rm.text).is_some() {
                // Not a turn: the rounds go on around it.
                out.push((round, false));
                continue;
            }
            out.push((round, begins));
            at = (at + 1) % sides_in.len();
            begins = at == 0;
            if begins {
                // A record may start at any number, u32::MAX too: stay there rather than overflow.
                round = round.saturating_add(1);
            }
        }
        out
    }
}

impl Record {
    /// The movetext's words: move numbers, moves and resignations, and (if
    /// `comments`) the comments.
    fn words(&self, comments: bool) -> Vec<String> {
        let mut words: Vec<String> = Vec::new();
        if comments && let Some(c) = &self.intro {
            push_comment(&mut words, c);
        }
        let mut after_comment = comments && self.intro.is_some();
        for (i, (m, (round, begins))) in self.moves.iter().zip(self.numbering()).enumerate() {
            if begins {
                words.push(format!("{round}."));
            } else if i == 0 || after_comment {
                words.push(format!("{round}..."));
            }
            words.push(m.text.clone());
            after_comment = comments && m.comment.is_some();
            if comments && let Some(c) = &m.comment {
                push_comment(&mut words, c);
            }
        }
        words
    }

    /// The moves as the movetext numbers them, without comments or result:
    /// `1. Cc2 Cc4 2. B-Ca1 BxEb2#`.
    ///
    /// ```
    /// let text = "[Variant \"five-up\"]\n\n1. Cc2 {+0.10/4} Cc4 2. B-Ca1 *\n";
    /// let record = raum_notation::parse_records(text).unwrap().remove(0);
    /// assert_eq!(record.movetext(), "1. Cc2 Cc4 2. B-Ca1");
    /// ```
    pub fn movetext(&self) -> String {
        self.words(false).join(" ")
    }
}

impl core::fmt::Display for Record {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write_tags(f, &self.tags)?;
        let mut words = self.words(true);
        words.push(self.result_text());
        write_wrapped(f, words)
    }
}

/// Writes several records, a blank line between games.
pub fn write_records(records: &[Record]) -> String {
    records.iter().map(Record::to_string).collect::<Vec<_>>().join("\n")
}

/// The date of a time in seconds since 1970 (UTC) as the `Date` tag writes
/// it.
///
/// ```
/// assert_eq!(raum_notation::record_date(0), "1970.01.01");
/// assert_eq!(raum_notation::record_date(951_782_400), "2000.02.29");
/// assert_eq!(raum_notation::record_date(1_772_582_400), "2026.03.04");
/// assert_eq!(raum_notation::record_date(-1), "1969.12.31");
/// ```
pub fn record_date(secs: i64) -> String {
    // Days to a proleptic Gregorian date (Howard Hinnant's algorithm).
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}
