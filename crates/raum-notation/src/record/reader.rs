//! The record reader: record text to [`Record`]s, without the rules.

use super::result::{format_result, parse_result};
use super::syntax::{Scanned, add_comment, move_number, scan};
use super::{Record, RecordError, RecordMove};
use raum_rules::{GameId, Points};

/// Reads every game of a record text, any number of sides. Syntax only:
/// tags, moves as written, comments and results; [`Record::replay`] checks
/// the moves. Each game needs a `Variant` tag; a result token (`1-0`,
/// `1/2-1/2`, `1-0-1-0`, `1/3-1/3-1/3`, `*`) ends a game and must agree with
/// its `Result` tag; `;` comments and `%` lines are ignored, variations
/// `( ... )` and `$n` annotations skipped. Move numbers (`1.`, `1...`) are
/// read for the first move's number; the writer numbers the moves again.
pub fn parse_records(text: &str) -> Result<Vec<Record>, RecordError> {
    parse_records_in(text, None)
}

/// [`parse_records`], where a game without a `Variant` tag is a game of
/// `variant` (its tag is added, last): a record pasted where the game is
/// already chosen (the web app's lobby) need not name it. A game that has
/// the tag keeps its own.
pub fn parse_records_in(text: &str, variant: Option<&str>) -> Result<Vec<Record>, RecordError> {
    let mut reader = Reader { games: Vec::new(), current: None, line: 1, variant: variant.map(str::to_string) };
    scan(text, &mut reader)?;
    reader.end_game(None)?;
    Ok(reader.games)
}

/// The round and side of the first move of a record whose movetext does not
/// say (or says only the round): its `FEN` tag's side letter and last field
/// (the round), else White's first move.
fn fen_first(r: &Record, round: Option<u32>) -> (u32, usize) {
    let Some(fields) = r.tag("FEN").map(|f| f.split_whitespace().collect::<Vec<_>>()) else {
        return (round.unwrap_or(1), 0);
    };
    let letter = fields.get(1).and_then(|s| s.chars().next());
    let side = match (r.tag("Variant").map(GameId::from_name), letter) {
        (Some(Ok(id)), Some(letter)) => id.sides().iter().position(|s| s.letter == letter).unwrap_or(0),
        _ => 0,
    };
    let fen_round = fields.last().and_then(|n| n.parse().ok()).filter(|&n| n >= 1).unwrap_or(1);
    (round.unwrap_or(fen_round), side)
}

/// A game being read.
struct Open {
    record: Record,
    /// Whether its movetext has begun (a tag after that begins the next game).
    movetext: bool,
    /// The round number written before the first move, if one was.
    round: Option<u32>,
    /// The line of its first tag or token.
    line: usize,
}

/// The parser's state between tokens.
struct Reader {
    games: Vec<Record>,
    current: Option<Open>,
    line: usize,
    /// The variant of a game without a `Variant` tag, if one is given.
    variant: Option<String>,
}

/// Whether a token is written like a result (`*`, or digits and `/` joined
/// by `-`): a move has letters, a round number a dot.
pub(super) fn is_result_token(tok: &str) -> bool {
    tok == "*" || (tok.contains('-') && tok.chars().all(|c| c.is_ascii_digit() || c == '/' || c == '-'))
}

impl Reader {
    /// The game being read, begun if there is none.
    fn game(&mut self) -> &mut Open {
        let line = self.line;
        self.current.get_or_insert_with(|| Open {
            record: Record { tags: Vec::new(), first: (1, 0), intro: None, moves: Vec::new(), result: None },
            movetext: false,
            round: None,
            line,
        })
    }

    /// Closes the game being read, with the movetext's result token if it had
    /// one (`Some(None)` for `*`).
    fn end_game(&mut self, token: Option<Option<Vec<Points>>>) -> Result<(), RecordError> {
        let tagged = self.current.as_ref().and_then(|g| g.record.tag("Result").map(str::to_string));
        let tagged_result = match tagged.as_deref().map(parse_result) {
            // Kept, it would be written beside a result token that contradicts it.
            Some(Err(why)) => {
                return Err(self.error(format!("the Result tag says {}: {why}", tagged.as_deref().unwrap_or_default())));
            }
            Some(Ok(r)) => Some(r),
            None => None,
        };
        if let (Some(result), Some(said)) = (&token, &tagged_result)
            && result != said
        {
            let written = format_result(result.as_deref());
            let tagged = tagged.unwrap_or_default();
            return Err(self.error(format!("the movetext ends with {written} but the Result tag says {tagged}")));
        }
        let Some(g) = self.current.take() else {
            return match token {
                Some(result) => Err(self.error(format!("{} ends no game", format_result(result.as_deref())))),
                None => Ok(()),
            };
        };
        let mut r = g.record;
        if let (None, Some(v)) = (r.tag("Variant"), &self.variant) {
            r.tags.push(("Variant".to_string(), v.clone()));
        }
        r.first = fen_first(&r, g.round);
        r.result = token.or(tagged_result).flatten();
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
        if is_result_token(tok) {
            let result = parse_result(tok).map_err(|why| self.error(why))?;
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
            let number: u32 = digits.parse().map_err(|_| self.error(format!("move number {digits} is too large")))?;
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
