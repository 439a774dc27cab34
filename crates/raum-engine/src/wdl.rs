//! Win/draw/loss estimates from a search score (the protocol's
//! `UCI_ShowWDL`): what a score means as chances, for people.
//!
//! The model: the expected score of a side `cp` centipawns up is the
//! tuner's logistic curve (`tune::sigmoid`) at scale [`WDL_K`], the mean of
//! two scales `raum tune` once fitted to 3,000-node self-play games under
//! hand-set terms (Five Up's first fit, k 0.4624, and Raumschach's bounded
//! fit, k 0.3832: BENCHMARKS.md, "Tuning the evaluation"); and the draws are a
//! share of the middle, [`WDL_DRAWS`] at a level score (212 draws in 800
//! games of one Raumschach match, that bounded fit against the hand-set terms
//! at 5,000 nodes) and falling as the score leaves it. The two constants are
//! picked, not fitted together to any games, and the chances have not been
//! checked against game results. A mate score is a certain result.

use crate::Score;

/// The logistic scale of the expected score (see the module's notes).
pub const WDL_K: f64 = 0.42;
/// The share of draws at a level score.
pub const WDL_DRAWS: f64 = 0.26;

/// Chances in permille for the side whose score it is; the three add up to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Wins.
    pub win: u32,
    /// Draws.
    pub draw: u32,
    /// Losses.
    pub loss: u32,
}

/// The chances a score stands for.
///
/// ```
/// use raum_engine::{Score, wdl};
/// let level = wdl(Score::Cp(0));
/// assert_eq!(level.win, level.loss);
/// assert_eq!(level.win + level.draw + level.loss, 1000);
/// assert!(wdl(Score::Cp(300)).win > wdl(Score::Cp(100)).win);
/// assert_eq!(wdl(Score::Mate(3)).win, 1000);
/// assert_eq!(wdl(Score::Mate(-2)).loss, 1000);
/// ```
pub fn wdl(score: Score) -> Wdl {
    let cp = match score {
        Score::Mate(n) if n > 0 => return Wdl { win: 1000, draw: 0, loss: 0 },
        Score::Mate(_) => return Wdl { win: 0, draw: 0, loss: 1000 },
        Score::Cp(cp) => f64::from(cp),
    };
    let expected = crate::tune::sigmoid(cp, WDL_K);
    // Draws take equally from both sides' chances, most at a level score.
    let draws = WDL_DRAWS * 4.0 * expected * (1.0 - expected);
    let win = ((expected - draws / 2.0) * 1000.0).round().clamp(0.0, 1000.0) as u32;
    let loss = ((1.0 - expected - draws / 2.0) * 1000.0).round().clamp(0.0, f64::from(1000 - win)) as u32;
    Wdl { win, draw: 1000 - win - loss, loss }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_are_symmetric_monotonic_and_whole() {
        let mut last = wdl(Score::Cp(-3000));
        for cp in (-2990..=3000).step_by(10) {
            let w = wdl(Score::Cp(cp));
            let mirror = wdl(Score::Cp(-cp));
            assert_eq!(w.win + w.draw + w.loss, 1000, "{cp}");
            assert!(w.win.abs_diff(mirror.loss) <= 1 && w.loss.abs_diff(mirror.win) <= 1, "{cp}: {w:?} {mirror:?}");
            assert!(w.win >= last.win && w.loss <= last.loss, "{cp}");
            last = w;
        }
        assert!(wdl(Score::Cp(0)).draw >= 250);
        assert!(wdl(Score::Cp(2000)).win > 980);
    }
}
