//! What a match tells: the tally of its games ([`Tally`]), a progress line
//! on standard error as games finish, and the summary. Two-sided matches
//! (two players, or two teams) are told from A's point of view: wins, draws
//! and losses (a Savard stalemate counts 0.6 for the side that gives it and
//! 0.4 for the other, and the summary shows such games as wins and losses "by
//! stalemate"), the logistic Elo with its error bar, the pairs' totals and
//! the sequential test. Every side for itself, each player's mean score over
//! the games it played, best first.

use super::Summary;
use super::lineup::Lineup;
use super::run::Played;
use crate::adjudication::Verdict;
use crate::stats;
use raum_rules::{GameRules, Points};
use std::collections::BTreeMap;

/// The match's tally.
pub(super) struct Tally {
    /// A's games by A's score.
    pub scores: stats::GameScores,
    /// Pairs by A's total over the two games.
    pub pairs: stats::PairScores,
    /// Games ended by resign and by draw adjudication.
    pub resigned: u64,
    pub adjudicated_draws: u64,
    /// Each player's score in each game, in the order the games came.
    per_player: Vec<Vec<Points>>,
    /// Games by how they ended, and the plies they took.
    endings: BTreeMap<String, u64>,
    plies: usize,
    /// The SPRT's verdict when it stopped the match (`--sprt-stop`): final,
    /// though the games then under way, finished and counted, may move the
    /// LLR back inside the bounds.
    pub stopped_at: Option<stats::Verdict>,
}

impl Default for Tally {
    fn default() -> Self {
        let (scores, pairs) = ([0; stats::ONE + 1], [0; 2 * stats::ONE + 1]);
        Tally {
            scores,
            pairs,
            resigned: 0,
            adjudicated_draws: 0,
            per_player: vec![],
            endings: BTreeMap::new(),
            plies: 0,
            stopped_at: None,
        }
    }
}

/// ` (2 by stalemate)` after a count of wins or losses, where there were any.
fn by_stalemate(n: u64) -> String {
    if n == 0 { String::new() } else { format!(" ({n} by stalemate)") }
}

impl Tally {
    /// Adds the games of one cycle (a pair, or a rotation of the players).
    pub fn add(&mut self, cycle: &[Played]) {
        let a: Vec<Points> = cycle.iter().map(|p| p.points(0)).collect();
        self.add_pair(&a);
        for p in cycle {
            match p.result.adjudicated {
                Some(Verdict::Draw) => self.adjudicated_draws += 1,
                Some(Verdict::Resigns(_)) => self.resigned += 1,
                None => {}
            }
            if self.per_player.len() < p.seats.len() {
                self.per_player.resize(p.seats.len(), Vec::new());
            }
            for (player, scores) in self.per_player.iter_mut().enumerate() {
                if p.seats.contains(&player) {
                    scores.push(p.points(player));
                }
            }
            *self.endings.entry(p.result.reason.clone()).or_default() += 1;
            self.plies += p.result.game.moves().len();
        }
    }

    /// Adds the games of one pair (A's score in each); a lone last game
    /// counts for the score and W/D/L but not for the pair statistics.
    pub fn add_pair(&mut self, a_points: &[Points]) {
        for p in a_points {
            self.scores[usize::from(p.0)] += 1;
        }
        if let [x, y] = a_points {
            self.pairs[usize::from(x.0) + usize::from(y.0)] += 1;
        }
    }

    pub fn games(&self) -> u64 {
        self.scores.iter().sum()
    }

    /// Games A scored more in than B: by mate, stalemate, adjudication, time or forfeit.
    pub fn wins(&self) -> u64 {
        self.scores[stats::ONE / 2 + 1..].iter().sum()
    }

    pub fn draws(&self) -> u64 {
        self.scores[stats::ONE / 2]
    }

    pub fn losses(&self) -> u64 {
        self.scores[..stats::ONE / 2].iter().sum()
    }

    /// Wins and losses by Savard's stalemate (3/5 and 2/5).
    pub fn stalemates(&self) -> (u64, u64) {
        (self.scores[usize::from(Points::THREE_FIFTHS.0)], self.scores[usize::from(Points::TWO_FIFTHS.0)])
    }

    /// Each player's mean score and its 95% error, by player.
    fn means(&self) -> Vec<(f64, f64)> {
        (self.per_player.iter())
            .map(|s| {
                let n = s.len().max(1) as f64;
                let mean = s.iter().map(|x| x.as_f64()).sum::<f64>() / n;
                let var = s.iter().map(|x| (x.as_f64() - mean).powi(2)).sum::<f64>() / n;
                (mean, 1.96 * (var / n).sqrt())
            })
            .collect()
    }

    /// The progress line after each cycle.
    pub fn progress(&self, lineup: &Lineup, games: u32) -> String {
        if !lineup.two_sided() {
            let means: Vec<String> = self.means().iter().map(|(m, _)| format!("{m:.3}")).collect();
            return format!("Games {}/{games}  mean scores {}", self.games(), means.join(" "));
        }
        let (elo, margin) = stats::elo_with_margin(&self.scores);
        format!(
            "Games {}/{}  W {} D {} L {}  Elo {:+.1} ± {:.1}",
            self.games(),
            games,
            self.wins(),
            self.draws(),
            self.losses(),
            elo,
            margin
        )
    }

    /// What a two-sided match concluded, from A's point of view; `sprt` is
    /// (elo0, elo1, bounds).
    pub fn summary(&self, sprt: (f64, f64, (f64, f64))) -> Summary {
        let (elo0, elo1, bounds) = sprt;
        let (elo, margin) = stats::elo_with_margin(&self.scores);
        let llr = stats::pair_llr(&self.pairs, elo0, elo1);
        Summary {
            games: self.games(),
            score: stats::mean_score(&self.scores),
            elo,
            margin,
            llr,
            verdict: self.stopped_at.unwrap_or(stats::sprt_verdict(llr, bounds)),
        }
    }

    /// The summary of a two-sided match from A's point of view, after
    /// `heading` (who played what); `sprt` is (elo0, elo1, bounds).
    pub fn print_two_sided(&self, heading: &str, sprt: (f64, f64, (f64, f64)), adjudicated: bool) -> Summary {
        let summary = self.summary(sprt);
        let Summary { games: n, score, elo, margin, llr, verdict } = summary.clone();
        let (stalemate_wins, stalemate_losses) = self.stalemates();
        println!("{heading}");
        println!(
            "Games: {n}  W: {}{}  D: {}  L: {}{}  (score {:.1}%)",
            self.wins(),
            by_stalemate(stalemate_wins),
            self.draws(),
            self.losses(),
            by_stalemate(stalemate_losses),
            score * 100.0
        );
        println!("Elo: {elo:+.1} ± {margin:.1} (95%)");
        // The five pentanomial totals always, and any other total a pair made.
        let pairs: Vec<String> = (self.pairs.iter().enumerate())
            .filter(|&(k, &c)| c > 0 || stats::is_pentanomial(k))
            .map(|(k, c)| format!("{}: {c}", stats::points_text(k)))
            .collect();
        println!("Pairs: {}", pairs.join("  "));
        let (elo0, elo1, bounds) = sprt;
        let when = if self.stopped_at.is_some() { " (crossed when the match stopped)" } else { "" };
        println!(
            "SPRT: LLR={llr:.2} (bounds {:.2}, {:.2}): {verdict}{when}  [H0: elo={elo0}, H1: elo={elo1}]",
            bounds.0, bounds.1,
        );
        if adjudicated {
            println!("Adjudicated: {} by resignation, {} drawn", self.resigned, self.adjudicated_draws);
        }
        summary
    }

    /// The summary of a match of every side for itself, after `heading`:
    /// how long the games were and how they ended, and the players by mean score.
    pub fn print_per_seat(&self, heading: &str, names: &[String]) {
        let games: u64 = self.endings.values().sum();
        let endings: Vec<String> = self.endings.iter().map(|(r, n)| format!("{r} {n}")).collect();
        println!("{heading}");
        println!(
            "{games} games, {:.0} plies a game on average; endings: {}",
            self.plies as f64 / games.max(1) as f64,
            endings.join(", ")
        );
        let mut rows: Vec<(usize, (f64, f64))> = self.means().into_iter().enumerate().collect();
        rows.sort_by(|x, y| y.1.0.total_cmp(&x.1.0));
        for (rank, (p, (mean, err))) in rows.iter().enumerate() {
            let n = self.per_player[*p].len();
            println!("{}. {} mean score {mean:.3} ± {err:.3} over {n} games", rank + 1, names[*p]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verdict_that_stopped_a_match_stands_though_later_games_move_the_llr() {
        let bounds = stats::sprt_bounds(0.05, 0.05);
        let mut tally = Tally::default();
        // Pairs by A's total (0 to 2 in steps of a tenth): as many won as lost, one drawn.
        let (lost, drawn, won) = (0, stats::ONE, 2 * stats::ONE);
        (tally.pairs[won], tally.pairs[drawn], tally.pairs[lost]) = (30, 10, 30);
        let even = tally.summary((0.0, 10.0, bounds));
        assert_eq!(even.verdict, stats::Verdict::Continue, "LLR {}", even.llr);
        tally.stopped_at = Some(stats::Verdict::H1);
        let stopped = tally.summary((0.0, 10.0, bounds));
        assert_eq!((stopped.verdict, stopped.llr), (stats::Verdict::H1, even.llr));
    }
}
