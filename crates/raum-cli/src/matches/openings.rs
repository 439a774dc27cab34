//! Where a match's games start, for any game: the lines of `--openings
//! FILE` (position strings, one a line; blank lines and lines starting with
//! `#` are skipped; used in turn, cycling), or `--random-plies K` random
//! moves from the start, seeded by `--seed` and the opening's number (in
//! two-player games balanced by a short search, `--balance`). Every game of
//! a cycle (a pair with the colours swapped, or a rotation of the players
//! over the sides) starts from the cycle's opening.

use anyhow::{Context, Result, bail};
use raum_engine::{AnyEngine, Limits, Score};
use raum_notation::parse_game;
use raum_rules::multi::MultiGame;
use raum_rules::{AnyGame, Game, GameId, GameRules, Move, on_game};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::rng::Rng;

/// The depth of the search that judges a random opening's balance.
pub(super) const BALANCE_DEPTH: u32 = 4;
/// Random openings tried for a pair before the most balanced of them is taken.
const BALANCE_TRIES: usize = 200;

/// A new game from the position `game` has reached (no history: the game starts there).
pub(crate) fn from_here(game: &AnyGame) -> AnyGame {
    on_game!(game, g => AnyGame::from(Game::new(*g.position())), g => AnyGame::from(MultiGame::new(g.position().clone())))
}

/// The opening of cycle `cycle`: a line of the openings file, or `k` random
/// plies from the start that leave the game going (seeded by `seed` and the
/// cycle). With `balance > 0`, in two-player games, random openings are drawn
/// until a depth-4 search of Raum's engine scores one within `balance`
/// centipawns of equality (after 200 tries, the most balanced of them):
/// random moves often leave a piece hanging, and a pair of games on such an
/// opening mostly measures the opening, not the players.
pub(super) fn opening(id: GameId, book: &[AnyGame], k: u32, balance: u32, seed: u64, cycle: u64) -> AnyGame {
    if !book.is_empty() {
        return book[(cycle % book.len() as u64) as usize].clone();
    }
    let mut rng = Rng::new(seed ^ cycle.wrapping_mul(0xA24B_AED4_963E_E407) ^ 0x0FE1);
    if balance == 0 || matches!(id, GameId::Multi(_)) {
        return random_opening(id, k, &mut rng).unwrap_or_else(|| AnyGame::start(id));
    }
    let mut judge = AnyEngine::new(1, 1);
    let limits = Limits { depth: Some(BALANCE_DEPTH), ..Limits::default() };
    let mut best: Option<(u32, AnyGame)> = None;
    for _ in 0..BALANCE_TRIES {
        let Some(game) = random_opening(id, k, &mut rng) else { continue };
        judge.new_game();
        let r = judge.search(&game, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
        let off = match r.info.score {
            Score::Cp(cp) => cp.unsigned_abs(),
            Score::Mate(_) => u32::MAX,
        };
        if off <= balance {
            return game;
        }
        if best.as_ref().is_none_or(|(b, _)| off < *b) {
            best = Some((off, game));
        }
    }
    best.map_or_else(|| AnyGame::start(id), |(_, g)| g)
}

/// `k` random plies from the start that leave the game going (up to 1,000 tries).
pub(super) fn random_opening(id: GameId, k: u32, rng: &mut Rng) -> Option<AnyGame> {
    random_plies_from(&AnyGame::start(id), k, rng)
}

/// `k` random plies from `start` that leave the game going (up to 1,000
/// tries), as a new game from there.
pub(crate) fn random_plies_from(start: &AnyGame, k: u32, rng: &mut Rng) -> Option<AnyGame> {
    for _ in 0..1000 {
        let mut game = start.clone();
        let mut ok = true;
        for _ in 0..k {
            let list: Vec<Move> = game.legal_moves().iter().copied().collect();
            if list.is_empty() {
                ok = false;
                break;
            }
            // Two sides, a draw by a rule on the way does not stop the moves (the
            // end must leave the game going); more sides, the game refuses them.
            let m = list[rng.below(list.len())];
            if !on_game!(&mut game, g => g.play(m).is_ok()) {
                ok = false;
                break;
            }
        }
        if ok && game.result().is_none() {
            return Some(from_here(&game));
        }
    }
    None
}

/// The positions of an `--openings` file, each a game not yet over.
pub(super) fn read_book(id: GameId, path: &std::path::Path) -> Result<Vec<AnyGame>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading --openings {}", path.display()))?;
    let mut book = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let game = parse_game(id, line).with_context(|| format!("{} line {}", path.display(), i + 1))?;
        if game.result().is_some() {
            bail!("{} line {}: the game is already over in this position", path.display(), i + 1);
        }
        book.push(game);
    }
    if book.is_empty() {
        bail!("--openings {}: no positions in the file", path.display());
    }
    Ok(book)
}

#[cfg(test)]
mod tests {
    use super::*;
    use raum_notation::format_game_position;

    /// Random openings of each two-player variant: balanced by the judge's
    /// search, the same for the same seed and pair, and different from pair to pair.
    #[test]
    fn random_openings_are_balanced_and_repeatable() {
        for v in raum_rules::VariantId::ALL {
            let id = GameId::Two(v);
            let mut seen = Vec::new();
            for pair in 0..6 {
                let p = opening(id, &[], 4, 60, 7, pair);
                let text = format_game_position(&p);
                assert_eq!(
                    text,
                    format_game_position(&opening(id, &[], 4, 60, 7, pair)),
                    "same seed and pair, same opening"
                );
                assert_eq!(p.fullmove_number(), 3, "four plies from the start");
                assert!(p.moves().is_empty(), "the game starts at the opening");
                let r = AnyEngine::new(1, 1).search(
                    &p,
                    &Limits { depth: Some(BALANCE_DEPTH), ..Limits::default() },
                    Arc::new(AtomicBool::new(false)),
                    &mut |_| {},
                );
                let Score::Cp(cp) = r.info.score else { panic!("mate score in a balanced opening") };
                assert!(cp.abs() <= 60, "{id:?} pair {pair}: {cp}");
                seen.push(text);
            }
            seen.dedup();
            assert!(seen.len() >= 5, "openings repeat: {}", seen.len());
            // Without balancing: the first random opening that leaves the game going.
            let mut rng = Rng::new(7 ^ 0x0FE1);
            assert_eq!(
                format_game_position(&opening(id, &[], 4, 0, 7, 0)),
                format_game_position(&random_opening(id, 4, &mut rng).unwrap())
            );
        }
    }

    #[test]
    fn multi_player_openings_are_random_plies_seeded_per_cycle() {
        let id = GameId::from_name("triquetral-3p").unwrap();
        let a = opening(id, &[], 3, 60, 7, 0);
        assert_eq!(format_game_position(&a), format_game_position(&opening(id, &[], 3, 60, 7, 0)));
        assert_ne!(format_game_position(&a), format_game_position(&opening(id, &[], 3, 60, 7, 1)));
        assert_eq!((a.fullmove_number(), a.side_to_move(), a.moves().len()), (2, 0, 0));
    }
}
