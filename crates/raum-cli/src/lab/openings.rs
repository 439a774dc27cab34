//! `raum lab openings`: every first move of a game ranked by self-play
//! from the position after it (a few random plies more, different for each
//! game, then the same player on both sides), White's score with a 95%
//! interval, beside a deeper search's score of the position after it.

use super::report::{Bar, Report, mean_interval};
use super::results::Outcome;
use super::study::{Job, Study, game_seed};
use crate::args::StudyArgs;
use crate::matches::{from_here, random_plies_from};
use crate::rng::Rng;
use anyhow::Result;
use raum_engine::{AnyEngine, Limits, Score};
use raum_notation::format_game_move;
use raum_rules::{AnyGame, GameId, GameRules, Move, on_game};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

pub struct Openings {
    key: String,
    id: GameId,
    /// Each first move, in coordinates' order, with its descriptive name.
    firsts: Vec<(Move, String, String)>,
    games: u64,
    seed: u64,
    random_plies: u32,
    depth: u32,
}

impl Openings {
    pub fn new(a: &StudyArgs, id: GameId) -> Result<Openings> {
        let start = AnyGame::start(id);
        let mut firsts: Vec<(Move, String, String)> = start
            .legal_moves()
            .iter()
            .map(|&m| {
                let san = on_game!(&start, g => raum_notation::format_descriptive(g.position(), m), _g => format_game_move(&start, m));
                (m, format_game_move(&start, m), san)
            })
            .collect();
        firsts.sort_by(|a, b| a.1.cmp(&b.1));
        let key = format!("{} depth={}", super::settings("openings", a, id), a.depth);
        Ok(Openings {
            key,
            id,
            firsts,
            games: u64::from(a.games),
            seed: a.seed,
            random_plies: a.random_plies,
            depth: a.depth,
        })
    }

    /// A deeper search's score of the position after `m`, from White's side, in pawns (a mate as ±100).
    fn search(&self, m: Move) -> f64 {
        let mut game = AnyGame::start(self.id);
        if !on_game!(&mut game, g => g.play(m).is_ok()) {
            return f64::NAN;
        }
        let mut engine = AnyEngine::new(16, 1);
        let limits = Limits { depth: Some(self.depth), ..Limits::default() };
        let r = engine.search(&game, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
        // Black is to move: its score, turned to White's.
        match r.info.score {
            Score::Cp(cp) => -f64::from(cp) / 100.0,
            Score::Mate(n) => -100.0 * f64::from(n.signum()),
        }
    }
}

impl Study for Openings {
    fn key(&self) -> String {
        self.key.clone()
    }

    fn games(&self) -> u64 {
        self.games * self.firsts.len() as u64
    }

    fn job(&self, j: u64) -> Job {
        let (m, coord, _) = &self.firsts[(j / self.games) as usize];
        let mut game = AnyGame::start(self.id);
        let played = on_game!(&mut game, g => g.play(*m).is_ok());
        let after = if played { from_here(&game) } else { AnyGame::start(self.id) };
        let mut rng = Rng::new(game_seed(self.seed ^ 0x0BE1_1135, j));
        let start = random_plies_from(&after, self.random_plies, &mut rng).unwrap_or(after);
        Job { start, group: coord.clone(), side: 0 }
    }

    fn report(&self, games: &[Outcome]) -> Result<Report> {
        let mut ranked: Vec<(f64, f64, &str, &str, f64, usize)> = self
            .firsts
            .iter()
            .map(|(m, coord, san)| {
                let scores: Vec<f64> = games.iter().filter(|g| &g.group == coord).map(|g| g.score).collect();
                let (mean, half) = mean_interval(&scores);
                (mean, half, coord.as_str(), san.as_str(), self.search(*m), scores.len())
            })
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.2.cmp(b.2)));
        let all: Vec<f64> = games.iter().map(|g| g.score).collect();
        let (baseline, _) = mean_interval(&all);
        let rows = ranked
            .iter()
            .enumerate()
            .map(|(i, (mean, half, coord, san, search, n))| {
                vec![
                    format!("{}", i + 1),
                    san.to_string(),
                    coord.to_string(),
                    n.to_string(),
                    format!("{mean:.3} ± {half:.3}"),
                    format!("{search:+.2}"),
                ]
            })
            .collect();
        let bars = ranked
            .iter()
            .map(|(mean, half, _, san, _, _)| Bar {
                label: san.to_string(),
                value: *mean,
                interval: (mean - half, mean + half),
                reference: None,
            })
            .collect();
        Ok(Report {
            title: format!(
                "First moves of {}: {} games after each of {}",
                self.id.name(),
                self.games,
                self.firsts.len()
            ),
            header: ["rank", "move", "coordinates", "games", "White's score", &format!("depth {}", self.depth)]
                .map(String::from)
                .to_vec(),
            rows,
            notes: vec![format!(
                "White's score from self-play after each first move (95% intervals; {:.3} over all of them: compare the moves with it, \
                 since Black moves first once the player takes over); the last column, a depth-{} search of the position after it, \
                 in pawns from White's side (a mate as 100). Study: {}.",
                baseline, self.depth, self.key
            )],
            axis: "White's score after the first move".into(),
            bars,
        })
    }
}
