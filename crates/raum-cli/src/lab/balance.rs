//! `raum lab balance`: how a game plays when the same player takes both
//! sides, from random openings: White's score (the first move's advantage,
//! as Elo too), the draw rate, the games' length, and how they end (mate,
//! stalemate, repetition, the 50-move rule, the plies' limit). Compare rule
//! options by running it on two variant files (Savard's stalemate scored
//! 3/5 in one, a draw in the other).

use super::report::{Bar, Report, mean_interval};
use super::results::Outcome;
use super::study::{Job, Study, game_seed};
use crate::args::StudyArgs;
use crate::matches::random_plies_from;
use crate::rng::Rng;
use crate::stats::elo_from_score;
use anyhow::Result;
use raum_rules::{AnyGame, GameId};
use std::collections::BTreeMap;

pub struct Balance {
    key: String,
    id: GameId,
    games: u64,
    seed: u64,
    random_plies: u32,
}

impl Balance {
    pub fn new(a: &StudyArgs, id: GameId) -> Balance {
        Balance {
            key: super::settings("balance", a, id),
            id,
            games: u64::from(a.games),
            seed: a.seed,
            random_plies: a.random_plies,
        }
    }
}

impl Study for Balance {
    fn key(&self) -> String {
        self.key.clone()
    }

    fn games(&self) -> u64 {
        self.games
    }

    fn job(&self, j: u64) -> Job {
        let mut rng = Rng::new(game_seed(self.seed ^ 0xBA1A_11CE, j));
        let start = AnyGame::start(self.id);
        let start = random_plies_from(&start, self.random_plies, &mut rng).unwrap_or(start);
        Job { start, group: "all".into(), side: 0 }
    }

    fn report(&self, games: &[Outcome]) -> Result<Report> {
        let n = games.len() as f64;
        let scores: Vec<f64> = games.iter().map(|g| g.score).collect();
        let (white, half) = mean_interval(&scores);
        let wins = games.iter().filter(|g| g.score > 0.99).count() as f64;
        let losses = games.iter().filter(|g| g.score < 0.01).count() as f64;
        let mut plies: Vec<u32> = games.iter().map(|g| g.plies).collect();
        plies.sort_unstable();
        let mean_plies = plies.iter().map(|&p| f64::from(p)).sum::<f64>() / n;
        let pct = |x: f64| format!("{:.1}%", 100.0 * x / n);
        let mut rows = vec![
            vec!["games".into(), format!("{}", games.len())],
            vec!["White's score".into(), format!("{white:.3} ± {half:.3}")],
            vec![
                "as Elo".into(),
                format!(
                    "{:+.0} ({:+.0} to {:+.0})",
                    elo_from_score(white),
                    elo_from_score(white - half),
                    elo_from_score(white + half)
                ),
            ],
            vec!["White wins".into(), pct(wins)],
            vec!["Black wins".into(), pct(losses)],
            vec!["other results (draws, scored stalemates)".into(), pct(n - wins - losses)],
            vec!["plies: mean, median".into(), format!("{mean_plies:.1}, {}", plies[plies.len() / 2])],
        ];
        let mut endings: BTreeMap<&str, usize> = BTreeMap::new();
        for g in games {
            *endings.entry(g.reason.as_str()).or_default() += 1;
        }
        let mut endings: Vec<(&str, usize)> = endings.into_iter().collect();
        endings.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        for (why, count) in &endings {
            rows.push(vec![format!("ended by {why}"), pct(*count as f64)]);
        }
        Ok(Report {
            title: format!("Balance of {}: {} self-play games", self.id.name(), games.len()),
            header: vec!["".into(), "".into()],
            rows,
            notes: vec![format!("Study: {} (95% intervals).", self.key)],
            axis: "White's score".into(),
            bars: vec![Bar {
                label: self.id.name().to_string(),
                value: white,
                interval: (white - half, white + half),
                reference: Some(0.5),
            }],
        })
    }
}
