//! Results as records write them: each side's score in turn order
//! (`1-0`, `3/5-2/5`, `1-0-1-0`, `1/3-1/3-1/3`, `*`), the two-player results
//! by name ([`RecordResult`]), and the `Termination` tag's words.

use raum_rules::{Action, Color, DrawReason, End, GameRules, Outcome, Points, SideDef};

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

    /// The scores, White's first; `None` for `*` (what [`Record::result`](super::Record) holds).
    pub fn scores(self) -> Option<Vec<Points>> {
        self.points().map(|p| p.to_vec())
    }

    /// The two-player result of these scores (White's first); `None` for
    /// `*`, or scores that are not a two-player result.
    ///
    /// ```
    /// use raum_notation::RecordResult;
    /// use raum_rules::Points;
    /// assert_eq!(RecordResult::of_scores(Some(&[Points::ZERO, Points::ONE])), Some(RecordResult::BlackWins));
    /// assert_eq!(RecordResult::of_scores(None), Some(RecordResult::Unfinished));
    /// assert_eq!(RecordResult::of_scores(Some(&[Points::ONE; 3])), None);
    /// ```
    pub fn of_scores(scores: Option<&[Points]>) -> Option<RecordResult> {
        RecordResult::ALL.into_iter().find(|r| r.points().as_ref().map(|p| p.as_slice()) == scores)
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

/// The `Termination` tag's value for a two-player game the rules ended.
pub fn termination_of(o: Outcome) -> &'static str {
    termination(o.result().end)
}

/// Writes a result: each side's score in turn order joined by `-`, or `*`.
///
/// ```
/// use raum_notation::format_result;
/// use raum_rules::Points;
/// assert_eq!(format_result(Some(&[Points::ONE, Points::ZERO, Points::ONE, Points::ZERO])), "1-0-1-0");
/// assert_eq!(format_result(Some(&[Points(20); 3])), "1/3-1/3-1/3");
/// assert_eq!(format_result(None), "*");
/// ```
pub fn format_result(result: Option<&[Points]>) -> String {
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
/// use raum_notation::parse_result;
/// use raum_rules::Points;
/// assert_eq!(parse_result("3/5-2/5-3/5-2/5").unwrap().unwrap()[0], Points::THREE_FIFTHS);
/// assert_eq!(parse_result("*"), Ok(None));
/// assert!(parse_result("2-0-0-0").unwrap_err().contains("2 is not a score"));
/// ```
pub fn parse_result(s: &str) -> Result<Option<Vec<Points>>, String> {
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

/// The `Termination` tag's value for a game the rules ended, any number of sides.
/// Every side for itself, the game ends when one side is left: the others
/// were taken out for having no legal move, which RULES.md treats alike in
/// check or not, and this is written `checkmate` (the result says who won);
/// where a resignation left the last side, [`game_termination`] says
/// `resignation`.
pub fn termination(end: End) -> &'static str {
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
/// on: [`termination`], except that every side for itself a last side
/// left by a resignation won by `resignation` (a draw that a resignation
/// brings about, such as only kings left, stays a draw).
pub fn game_termination(game: &impl GameRules) -> Option<&'static str> {
    let o = game.result()?;
    Some(match (o.end, game.actions().last().copied()) {
        (End::LastSide { .. }, Some(Action::Resign(_))) => "resignation",
        (end, _) => termination(end),
    })
}

/// How the rules ended a game, for people: `Red is checkmated`, `Blue
/// resigns`. `sides` are the game's sides in turn order (an index past them
/// is named `?`).
pub fn describe_end(sides: &[SideDef], end: End) -> String {
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
