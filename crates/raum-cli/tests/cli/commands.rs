//! The `raum` binary's interfaces, exactly as other tools script against them.

use crate::run::{raum, raum_with_input, stderr, stdout};
use std::process::{Command, Output, Stdio};

#[test]
fn perft_prints_the_count_alone_on_the_last_line() {
    let o = raum(&["perft", "--variant", "raumschach", "--depth", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().last(), Some("237316"));
    assert!(stderr(&o).contains("nodes/s"));
    let o = raum(&["perft", "--variant", "five-up", "--depth", "3", "--threads", "2"]);
    assert_eq!(stdout(&o).lines().last(), Some(raum(&["perft", "--depth", "3"]).stdout_last().as_str()));
}

trait Last {
    fn stdout_last(&self) -> String;
}

impl Last for Output {
    fn stdout_last(&self) -> String {
        stdout(self).lines().last().unwrap_or_default().to_string()
    }
}

#[test]
fn divide_lists_sorted_root_moves_then_the_total() {
    let o = raum(&["divide", "--variant", "five-up", "--depth", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 63);
    let rows = &lines[..62];
    let mut sorted = rows.to_vec();
    sorted.sort();
    assert_eq!(rows, &sorted[..]);
    let sum: u64 = rows.iter().map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(lines[62].parse::<u64>().unwrap(), sum);
    assert!(rows.iter().all(|l| l.split(' ').next().unwrap().contains('-')));
}

#[test]
fn moves_and_fen_follow_the_moves_given() {
    let o = raum(&["moves", "--variant", "five-up"]);
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 62);
    assert!(out.lines().any(|l| l == "Db1-Ca1"));
    let o = raum(&["fen", "--variant", "five-up", "--moves", "P-Cc2 P-Cc4 Ec2-Ec4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).trim(),
        "rwkgr|ppppp|5|5|5/nbqnb|pp1pp|5|5|5/5|2p2|5|2P2|5/5|5|5|PP1PP|NBQNB/5|2P2|5|PP1PP|RWKGR b Kk Ec3 0 2"
    );
}

#[test]
fn show_draws_figure_1_and_marks_moves() {
    let o = raum(&["show"]);
    let out = stdout(&o);
    assert!(out.contains("5 |r|w|k|g|r|   |n|b|q|n|b| 5 |_|_|_|_|_|   |_|_|_|_|_| 5 |_|_|_|_|_|"));
    assert!(out.contains("1 |_|_|_|_|_|   |_|_|_|_|_| 1 |_|_|_|_|_|   |N|B|Q|N|B| 1 |R|W|K|G|R|"));
    // Figure 2: a lone rook on Bb3 (not a legal position: drawn as a figure).
    let o = raum(&["show", "--fen", "5|5|5|5|5/5|5|1R3|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|5 w - -", "--mark", "Bb3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("3 |_|x|_|_|_|   |x|R|x|x|x| 3 |_|x|_|_|_|   |_|x|_|_|_| 3 |_|x|_|_|_|"), "{out}");
    assert_eq!(out.matches('x').count(), 12);
}

#[test]
fn bad_input_fails_with_a_clear_message() {
    let cases: &[(&[&str], &str)] = &[
        (&["perft", "--variant", "chess", "--depth", "1"], "unknown variant 'chess'"),
        (&["play", "--variant", "wing-table-4p", "--level", "3"], "--level is for two-player games"),
        (&["play", "--variant", "five-up", "--seats", "w=engine"], "--seats is for the multi-player games"),
        (&["play", "--variant", "triquetral-3p", "--seats", "k=engine"], "'k' is not a side of triquetral-3p"),
        (&["fen", "--variant", "triquetral-3p", "--fen", "5 w - -"], "expected 8 levels"),
        (&["moves", "--variant", "wing-table-4p", "--moves", "2e3-2e4 2e3-2e4"], "no Red piece on 2e3"),
        (&["fen", "--fen", "5|5 w - -"], "expected 5 levels"),
        (
            &[
                "fen",
                "--fen",
                "rwkgr|ppppp|5|5|5/nbqnb|ppppp|5|5|5/5|5|5|5|5/5|5|5|PPPPP|NBQNB/5|5|5|PPPPP|RWKGX w Kk -",
            ],
            "'X' is not a piece letter",
        ),
        (&["fen", "--moves", "Ec2-Ec5"], "move 1 (Ec2-Ec5)"),
        (&["fen", "--moves", "Zz9-Ec4"], "'Zz9' is not a cell"),
        (&["moves", "--moves", "P-Cc2 Q-Cc3"], "move 2 (Q-Cc3)"),
        (&["show", "--mark", "Cc3"], "no piece on Cc3"),
        (
            &["moves", "--fen", "4k|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|5/4R|5|5|5|K4 w - -"],
            "illegal position: Black is in check but it is not Black's move\n",
        ),
    ];
    for (args, needle) in cases {
        let o = raum(args);
        assert!(!o.status.success(), "{args:?} should fail");
        let err = stderr(&o);
        assert!(err.contains(needle), "{args:?}: expected '{needle}' in: {err}");
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    }
}

#[test]
fn play_runs_a_game_to_mate() {
    // The seed's second game walks into Bb5xEb2 mate (RULES.md).
    let o = raum_with_input(&["play", "--variant", "five-up"], "P-Cc2\nnonsense\nP-Cc4\nB-Ca1\nBxEb2\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("'nonsense' is not a move"), "{out}");
    assert!(out.contains("2... BxEb2#"), "{out}");
    assert!(out.contains("Game over: 0-1 (Black mates)"), "{out}");
    assert!(out.contains("Moves: 1. Cc2 Cc4 2. B-Ca1 BxEb2#"), "{out}");
}

/// Wing Table: White (king and rook) takes Black's queen, which stalemates Black.
const STALEMATING: &str = "k3|4|4|6|6|6|2R3|6|6|4|1q2|4/4|K3|6|6|6|6|6|6|4|4/4|6|6|6|6|6|6|4 w - - 0 1";

#[test]
fn play_announces_a_savard_stalemate_as_scored() {
    let save = std::env::temp_dir().join(format!("raum-play-stalemate-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&save);
    let args = ["play", "--variant", "wing-table", "--fen", STALEMATING, "--save", save.to_str().unwrap()];
    let o = raum_with_input(&args, "1c6-1c2\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Game over: 3/5-2/5 (White stalemates)"), "{out}");
    let record = std::fs::read_to_string(&save).unwrap();
    assert!(record.contains("[Result \"3/5-2/5\"]") && record.contains("[Termination \"stalemate\"]"), "{record}");
    std::fs::remove_file(&save).unwrap();
    // The engine, playing White, takes the stalemate too.
    let o = raum_with_input(
        &["play", "--variant", "wing-table", "--fen", STALEMATING, "--engine", "--color", "black", "--movetime", "300"],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("(1c6-1c2)") && out.contains("Game over: 3/5-2/5 (White stalemates)"), "{out}");
}

#[test]
fn play_takes_back_and_ends_on_eof() {
    let o = raum_with_input(&["play", "--variant", "raumschach"], "Ba2-Ba3\nundo\nmoves\nfen\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("61 legal moves"), "{out}");
    assert!(out.contains(" w - - 0 1"), "{out}");
    assert!(out.contains("Input ended"), "{out}");
}

#[test]
fn play_against_the_engine() {
    let o = raum_with_input(
        &["play", "--variant", "five-up", "--engine", "--level", "1"],
        "Dc2-Cc2\nhint\nundo\nundo\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("You play White; Raum plays Black."), "{out}");
    assert!(out.contains("1. Cc2  (Dc2-Cc2)"), "{out}");
    // The engine answered with a legal move and its evaluation.
    let reply = out.lines().find(|l| l.starts_with("1... ")).expect("the engine replied");
    assert!(reply.contains("[eval "), "{reply}");
    assert!(out.contains("Raum suggests "), "{out}");
    assert!(out.contains("Nothing to take back."), "{out}");
    // Playing Black: the engine opens.
    let o = raum_with_input(
        &["play", "--variant", "raumschach", "--engine", "--color", "black", "--movetime", "50"],
        "quit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).lines().any(|l| l.starts_with("1. ")), "{}", stdout(&o));
    // Bad engine options are refused before the game starts.
    for (args, needle) in [
        (&["play", "--engine", "--level", "99"][..], "--level must be between 1 and "),
        (&["play", "--engine", "--level", "3", "--movetime", "100"][..], "not both"),
        (&["play", "--color", "black"][..], "add --engine"),
        (&["play", "--engine", "--color", "red"][..], "white or black"),
    ] {
        let o = raum_with_input(args, "");
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
}

/// The Book of 3D-Chess: a start of one's own making with `--setup` (board and
/// both sides' pawn axes), checked as a free initial projection.
#[test]
fn book_setup_builds_and_checks_a_projected_start() {
    // White's array stands up in file A's plane (officers along the levels α..θ),
    // Black's is the flat default on level α.
    let officers = ['R', 'N', 'B', 'Q', 'K', 'B', 'N', 'R'];
    let levels: Vec<String> = officers
        .iter()
        .enumerate()
        .map(|(z, o)| {
            let top = if z == 0 { "rnbqkbnr|pppppppp" } else { "8|8" };
            format!("{top}|8|8|8|8|P7|{o}7")
        })
        .collect();
    let board = levels.join("/");
    let o = raum(&["fen", "--variant", "book-3d", "--setup", &format!("{board} +yx,-yz")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(" w - - +yx,-yz A2α,A7α,B7α,"), "{}", stdout(&o));
    // The same board read with White's pawns moving up the levels is no start.
    let o = raum(&["fen", "--variant", "book-3d", "--setup", &format!("{board} +yz,-yz")]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("in --setup") && err.contains("White") && err.contains("same cell"), "{err}");
}

/// A reader that stops early (`raum moves | head -1`) ends `raum` quietly: no
/// panic message, no backtrace.
#[cfg(unix)]
#[test]
fn closed_stdout_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_raum"))
        .args(["moves", "--variant", "betza-upright"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("raum starts");
    // Close the pipe at once: raum is still building the 512-cell board's
    // tables, so its first line meets a reader that is gone.
    drop(child.stdout.take());
    let o = child.wait_with_output().expect("raum finishes");
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    // Ended by the signal, as `head` expects of a writer (not an error exit).
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(o.status.signal(), Some(libc_sigpipe()), "{:?}: {err}", o.status);
}

/// SIGPIPE's number (13 on Linux and the BSDs).
#[cfg(unix)]
fn libc_sigpipe() -> i32 {
    13
}

#[test]
fn multi_player_games_at_the_terminal() {
    let o = raum(&["perft", "--variant", "wing-table-4p", "--depth", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(o.stdout_last(), "8040");
    let o = raum(&["divide", "--variant", "triquetral-6p", "--depth", "2", "--threads", "2"]);
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 23, "{out}");
    assert!(out.contains("5f2-4d4 22\n"), "{out}");
    assert_eq!(o.stdout_last(), "484");
    // After White's pawn step Red moves: its men are `r` men.
    let o = raum(&["fen", "--variant", "wing-table-4p", "--moves", "2e3-2e4"]);
    let fen = stdout(&o);
    assert!(fen.trim_end().ends_with(" r - - 0 1"), "{fen}");
    let o = raum(&["moves", "--variant", "wing-table-4p", "--fen", fen.trim()]);
    let moves = stdout(&o);
    // 19, not 20: the step opened White's queen's line 2f2-2b6, which pins Red's pawn on 2c5.
    assert_eq!(moves.lines().count(), 19, "{moves}");
    assert!(!moves.contains("2c5-"), "{moves}");
    assert!(moves.lines().all(|m| m.starts_with(['1', '2', '3']) && m.contains('-')));
    let o = raum(&["show", "--variant", "triquetral-6p", "--mark", "5f2"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("Sides: w White, k Black, b Blue, r Red, g Green, y Yellow"), "{out}");
    assert!(out.contains("teams: White, Blue, Green against Black, Red, Yellow"), "{out}");
    assert!(out.contains(" 2             wU wQ wK wU"), "{out}");
    assert!(out.contains("White to move"), "{out}");
    // The airman on 5f2 leaps to six cells.
    assert_eq!(out.matches("xx").count(), 6, "{out}");
}

#[test]
fn a_multi_player_game_is_played_saved_replayed_and_resumed() {
    let dir = std::env::temp_dir().join(format!("raum-multi-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("four.pgn");
    let _ = std::fs::remove_file(&file);
    let f = file.to_str().unwrap();
    // White is a person, the three others Raum: one move each, then quit.
    let args = ["play", "--variant", "wing-table-4p", "--seats", "r=engine,k=engine,blue=engine"];
    let o = raum_with_input(&[&args[..], &["--movetime", "20", "--save", f]].concat(), "moves\n2e3-2e4\nquit\n");
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("Seats: White you, Red Raum, Black Raum, Blue Raum."), "{out}");
    assert!(out.contains("20 legal moves"), "{out}");
    assert!(out.contains("White plays 2e3-2e4"), "{out}");
    for side in ["Red plays", "Black plays", "Blue plays"] {
        assert!(out.contains(side), "{out}");
    }
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("[Variant \"wing-table-4p\"]") && text.contains("[Red \"Raum (20 ms a move)\"]"), "{text}");
    assert!(text.contains("1. 2e3-2e4 "), "{text}");
    // raum pgn replays it to the position where White is to move again.
    let o = raum(&["pgn", f]);
    assert!(o.status.success(), "{}", stderr(&o));
    let fen = stdout(&o);
    assert!(fen.trim_end().ends_with(" w - - 0 2") || fen.contains(" w - - "), "{fen}");
    // --load resumes it (and the resumed game shows the same position).
    let o =
        raum_with_input(&["play", "--load", f, "--save", f, "--seats", "r=engine,k=engine,b=engine"], "fen\nquit\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(fen.trim()), "{}", stdout(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_side_resigning_every_side_for_itself_is_out_and_the_record_replays() {
    let dir = std::env::temp_dir().join(format!("raum-multi-resign-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("three.pgn");
    let _ = std::fs::remove_file(&file);
    let f = file.to_str().unwrap();
    // White and Green are people, Blue is Raum. White moves, Blue answers,
    // Green resigns on its turn and is out; White is to move in round 2.
    let args = ["play", "--variant", "triquetral-3p", "--seats", "b=engine", "--movetime", "20", "--save", f];
    let o = raum_with_input(&args, "6f3-6f4\nresign\nfen\nquit\n");
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("Blue plays"), "{out}");
    assert!(out.contains("Green resigns and is out; its men leave the board."), "{out}");
    let fen =
        out.lines().find(|l| l.ends_with(" w - - 0 2")).unwrap_or_else(|| panic!("White to move in round 2: {out}"));
    assert!(!fen.contains('g'), "no Green men: {fen}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("1. 6f3-6f4 ") && text.contains(" Green-resigns *"), "{text}");
    // raum pgn replays past the resignation, to the same position.
    let o = raum(&["pgn", f]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(fen.ends_with(stdout(&o).trim()), "{fen} vs {}", stdout(&o));
    let o = raum(&["pgn", "--moves", f]);
    assert!(stdout(&o).trim_end().ends_with(" Green-resigns"), "{}", stdout(&o));
    // Resumed, White resigns too: Blue, the engine, is the last side in.
    let o = raum_with_input(&["play", "--load", f, "--save", f, "--seats", "b=engine", "--movetime", "20"], "resign\n");
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("Game over: Blue is the last side in; scores: White 0, Blue 1, Green 0"), "{out}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("[Result \"0-1-0\"]") && text.contains("[Termination \"resignation\"]"), "{text}");
    assert!(text.trim_end().ends_with(" Green-resigns 2. White-resigns 0-1-0"), "{text}");
    let o = raum(&["pgn", "--check", f]);
    assert!(o.status.success(), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_side_resigning_with_teams_loses_for_its_team() {
    let dir = std::env::temp_dir().join(format!("raum-team-resign-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("four.pgn");
    let f = file.to_str().unwrap();
    let o = raum_with_input(&["play", "--variant", "wing-table-4p", "--save", f], "2e3-2e4\nresign\n");
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("Red resigns for its team."), "{out}");
    assert!(out.contains("Game over: Red resigns for its team; scores: White 1, Red 0, Black 1, Blue 0"), "{out}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains(" Red-resigns 1-0-1-0") && text.contains("[Termination \"resignation\"]"), "{text}");
    assert!(raum(&["pgn", "--check", f]).status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn analyse_lists_lines_and_refuses_bad_input() {
    let o = raum(&[
        "analyse",
        "--variant",
        "raumschach",
        "--depth",
        "3",
        "--multipv",
        "4",
        "--searchmoves",
        "Bc2-Bc3 Ab1-Ac3 Bb2-Bb3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    // A header, then three lines (only three moves were allowed).
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].contains("(White to move): depth 3"), "{out}");
    for (k, l) in lines[1..].iter().enumerate() {
        assert!(l.starts_with(&format!("{:>2}. ", k + 1)) && l.contains("% D "), "{out}");
    }
    for (args, said) in [
        (&["analyse", "--multipv", "0"][..], "--multipv must be from 1 to 256"),
        (&["analyse", "--searchmoves", "Zz9-Aa1"][..], "in --searchmoves, Zz9-Aa1"),
        (&["analyse", "--variant", "triquetral-3p"][..], "two-player variants"),
        (&["analyse", "--depth", "0"][..], "--depth must be from 1 to 100"),
        (&["play", "--engine", "--level", "99"][..], "--level must be between 1 and "),
    ] {
        let o = raum(args);
        assert!(!o.status.success() && stderr(&o).contains(said), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn play_at_a_level_repeats_under_a_seed_and_shows_lines() {
    let session = "Ec2-Ec3\nlines 2\nDc2-Dc3\nquit\n";
    let run = || raum_with_input(&["play", "--engine", "--level", "2", "--seed", "4"], session);
    let (a, b) = (run(), run());
    assert!(a.status.success(), "{}", stderr(&a));
    // The engine's moves (the lines are searched for a time, so they may differ).
    let moves = |o: &Output| stdout(o).lines().filter(|l| l.contains("[eval")).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(moves(&a).len(), 2, "{}", stdout(&a));
    assert_eq!(moves(&a), moves(&b));
    assert!(
        stdout(&a).contains("1. ") && stdout(&a).contains("2. ") && stdout(&a).contains("(depth "),
        "{}",
        stdout(&a)
    );
}
