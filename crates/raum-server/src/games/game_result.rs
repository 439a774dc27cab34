//! [`GameResult`]: a finished game's result, a score per side, as the JSON
//! and the store write it.

use crate::live_game::side_key;
use crate::store::StoredResult;
use raum_notation::format_result;
use raum_rules::{Points, SideDef};
use serde::Serialize;
use std::cmp::Ordering;

/// A finished game's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameResult {
    /// Each side's score in turn order.
    #[serde(skip)]
    pub scores: Vec<Points>,
    /// As records write it: `1-0`, `1/2-1/2`, Savard's scored stalemate
    /// `3/5-2/5`; `1-0-1-0`, `1/3-1/3-1/3` for more sides.
    pub score: String,
    /// Each side's points in turn order: `["1", "0"]`, `["3/5", "2/5"]`.
    pub points: Vec<String>,
    /// Two sides: the side that scored more (`white` or `black`); null for a draw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<Option<&'static str>>,
    /// More sides: those that scored most (none for a draw, where all score alike).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winners: Option<Vec<&'static str>>,
    /// RULES.md's termination word (`checkmate`, `time`, `resignation`, ...),
    /// `agreement`, or `recorded` for a record's own result.
    pub reason: String,
    /// For people: `0-1, checkmate`, `1-0-1-0, Red is checkmated`.
    pub text: String,
}

impl GameResult {
    /// A result of `scores`, ended for `reason`, which `said` says for people.
    pub(super) fn new(sides: &'static [SideDef], scores: Vec<Points>, reason: &str, said: &str) -> Self {
        let score = format_result(Some(&scores));
        let best = scores.iter().copied().max().unwrap_or(Points::ZERO);
        let mut winners: Vec<&'static str> =
            sides.iter().zip(&scores).filter(|(_, s)| **s == best).map(|(d, _)| side_key(d)).collect();
        if winners.len() == sides.len() {
            winners.clear();
        }
        let two = sides.len() == 2;
        GameResult {
            points: scores.iter().map(Points::to_string).collect(),
            text: format!("{score}, {said}"),
            score,
            winner: two.then(|| winners.first().copied()),
            winners: (!two).then_some(winners),
            scores,
            reason: reason.into(),
        }
    }

    /// A result whose words come from its reason ([`describe`]).
    pub(super) fn plain(sides: &'static [SideDef], scores: Vec<Points>, reason: &str) -> Self {
        let said = describe(sides, &scores, reason);
        GameResult::new(sides, scores, reason, &said)
    }

    /// Every side but `loser`'s team scores 1 (two sides: the other wins).
    pub(super) fn loss_for(sides: &'static [SideDef], loser: usize, reason: &str) -> Self {
        let scores =
            sides.iter().map(|s| if s.team == sides[loser].team { Points::ZERO } else { Points::ONE }).collect();
        GameResult::plain(sides, scores, reason)
    }

    pub(super) fn stored(&self) -> StoredResult {
        StoredResult { score: self.score.clone(), reason: self.reason.clone() }
    }
}

/// What a reason says for people, given the scores: `White stalemates`,
/// `Black resigns`, `draw agreed`.
pub(super) fn describe(sides: &[SideDef], scores: &[Points], reason: &str) -> String {
    let loser = || scores.iter().position(|&p| p == Points::ZERO).map_or("?", |s| sides[s].name);
    match (reason, scores) {
        ("stalemate", [w, b]) => match w.cmp(b) {
            Ordering::Greater => "White stalemates".into(),
            Ordering::Less => "Black stalemates".into(),
            Ordering::Equal => "stalemate".into(),
        },
        ("fifty-move", _) => "50-move rule".into(),
        ("repetition", _) => "threefold repetition".into(),
        ("bare-kings", _) => "bare kings".into(),
        ("agreement", _) => "draw agreed".into(),
        ("resignation", _) => format!("{} resigns", loser()),
        ("time", _) => format!("{}'s time is up", loser()),
        (other, _) => other.into(),
    }
}
