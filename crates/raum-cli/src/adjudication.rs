//! Adjudication of `raum match` games by the players' own scores, as
//! engine-testing tools do it: a game both engines agree is lost ends early
//! as a loss, and a game both have scored as level for a long while ends as a
//! draw. Long Raumschach endgames otherwise run to the 50-move rule, and a
//! match spends much of its time on games whose result is already settled.
//!
//! Only scores the players report count: a random or greedy player reports
//! none, so its games are never adjudicated. The rules come first: a move
//! that mates, stalemates or draws by the rules ends the game that way.

use raum_engine::Score;
use raum_rules::Color;
use std::fmt;

/// A mate score as centipawns: beyond any material count, nearer mates larger.
const MATE_CP: i32 = 100_000;

/// `score` as centipawns from the side that searched (mates at ±100,000 less
/// their distance, so a mate in 2 is 99,998).
pub fn centipawns(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE_CP - n,
        Score::Mate(n) => -MATE_CP - n,
    }
}

/// Resign adjudication: a player whose score has been at most `-score` for
/// its last `moves` moves, while its opponent's has been at least `+score`
/// for its last `moves`, loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// The margin in centipawns.
    pub score: i32,
    /// Consecutive moves of each player.
    pub moves: u32,
}

/// Draw adjudication: once `after_ply` plies have been played, a game in which
/// both players' scores have stayed within `±score` for their last `moves`
/// moves is a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// The first ply (counted from the opening position) at which a game may be adjudicated.
    pub after_ply: u32,
    /// The margin in centipawns.
    pub score: i32,
    /// Consecutive moves of each player.
    pub moves: u32,
}

/// The adjudication rules of a match (both off by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
}

/// What the judge decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// This side loses by resign adjudication.
    Resigns(Color),
    /// A draw by adjudication.
    Draw,
}

impl fmt::Display for Verdict {
    /// The reason a match record gives: `adjudicated: White resigns`, `adjudicated draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Resigns(side) => write!(f, "adjudicated: {side} resigns"),
            Verdict::Draw => f.write_str("adjudicated draw"),
        }
    }
}

/// Watches one game's scores, move by move.
#[derive(Clone, Debug)]
pub struct Judge {
    rules: Rules,
    /// Per colour: consecutive moves scored lost, won, level.
    losing: [u32; 2],
    winning: [u32; 2],
    level: [u32; 2],
}

impl Judge {
    /// A judge for a new game.
    pub fn new(rules: Rules) -> Judge {
        Judge { rules, losing: [0; 2], winning: [0; 2], level: [0; 2] }
    }

    /// Takes the score (`None`: the player reported none) that `mover`
    /// gave for the move it played at `ply` (plies played before it), and
    /// says whether the game is over.
    pub fn record(&mut self, mover: Color, score: Option<i32>, ply: u32) -> Option<Verdict> {
        let (me, them) = (mover as usize, mover.opponent() as usize);
        let count = |n: &mut u32, yes: bool| *n = if yes { *n + 1 } else { 0 };
        let resign = self.rules.resign;
        let draw = self.rules.draw;
        count(&mut self.losing[me], matches!((score, resign), (Some(s), Some(r)) if s <= -r.score));
        count(&mut self.winning[me], matches!((score, resign), (Some(s), Some(r)) if s >= r.score));
        count(
            &mut self.level[me],
            matches!((score, draw), (Some(s), Some(d)) if ply >= d.after_ply && s.abs() <= d.score),
        );
        if let Some(r) = resign {
            if self.losing[me] >= r.moves && self.winning[them] >= r.moves {
                return Some(Verdict::Resigns(mover));
            }
            if self.winning[me] >= r.moves && self.losing[them] >= r.moves {
                return Some(Verdict::Resigns(mover.opponent()));
            }
        }
        if let Some(d) = draw
            && self.level[me] >= d.moves
            && self.level[them] >= d.moves
        {
            return Some(Verdict::Draw);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    const RESIGN: ResignRule = ResignRule { score: 600, moves: 3 };
    const DRAW: DrawRule = DrawRule { after_ply: 10, score: 10, moves: 2 };

    #[test]
    fn mates_are_beyond_any_material() {
        assert_eq!(centipawns(Score::Cp(-35)), -35);
        assert_eq!(centipawns(Score::Mate(2)), 99_998);
        assert_eq!(centipawns(Score::Mate(-1)), -99_999);
        assert_eq!(centipawns(Score::Mate(0)), -100_000);
        assert!(centipawns(Score::Mate(1)) > centipawns(Score::Mate(3)));
    }

    #[test]
    fn resigns_only_when_both_agree_for_long_enough() {
        let mut j = Judge::new(Rules { resign: Some(RESIGN), draw: None });
        // White thinks it is winning, Black does not agree yet.
        assert_eq!(j.record(White, Some(700), 20), None);
        assert_eq!(j.record(Black, Some(-100), 21), None);
        assert_eq!(j.record(White, Some(800), 22), None);
        assert_eq!(j.record(Black, Some(-650), 23), None);
        assert_eq!(j.record(White, Some(900), 24), None);
        assert_eq!(j.record(Black, Some(-700), 25), None);
        // Black's third losing score in a row, White's fourth winning one.
        assert_eq!(j.record(White, Some(950), 26), None);
        assert_eq!(j.record(Black, Some(-800), 27), Some(Verdict::Resigns(Black)));
    }

    #[test]
    fn the_winner_can_complete_the_count() {
        let mut j = Judge::new(Rules { resign: Some(RESIGN), draw: None });
        for ply in 0..5 {
            let v = if ply % 2 == 0 { j.record(White, Some(-2000), ply) } else { j.record(Black, Some(2000), ply) };
            assert_eq!(v, None, "ply {ply}");
        }
        assert_eq!(j.record(Black, Some(centipawns(Score::Mate(4))), 5), Some(Verdict::Resigns(White)));
    }

    #[test]
    fn a_missing_or_better_score_resets_the_count() {
        let mut j = Judge::new(Rules { resign: Some(RESIGN), draw: None });
        for (ply, (w, b)) in
            [(Some(700), Some(-700)), (Some(700), None), (Some(700), Some(-700)), (Some(700), Some(-700))]
                .into_iter()
                .enumerate()
        {
            assert_eq!(j.record(White, w, 2 * ply as u32), None);
            assert_eq!(j.record(Black, b, 2 * ply as u32 + 1), None, "round {ply}");
        }
        assert_eq!(j.record(White, Some(700), 8), None);
        assert_eq!(j.record(Black, Some(-700), 9), Some(Verdict::Resigns(Black)));
    }

    #[test]
    fn draws_need_level_scores_from_both_after_the_given_ply() {
        let mut j = Judge::new(Rules { resign: None, draw: Some(DRAW) });
        // Level from the start, but too early.
        for ply in 0..10 {
            let c = if ply % 2 == 0 { White } else { Black };
            assert_eq!(j.record(c, Some(0), ply), None, "ply {ply}");
        }
        assert_eq!(j.record(White, Some(5), 10), None);
        assert_eq!(j.record(Black, Some(-11), 11), None, "outside the margin");
        assert_eq!(j.record(White, Some(-10), 12), None);
        assert_eq!(j.record(Black, Some(3), 13), None);
        assert_eq!(j.record(White, Some(0), 14), None);
        assert_eq!(j.record(Black, Some(0), 15), Some(Verdict::Draw));
    }

    #[test]
    fn no_rules_no_verdicts() {
        let mut j = Judge::new(Rules::default());
        for ply in 0..100 {
            let c = if ply % 2 == 0 { White } else { Black };
            assert_eq!(j.record(c, Some(if ply % 2 == 0 { 5000 } else { -5000 }), ply), None);
            assert_eq!(j.record(c, Some(0), ply), None);
        }
    }
}
