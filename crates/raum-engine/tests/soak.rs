//! The consistency soak, as Stockfish runs its debug builds in CI: the engine
//! plays itself in every playable variant while, after every move made or
//! taken back anywhere (search included), the position checks its own state
//! against a recomputation (`Position::check_consistency`: sets, mailbox,
//! kings, hash, lanes, and attackers and pins found by stepping along the
//! board). The test profile keeps debug assertions, so `cargo test` runs
//! these checks; the game loop also checks that no move leaves the mover's
//! king attacked and that the game's record replays to the same position.
//!
//! `RAUM_SOAK_GAMES=N cargo test -p raum-engine --test soak -- --ignored`
//! plays N games in each 125-cell variant and N/5 on each larger board
//! (BENCHMARKS.md records a run of more than 10,000 games).

use raum_engine::{Engine, Limits};
use raum_notation::{Record, format_position};
use raum_rules::{Game, Position, Variant, VariantFn, VariantId, Width, set_full_checks};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Nodes the engine searches for each move: enough for real play (captures,
/// checks, promotions, castling all arise), few enough for hundreds of games.
const NODES: u64 = 100;
/// A game still going after this many plies is stopped (not scored).
const MAX_PLIES: usize = 120;

mod common;
use common::Rng;

/// What a soak found.
#[derive(Default, Debug)]
struct Tally {
    games: u64,
    plies: u64,
    finished: u64,
}

struct Soak {
    games: u64,
    seed: u64,
}

impl VariantFn for Soak {
    type Output = Tally;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Tally {
        let mut tally = Tally::default();
        let mut engine = Engine::new(1, 1);
        for g in 0..self.games {
            let mut rng = Rng(self.seed ^ (g + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
            // A few random moves first, so that the games differ.
            let mut start = Position::start(v);
            for _ in 0..rng.below(6) {
                let moves = start.legal_moves();
                if moves.is_empty() {
                    break;
                }
                start.play(moves[rng.below(moves.len())]);
            }
            let mut game = Game::new(start);
            engine.new_game();
            while game.outcome().is_none() && game.moves().len() < MAX_PLIES {
                let limits = Limits { nodes: Some(NODES), ..Limits::default() };
                let r = engine.search(&game, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
                let m = r.best.unwrap_or_else(|| panic!("{}: no move in a game that is not over", v.id()));
                let mover = game.position().side_to_move();
                game.play(m).unwrap_or_else(|_| panic!("{}: the engine chose an illegal move", v.id()));
                let pos = game.position();
                if let Err(e) = pos.check_consistency() {
                    panic!("{}: after move {}: {e}\n{}", v.id(), game.moves().len(), format_position(pos));
                }
                assert!(
                    !pos.king_attacked(mover),
                    "{}: the mover's king is attacked after its move\n{}",
                    v.id(),
                    format_position(pos)
                );
                tally.plies += 1;
            }
            tally.finished += u64::from(game.outcome().is_some());
            tally.games += 1;
            // The game's record replays to the same position.
            let record = Record::from_game(&game);
            let replayed = record.replay().unwrap_or_else(|e| panic!("{}: {e}\n{record}", v.id()));
            assert_eq!(raum_notation::format_game_position(&replayed), format_position(game.position()));
        }
        tally
    }
}

/// Plays `games` games in each 125-cell variant and a fifth as many on the
/// larger boards (where a move costs several times as much), the variants on
/// parallel threads.
fn soak(games: u64) {
    // Without debug assertions (`cargo test --release`) only the game loop's
    // own check after each move runs, not the ones inside the search.
    set_full_checks(true);
    let started = std::time::Instant::now();
    let tallies: Vec<(VariantId, Tally)> = std::thread::scope(|scope| {
        let runs: Vec<_> = VariantId::ALL
            .into_iter()
            .enumerate()
            .map(|(i, id)| {
                let n = if id.dispatch(Cells) <= 125 { games } else { games.div_ceil(5) };
                scope.spawn(move || (id, id.dispatch(Soak { games: n, seed: 0x5eed + i as u64 })))
            })
            .collect();
        runs.into_iter().map(|r| r.join().expect("a soak thread panicked")).collect()
    });
    let total: u64 = tallies.iter().map(|(_, t)| t.games).sum();
    for (id, t) in &tallies {
        eprintln!("{id}: {} games, {} ended by the rules, {} plies", t.games, t.finished, t.plies);
        assert!(t.plies > 0);
    }
    eprintln!("{total} games in {:.1?}", started.elapsed());
}

/// A variant's number of cells.
struct Cells;

impl VariantFn for Cells {
    type Output = usize;
    fn call<S: Width>(self, v: &'static Variant<S>) -> usize {
        v.cells()
    }
}

/// A few hundred games in every test run: 60 in each 125-cell variant, 12 on
/// each larger board (204 in all).
#[test]
fn engine_games_in_every_variant_keep_the_position_consistent() {
    soak(60);
}

#[test]
#[ignore = "long: RAUM_SOAK_GAMES games in each 125-cell variant, a fifth as many on the larger boards"]
fn long_soak() {
    let games = std::env::var("RAUM_SOAK_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(3000);
    soak(games);
}
