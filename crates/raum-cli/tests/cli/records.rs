//! Game records at the command line: `raum pgn`, `raum play --save/--load`
//! and `raum match --pgn`.

use crate::run::{raum_with_input as raum, stderr, stdout};
use std::path::{Path, PathBuf};

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("records-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

const SEED_GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../raum-conformance/data/records/five-up-seed.pgn");

#[test]
fn pgn_prints_each_games_final_position() {
    let o = raum(&["pgn", SEED_GAMES], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    // The first sample line's position, as `raum fen` gives it.
    let fen = raum(&["fen", "--moves", "P-Cc2 P-Cc4 P-Cc3 P-Cd4 P-Cd2"], "");
    assert_eq!(lines[0], stdout(&fen).trim());
    let o = raum(&["pgn", "--moves", SEED_GAMES], "");
    assert_eq!(stdout(&o).lines().nth(2), Some("Dc2-Cc2 Bc4-Cc4 Db1-Ca1 Bb5-Eb2"));
    let o = raum(&["pgn", "--check", SEED_GAMES], "");
    assert_eq!(stdout(&o), "5 games, all legal\n");
}

#[test]
fn pgn_names_the_file_game_and_move_of_a_bad_record() {
    let dir = scratch("bad");
    let bad = dir.join("bad.pgn");
    let good = "[Variant \"five-up\"]\n\n1. Cc2 Cc4 *\n\n";
    std::fs::write(&bad, format!("{good}[Variant \"five-up\"]\n\n1. P-Cc2 P-Cc4 2. B-Ca1 BxEb3 *\n")).unwrap();
    let o = raum(&["pgn", s(&bad)], "");
    assert!(!o.status.success());
    assert_eq!(stdout(&o).lines().count(), 1, "the good game is still reported");
    let err = stderr(&o);
    assert!(err.contains(&format!("{}: game 2, move 2... BxEb3: not legal here", bad.display())), "{err}");
    assert!(err.contains("1 refused (2 games read)"), "{err}");
    // Unreadable text names the line; a missing file names the file.
    std::fs::write(&bad, "[Variant \"five-up\"]\n\n1. Cc2 {never closed\n").unwrap();
    let o = raum(&["pgn", s(&bad)], "");
    assert!(stderr(&o).contains("game 1, line 3: a comment opened with { is not closed"), "{}", stderr(&o));
    let o = raum(&["pgn", s(&dir.join("missing.pgn"))], "");
    assert!(!o.status.success() && stderr(&o).contains("missing.pgn"), "{}", stderr(&o));
}

#[test]
fn play_saves_every_move_and_resumes() {
    let dir = scratch("play");
    let file = dir.join("game.pgn");
    // Two moves, then the terminal closes (end of input): the record is kept.
    let o = raum(&["play", "--save", s(&file)], "P-Cc2\nP-Cc4\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.contains("[Variant \"five-up\"]") && saved.contains("[Result \"*\"]"), "{saved}");
    assert!(saved.ends_with("\n1. Cc2 Cc4 *\n"), "{saved}");
    // --save does not overwrite another game.
    let o = raum(&["play", "--save", s(&file)], "");
    assert!(!o.status.success() && stderr(&o).contains("exists"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), saved);
    // Resumed and finished: the same file holds the whole game and its result.
    let o = raum(&["play", "--load", s(&file), "--save", s(&file)], "B-Ca1\nBxEb2\n");
    assert!(stdout(&o).contains("Game over: 0-1 (Black mates)"), "{}", stdout(&o));
    let done = std::fs::read_to_string(&file).unwrap();
    assert!(done.contains("[Termination \"checkmate\"]") && done.ends_with("2. B-Ca1 BxEb2# 0-1\n"), "{done}");
    // `raum pgn` replays it to the position `raum play` reached.
    let o = raum(&["pgn", s(&file)], "");
    let fen = raum(&["fen", "--moves", "P-Cc2 P-Cc4 B-Ca1 BxEb2"], "");
    assert_eq!(stdout(&o), stdout(&fen));
    // Loading a finished game shows it and ends.
    let o = raum(&["play", "--load", s(&file)], "");
    assert!(stdout(&o).contains("Game over: 0-1 (Black mates)"), "{}", stdout(&o));
    // Undo and resignation are recorded too.
    let other = dir.join("resigned.pgn");
    let o = raum(&["play", "--variant", "raumschach", "--save", s(&other)], "Ba2-Ba3\nDa4-Da3\nundo\nresign\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&other).unwrap();
    assert!(text.contains("[Termination \"resignation\"]") && text.ends_with("\n1. Ba3 1-0\n"), "{text}");
    let o = raum(&["play", "--load", s(&other)], "");
    assert!(stdout(&o).contains("This game is over: 1-0 (resignation)."), "{}", stdout(&o));
}

#[test]
fn play_load_refuses_what_it_cannot_resume() {
    let dir = scratch("load");
    let two = dir.join("two.pgn");
    std::fs::write(&two, "[Variant \"five-up\"]\n\n*\n\n[Variant \"five-up\"]\n\n*\n").unwrap();
    let o = raum(&["play", "--load", s(&two)], "");
    assert!(stderr(&o).contains("holds 2 games"), "{}", stderr(&o));
    let other = dir.join("raumschach.pgn");
    std::fs::write(&other, "[Variant \"raumschach\"]\n\n*\n").unwrap();
    let o = raum(&["play", "--variant", "octahedral", "--load", s(&other)], "");
    assert!(stderr(&o).contains("the loaded game is raumschach"), "{}", stderr(&o));
    let o = raum(&["play", "--load", s(&other), "--fen", "x"], "");
    assert!(!o.status.success());
    // A record whose moves do not replay names the move.
    std::fs::write(&other, "[Variant \"raumschach\"]\n\n1. Zz9 *\n").unwrap();
    let o = raum(&["play", "--load", s(&other)], "");
    assert!(stderr(&o).contains("move 1. Zz9"), "{}", stderr(&o));
}

#[test]
fn match_pgn_reads_back() {
    let dir = scratch("match");
    let file = dir.join("match.pgn");
    let o = raum(
        &[
            "match",
            "--variant",
            "raumschach",
            "--a",
            "engine:nodes=300",
            "--b",
            "greedy",
            "--games",
            "2",
            "--pgn",
            s(&file),
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.matches("[Variant \"raumschach\"]").count(), 2, "{text}");
    assert!(text.contains("[White \"engine:nodes=300\"]\n[Black \"greedy\"]"), "{text}");
    assert!(text.contains("[Round \"2\"]") && text.contains("[Termination \""), "{text}");
    assert!(text.contains("[FEN \""), "the random opening is the game's start: {text}");
    // The engine's moves carry its evaluation and depth.
    assert!(text.contains("{+") || text.contains("{-"), "{text}");
    let o = raum(&["pgn", "--check", s(&file)], "");
    assert_eq!(stdout(&o), "2 games, all legal\n", "{}", stderr(&o));
}

/// A four-player game (with a comment, a variation and an unknown tag) and a
/// three-player one, in one file.
const MULTI_GAMES: &str = "[Event \"Sample\"]\n[White \"Ann\"]\n[Red \"Raum\"]\n[Black \"Bob\"]\n[Blue \"Raum\"]\n\
    [Result \"*\"]\n[Variant \"wing-table-4p\"]\n[Custom \"kept\"]\n\n\
    1. 2e3-2e4 {+0.10/3} 1... 2c8-2d8 (1... 2c7-2d7) 2h10-2h9 2j5-2i5 2. 2f3-2f4 *\n\n\
    [Variant \"triquetral-3p\"]\n[Result \"*\"]\n\n1. 5e3-5e4 5c5-5d5 3e5-4e5 2. 5f3-5f4 *\n";

#[test]
fn pgn_replays_multi_player_records() {
    let dir = scratch("multi");
    let file = dir.join("four-and-three.pgn");
    std::fs::write(&file, MULTI_GAMES).unwrap();
    let o = raum(&["pgn", s(&file)], "");
    assert!(o.status.success(), "{}", stderr(&o));
    // Each game's final position, as `raum fen` gives it after the same moves.
    let four = raum(&["fen", "--variant", "wing-table-4p", "--moves", "2e3-2e4 2c8-2d8 2h10-2h9 2j5-2i5 2f3-2f4"], "");
    let three = raum(&["fen", "--variant", "triquetral-3p", "--moves", "5e3-5e4 5c5-5d5 3e5-4e5 5f3-5f4"], "");
    assert!(stdout(&four).trim().ends_with(" r - - 0 2"), "{}", stdout(&four));
    assert_eq!(stdout(&o), format!("{}{}", stdout(&four), stdout(&three)));
    let o = raum(&["pgn", "--moves", s(&file)], "");
    assert_eq!(stdout(&o), "2e3-2e4 2c8-2d8 2h10-2h9 2j5-2i5 2f3-2f4\n5e3-5e4 5c5-5d5 3e5-4e5 5f3-5f4\n");
    let o = raum(&["pgn", "--check", s(&file)], "");
    assert_eq!(stdout(&o), "2 games, all legal\n", "{}", stderr(&o));
}

#[test]
fn pgn_refuses_bad_multi_player_records() {
    let dir = scratch("multi-bad");
    let bad = dir.join("bad.pgn");
    // The second game's Blue move is not legal: named by round, side and move.
    std::fs::write(&bad, MULTI_GAMES.replace("3e5-4e5", "3e5-6e5")).unwrap();
    let o = raum(&["pgn", s(&bad)], "");
    assert!(!o.status.success());
    assert_eq!(stdout(&o).lines().count(), 1, "the good game is still reported");
    let err = stderr(&o);
    assert!(err.contains(&format!("{}: game 2, round 1, Green, 3e5-6e5: not legal here", bad.display())), "{err}");
    assert!(err.contains("1 refused (2 games read)"), "{err}");
    // A result with a score for each of three sides, for a four-side game.
    std::fs::write(
        &bad,
        MULTI_GAMES.replace("2f3-2f4 *", "2f3-2f4 1-0-1").replace("[Result \"*\"]\n[Variant \"wing", "[Variant \"wing"),
    )
    .unwrap();
    let o = raum(&["pgn", "--check", s(&bad)], "");
    let err = stderr(&o);
    assert!(err.contains("game 1, the record says 1-0-1, but wing-table-4p has 4 sides"), "{err}");
    // A score that is not one, and a file that holds games of both kinds: one reader reads them all.
    std::fs::write(&bad, MULTI_GAMES.replace("2f3-2f4 *", "2f3-2f4 2-0-0-0")).unwrap();
    let o = raum(&["pgn", s(&bad)], "");
    assert!(stderr(&o).contains("game 1, line 10: '2-0-0-0' is not a result: 2 is not a score"), "{}", stderr(&o));
    let mixed = format!("{MULTI_GAMES}\n[Variant \"five-up\"]\n\n1. Cc2 *\n");
    std::fs::write(&bad, mixed).unwrap();
    let o = raum(&["pgn", "--check", s(&bad)], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "3 games, all legal\n");
}
