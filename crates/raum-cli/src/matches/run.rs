//! Playing a match's games on `--concurrency` threads: each worker has its
//! own players (and engines) and takes the next cycle (a pair, or a rotation
//! of the players over the sides) until the match is played or halted; the
//! caller hears each cycle's games as they finish.

use super::Match;
use super::players::Player;
use super::referee::{GameResult, play_game};
use crate::rng::Rng;
use anyhow::Result;
use raum_rules::{AnyGame, Points};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// One finished game, as a worker reports it.
pub(super) struct Played {
    /// The game's number, from 1.
    pub number: u64,
    /// The player at each side, in turn order.
    pub seats: Vec<usize>,
    /// The opening it started from.
    pub start: AnyGame,
    pub result: GameResult,
}

impl Played {
    /// The score of `player` (of a side it held).
    pub fn points(&self, player: usize) -> Points {
        self.result.scores[super::lineup::Lineup::side_of(&self.seats, player)]
    }
}

/// Plays the games of cycle `cycle` (the last may be short), all from its opening.
fn play_cycle(m: &Match, players: &mut [Player], cycle: u64) -> Vec<Played> {
    let a = m.args;
    let start = super::openings::opening(m.id, &m.book, a.random_plies, a.balance, a.seed, cycle);
    let n = m.lineup.players() as u64;
    let mut out = Vec::new();
    for g in cycle * n..(cycle + 1) * n {
        if g >= u64::from(a.games) {
            break;
        }
        let mut rng = Rng::new(a.seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ g);
        let seats = m.lineup.seats(g);
        let result = play_game(start.clone(), players, &seats, &m.lineup, &mut rng, a.max_plies, m.rules);
        out.push(Played { number: g + 1, seats, start: start.clone(), result });
    }
    out
}

/// Plays the match on one thread per set of `workers`' players; `on_cycle`
/// hears each cycle's games (on this thread) and says whether to stop
/// (games under way are finished and heard).
pub(super) fn run(
    m: &Match,
    workers: Vec<Vec<Player>>,
    mut on_cycle: impl FnMut(Vec<Played>) -> Result<bool>,
) -> Result<()> {
    let cycles = u64::from(m.args.games).div_ceil(m.lineup.players() as u64);
    let next = AtomicU64::new(0);
    let halt = AtomicBool::new(false);
    std::thread::scope(|scope| -> Result<()> {
        let (tx, rx) = std::sync::mpsc::channel::<Vec<Played>>();
        for mut players in workers {
            let tx = tx.clone();
            let (next, halt) = (&next, &halt);
            scope.spawn(move || {
                while !halt.load(Ordering::Relaxed) {
                    let cycle = next.fetch_add(1, Ordering::Relaxed);
                    if cycle >= cycles || tx.send(play_cycle(m, &mut players, cycle)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for games in rx {
            if on_cycle(games)? && !halt.load(Ordering::Relaxed) {
                halt.store(true, Ordering::Relaxed);
            }
        }
        Ok(())
    })
}
