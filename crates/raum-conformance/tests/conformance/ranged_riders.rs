//! Riders with a range (`O*2`, docs/variants.md), played by Raum from a
//! variant file (`examples/variants/short-riders.toml`) and by the naive
//! generator for pieces on a box (`naive_riders`), whose pieces are written
//! here from the file's description, not read from it: the two must agree on
//! the start, on perft, and move list for move list along random games.

use raum_conformance::naive_riders::{NaiveBox, PieceKind, leaps, parts, unit_steps};
use raum_conformance::rng::Rng;
use raum_notation::format_game_move;
use raum_rules::file::{load, read};
use raum_rules::{AnyGame, GameId, GameRules};

const PATH: &str = "examples/variants/short-riders.toml";
const TEXT: &str = include_str!("../../../../examples/variants/short-riders.toml");

/// The file's game, as the naive generator plays it.
fn naive_start() -> NaiveBox {
    let unlimited = u32::MAX;
    let king: Vec<_> = [1, 2, 3].iter().flat_map(|&a| parts(&unit_steps(a), 1, true, true)).collect();
    let mut unicorn = parts(&unit_steps(3), 2, true, true);
    unicorn.extend(parts(&leaps(0, 1, 2), 1, true, true));
    let mut queen = parts(&unit_steps(1), unlimited, true, true);
    queen.extend(parts(&unit_steps(2), 2, true, true));
    queen.extend(parts(&unit_steps(3), 3, false, true));
    let kinds = vec![
        PieceKind { letter: 'K', royal: true, parts: king },
        PieceKind { letter: 'R', royal: false, parts: parts(&unit_steps(1), 2, true, true) },
        PieceKind { letter: 'B', royal: false, parts: parts(&unit_steps(2), 3, true, true) },
        PieceKind { letter: 'U', royal: false, parts: unicorn },
        PieceKind { letter: 'Q', royal: false, parts: queen },
    ];
    NaiveBox::start((6, 6, 4), kinds, &["Aa1 RBQKUR", "Ba1 .U..B."]).expect("the naive start")
}

fn raum_start() -> AnyGame {
    match load(TEXT, PATH) {
        Ok(id @ GameId::Two(_)) => AnyGame::start(id),
        Ok(other) => panic!("{other} is not a game for two"),
        Err(e) => panic!("{e}"),
    }
}

fn raum_moves(game: &AnyGame) -> Vec<String> {
    let mut moves: Vec<String> = game.legal_moves().iter().map(|&m| format_game_move(game, m)).collect();
    moves.sort();
    moves
}

#[test]
fn ranged_riders_perft_agrees_with_the_naive_generator() {
    let (game, naive) = (raum_start(), naive_start());
    assert_eq!(raum_moves(&game), naive.legal_moves(), "the start");
    let lines = read(TEXT, PATH).expect("the file reads").perft_lines().to_vec();
    assert!(!lines.is_empty(), "the file says what it expects");
    for d in 1..=3 {
        let (fast, reference) = (game.perft(d), naive.perft(d));
        assert_eq!(fast, reference, "perft {d}");
        if let Some(line) = lines.iter().find(|l| l.depth == d && l.fen.is_none() && l.moves.is_none()) {
            assert_eq!(line.count, reference, "the file's [[perft]] line for depth {d}");
        }
    }
}

/// Random games: at every position the two move lists are equal. Captures
/// thin the board out, so long games reach open lines where ranges matter.
fn random_games(games: usize, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut positions = 0;
    for g in 0..games {
        let (mut game, mut naive) = (raum_start(), naive_start());
        for ply in 0..80 {
            let moves = raum_moves(&game);
            assert_eq!(moves, naive.legal_moves(), "game {g}, ply {ply}");
            positions += 1;
            // Mate, stalemate, or a draw by the rules (repetition, bare kings).
            if moves.is_empty() || game.result().is_some() {
                break;
            }
            // Prefer captures, so that the board opens up.
            let captures: Vec<&String> = moves.iter().filter(|m| naive.is_capture(m)).collect();
            let pick = if !captures.is_empty() && rng.below(2) == 0 {
                captures[rng.below(captures.len())].clone()
            } else {
                moves[rng.below(moves.len())].clone()
            };
            let m = *game.legal_moves().iter().find(|&&x| format_game_move(&game, x) == pick).expect("the move");
            game.play(m).expect("legal in Raum's game");
            naive.play(&pick).expect("legal in the naive game too");
        }
    }
    assert!(positions > games * 20, "{positions} positions");
}

#[test]
fn ranged_riders_fast_equals_naive_along_random_games() {
    random_games(30, 0x5eed_0035);
}

#[test]
#[ignore = "a longer run: cargo test -p raum-conformance --release -- --ignored ranged_riders"]
fn ranged_riders_fast_equals_naive_along_many_random_games() {
    random_games(500, 0x5eed_0036);
}
