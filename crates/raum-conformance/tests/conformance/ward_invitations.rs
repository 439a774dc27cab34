//! Ward's invitations (seed 002, "Other Pieces"), shipped as files:
//! `examples/variants/octahedral-camel-general.toml` (Octahedral Chess with
//! two camels and two generals a side) and `octahedral-great-knight.toml`
//! (with one knight + camel + general compound a side). Raum plays each as a
//! loaded file; the naive reference generator (`naive_wide`) plays the same
//! games from the rules, and the two must agree: perft from the start, move
//! lists position by position along random games, and the files' own
//! `[[perft]]` lines.

use crate::differential::compare;
use raum_conformance::naive_wide::{WidePosition, perft};
use raum_notation::{format_game_move, format_game_position, parse_game, parse_game_move};
use raum_rules::file::{PerftLine, load, read};
use raum_rules::{AnyGame, GameId, GameRules, VariantId};
use std::time::Instant;

/// The two files: (id, path from the repository root, text).
const FILES: [(&str, &str, &str); 2] = [
    (
        "octahedral-camel-general",
        "examples/variants/octahedral-camel-general.toml",
        include_str!("../../../../examples/variants/octahedral-camel-general.toml"),
    ),
    (
        "octahedral-great-knight",
        "examples/variants/octahedral-great-knight.toml",
        include_str!("../../../../examples/variants/octahedral-great-knight.toml"),
    ),
];

/// Loads a file into Raum: its id among the loaded games.
fn loaded(path: &str, text: &str) -> VariantId {
    match load(text, path) {
        Ok(GameId::Two(v)) => v,
        Ok(other) => panic!("{path}: {other} is not a game for two"),
        Err(e) => panic!("{path}: {e}"),
    }
}

/// The sorted legal moves of Raum's game, in coordinates.
fn raum_moves(game: &AnyGame) -> Vec<String> {
    let mut moves: Vec<String> = game.legal_moves().iter().map(|&m| format_game_move(game, m)).collect();
    moves.sort();
    moves
}

#[test]
fn ward_invitations_start_positions_and_moves_agree() {
    for (name, path, text) in FILES {
        let id = loaded(path, text);
        assert_eq!(id.name(), name);
        let game = AnyGame::start(GameId::Two(id));
        let naive = WidePosition::start(name).unwrap();
        // The same start: Raum's position string is the naive generator's.
        assert_eq!(format_game_position(&game), naive.fen(), "{name}");
        let (fast, reference) = (raum_moves(&game), naive.legal_moves());
        assert_eq!(fast, reference, "{name}: start moves");
        // Every new piece has moves at the start, in both lists alike (so the pieces are there).
        let new_men: &[&str] = if name.contains("camel") { &["IVd2", "VIg2", "IVg2", "VId2"] } else { &["VIe2"] };
        for cell in new_men {
            let from = |list: &[String]| list.iter().filter(|m| m.starts_with(&format!("{cell}-"))).count();
            assert!(from(&fast) > 0, "{name}: no move from {cell}");
            assert_eq!(from(&fast), from(&reference), "{name}: {cell}");
        }
        // And more moves than Octahedral's 116.
        assert!(fast.len() > 116, "{name}: {}", fast.len());
    }
}

/// Perft 1-3 from the start, by Raum and by the naive generator; the files' own `[[perft]]`
/// lines from the start must say the same (their lines after moves are checked below).
#[test]
fn ward_invitations_perft_from_the_start_agrees_with_the_naive_generator() {
    for (name, path, text) in FILES {
        let game = AnyGame::start(GameId::Two(loaded(path, text)));
        let naive = WidePosition::start(name).unwrap();
        let lines = read(text, path).unwrap().perft_lines().to_vec();
        for d in 1..=3 {
            let t = Instant::now();
            let fast = game.perft(d);
            let t_fast = t.elapsed();
            let t = Instant::now();
            let reference = perft(&naive, d);
            eprintln!("{name} perft {d}: Raum {fast} in {t_fast:?}, naive {reference} in {:?}", t.elapsed());
            assert_eq!(fast, reference, "{name} perft {d}");
            let line = lines.iter().find(|l| l.depth == d && l.fen.is_none() && l.moves.is_none());
            assert_eq!(line.map(|l| l.count), Some(reference), "{path}: [[perft]] depth {d} from the start");
        }
    }
}

/// Random games: every position's legal moves, check and next position string agree.
fn differential(positions: usize) {
    for (i, (_, path, text)) in FILES.iter().enumerate() {
        compare(loaded(path, text), positions, 0x5EED_0035 + i as u64);
    }
}

#[test]
fn ward_invitations_fast_equals_naive_on_4000_positions() {
    differential(4_000);
}

#[test]
#[ignore]
fn ward_invitations_fast_equals_naive_on_20000_positions() {
    differential(20_000);
}

/// A `[[perft]]` line counted by Raum and by the naive generator (their positions compared
/// after every move on the way).
fn both_counts(id: VariantId, name: &str, line: &PerftLine) -> (u64, u64) {
    let mut game = match &line.fen {
        Some(fen) => parse_game(GameId::Two(id), fen).unwrap(),
        None => AnyGame::start(GameId::Two(id)),
    };
    let mut naive = match &line.fen {
        Some(fen) => WidePosition::parse(name, fen).unwrap(),
        None => WidePosition::start(name).unwrap(),
    };
    for text in line.moves.as_deref().unwrap_or("").split_whitespace() {
        let m = parse_game_move(&game, text).unwrap_or_else(|e| panic!("{name}: {text}: {e}"));
        game.play(m).unwrap();
        naive = naive.play(text).unwrap_or_else(|e| panic!("{name}: {text}: {e}"));
        assert_eq!(format_game_position(&game), naive.fen(), "{name}: after {text}");
    }
    (game.perft(line.depth), perft(&naive, line.depth))
}

/// Every `[[perft]]` line of the files holds for Raum; those after moves hold for the naive
/// generator too (those from the start: the test above).
#[test]
fn ward_invitations_files_perft_lines_hold() {
    for (name, path, text) in FILES {
        let def = read(text, path).unwrap();
        let id = loaded(path, text);
        let lines = def.perft_lines();
        assert!(lines.len() >= 4 && lines.iter().any(|l| l.moves.is_some()), "{path}: {} lines", lines.len());
        for line in lines {
            if line.fen.is_none() && line.moves.is_none() {
                assert_eq!(AnyGame::start(GameId::Two(id)).perft(line.depth), line.count, "{path}:{}", line.line);
                continue;
            }
            let (fast, reference) = both_counts(id, name, line);
            assert_eq!((fast, reference), (line.count, line.count), "{path}:{}", line.line);
        }
    }
}
