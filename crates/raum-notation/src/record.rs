//! Game records: the PGN-style text of RULES.md. A file holds one or more
//! games, each a tag section (`[Variant "five-up"]`, the seven PGN tags, any
//! others, which are kept) and movetext in descriptive notation with move
//! numbers, `{comments}` and the result.
//!
//! Reading is two steps: [`parse_records`] reads the text (tags, moves as
//! written, comments, result) without knowing the rules, and
//! [`Record::replay`] plays the moves under the variant's rules, so a move
//! that is illegal, ambiguous or unreadable is refused by its number.
//!
//! ```
//! use raum_notation::{parse_records, RecordResult};
//! use raum_rules::{Variant, VariantId};
//! let text = "[Variant \"five-up\"]\n[Result \"0-1\"]\n\n1. P-Cc2 P-Cc4 2. B-Ca1 BxEb2# 0-1\n";
//! let records = parse_records(text).unwrap();
//! assert_eq!(records[0].result, RecordResult::BlackWins);
//! let game = records[0].replay(Variant::get(VariantId::FiveUp)).unwrap();
//! assert_eq!(game.moves().len(), 4);
//! assert_eq!(records[0].to_string(), text);
//! ```

use crate::descriptive::format_descriptive;
use crate::error::MoveError;
use crate::fen::{format_position, parse_position};
use crate::moves::parse_move;
use raum_bitboard::CellSet;
use raum_rules::{Color, DrawReason, Game, Outcome, Points, Position, Variant, VariantId};
use thiserror::Error;

/// How a recorded game ended, as the `Result` tag and the movetext's last
/// token write it (White's score first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `3/5-2/5`: White stalemated Black where stalemate scores 3/5 (Savard's rule).
    WhiteStalemates,
    /// `2/5-3/5`: Black stalemated White.
    BlackStalemates,
    /// `*`: the game is not over.
    Unfinished,
}

impl RecordResult {
    /// Every result, for tests and tools.
    pub const ALL: [RecordResult; 6] = [
        RecordResult::WhiteWins,
        RecordResult::BlackWins,
        RecordResult::Draw,
        RecordResult::WhiteStalemates,
        RecordResult::BlackStalemates,
        RecordResult::Unfinished,
    ];

    /// The text of the result.
    pub const fn as_str(self) -> &'static str {
        match self {
            RecordResult::WhiteWins => "1-0",
            RecordResult::BlackWins => "0-1",
            RecordResult::Draw => "1/2-1/2",
            RecordResult::WhiteStalemates => "3/5-2/5",
            RecordResult::BlackStalemates => "2/5-3/5",
            RecordResult::Unfinished => "*",
        }
    }

    /// Reads a result token.
    pub fn parse(s: &str) -> Option<RecordResult> {
        RecordResult::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// The result of a game the rules ended.
    pub fn of_outcome(o: Outcome) -> RecordResult {
        match o {
            Outcome::Checkmate { winner: Color::White } => RecordResult::WhiteWins,
            Outcome::Checkmate { winner: Color::Black } => RecordResult::BlackWins,
            Outcome::Stalemate { winner: Color::White } => RecordResult::WhiteStalemates,
            Outcome::Stalemate { winner: Color::Black } => RecordResult::BlackStalemates,
            Outcome::Draw(_) => RecordResult::Draw,
        }
    }

    /// Each side's points, White's first; `None` for `*`, a game not over.
    ///
    /// ```
    /// use raum_notation::RecordResult;
    /// use raum_rules::Points;
    /// assert_eq!(RecordResult::WhiteStalemates.points(), Some([Points::THREE_FIFTHS, Points::TWO_FIFTHS]));
    /// assert_eq!(RecordResult::Unfinished.points(), None);
    /// ```
    pub fn points(self) -> Option<[Points; 2]> {
        Some(match self {
            RecordResult::WhiteWins => [Points::ONE, Points::ZERO],
            RecordResult::BlackWins => [Points::ZERO, Points::ONE],
            RecordResult::Draw => [Points::HALF, Points::HALF],
            RecordResult::WhiteStalemates => [Points::THREE_FIFTHS, Points::TWO_FIFTHS],
            RecordResult::BlackStalemates => [Points::TWO_FIFTHS, Points::THREE_FIFTHS],
            RecordResult::Unfinished => return None,
        })
    }

    /// A win for `side`.
    pub fn win_for(side: Color) -> RecordResult {
        if side == Color::White { RecordResult::WhiteWins } else { RecordResult::BlackWins }
    }
}

impl core::fmt::Display for RecordResult {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The `Termination` tag's value for a game the rules ended.
pub fn termination_of(o: Outcome) -> &'static str {
    match o {
        Outcome::Checkmate { .. } => "checkmate",
        Outcome::Draw(DrawReason::Stalemate) | Outcome::Stalemate { .. } => "stalemate",
        Outcome::Draw(DrawReason::FiftyMoves) => "fifty-move",
        Outcome::Draw(DrawReason::Repetition) => "repetition",
        Outcome::Draw(DrawReason::BareKings) => "bare-kings",
    }
}

/// One move of a record: the text as written (`P-Cc2`, `BxEb2#`, or a
/// coordinate move) and the comment that follows it.
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
    /// The number of the first move and the side that makes it.
    pub first: (u32, Color),
    /// A comment before the first move.
    pub intro: Option<String>,
    /// The moves in order.
    pub moves: Vec<RecordMove>,
    /// The result (kept equal to the `Result` tag by [`Record::set_result`]).
    pub result: RecordResult,
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
    /// A move that cannot be played: `move 2... BxEb3: not legal here`.
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
    /// The result disagrees with how the rules ended the game.
    #[error("the record says {said}, but the game ended {ended}")]
    Result {
        /// The record's result.
        said: RecordResult,
        /// How the rules ended it.
        ended: String,
    },
    /// A move of a multi-player record that cannot be played:
    /// `round 3, Red, 2c5-2d5: not legal here`.
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
    /// A multi-player record's result that does not fit the game: too many
    /// or too few scores, or other scores than the rules gave.
    #[error("the record says {said}, but {why}")]
    Scores {
        /// The record's result, as written.
        said: String,
        /// What is wrong with it.
        why: String,
    },
}

pub(crate) const UNKNOWN_DATE: &str = "????.??.??";

impl Record {
    /// An empty record of `variant` from its start: the seven PGN tags
    /// (unknown values `?`), then `Variant`.
    pub fn new(variant: VariantId) -> Record {
        let tags = [
            ("Event", "?"),
            ("Site", "?"),
            ("Date", UNKNOWN_DATE),
            ("Round", "?"),
            ("White", "?"),
            ("Black", "?"),
            ("Result", "*"),
            ("Variant", variant.name()),
        ];
        Record {
            tags: tags.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            first: (1, Color::White),
            intro: None,
            moves: Vec::new(),
            result: RecordResult::Unfinished,
        }
    }

    /// A record of `game`: its start (with `SetUp` and `FEN` unless it is the
    /// variant's start), its moves in descriptive notation, and the result the
    /// rules give it (`*` if they do not end it).
    pub fn from_game<S: CellSet>(game: &Game<S>) -> Record {
        let start = game.start();
        let v = start.variant();
        let mut r = Record::new(v.id());
        r.set_start(start);
        let mut pos = *start;
        for &m in game.moves() {
            r.moves.push(RecordMove { text: format_descriptive(&pos, m), comment: None });
            pos.play(m);
        }
        if let Some(o) = game.outcome() {
            r.set_result(RecordResult::of_outcome(o));
            r.set_tag("Termination", termination_of(o));
        }
        r
    }

    /// Sets the start position: `SetUp`/`FEN` tags unless it is the variant's
    /// start, and the first move's number and side.
    pub fn set_start<S: CellSet>(&mut self, start: &Position<S>) {
        self.tags.retain(|(k, _)| k != "SetUp" && k != "FEN");
        if *start != Position::start(start.variant()) {
            self.set_tag("SetUp", "1");
            self.set_tag("FEN", &format_position(start));
        }
        self.first = (start.fullmove_number(), start.side_to_move());
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

    /// Sets the result and its tag.
    pub fn set_result(&mut self, result: RecordResult) {
        self.result = result;
        self.set_tag("Result", result.as_str());
    }

    /// Appends a move as written, with an optional comment.
    pub fn push(&mut self, text: impl Into<String>, comment: Option<String>) {
        self.moves.push(RecordMove { text: text.into(), comment });
    }

    /// The variant the `Variant` tag names.
    pub fn variant(&self) -> Result<VariantId, ReplayError> {
        let name = self
            .tag("Variant")
            .ok_or_else(|| ReplayError::Tag("no [Variant \"...\"] tag: a record must name its variant".into()))?;
        name.parse().map_err(|e| ReplayError::Tag(format!("[Variant \"{name}\"]: {e}")))
    }

    /// The start position: the `FEN` tag's, or the variant's start.
    pub fn start<S: CellSet>(&self, v: &'static Variant<S>) -> Result<Position<S>, ReplayError> {
        match self.tag("FEN") {
            Some(fen) => parse_position(v, fen).map_err(|e| ReplayError::Tag(format!("[FEN \"{fen}\"]: {e}"))),
            None => Ok(Position::start(v)),
        }
    }

    /// Plays the record's moves under `v`'s rules from its start. Refuses a
    /// record of another variant, a move that is not legal, ambiguous or not
    /// readable (by its number), a move after the game ended, and a result
    /// that contradicts a game the rules ended (a checkmate recorded as a
    /// draw).
    pub fn replay<S: CellSet>(&self, v: &'static Variant<S>) -> Result<Game<S>, ReplayError> {
        let id = self.variant()?;
        if id != v.id() {
            return Err(ReplayError::Tag(format!("a {id} record cannot be replayed as {}", v.id())));
        }
        let mut game = Game::new(self.start(v)?);
        for rm in &self.moves {
            let pos = *game.position();
            let fail = |why: String| ReplayError::Move {
                number: pos.fullmove_number(),
                black: pos.side_to_move() == Color::Black,
                text: rm.text.clone(),
                why,
            };
            if let Some(o) = game.outcome() {
                return Err(fail(format!("the game was already over ({o})")));
            }
            let m = parse_move(&pos, &rm.text).map_err(|e| fail(move_error_text(&e)))?;
            game.play(m).map_err(|_| fail("not legal here".into()))?;
        }
        if let Some(o) = game.outcome() {
            let expected = RecordResult::of_outcome(o);
            if self.result != expected {
                return Err(ReplayError::Result { said: self.result, ended: format!("{o}") });
            }
        }
        Ok(game)
    }
}

/// A move error without repeating the move (the replay error names it).
pub(crate) fn move_error_text(e: &MoveError) -> String {
    match e {
        MoveError::Illegal { why, .. } => format!("not legal here{why}"),
        MoveError::Ambiguous { options, .. } => format!("ambiguous: it could be {options}"),
        other => other.to_string(),
    }
}

/// Writes a tag value with PGN's escapes; a line break becomes a space.
fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                s.push('\\');
                s.push(c);
            }
            '\n' | '\r' => s.push(' '),
            _ => s.push(c),
        }
    }
    s
}

/// A comment as written: whitespace collapsed, `}` (which would end it) left out.
fn clean_comment(c: &str) -> String {
    c.replace('}', "").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The longest movetext line written (PGN's export format keeps them under 80).
pub(crate) const LINE: usize = 79;

/// Writes the tag section and the blank line after it.
pub(crate) fn write_tags(f: &mut core::fmt::Formatter<'_>, tags: &[(String, String)]) -> core::fmt::Result {
    for (k, v) in tags {
        writeln!(f, "[{k} \"{}\"]", escape(v))?;
    }
    writeln!(f)
}

/// Adds a comment to the words of a movetext: its words are wrapped like moves.
pub(crate) fn push_comment(words: &mut Vec<String>, c: &str) {
    let c = clean_comment(c);
    let mut parts: Vec<String> = c.split(' ').map(str::to_string).collect();
    if let Some(first) = parts.first_mut() {
        first.insert(0, '{');
    }
    if let Some(last) = parts.last_mut() {
        last.push('}');
    }
    words.extend(parts);
}

/// Writes the words of a movetext in lines of at most [`LINE`] characters.
pub(crate) fn write_wrapped(f: &mut core::fmt::Formatter<'_>, words: Vec<String>) -> core::fmt::Result {
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > LINE {
            writeln!(f, "{line}")?;
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    writeln!(f, "{line}")
}

impl core::fmt::Display for Record {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write_tags(f, &self.tags)?;
        let mut words: Vec<String> = Vec::new();
        if let Some(c) = &self.intro {
            push_comment(&mut words, c);
        }
        let (mut number, mut side) = self.first;
        let mut after_comment = self.intro.is_some();
        for (i, m) in self.moves.iter().enumerate() {
            match side {
                Color::White => words.push(format!("{number}.")),
                Color::Black if i == 0 || after_comment => words.push(format!("{number}...")),
                Color::Black => {}
            }
            words.push(m.text.clone());
            after_comment = m.comment.is_some();
            if let Some(c) = &m.comment {
                push_comment(&mut words, c);
            }
            if side == Color::Black {
                // A record may start at any number, u32::MAX too: stay there rather than overflow.
                number = number.saturating_add(1);
            }
            side = side.opponent();
        }
        words.push(self.result.as_str().to_string());
        write_wrapped(f, words)
    }
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

/// Writes several records, a blank line between games.
pub fn write_records(records: &[Record]) -> String {
    records.iter().map(Record::to_string).collect::<Vec<_>>().join("\n")
}

/// Reads every game of a record text. Syntax only: tags, moves as written,
/// comments and results; [`Record::replay`] checks the moves. Each game needs
/// a `Variant` tag; `;` comments and `%` lines are ignored, variations `( ... )`
/// and `$n` annotations skipped.
pub fn parse_records(text: &str) -> Result<Vec<Record>, RecordError> {
    let mut reader = Reader { games: Vec::new(), current: None, line: 1 };
    scan(text, &mut reader)?;
    reader.end_game(None)?;
    Ok(reader.games)
}

/// The values of the `Variant` tags of a record text, in order: which games
/// it holds, read without reading the games (tags inside comments are not
/// tags), so that a caller can hand two-player records to [`parse_records`]
/// and multi-player ones to [`crate::parse_multi_records`]. Text that is not
/// a record gives the tags before the fault.
///
/// ```
/// let text = "[Variant \"five-up\"]\n\n{[Variant \"x\"]} *\n\n[Variant \"triquetral-3p\"]\n\n*\n";
/// assert_eq!(raum_notation::record_variants(text), ["five-up", "triquetral-3p"]);
/// ```
pub fn record_variants(text: &str) -> Vec<String> {
    struct Variants {
        line: usize,
        found: Vec<String>,
    }
    impl Scanned for Variants {
        fn line(&mut self) -> &mut usize {
            &mut self.line
        }
        fn error(&self, what: String) -> RecordError {
            RecordError { game: 0, line: self.line, what }
        }
        fn tag(&mut self, name: String, value: String) -> Result<(), RecordError> {
            if name == "Variant" {
                self.found.push(value);
            }
            Ok(())
        }
        fn comment(&mut self, _: &str) {}
        fn token(&mut self, _: &str) -> Result<(), RecordError> {
            Ok(())
        }
    }
    let mut variants = Variants { line: 1, found: Vec::new() };
    // A fault ends the list: the reader the caller picks will report it.
    let _ = scan(text, &mut variants);
    variants.found
}

/// What [`scan`] hands a reader of record text: the two-player reader here
/// and the multi-player one share the text's syntax.
pub(crate) trait Scanned {
    /// The line being read, from 1 (the scanner counts it).
    fn line(&mut self) -> &mut usize;
    /// An error at the line being read.
    fn error(&self, what: String) -> RecordError;
    /// A `[Name "value"]` tag.
    fn tag(&mut self, name: String, value: String) -> Result<(), RecordError>;
    /// A `{...}` comment's body.
    fn comment(&mut self, body: &str);
    /// A move number, move or result.
    fn token(&mut self, tok: &str) -> Result<(), RecordError>;
}

/// Reads record text into `reader`: tags, comments and tokens; `;` comments,
/// `%` lines and variations `( ... )` skipped.
pub(crate) fn scan(text: &str, reader: &mut impl Scanned) -> Result<(), RecordError> {
    let mut chars = text.char_indices().peekable();
    let mut at_line_start = true;
    while let Some(&(i, c)) = chars.peek() {
        if c == '\n' {
            *reader.line() += 1;
            at_line_start = true;
            chars.next();
            continue;
        }
        if c.is_whitespace() || c == '\u{feff}' {
            chars.next();
            continue;
        }
        let rest = &text[i..];
        let line_end = rest.find('\n').unwrap_or(rest.len());
        if at_line_start && c == '%' {
            // PGN's escape: the line is for other programs.
            advance(&mut chars, i + line_end);
            continue;
        }
        at_line_start = false;
        match c {
            '[' => {
                let (name, value) = parse_tag(&rest[..line_end]).map_err(|what| reader.error(what))?;
                reader.tag(name, value)?;
                advance(&mut chars, i + line_end);
            }
            ';' => advance(&mut chars, i + line_end),
            '{' => {
                let end = rest.find('}').ok_or_else(|| reader.error("a comment opened with { is not closed".into()))?;
                let body = &rest[1..end];
                *reader.line() += body.matches('\n').count();
                reader.comment(body);
                advance(&mut chars, i + end + 1);
            }
            '(' => {
                let end = variation_end(rest)
                    .ok_or_else(|| reader.error("a variation opened with ( is not closed".into()))?;
                *reader.line() += rest[..end].matches('\n').count();
                advance(&mut chars, i + end);
            }
            ')' => return Err(reader.error("a ) closes no variation".into())),
            // A token ends before `}` (as before `)`): without this arm a stray one
            // was an empty token and the reader never moved past it.
            '}' => return Err(reader.error("a } closes no comment".into())),
            _ => {
                let len = token_len(rest);
                reader.token(&rest[..len])?;
                advance(&mut chars, i + len);
            }
        }
    }
    Ok(())
}

/// Whether `c` ends a token.
fn ends_token(c: char) -> bool {
    c.is_whitespace() || "{};)[".contains(c)
}

/// The length of the move, number or result token at the start of `text`. A
/// `(` after a piece letter is part of the token when its `)` closes it
/// within the same word (`P(Dd2)-Dd3`); any other opens a variation
/// (`5.(5. Dd3)`, `5.(P(Dd2)-Dd3)`). Otherwise a token could swallow spaces
/// and lines up to a `)` further on, or become a move that starts with `(`,
/// and the writer could not give either back.
fn token_len(text: &str) -> usize {
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '(' => {
                if !text[..i].chars().next_back().is_some_and(char::is_alphabetic) {
                    return i;
                }
                let word = text[i + 1..].find(|c: char| c != ')' && ends_token(c)).map_or(text.len(), |e| i + 1 + e);
                match text[i..word].find(')') {
                    Some(close) => while chars.next().is_some_and(|(j, _)| j < i + close) {},
                    None => return i,
                }
            }
            _ if ends_token(c) => return i,
            _ => {}
        }
    }
    text.len()
}

fn advance(chars: &mut core::iter::Peekable<core::str::CharIndices<'_>>, to: usize) {
    while chars.peek().is_some_and(|&(j, _)| j < to) {
        chars.next();
    }
}

/// The byte just after the `)` that closes the variation `text` opens
/// (nested variations and comments inside skipped).
fn variation_end(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_comment = false;
    for (i, c) in text.char_indices() {
        match c {
            '}' if in_comment => in_comment = false,
            _ if in_comment => {}
            '{' => in_comment = true,
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// `[Name "value"]` as name and unescaped value.
fn parse_tag(line: &str) -> Result<(String, String), String> {
    let line = line.trim_end();
    let bad = |why: &str| format!("tag {line}: {why} (a tag is written [Name \"value\"])");
    let inner = line.strip_prefix('[').ok_or_else(|| bad("no ["))?;
    let name_len = inner.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(inner.len());
    let name = &inner[..name_len];
    if name.is_empty() {
        return Err(bad("no tag name"));
    }
    let after = inner[name_len..].trim_start();
    let body = after.strip_prefix('"').ok_or_else(|| bad("the value must be in double quotes"))?;
    let mut value = String::new();
    let mut chars = body.char_indices();
    let close = loop {
        match chars.next() {
            None => return Err(bad("the value's closing quote is missing")),
            Some((_, '\\')) => match chars.next() {
                Some((_, c)) => value.push(c),
                None => return Err(bad("the value's closing quote is missing")),
            },
            Some((j, '"')) => break j,
            Some((_, c)) => value.push(c),
        }
    };
    match body[close + 1..].trim() {
        "]" => Ok((name.to_string(), value)),
        _ => Err(bad("expected ] after the value")),
    }
}

/// The number and side of the first move of a record whose movetext does not
/// say: those of its `FEN` tag (the side field, then the last field, the move
/// number, in every variant's position string), else White's first move.
fn fen_first(r: &Record) -> (u32, Color) {
    let Some(fields) = r.tag("FEN").map(|f| f.split_whitespace().collect::<Vec<_>>()) else {
        return (1, Color::White);
    };
    let side = if fields.get(1) == Some(&"b") { Color::Black } else { Color::White };
    let number = fields.last().and_then(|n| n.parse().ok()).filter(|&n| n >= 1).unwrap_or(1);
    (number, side)
}

/// A game being read.
struct Open {
    record: Record,
    /// Whether its movetext has begun (a tag after that begins the next game).
    movetext: bool,
    /// Whether a move number came before the first move.
    numbered: bool,
    /// The line of its first tag or token.
    line: usize,
}

/// The parser's state between tokens.
struct Reader {
    games: Vec<Record>,
    current: Option<Open>,
    line: usize,
}

/// Adds a comment's text to the comment in `slot` (a move's, or the one
/// before the first move): two comments in a row become one.
pub(crate) fn add_comment(slot: &mut Option<String>, body: &str) {
    let c = clean_comment(body);
    *slot = Some(match slot.take() {
        Some(prev) if !c.is_empty() => format!("{prev} {c}"),
        Some(prev) => prev,
        None => c,
    });
}

/// A move number token (`12.`, `12...`, or one glued to its move, `12.Cc2`):
/// its digits, how many dots, and what follows them.
pub(crate) fn move_number(tok: &str) -> Option<(&str, usize, &str)> {
    let digits = tok.len() - tok.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let dots = tok[digits..].len() - tok[digits..].trim_start_matches('.').len();
    (digits > 0 && dots > 0).then(|| (&tok[..digits], dots, &tok[digits + dots..]))
}

impl Reader {
    /// The game being read, begun if there is none.
    fn game(&mut self) -> &mut Open {
        let line = self.line;
        self.current.get_or_insert_with(|| {
            let mut record = Record::new(VariantId::FiveUp);
            record.tags.clear();
            Open { record, movetext: false, numbered: false, line }
        })
    }

    /// Closes the game being read, with the movetext's result token if it had one.
    fn end_game(&mut self, token: Option<RecordResult>) -> Result<(), RecordError> {
        let tagged = self.current.as_ref().and_then(|g| g.record.tag("Result").map(str::to_string));
        if let Some(tagged) = tagged.as_deref().filter(|t| RecordResult::parse(t).is_none()) {
            // Kept, it would be written beside a result token that contradicts it.
            let results: Vec<&str> = RecordResult::ALL.iter().map(|r| r.as_str()).collect();
            return Err(self.error(format!("the Result tag says {tagged}, which is not one of {}", results.join(" "))));
        }
        if let (Some(result), Some(tagged)) = (token, &tagged)
            && tagged != result.as_str()
        {
            return Err(self.error(format!("the movetext ends with {result} but the Result tag says {tagged}")));
        }
        let Some(g) = self.current.take() else {
            return match token {
                Some(result) => Err(self.error(format!("{result} ends no game"))),
                None => Ok(()),
            };
        };
        let mut r = g.record;
        if !g.numbered && r.moves.is_empty() {
            // No move, so no number: the start's, as `Record::set_start` gives it.
            r.first = fen_first(&r);
        }
        r.result =
            token.or_else(|| tagged.as_deref().and_then(RecordResult::parse)).unwrap_or(RecordResult::Unfinished);
        if r.tag("Variant").is_none() {
            return Err(RecordError {
                game: self.games.len() + 1,
                line: g.line,
                what: "no [Variant \"...\"] tag: a record must name its variant".into(),
            });
        }
        self.games.push(r);
        Ok(())
    }
}

impl Scanned for Reader {
    fn line(&mut self) -> &mut usize {
        &mut self.line
    }

    fn error(&self, what: String) -> RecordError {
        RecordError { game: self.games.len() + 1, line: self.line, what }
    }

    fn tag(&mut self, name: String, value: String) -> Result<(), RecordError> {
        if self.current.as_ref().is_some_and(|g| g.movetext) {
            // A tag after movetext with no result: the game before it ended there.
            self.end_game(None)?;
        }
        let r = &mut self.game().record;
        match r.tags.iter_mut().find(|(k, _)| *k == name) {
            Some(t) => t.1 = value,
            None => r.tags.push((name, value)),
        }
        Ok(())
    }

    fn comment(&mut self, body: &str) {
        // A comment outside any game (after a result) belongs to none.
        let Some(g) = self.current.as_mut() else { return };
        let r = &mut g.record;
        let slot = match r.moves.last_mut() {
            Some(m) => &mut m.comment,
            None => &mut r.intro,
        };
        add_comment(slot, body);
    }

    fn token(&mut self, tok: &str) -> Result<(), RecordError> {
        if let Some(result) = RecordResult::parse(tok) {
            return self.end_game(Some(result));
        }
        if tok.starts_with('$') {
            return Ok(());
        }
        if tok.starts_with('%') {
            // Written back, the token could start a line and read as an escape line.
            return Err(self.error(format!("'{tok}': % starts an escape line only at the start of a line")));
        }
        if let Some((digits, dots, glued)) = move_number(tok) {
            let number: u32 = digits.parse().map_err(|_| self.error(format!("move number {digits} is too large")))?;
            let g = self.game();
            g.movetext = true;
            if g.record.moves.is_empty() && !g.numbered {
                g.numbered = true;
                g.record.first = (number, if dots >= 3 { Color::Black } else { Color::White });
            }
            return if glued.is_empty() { Ok(()) } else { self.token(glued) };
        }
        let g = self.game();
        g.movetext = true;
        if g.record.moves.is_empty() && !g.numbered {
            g.record.first = fen_first(&g.record);
        }
        g.record.moves.push(RecordMove { text: tok.to_string(), comment: None });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use raum_rules::Variant;

    const MATE: &str =
        "[Event \"Seed 000\"]\n[Variant \"five-up\"]\n[Result \"0-1\"]\n\n1. P-Cc2 P-Cc4 2. B-Ca1 BxEb2# 0-1\n";

    fn five_up() -> &'static Variant<u128> {
        Variant::get(VariantId::FiveUp)
    }

    fn one(text: &str) -> Record {
        let mut r = parse_records(text).unwrap();
        assert_eq!(r.len(), 1);
        r.remove(0)
    }

    fn replay_error(text: &str) -> String {
        one(text).replay(five_up()).unwrap_err().to_string()
    }

    #[test]
    fn reads_tags_moves_comments_and_result() {
        let text = "[Variant \"five-up\"]\n[White \"A \\\"quoted\\\" name\"]\n[Custom \"kept\"]\n\n\
                    {opening} 1. Cc2 {+0.20/8} 1... Cc4 ; a remark\n2. B-Ca1 (2. N-Bc1 {side line}) $2 2... BxEb2# 0-1";
        let r = one(text);
        assert_eq!(r.tag("White"), Some("A \"quoted\" name"));
        assert_eq!(r.tag("Custom"), Some("kept"));
        assert_eq!(r.intro.as_deref(), Some("opening"));
        let texts: Vec<&str> = r.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["Cc2", "Cc4", "B-Ca1", "BxEb2#"]);
        assert_eq!(r.moves[0].comment.as_deref(), Some("+0.20/8"));
        assert_eq!(r.result, RecordResult::BlackWins);
        let game = r.replay(five_up()).unwrap();
        assert_eq!(game.outcome(), Some(Outcome::Checkmate { winner: Color::Black }));
        // Written back: unknown tags kept, escapes restored, `1...` after a comment.
        let written = r.to_string();
        assert!(written.contains("[White \"A \\\"quoted\\\" name\"]\n[Custom \"kept\"]\n"), "{written}");
        assert!(written.contains("{opening} 1. Cc2 {+0.20/8} 1... Cc4 2. B-Ca1 BxEb2# 0-1"), "{written}");
        assert_eq!(one(&written), r);
    }

    #[test]
    fn several_games_and_a_game_from_a_position() {
        let fen = "rwkgr|ppppp|5|5|5/nbqnb|ppppp|5|5|5/5|5|5|5|5/5|5|5|PPPPP|NBQNB/5|5|5|PPPPP|RWKGR b Kk - 0 7";
        let text = format!("{MATE}\n[Variant \"five-up\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\nCc4 8. Cc2 *\n");
        let records = parse_records(&text).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[1].first, (7, Color::Black), "no number: the FEN's side and number");
        let game = records[1].replay(five_up()).unwrap();
        assert_eq!(game.moves().len(), 2);
        assert_eq!(game.position().fullmove_number(), 8);
        let again = Record::from_game(&game);
        assert_eq!(again.first, (7, Color::Black));
        assert!(again.to_string().contains("7... Cc4 8. Cc2 *"), "{again}");
        assert_eq!(write_records(&records), format!("{MATE}\n{}", records[1]));
    }

    #[test]
    fn from_game_writes_the_seed_mate() {
        let v = five_up();
        let mut game = Game::new(Position::start(v));
        for m in ["Dc2-Cc2", "Bc4-Cc4", "Db1-Ca1", "Bb5-Eb2"] {
            game.play(crate::parse_move(game.position(), m).unwrap()).unwrap();
        }
        let r = Record::from_game(&game);
        assert_eq!(r.tag("Termination"), Some("checkmate"));
        assert!(r.to_string().ends_with("\n1. Cc2 Cc4 2. B-Ca1 BxEb2# 0-1\n"), "{r}");
        assert_eq!(r.tag("FEN"), None);
    }

    #[test]
    fn bad_moves_are_refused_by_number() {
        let illegal = "[Variant \"five-up\"]\n\n1. P-Cc2 P-Cc4 2. B-Ca1 BxEb3 *";
        assert_eq!(replay_error(illegal), "move 2... BxEb3: not legal here");
        let ambiguous = "[Variant \"five-up\"]\n\n1. Cc2 Cd4 2. Cb2 Cd3 3. PxCd3 *";
        let e = replay_error(ambiguous);
        assert!(e.starts_with("move 3. PxCd3: ambiguous: it could be "), "{e}");
        let nonsense = "[Variant \"five-up\"]\n\n1. Zz9 *";
        assert!(replay_error(nonsense).starts_with("move 1. Zz9: "), "{}", replay_error(nonsense));
        let after_mate = "[Variant \"five-up\"]\n\n1. P-Cc2 P-Cc4 2. B-Ca1 BxEb2# 3. Cc3 *";
        assert!(replay_error(after_mate).contains("move 3. Cc3: the game was already over"));
        let wrong_result = "[Variant \"five-up\"]\n\n1. P-Cc2 P-Cc4 2. B-Ca1 BxEb2# 1/2-1/2";
        assert!(replay_error(wrong_result).starts_with("the record says 1/2-1/2, but the game ended 0-1"));
        let other_variant = "[Variant \"raumschach\"]\n\n1. Cc2 *";
        assert_eq!(
            one(other_variant).replay(five_up()).unwrap_err().to_string(),
            "a raumschach record cannot be replayed as five-up"
        );
        let bad_fen = "[Variant \"five-up\"]\n[FEN \"nonsense\"]\n\n*";
        assert!(replay_error(bad_fen).starts_with("[FEN \"nonsense\"]: "));
        let unknown = "[Variant \"chess\"]\n\n*";
        assert!(one(unknown).variant().is_err());
    }

    #[test]
    fn bad_text_is_refused_by_line() {
        let cases = [
            ("[Variant five-up]\n", 1, "double quotes"),
            ("[Variant \"five-up\"]\n[Event \"x]\n", 2, "closing quote"),
            ("[Variant \"five-up\"]\n\n1. Cc2 {unclosed\n", 3, "not closed"),
            ("[Variant \"five-up\"]\n\n1. Cc2 (Cc3\n", 3, "not closed"),
            ("[Variant \"five-up\"]\n\n1. Cc2 ) *\n", 3, "closes no variation"),
            ("[Variant \"five-up\"]\n[Result \"1-0\"]\n\n1. Cc2 0-1\n", 4, "Result tag says 1-0"),
            ("1. Cc2 *\n", 1, "no [Variant"),
            ("[Variant \"five-up\"]\n\n99999999999. Cc2 *\n", 3, "too large"),
        ];
        for (text, line, what) in cases {
            let e = parse_records(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.what.contains(what), "{text:?}: {e}");
        }
        let second = format!("{MATE}\n[Event \"no variant\"]\n\n1. Cc2 *\n");
        let e = parse_records(&second).unwrap_err();
        assert_eq!((e.game, e.line), (2, 7), "{e}");
    }

    #[test]
    fn results_read_and_write() {
        for r in RecordResult::ALL {
            assert_eq!(RecordResult::parse(r.as_str()), Some(r));
        }
        let text = "[Variant \"five-up\"]\n[Result \"3/5-2/5\"]\n\n3/5-2/5\n";
        assert_eq!(one(text).result, RecordResult::WhiteStalemates);
        // A result only in the tag: the game's result; neither: unfinished.
        assert_eq!(one("[Variant \"five-up\"]\n[Result \"1-0\"]\n\n1. Cc2\n").result, RecordResult::WhiteWins);
        assert_eq!(one("[Variant \"five-up\"]\n").result, RecordResult::Unfinished);
    }

    #[test]
    fn long_movetext_wraps_and_reads_back() {
        let mut r = Record::new(VariantId::FiveUp);
        for i in 0..60 {
            r.push("Cc2", (i % 3 == 0).then(|| "a long comment that will have to wrap across lines".to_string()));
        }
        let text = r.to_string();
        assert!(text.lines().all(|l| l.chars().count() <= LINE), "{text}");
        assert_eq!(one(&text), r);
    }
}
