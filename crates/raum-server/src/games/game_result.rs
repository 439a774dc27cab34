//! [`GameResult`]: a finished two-player game's result, as the JSON and
//! the store write it.

use super::seat::color_name;
use crate::store::StoredResult;
use raum_notation::{RecordResult, termination_of};
use raum_rules::{Color, Outcome};
use serde::Serialize;

/// A finished game's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameResult {
    /// The result, typed (the app reads `score`, `points` and `winner`).
    #[serde(skip)]
    pub result: RecordResult,
    /// As records write it: `1-0`, `0-1`, `1/2-1/2`, or Savard's scored
    /// stalemate `3/5-2/5` and `2/5-3/5`.
    pub score: String,
    /// Each side's points, White's first: `["1", "0"]`, `["1/2", "1/2"]`, `["3/5", "2/5"]`.
    pub points: [String; 2],
    /// The side that scored more (`white` or `black`); none for a draw.
    pub winner: Option<&'static str>,
    /// RULES.md's termination word, or `agreement`.
    pub reason: String,
    /// For people: `0-1, checkmate`, `3/5-2/5, White stalemates`.
    pub text: String,
}

impl GameResult {
    pub(super) fn new(result: RecordResult, reason: &str) -> Self {
        let score = result.as_str();
        let points = result.points();
        let winner = points.and_then(|[w, b]| match w.cmp(&b) {
            std::cmp::Ordering::Greater => Some(color_name(Color::White)),
            std::cmp::Ordering::Less => Some(color_name(Color::Black)),
            std::cmp::Ordering::Equal => None,
        });
        let said = match reason {
            "stalemate" => match result {
                RecordResult::WhiteStalemates => "White stalemates".to_string(),
                RecordResult::BlackStalemates => "Black stalemates".to_string(),
                _ => "stalemate".to_string(),
            },
            "fifty-move" => "50-move rule".to_string(),
            "repetition" => "threefold repetition".to_string(),
            "bare-kings" => "bare kings".to_string(),
            "agreement" => "draw agreed".to_string(),
            "resignation" => match score {
                "1-0" => "Black resigns".to_string(),
                "0-1" => "White resigns".to_string(),
                _ => "resignation".to_string(),
            },
            "time" => match score {
                "1-0" => "Black's time is up".to_string(),
                "0-1" => "White's time is up".to_string(),
                _ => "time is up".to_string(),
            },
            other => other.to_string(),
        };
        GameResult {
            result,
            score: score.into(),
            points: points.map_or_else(|| ["*".into(), "*".into()], |p| p.map(|x| x.to_string())),
            winner,
            reason: reason.into(),
            text: format!("{score}, {said}"),
        }
    }

    /// The result the rules give a game that they ended.
    pub fn of_outcome(o: Outcome) -> Self {
        GameResult::new(RecordResult::of_outcome(o), termination_of(o))
    }

    pub(super) fn win_for(c: Color, reason: &str) -> Self {
        GameResult::new(RecordResult::win_for(c), reason)
    }

    pub(super) fn stored(&self) -> StoredResult {
        StoredResult { score: self.score.clone(), reason: self.reason.clone() }
    }
}
