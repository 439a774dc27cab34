//! Records of the multi-player games (RULES.md "Savard's multi-player forms",
//! Records): the two-player records' text (tags, `{comments}`, `;` comments,
//! variations skipped, the result at the end) with a name tag per side
//! (`White`, `Red`, `Black`, `Blue`, ...), each round numbered once (`1.`)
//! and followed by one coordinate move per side still in, in turn order, and
//! a result that gives each side's score in turn order (`1-0-1-0`, `0-1-0`,
//! `3/5-2/5-3/5-2/5`, `1/3-1/3-1/3`; `*` unfinished).
//!
//! A side that resigns is written where it resigned, between moves, as its
//! name tag's word and `-resigns` (`Blue-resigns`; read in any case): RULES.md
//! gives resigning no rule and PGN no token for it, and the web app's rule
//! (docs/rules.md: every side for itself the side is out and its men leave
//! the board, with teams its team loses) changes the position, so a record
//! must say where it happened to replay what follows. It is not a move: the
//! round it falls in still has one move per side still in.
//!
//! As with two-player records, reading is two steps: [`parse_multi_records`]
//! reads the text without the rules, and [`MultiRecord::replay`] plays it,
//! refusing a move by its round, side and text (`round 3, Red, 2c5-2d5: not
//! legal here`). Which reader a file needs is told by its `Variant` tags
//! ([`crate::record_variants`]).
//!
//! A round is the moves from one side to move that is first in turn order
//! among the sides still in to the next: the position's fullmove number goes
//! up between rounds. A side that leaves the game (every side for itself, a
//! side with no legal move is out) has no move in the rounds after, so the
//! writer finds the rounds by replaying the moves under the game's rules; a
//! record that does not replay (an illegal move, an unknown game) is numbered
//! as far as it replays, and then as if the sides still in stayed in.
//!
//! ```
//! use raum_notation::{MultiRecord, parse_multi_records};
//! use raum_rules::multi::{MultiId, MultiVariant};
//! let text = "[Variant \"wing-table-4p\"]\n[Result \"*\"]\n\n\
//!             1. 2e3-2e4 2c8-2d8 2h10-2h9 2j5-2i5 2. 2f3-2f4 *\n";
//! let records = parse_multi_records(text).unwrap();
//! assert_eq!(records[0].to_string(), text);
//! let v = MultiVariant::<raum_bitboard::Wide<4>>::at_width(MultiId::WingTable4p);
//! let game = records[0].replay(v).unwrap();
//! assert_eq!(game.moves().len(), 5);
//! assert_eq!(game.position().mover().name, "Red");
//!
//! // Every side for itself, Blue resigns on its turn: Green moves next.
//! let text = "[Variant \"triquetral-3p\"]\n[Result \"*\"]\n\n1. 6f3-6f4 Blue-resigns 3f6-4f6 2. 6g3-6g4 *\n";
//! let v = MultiVariant::<raum_bitboard::Wide<4>>::at_width(MultiId::Triquetral3p);
//! let game = parse_multi_records(text).unwrap()[0].replay(v).unwrap();
//! assert_eq!(game.position().sides_in(), [0, 2]);
//! assert!(MultiRecord::from_game(&game).to_string().ends_with("\n\n1. 6f3-6f4 Blue-resigns 3f6-4f6 2. 6g3-6g4 *\n"));
//! ```

use crate::multi::{format_multi_move, format_multi_position, parse_multi_move, parse_multi_position};
use crate::record::{
    RecordError, RecordMove, ReplayError, Scanned, UNKNOWN_DATE, add_comment, move_error_text, move_number,
    push_comment, scan, write_tags, write_wrapped,
};
use raum_bitboard::CellSet;
use raum_rules::Action;
use raum_rules::multi::{MultiGame, MultiId, MultiPosition, MultiVariant};
use raum_rules::{DrawReason, MultiFn, Points, Width};
use raum_rules::{End, GameResult, SideDef};

/// One game of a multi-player record file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiRecord {
    /// The tags in the order they are written, unknown ones included.
    pub tags: Vec<(String, String)>,
    /// The round of the first move and the side (index in turn order) that
    /// makes it: the start's, or the reader's first round number. The writer
    /// numbers the rounds by replaying; this numbers a record that cannot
    /// start (an unknown game, a bad `FEN`).
    pub first: (u32, usize),
    /// A comment before the first move.
    pub intro: Option<String>,
    /// The moves in order, in coordinates as written, and the resignations
    /// where they happened (`Blue-resigns`, as written).
    pub moves: Vec<RecordMove>,
    /// Each side's score in turn order; `None` for `*`, a game not over
    /// (kept equal to the `Result` tag by [`MultiRecord::set_result`]).
    pub result: Option<Vec<Points>>,
}

/// The side names that a record may carry as tags, for records of games
/// the reader does not know.
const SIDE_NAMES: [&str; 6] = ["White", "Black", "Red", "Blue", "Green", "Yellow"];

/// Writes a result: each side's score in turn order joined by `-`, or `*`.
///
/// ```
/// use raum_notation::format_multi_result;
/// use raum_rules::Points;
/// assert_eq!(format_multi_result(Some(&[Points::ONE, Points::ZERO, Points::ONE, Points::ZERO])), "1-0-1-0");
/// assert_eq!(format_multi_result(Some(&[Points(20); 3])), "1/3-1/3-1/3");
/// assert_eq!(format_multi_result(None), "*");
/// ```
pub fn format_multi_result(result: Option<&[Points]>) -> String {
    match result {
        None => "*".to_string(),
        Some(scores) => scores.iter().map(Points::to_string).collect::<Vec<_>>().join("-"),
    }
}

/// Reads a result token: `*` (`None`), or two or more scores joined by `-`,
/// each `0`, `1` or a fraction in lowest terms that is a whole number of
/// sixtieths (`1/2`, `2/5`, `1/3`, `1/6`). Says why a token is not one.
///
/// ```
/// use raum_notation::parse_multi_result;
/// use raum_rules::Points;
/// assert_eq!(parse_multi_result("3/5-2/5-3/5-2/5").unwrap().unwrap()[0], Points::THREE_FIFTHS);
/// assert_eq!(parse_multi_result("*"), Ok(None));
/// assert!(parse_multi_result("2-0-0-0").unwrap_err().contains("2 is not a score"));
/// ```
pub fn parse_multi_result(s: &str) -> Result<Option<Vec<Points>>, String> {
    if s == "*" {
        return Ok(None);
    }
    let parts: Vec<&str> = s.split('-').collect();
    if parts.len() < 2 {
        return Err(format!("'{s}' is not a result: write each side's score in turn order joined by -, or *"));
    }
    let score = |p: &str| -> Option<Points> {
        let (num, den) = match p.split_once('/') {
            Some((n, d)) => (n.parse::<u64>().ok()?, d.parse::<u64>().ok()?),
            None => (p.parse::<u64>().ok()?, 1),
        };
        if den == 0 || num > den || (num * 60) % den != 0 {
            return None;
        }
        let points = Points(u8::try_from(num * 60 / den).ok()?);
        // Only the form the writer gives back: `1/2`, not `2/4` or `01`.
        (points.to_string() == p).then_some(points)
    };
    parts
        .iter()
        .map(|p| {
            score(p).ok_or_else(|| {
                format!(
                    "'{s}' is not a result: {p} is not a score (a score is 0, 1 or a fraction in lowest terms \
                     such as 1/2, 3/5 or 1/3)"
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// The `Termination` tag's value for a multi-player game the rules ended.
/// Every side for itself, the game ends when one side is left: the others
/// were taken out for having no legal move, which RULES.md treats alike in
/// check or not, and this is written `checkmate` (the result says who won);
/// where a resignation left the last side, [`multi_game_termination`] says
/// `resignation`.
pub fn multi_termination(end: End) -> &'static str {
    match end {
        End::Checkmate { .. } | End::LastSide { .. } => "checkmate",
        End::Stalemate { .. } | End::Draw(DrawReason::Stalemate) => "stalemate",
        End::Resignation { .. } => "resignation",
        End::Draw(DrawReason::FiftyMoves) => "fifty-move",
        End::Draw(DrawReason::Repetition) => "repetition",
        End::Draw(DrawReason::BareKings) => "bare-kings",
    }
}

/// The `Termination` tag's value for how `game` ended, `None` while it goes
/// on: [`multi_termination`], except that every side for itself a last side
/// left by a resignation won by `resignation` (a draw that a resignation
/// brings about, such as only kings left, stays a draw).
pub fn multi_game_termination<S: CellSet>(game: &MultiGame<S>) -> Option<&'static str> {
    let o = game.outcome()?;
    Some(match (o.end, game.actions().last()) {
        (End::LastSide { .. }, Some(Action::Resign(_))) => "resignation",
        (end, _) => multi_termination(end),
    })
}

/// How the rules ended a game, for people: `Red is checkmated`, `Blue
/// resigns`. `sides` are the game's sides in turn order (an index past them
/// is named `?`).
pub fn describe_multi_end(sides: &[SideDef], end: End) -> String {
    let name = |s: usize| sides.get(s).map_or("?", |d| d.name);
    match end {
        End::Checkmate { side } => format!("{} is checkmated", name(side)),
        End::Stalemate { side } => format!("{} is stalemated", name(side)),
        End::Resignation { side } => format!("{} resigns", name(side)),
        End::LastSide { side } => format!("{} is the last side in", name(side)),
        End::Draw(DrawReason::BareKings) => "only kings are left".into(),
        End::Draw(DrawReason::Repetition) => "threefold repetition".into(),
        End::Draw(DrawReason::FiftyMoves) => "50 rounds without a capture or a pawn move".into(),
        End::Draw(DrawReason::Stalemate) => "stalemate".into(),
    }
}

/// How a game ended, for messages: `0-1-0-1 (White is checkmated)`.
fn describe<S: CellSet>(v: &MultiVariant<S>, o: &GameResult) -> String {
    format!("{} ({})", format_multi_result(Some(&o.scores)), describe_multi_end(v.sides(), o.end))
}

/// The end of a resignation token: `Blue-resigns`.
const RESIGNS: &str = "-resigns";

/// A side's resignation as a movetext token: `Blue-resigns`.
///
/// ```
/// use raum_notation::format_multi_resignation;
/// use raum_rules::multi::{MultiId, MultiVariant};
/// let v = MultiVariant::<raum_bitboard::Wide<4>>::at_width(MultiId::Triquetral3p);
/// assert_eq!(format_multi_resignation(&v.sides()[1]), "Blue-resigns");
/// ```
pub fn format_multi_resignation(side: &SideDef) -> String {
    format!("{}{RESIGNS}", side.name)
}

/// The side name of a token written as a resignation (`<name>-resigns`, in
/// any case), whatever the name; `None` for any other token.
fn resignation_name(text: &str) -> Option<&str> {
    let cut = text.len().checked_sub(RESIGNS.len()).filter(|&cut| cut > 0 && text.is_char_boundary(cut))?;
    text[cut..].eq_ignore_ascii_case(RESIGNS).then(|| &text[..cut])
}

/// Reads a resignation token of a game of `v`: `None` if `text` is not
/// written as one, else the side that resigns (index in turn order) or why
/// the name is not one of the game's sides.
///
/// ```
/// use raum_notation::parse_multi_resignation;
/// use raum_rules::multi::{MultiId, MultiVariant};
/// let v = MultiVariant::<raum_bitboard::Wide<4>>::at_width(MultiId::Triquetral3p);
/// assert_eq!(parse_multi_resignation(v, "GREEN-resigns"), Some(Ok(2)));
/// assert_eq!(parse_multi_resignation(v, "2e3-2e4"), None);
/// assert!(parse_multi_resignation(v, "Black-resigns").unwrap().unwrap_err().starts_with("Black is not a side"));
/// ```
pub fn parse_multi_resignation<S: CellSet>(v: &MultiVariant<S>, text: &str) -> Option<Result<usize, String>> {
    let name = resignation_name(text)?;
    let sides = v.sides();
    Some(sides.iter().position(|s| s.name.eq_ignore_ascii_case(name)).ok_or_else(|| {
        let names: Vec<&str> = sides.iter().map(|s| s.name).collect();
        format!("{name} is not a side of {} (its sides: {})", v.id(), names.join(", "))
    }))
}

/// Plays one movetext token on `game`: a resignation, or a move of the side
/// to move. Says why it cannot be played.
fn apply<S: CellSet>(game: &mut MultiGame<S>, text: &str) -> Result<(), String> {
    let pos = game.position();
    if let Some(side) = parse_multi_resignation(pos.variant(), text) {
        return game.resign(side?).map_err(|e| e.to_string());
    }
    let m = parse_multi_move(pos, text).map_err(|e| move_error_text(&e))?;
    game.play(m).map_err(|_| "not legal here".to_string())
}

impl MultiRecord {
    /// An empty record of `id` from its start: `Event`, `Site`, `Date`,
    /// `Round`, a tag per side in turn order (`sides`, the game's
    /// [`MultiVariant::sides`]), unknown values `?`, then `Result` and `Variant`.
    pub fn new(id: MultiId, sides: &[SideDef]) -> MultiRecord {
        let mut tags: Vec<(String, String)> = [("Event", "?"), ("Site", "?"), ("Date", UNKNOWN_DATE), ("Round", "?")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        tags.extend(sides.iter().map(|s| (s.name.to_string(), "?".to_string())));
        tags.push(("Result".into(), "*".into()));
        tags.push(("Variant".into(), id.name().into()));
        MultiRecord { tags, first: (1, 0), intro: None, moves: Vec::new(), result: None }
    }

    /// A record of `game`: its start (with `SetUp` and `FEN` unless it is the
    /// game's start), its moves in coordinates and its resignations
    /// (`Blue-resigns`) in order, and the result and `Termination` the rules
    /// give it ([`multi_game_termination`]; `*` if they do not end it).
    pub fn from_game<S: CellSet>(game: &MultiGame<S>) -> MultiRecord {
        let v = game.start().variant();
        let mut r = MultiRecord::new(v.id(), v.sides());
        r.set_start(game.start());
        for &a in game.actions() {
            let text = match a {
                Action::Move(m) => format_multi_move(v, m),
                Action::Resign(side) => format_multi_resignation(&v.sides()[side]),
            };
            r.push(text, None);
        }
        if let (Some(o), Some(termination)) = (game.outcome(), multi_game_termination(game)) {
            r.set_tag("Termination", termination);
            r.set_result(Some(o.scores));
        }
        r
    }

    /// Sets the start position: `SetUp`/`FEN` tags unless it is the game's
    /// start, and the first move's round and side.
    pub fn set_start<S: CellSet>(&mut self, start: &MultiPosition<S>) {
        self.tags.retain(|(k, _)| k != "SetUp" && k != "FEN");
        if *start != MultiPosition::start(start.variant()) {
            self.set_tag("SetUp", "1");
            self.set_tag("FEN", &format_multi_position(start));
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

    /// Sets the result (each side's score in turn order, `None` for `*`) and its tag.
    pub fn set_result(&mut self, result: Option<Vec<Points>>) {
        self.set_tag("Result", &format_multi_result(result.as_deref()));
        self.result = result;
    }

    /// The result as written: `1-0-1-0`, `*`.
    pub fn result_text(&self) -> String {
        format_multi_result(self.result.as_deref())
    }

    /// Appends a move as written (coordinates) or a resignation
    /// ([`format_multi_resignation`]), with an optional comment.
    pub fn push(&mut self, text: impl Into<String>, comment: Option<String>) {
        self.moves.push(RecordMove { text: text.into(), comment });
    }

    /// The game the `Variant` tag names.
    pub fn variant(&self) -> Result<MultiId, ReplayError> {
        let name = self
            .tag("Variant")
            .ok_or_else(|| ReplayError::Tag("no [Variant \"...\"] tag: a record must name its game".into()))?;
        MultiId::from_name(name).ok_or_else(|| {
            let ids: Vec<&str> = MultiId::ALL.iter().map(|id| id.name()).collect();
            ReplayError::Tag(format!("[Variant \"{name}\"]: not a multi-player game (those are {})", ids.join(", ")))
        })
    }

    /// The start position: the `FEN` tag's, or the game's start.
    pub fn start<S: CellSet>(&self, v: &'static MultiVariant<S>) -> Result<MultiPosition<S>, ReplayError> {
        match self.tag("FEN") {
            Some(fen) => parse_multi_position(v, fen).map_err(|e| ReplayError::Tag(format!("[FEN \"{fen}\"]: {e}"))),
            None => Ok(MultiPosition::start(v)),
        }
    }

    /// Plays the record's moves and resignations under `v`'s rules from its
    /// start. Refuses a record of another game, a move that is not legal or
    /// not readable (by its round, side to move and text), a resignation of a
    /// side the game does not have or that is out already (the same way), a
    /// move or resignation after the game ended, a result whose number of
    /// scores is not the number of sides, and a result that contradicts a
    /// game the rules ended (`*` included).
    pub fn replay<S: CellSet>(&self, v: &'static MultiVariant<S>) -> Result<MultiGame<S>, ReplayError> {
        let id = self.variant()?;
        if id != v.id() {
            return Err(ReplayError::Tag(format!("a {id} record cannot be replayed as {}", v.id())));
        }
        let mut game = MultiGame::new(self.start(v)?);
        for rm in &self.moves {
            let pos = game.position().clone();
            let fail = |why: String| ReplayError::Turn {
                round: pos.fullmove_number(),
                side: pos.mover().name.to_string(),
                text: rm.text.clone(),
                why,
            };
            if let Some(o) = game.outcome() {
                return Err(fail(format!("the game was already over: {}", describe(v, &o))));
            }
            apply(&mut game, &rm.text).map_err(fail)?;
        }
        let said = || self.result_text();
        if let Some(scores) = &self.result
            && scores.len() != v.sides().len()
        {
            let why = format!("{id} has {} sides: a result gives each side's score, in turn order", v.sides().len());
            return Err(ReplayError::Scores { said: said(), why });
        }
        if let Some(o) = game.outcome()
            && self.result.as_ref() != Some(&o.scores)
        {
            return Err(ReplayError::Scores { said: said(), why: format!("the game ended {}", describe(v, &o)) });
        }
        Ok(game)
    }

    /// Each move's round and whether it begins its round (see the module's
    /// notes: by replay as far as the moves go).
    fn numbering(&self) -> Vec<(u32, bool)> {
        struct Numbering<'a>(&'a MultiRecord);
        impl MultiFn for Numbering<'_> {
            type Output = Vec<(u32, bool)>;
            fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Self::Output {
                self.0.numbering_at(Some(v))
            }
        }
        match self.variant() {
            Ok(id) => id.dispatch(Numbering(self)),
            Err(_) => self.numbering_at::<u128>(None),
        }
    }

    fn numbering_at<S: CellSet>(&self, v: Option<&'static MultiVariant<S>>) -> Vec<(u32, bool)> {
        let mut out = Vec::with_capacity(self.moves.len());
        // The sides in, the side to move and the round where the replay stops.
        let (sides_in, mut to_move, mut round) = match v.map(|v| (v, self.start(v))) {
            Some((_, Ok(start))) => {
                let mut game = MultiGame::new(start);
                let mut last_round = None;
                for rm in &self.moves {
                    let pos = game.position();
                    let round = pos.fullmove_number();
                    let begins = match last_round {
                        Some(last) => round > last,
                        None => pos.sides_in().first() == Some(&pos.side_to_move()),
                    };
                    if game.outcome().is_some() || apply(&mut game, &rm.text).is_err() {
                        break;
                    }
                    out.push((round, begins));
                    last_round = Some(round);
                }
                let pos = game.position();
                (pos.sides_in(), pos.side_to_move(), pos.fullmove_number())
            }
            Some((v, Err(_))) => ((0..v.sides().len()).collect(), self.first.1, self.first.0),
            None => {
                let named = self.tags.iter().filter(|(k, _)| SIDE_NAMES.contains(&k.as_str())).count();
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
                // A record may start at any round, u32::MAX too: stay there rather than overflow.
                round = round.saturating_add(1);
            }
        }
        out
    }
}

impl core::fmt::Display for MultiRecord {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write_tags(f, &self.tags)?;
        let mut words: Vec<String> = Vec::new();
        if let Some(c) = &self.intro {
            push_comment(&mut words, c);
        }
        let mut after_comment = self.intro.is_some();
        for (i, (m, (round, begins))) in self.moves.iter().zip(self.numbering()).enumerate() {
            if begins {
                words.push(format!("{round}."));
            } else if i == 0 || after_comment {
                words.push(format!("{round}..."));
            }
            words.push(m.text.clone());
            after_comment = m.comment.is_some();
            if let Some(c) = &m.comment {
                push_comment(&mut words, c);
            }
        }
        words.push(self.result_text());
        write_wrapped(f, words)
    }
}

/// Writes several records, a blank line between games.
pub fn write_multi_records(records: &[MultiRecord]) -> String {
    records.iter().map(MultiRecord::to_string).collect::<Vec<_>>().join("\n")
}

/// Reads every game of a multi-player record text. Syntax only: tags, moves
/// as written, comments and results; [`MultiRecord::replay`] checks the moves.
/// Each game needs a `Variant` tag; a result token (`1-0-1-0`, `1/3-1/3-1/3`,
/// `*`) ends a game and must agree with its `Result` tag; `;` comments and
/// `%` lines are ignored, variations `( ... )` and `$n` annotations skipped.
/// Round numbers (`1.`, `1...`) are read for the first move's round; the
/// writer numbers the rounds again.
pub fn parse_multi_records(text: &str) -> Result<Vec<MultiRecord>, RecordError> {
    let mut reader = Reader { games: Vec::new(), current: None, line: 1 };
    scan(text, &mut reader)?;
    reader.end_game(None)?;
    Ok(reader.games)
}

/// The side letters of a game in turn order.
fn side_letters(id: MultiId) -> Vec<char> {
    struct Letters;
    impl MultiFn for Letters {
        type Output = Vec<char>;
        fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Vec<char> {
            v.sides().iter().map(|s| s.letter).collect()
        }
    }
    id.dispatch(Letters)
}

/// The round and side of the first move of a record whose movetext does not
/// say (or says only the round): its `FEN` tag's side letter and last field
/// (the round), else White's first move.
fn fen_first(r: &MultiRecord, round: Option<u32>) -> (u32, usize) {
    let Some(fields) = r.tag("FEN").map(|f| f.split_whitespace().collect::<Vec<_>>()) else {
        return (round.unwrap_or(1), 0);
    };
    let letter = fields.get(1).and_then(|s| s.chars().next());
    let side = match (r.tag("Variant").and_then(MultiId::from_name), letter) {
        (Some(id), Some(letter)) => side_letters(id).iter().position(|&c| c == letter).unwrap_or(0),
        _ => 0,
    };
    let fen_round = fields.last().and_then(|n| n.parse().ok()).filter(|&n| n >= 1).unwrap_or(1);
    (round.unwrap_or(fen_round), side)
}

/// A game being read.
struct Open {
    record: MultiRecord,
    /// Whether its movetext has begun (a tag after that begins the next game).
    movetext: bool,
    /// The round number written before the first move, if one was.
    round: Option<u32>,
    /// The line of its first tag or token.
    line: usize,
}

/// The parser's state between tokens.
struct Reader {
    games: Vec<MultiRecord>,
    current: Option<Open>,
    line: usize,
}

/// Whether a token is written like a result (`*`, or digits and `/` joined
/// by `-`): a move has letters, a round number a dot.
fn is_result_token(tok: &str) -> bool {
    tok == "*" || (tok.contains('-') && tok.chars().all(|c| c.is_ascii_digit() || c == '/' || c == '-'))
}

impl Reader {
    /// The game being read, begun if there is none.
    fn game(&mut self) -> &mut Open {
        let line = self.line;
        self.current.get_or_insert_with(|| Open {
            record: MultiRecord { tags: Vec::new(), first: (1, 0), intro: None, moves: Vec::new(), result: None },
            movetext: false,
            round: None,
            line,
        })
    }

    /// Closes the game being read, with the movetext's result token if it had
    /// one (`Some(None)` for `*`).
    fn end_game(&mut self, token: Option<Option<Vec<Points>>>) -> Result<(), RecordError> {
        let tagged = self.current.as_ref().and_then(|g| g.record.tag("Result").map(str::to_string));
        let tagged_result = match tagged.as_deref().map(parse_multi_result) {
            // Kept, it would be written beside a result token that contradicts it.
            Some(Err(why)) => return Err(self.error(format!("the Result tag: {why}"))),
            Some(Ok(r)) => Some(r),
            None => None,
        };
        if let (Some(result), Some(said)) = (&token, &tagged_result)
            && result != said
        {
            let written = format_multi_result(result.as_deref());
            let tagged = tagged.unwrap_or_default();
            return Err(self.error(format!("the movetext ends with {written} but the Result tag says {tagged}")));
        }
        let Some(g) = self.current.take() else {
            return match token {
                Some(result) => Err(self.error(format!("{} ends no game", format_multi_result(result.as_deref())))),
                None => Ok(()),
            };
        };
        let mut r = g.record;
        r.first = fen_first(&r, g.round);
        r.result = token.or(tagged_result).flatten();
        if r.tag("Variant").is_none() {
            return Err(RecordError {
                game: self.games.len() + 1,
                line: g.line,
                what: "no [Variant \"...\"] tag: a record must name its game".into(),
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
        if is_result_token(tok) {
            let result = parse_multi_result(tok).map_err(|why| self.error(why))?;
            return self.end_game(Some(result));
        }
        if tok.starts_with('$') {
            return Ok(());
        }
        if tok.starts_with('%') {
            // Written back, the token could start a line and read as an escape line.
            return Err(self.error(format!("'{tok}': % starts an escape line only at the start of a line")));
        }
        if let Some((digits, _, glued)) = move_number(tok) {
            let number: u32 = digits.parse().map_err(|_| self.error(format!("round number {digits} is too large")))?;
            let g = self.game();
            g.movetext = true;
            if g.record.moves.is_empty() && g.round.is_none() {
                g.round = Some(number);
            }
            return if glued.is_empty() { Ok(()) } else { self.token(glued) };
        }
        let g = self.game();
        g.movetext = true;
        g.record.moves.push(RecordMove { text: tok.to_string(), comment: None });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use raum_bitboard::Wide;

    fn four() -> &'static MultiVariant<Wide<4>> {
        MultiVariant::at_width(MultiId::WingTable4p)
    }

    fn three() -> &'static MultiVariant<Wide<4>> {
        MultiVariant::at_width(MultiId::Triquetral3p)
    }

    /// A seeded random mover (splitmix64): `moves` moves or to the game's end.
    fn random_game<S: CellSet>(start: MultiPosition<S>, seed: u64, moves: usize) -> MultiGame<S> {
        let mut state = seed;
        let mut game = MultiGame::new(start);
        while game.outcome().is_none() && game.moves().len() < moves {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            let legal = game.position().legal_moves();
            let m = legal.iter().copied().nth((z % legal.len() as u64) as usize).expect("a legal move");
            game.play(m).expect("legal");
        }
        game
    }

    /// The first seeded random game (seeds 0, 1, ...) that `wanted` accepts.
    fn find_game<S: CellSet>(
        v: &'static MultiVariant<S>,
        moves: usize,
        wanted: impl Fn(&MultiGame<S>) -> bool,
    ) -> MultiGame<S> {
        (0..64)
            .map(|seed| random_game(MultiPosition::start(v), seed, moves))
            .find(|g| wanted(g))
            .expect("some seed gives such a game")
    }

    fn one(text: &str) -> MultiRecord {
        let mut r = parse_multi_records(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(r.len(), 1);
        r.remove(0)
    }

    /// The movetext's rounds: the moves after each round number, in order.
    fn rounds(text: &str) -> Vec<(String, Vec<String>)> {
        let movetext = &text[text.find("\n\n").expect("a tag section") + 2..];
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for word in movetext.split_whitespace() {
            if word.ends_with('.') {
                out.push((word.to_string(), Vec::new()));
            } else if let Some(last) = out.last_mut()
                && !word.contains('{')
                && !word.contains('}')
                && !is_result_token(word)
            {
                last.1.push(word.to_string());
            }
        }
        out
    }

    #[test]
    fn writes_and_reads_back_with_unknown_tags_and_comments() {
        let v = four();
        let game = random_game(MultiPosition::start(v), 7, 12);
        let mut r = MultiRecord::from_game(&game);
        r.set_tag("White", "A \"quoted\" name");
        r.set_tag("Red", "Raum (1000 ms a move)");
        r.set_tag("Custom", "kept");
        r.intro = Some("opening".into());
        r.moves[0].comment = Some("+0.20/8".into());
        r.moves[5].comment = Some("a comment mid-round".into());
        let text = r.to_string();
        let head = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
                    [White \"A \\\"quoted\\\" name\"]\n[Red \"Raum (1000 ms a move)\"]\n[Black \"?\"]\n[Blue \"?\"]\n\
                    [Result \"*\"]\n[Variant \"wing-table-4p\"]\n[Custom \"kept\"]\n\n";
        assert!(text.starts_with(head), "{text}");
        let m = |i: usize| r.moves[i].text.as_str();
        let expected = format!(
            "{{opening}} 1. {} {{+0.20/8}} 1... {} {} {} 2. {} {} {{a comment mid-round}} 2... {} {} 3. {} {} {} {} *",
            m(0),
            m(1),
            m(2),
            m(3),
            m(4),
            m(5),
            m(6),
            m(7),
            m(8),
            m(9),
            m(10),
            m(11)
        );
        let movetext: Vec<&str> = text[head.len()..].split_whitespace().collect();
        assert_eq!(movetext.join(" "), expected, "{text}");
        let back = one(&text);
        assert_eq!(back, r);
        assert_eq!(back.to_string(), text);
        assert_eq!(back.tag("White"), Some("A \"quoted\" name"));
        // `;` comments, variations, $n and a glued number are read past.
        let noisy = text.replace(" 2. ", " ; a remark\n2. (2. 2e3-2e5 {side line}) $1 2.");
        assert_eq!(one(&noisy).to_string(), text);
    }

    #[test]
    fn a_random_four_player_game_replays() {
        let v = four();
        let game = random_game(MultiPosition::start(v), 11, 20);
        let r = MultiRecord::from_game(&game);
        assert_eq!(r.result, None);
        let text = r.to_string();
        let rounds = rounds(&text);
        let numbers: Vec<&str> = rounds.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(numbers, ["1.", "2.", "3.", "4.", "5."], "{text}");
        assert!(rounds.iter().all(|(_, m)| m.len() == 4), "{text}");
        let back = one(&text);
        let replayed = back.replay(v).unwrap();
        assert_eq!(format_multi_position(replayed.position()), format_multi_position(game.position()));
        assert_eq!(replayed.moves(), game.moves());
        assert_eq!(write_multi_records(&[back.clone(), back]), format!("{text}\n{text}"));
    }

    #[test]
    fn a_three_player_game_in_which_a_side_leaves() {
        let v = three();
        // Random play until a side has no legal move and leaves, then a few rounds more.
        let long = find_game(v, 1500, |g| !g.removed().is_empty());
        let (at, side) = long.removed()[0];
        let mut game = MultiGame::new(MultiPosition::start(v));
        for &m in &long.moves()[..(at + 12).min(long.moves().len())] {
            game.play(m).unwrap();
        }
        assert!(game.removed().contains(&(at, side)));
        let r = MultiRecord::from_game(&game);
        let text = r.to_string();
        let rounds = rounds(&text);
        let out_round = (at / 3) as u32;
        for (i, (number, moves)) in rounds.iter().enumerate() {
            assert_eq!(number, &format!("{}.", i + 1), "{text}");
            let full = (i as u32) < out_round;
            if i + 1 < rounds.len() && (full || i as u32 > out_round) {
                assert_eq!(moves.len(), if full { 3 } else { 2 }, "round {}: {text}", i + 1);
            }
        }
        assert_eq!(rounds.last().map(|(_, m)| m.len() <= 2), Some(true));
        let back = one(&text);
        assert_eq!(back.to_string(), text);
        let replayed = back.replay(v).unwrap();
        assert_eq!(replayed.removed(), game.removed());
        assert_eq!(format_multi_position(replayed.position()), format_multi_position(game.position()));
    }

    #[test]
    fn a_three_player_game_to_the_last_side() {
        let v = three();
        let game = find_game(v, 3000, |g| matches!(g.outcome().map(|o| o.end), Some(End::LastSide { .. })));
        let Some(End::LastSide { side }) = game.outcome().map(|o| o.end) else { unreachable!() };
        let r = MultiRecord::from_game(&game);
        let expected: Vec<&str> = (0..3).map(|s| if s == side { "1" } else { "0" }).collect();
        assert_eq!(r.tag("Result"), Some(expected.join("-").as_str()));
        assert_eq!(r.tag("Termination"), Some("checkmate"));
        let text = r.to_string();
        assert!(text.lines().all(|l| l.chars().count() <= crate::record::LINE), "{text}");
        assert!(text.trim_end().ends_with(&format!(" {}", expected.join("-"))), "{text}");
        let back = one(&text);
        assert_eq!(back.to_string(), text);
        let replayed = back.replay(v).unwrap();
        assert_eq!(replayed.outcome(), game.outcome());
        // The same game said to be unfinished, or won by another side, is refused.
        let mut wrong = back.clone();
        wrong.set_result(None);
        let e = wrong.replay(v).unwrap_err().to_string();
        assert!(e.starts_with("the record says *, but the game ended "), "{e}");
        assert!(e.ends_with("is the last side in)"), "{e}");
    }

    #[test]
    fn a_result_that_contradicts_a_mate_is_refused() {
        let v = four();
        let game = find_game(v, 200, |g| matches!(g.outcome().map(|o| o.end), Some(End::Checkmate { .. })));
        let o = game.outcome().unwrap();
        let End::Checkmate { side } = o.end else { unreachable!() };
        let mut r = MultiRecord::from_game(&game);
        assert_eq!(r.tag("Termination"), Some("checkmate"));
        assert_eq!(r.result.as_ref(), Some(&o.scores));
        assert!(one(&r.to_string()).replay(v).is_ok());
        // The mated side's team said to win.
        let flipped: Vec<Points> = o.scores.iter().map(|&p| Points(60 - p.0)).collect();
        r.set_result(Some(flipped.clone()));
        let e = one(&r.to_string()).replay(v).unwrap_err().to_string();
        let name = v.sides()[side].name;
        assert_eq!(
            e,
            format!(
                "the record says {}, but the game ended {} ({name} is checkmated)",
                format_multi_result(Some(&flipped)),
                format_multi_result(Some(&o.scores))
            )
        );
        // A move after the mate.
        r.set_result(Some(o.scores.clone()));
        r.push("2e3-2e4", None);
        let e = one(&r.to_string()).replay(v).unwrap_err().to_string();
        assert!(e.contains(&format!("{name}, 2e3-2e4: the game was already over: ")), "{e}");
    }

    #[test]
    fn bad_moves_and_results_are_refused() {
        let v = four();
        let head = "[Variant \"wing-table-4p\"]\n\n";
        let error = |movetext: &str| one(&format!("{head}{movetext}")).replay(v).unwrap_err().to_string();
        assert_eq!(error("1. 2e3-2e4 2c8-2e8 *"), "round 1, Red, 2c8-2e8: not legal here");
        assert_eq!(
            error("1. 2e3-2e4 2c8-2d8 2h10-2h9 2j5-2i5 2. 2f3-2f4 2c8-2d8 *"),
            "round 2, Red, 2c8-2d8: no Red piece on 2c8"
        );
        assert_eq!(
            error("1. 2e3-2e4 2c8-2d8 2h10-2z9 *"),
            "round 1, Black, 2h10-2z9: '2z9' is not a cell of this board"
        );
        assert_eq!(
            error("1. 2e3-2e4 2c8-2d8 2h10-2h9 2j5-2i5 1-0-1"),
            "the record says 1-0-1, but wing-table-4p has 4 sides: a result gives each side's score, in turn order"
        );
        let other = one("[Variant \"triquetral-3p\"]\n\n*\n").replay(v).unwrap_err().to_string();
        assert_eq!(other, "a triquetral-3p record cannot be replayed as wing-table-4p");
        let two = one("[Variant \"five-up\"]\n\n*\n").variant().unwrap_err().to_string();
        assert!(two.starts_with("[Variant \"five-up\"]: not a multi-player game"), "{two}");
        let fen = one("[Variant \"wing-table-4p\"]\n[FEN \"x\"]\n\n*\n").replay(v).unwrap_err().to_string();
        assert!(fen.starts_with("[FEN \"x\"]: "), "{fen}");
    }

    #[test]
    fn bad_text_is_refused_by_line() {
        let cases = [
            ("[Variant \"wing-table-4p\"]\n\n1. 2e3-2e4 2-0-0-0\n", 3, "'2-0-0-0' is not a result: 2 is not a score"),
            ("[Variant \"wing-table-4p\"]\n\n1. 2e3-2e4 1/4-0-2/4-0\n", 3, "2/4 is not a score"),
            ("[Variant \"wing-table-4p\"]\n\n1. 2e3-2e4 1/7-0-0-0\n", 3, "1/7 is not a score"),
            (
                "[Variant \"wing-table-4p\"]\n[Result \"0-1-0-1\"]\n\n1-0-1-0\n",
                4,
                "the movetext ends with 1-0-1-0 but the Result tag says 0-1-0-1",
            ),
            ("[Variant \"wing-table-4p\"]\n[Result \"1-0\"]\n\n*\n", 4, "the movetext ends with * but the Result tag"),
            ("[Variant \"wing-table-4p\"]\n[Result \"won\"]\n", 3, "the Result tag: 'won' is not a result"),
            ("[Variant \"wing-table-4p\"]\n\n1. 2e3-2e4 {open\n", 3, "not closed"),
            ("1. 2e3-2e4 *\n", 1, "no [Variant"),
            ("[Variant \"wing-table-4p\"]\n\n99999999999. 2e3-2e4 *\n", 3, "too large"),
            ("[Variant \"wing-table-4p\"]\n\n1. 2e3-2e4 * 0-1-0-1\n", 3, "0-1-0-1 ends no game"),
        ];
        for (text, line, what) in cases {
            let e = parse_multi_records(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.what.contains(what), "{text:?}: {e}");
        }
        // A result only in the tag is the game's; neither: unfinished.
        let tagged = one("[Variant \"wing-table-4p\"]\n[Result \"1/2-1/2-1/2-1/2\"]\n\n1. 2e3-2e4\n");
        assert_eq!(tagged.result, Some(vec![Points::HALF; 4]));
        assert_eq!(one("[Variant \"triquetral-3p\"]\n").result, None);
        assert_eq!(one("[Variant \"triquetral-3p\"]\n\n1/3-1/3-1/3\n").result, Some(vec![Points(20); 3]));
    }

    #[test]
    fn a_record_from_a_position_mid_round() {
        let v = four();
        // Two moves in: Black to move in round 1.
        let before = random_game(MultiPosition::start(v), 3, 2);
        let start = before.position().clone();
        let game = random_game(start.clone(), 5, 6);
        let r = MultiRecord::from_game(&game);
        assert_eq!(r.tag("SetUp"), Some("1"));
        assert_eq!(r.tag("FEN"), Some(format_multi_position(&start).as_str()));
        assert_eq!(r.first, (1, 2));
        let text = r.to_string();
        let numbers: Vec<String> = rounds(&text).into_iter().map(|(n, m)| format!("{n}{}", m.len())).collect();
        assert_eq!(numbers, ["1...2", "2.4"], "{text}");
        let back = one(&text);
        assert_eq!(back, r);
        assert_eq!(back.replay(v).unwrap().position(), game.position());
        // Without round numbers the FEN says where the record begins.
        let (tags, movetext) = text.split_once("\n\n").unwrap();
        let bare: Vec<&str> = movetext.split_whitespace().filter(|w| !w.ends_with('.')).collect();
        let bare = one(&format!("{tags}\n\n{}\n", bare.join(" ")));
        assert_eq!(bare.first, (1, 2));
        assert_eq!(bare.to_string(), text);
    }

    /// The movetext's words, tags and comments left out.
    fn movetext(text: &str) -> String {
        let body = &text[text.find("\n\n").expect("a tag section") + 2..];
        body.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn resignations_are_written_where_they_happened() {
        let v = three();
        let first = |g: &MultiGame<Wide<4>>| g.position().legal_moves()[0];
        // Round 1: White moves, Blue resigns on its turn, Green moves. Round
        // 2: White moves, and resigns while Green is to move: Green wins.
        let mut game = MultiGame::new(MultiPosition::start(v));
        game.play(first(&game)).unwrap();
        game.resign(1).unwrap();
        game.play(first(&game)).unwrap();
        game.play(first(&game)).unwrap();
        game.resign(0).unwrap();
        let r = MultiRecord::from_game(&game);
        let m = |i: usize| format_multi_move(v, game.moves()[i]);
        let text = r.to_string();
        let expected = format!("1. {} Blue-resigns {} 2. {} White-resigns 0-0-1", m(0), m(1), m(2));
        assert_eq!(movetext(&text), expected, "{text}");
        assert_eq!(r.tag("Termination"), Some("resignation"));
        let back = one(&text);
        assert_eq!(back, r);
        assert_eq!(back.to_string(), text);
        let replayed = back.replay(v).unwrap();
        assert_eq!(replayed.actions(), game.actions());
        assert_eq!(replayed.position(), game.position());
        assert_eq!(replayed.outcome().map(|o| o.end), Some(End::LastSide { side: 2 }));
        // Said to be unfinished, it is refused as other endings are.
        let mut open = back.clone();
        open.set_result(None);
        let e = open.replay(v).unwrap_err().to_string();
        assert_eq!(e, "the record says *, but the game ended 0-0-1 (Green is the last side in)");

        // A resignation that begins a round is numbered with it, on its turn or not.
        for resigner in [0, 2] {
            let mut game = MultiGame::new(MultiPosition::start(v));
            for _ in 0..3 {
                game.play(first(&game)).unwrap();
            }
            game.resign(resigner).unwrap();
            for _ in 0..3 {
                game.play(first(&game)).unwrap();
            }
            let m = |i: usize| format_multi_move(v, game.moves()[i]);
            let name = v.sides()[resigner].name;
            let text = MultiRecord::from_game(&game).to_string();
            let expected = format!("1. {} {} {} 2. {name}-resigns {} {} 3. {} *", m(0), m(1), m(2), m(3), m(4), m(5));
            assert_eq!(movetext(&text), expected, "{text}");
            let back = one(&text);
            assert_eq!(back.to_string(), text);
            assert_eq!(back.replay(v).unwrap().position(), game.position());
        }
    }

    #[test]
    fn a_team_resignation_is_replayed_and_its_result_checked() {
        let v = four();
        let mut game = MultiGame::new(MultiPosition::start(v));
        game.play(game.position().legal_moves()[0]).unwrap();
        game.resign(1).unwrap();
        let r = MultiRecord::from_game(&game);
        let text = r.to_string();
        assert!(text.contains("[Result \"1-0-1-0\"]") && text.contains("[Termination \"resignation\"]"), "{text}");
        assert!(movetext(&text).ends_with(" Red-resigns 1-0-1-0"), "{text}");
        let replayed = one(&text).replay(v).unwrap();
        assert_eq!(replayed.outcome(), game.outcome());
        // Read in any case; kept as written.
        let lower = text.replace("Red-resigns", "red-RESIGNS");
        assert_eq!(one(&lower).to_string(), lower);
        assert_eq!(one(&lower).replay(v).unwrap().outcome(), game.outcome());
        let head = "[Variant \"wing-table-4p\"]\n\n";
        let error = |movetext: &str| one(&format!("{head}{movetext}")).replay(v).unwrap_err().to_string();
        assert_eq!(
            error("1. Red-resigns 0-1-0-1"),
            "the record says 0-1-0-1, but the game ended 1-0-1-0 (Red resigns)"
        );
        assert_eq!(error("1. Red-resigns *"), "the record says *, but the game ended 1-0-1-0 (Red resigns)");
        assert_eq!(
            error("1. 2e3-2e4 Red-resigns 2c8-2d8 1-0-1-0"),
            "round 1, Red, 2c8-2d8: the game was already over: 1-0-1-0 (Red resigns)"
        );
        assert_eq!(
            error("1. Red-resigns Blue-resigns 1-0-1-0"),
            "round 1, White, Blue-resigns: the game was already over: 1-0-1-0 (Red resigns)"
        );
    }

    #[test]
    fn bad_resignations_are_refused_by_name_and_round() {
        let v = three();
        let head = "[Variant \"triquetral-3p\"]\n\n";
        let error = |movetext: &str| one(&format!("{head}{movetext}")).replay(v).unwrap_err().to_string();
        assert_eq!(
            error("1. 6f3-6f4 Purple-resigns *"),
            "round 1, Blue, Purple-resigns: Purple is not a side of triquetral-3p (its sides: White, Blue, Green)"
        );
        assert_eq!(
            error("1. 6f3-6f4 Black-resigns *"),
            "round 1, Blue, Black-resigns: Black is not a side of triquetral-3p (its sides: White, Blue, Green)"
        );
        assert_eq!(
            error("1. 6f3-6f4 Blue-resigns 3f6-4f6 2. blue-resigns *"),
            "round 2, White, blue-resigns: Blue is already out of the game"
        );
        // A move of the side that resigned.
        let game = one(&format!("{head}1. 6f3-6f4 Blue-resigns *")).replay(v).unwrap();
        let blue_move = MultiPosition::start(v)
            .play_copy(game.moves()[0])
            .legal_moves()
            .first()
            .map(|&m| format_multi_move(v, m))
            .unwrap();
        let e = error(&format!("1. 6f3-6f4 Blue-resigns {blue_move} *"));
        assert!(e.starts_with(&format!("round 1, Green, {blue_move}: ")), "{e}");
        // `-resigns` alone names no side: read as a move, and refused as one.
        assert!(error("1. -resigns *").starts_with("round 1, White, -resigns: "));
        // A record that does not replay past a bad resignation is still written.
        let text = format!("{head}1. 6f3-6f4 Purple-resigns 3f6-4f6 6g3-6g4 *\n");
        assert_eq!(one(&text).to_string(), text);
    }

    /// Random games with random resignations, comments and tags, in every
    /// multi-player game: written, read back equal, written again
    /// identically, and replayed to the same actions, position and outcome.
    #[test]
    fn records_with_resignations_round_trip() {
        struct Check(u64);
        impl MultiFn for Check {
            /// The resignations in the game.
            type Output = usize;
            fn call<S: Width>(self, v: &'static MultiVariant<S>) -> usize {
                let mut state = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1;
                let mut next = |n: usize| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state % n as u64) as usize
                };
                let mut game = MultiGame::new(MultiPosition::start(v));
                let steps = next(80);
                while game.actions().len() < steps && game.outcome().is_none() {
                    let sides_in = game.position().sides_in();
                    // With teams a resignation ends the game: rarer there.
                    if next(if v.teams() { 60 } else { 12 }) == 0 {
                        game.resign(sides_in[next(sides_in.len())]).unwrap();
                    } else {
                        let legal = game.position().legal_moves();
                        game.play(legal[next(legal.len())]).unwrap();
                    }
                }
                let mut r = MultiRecord::from_game(&game);
                for i in 0..r.moves.len() {
                    if next(5) == 0 {
                        r.moves[i].comment = Some(format!("note {i}"));
                    }
                }
                if next(3) == 0 {
                    r.intro = Some("before".into());
                }
                let text = r.to_string();
                let back = one(&text);
                assert_eq!(back, r, "{text}");
                assert_eq!(back.to_string(), text);
                let replayed = back.replay(v).unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(replayed.actions(), game.actions(), "{text}");
                assert_eq!(replayed.position(), game.position(), "{text}");
                assert_eq!(replayed.outcome(), game.outcome(), "{text}");
                assert_eq!(MultiRecord::from_game(&replayed).to_string(), MultiRecord::from_game(&game).to_string());
                game.actions().iter().filter(|a| matches!(a, Action::Resign(_))).count()
            }
        }
        let mut resignations = 0;
        for seed in 0..40 {
            for id in MultiId::ALL {
                resignations += id.dispatch(Check(seed));
            }
        }
        assert!(resignations >= 40, "only {resignations} resignations");
    }

    #[test]
    fn a_record_from_a_position_where_white_is_out() {
        let v = three();
        let long = find_game(v, 1500, |g| g.removed().first().is_some_and(|&(_, side)| side == 0));
        let at = long.removed()[0].0;
        let mut game = MultiGame::new(MultiPosition::start(v));
        for &m in &long.moves()[..at] {
            game.play(m).unwrap();
        }
        // White left the game; the next move is the first of a round.
        let start = game.position().clone();
        assert!(!start.is_in(0));
        let mut later = MultiGame::new(start.clone());
        for &m in &long.moves()[at..at + 5] {
            later.play(m).unwrap();
        }
        let r = MultiRecord::from_game(&later);
        let text = r.to_string();
        let round = start.fullmove_number();
        let shape: Vec<String> = rounds(&text).into_iter().map(|(n, m)| format!("{n}{}", m.len())).collect();
        let first = if start.side_to_move() == 1 { format!("{round}.2") } else { format!("{round}...1") };
        assert_eq!(shape[0], first, "{text}");
        let back = one(&text);
        assert_eq!(back.to_string(), text);
        assert_eq!(back.replay(v).unwrap().position(), later.position());
    }

    #[test]
    fn records_that_do_not_replay_are_still_written() {
        // An illegal move: numbered as far as the moves replay, then by turns.
        let text = "[Variant \"wing-table-4p\"]\n\n1. 2e3-2e4 2c8-2d8 2h10-2h9 2j5-2i5 2. 2e4-2e9 2c8-2c9 2h9-2h8 \
                    2j5-2j6 3.\n2f3-2f4 *\n";
        assert_eq!(one(text).to_string(), text);
        // An unknown game: one round per side named in the tags.
        let text = "[Variant \"chess-for-three\"]\n[White \"?\"]\n[Black \"?\"]\n[Red \"?\"]\n\n1. a b c 2. d *\n";
        assert_eq!(one(text).to_string(), text);
    }

    #[test]
    fn new_record_tags_and_variants_of_a_text() {
        let v = MultiVariant::<Wide<8>>::at_width(MultiId::Triquetral6p);
        let r = MultiRecord::new(v.id(), v.sides());
        let names: Vec<&str> = r.tags.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            names,
            ["Event", "Site", "Date", "Round", "White", "Black", "Blue", "Red", "Green", "Yellow", "Result", "Variant"]
        );
        assert_eq!(
            r.to_string(),
            format!("{}\n*\n", r.tags.iter().map(|(k, v)| format!("[{k} \"{v}\"]\n")).collect::<String>())
        );
        let text = format!("{r}\n[Variant \"five-up\"]\n\n{{[Variant \"hidden\"]}} 1. Cc2 *\n");
        assert_eq!(crate::record_variants(&text), ["triquetral-6p", "five-up"]);
    }
}
