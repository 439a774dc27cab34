//! `raum match`: games complete, the statistics add up, the engine beats a
//! random mover, and the records replay legally.

use crate::run::{raum, stderr, stdout};
use raum_notation::{parse_coordinate, parse_position};
use raum_rules::{Game, Variant, VariantId};

/// W, D, L from the `Games:` line.
fn wdl(out: &str) -> (u64, u64, u64, u64) {
    let line = out.lines().find(|l| l.starts_with("Games:")).expect("a Games: line");
    let nums: Vec<u64> = line.split_whitespace().filter_map(|w| w.parse().ok()).collect();
    (nums[0], nums[1], nums[2], nums[3])
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("raum-match-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn random_against_random_adds_up() {
    let o = raum(&["match", "--a", "random", "--b", "random", "--games", "6", "--seed", "7"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let (n, w, d, l) = wdl(&out);
    assert_eq!((n, w + d + l), (6, 6), "{out}");
    let pairs = out.lines().find(|l| l.starts_with("Pairs:")).expect("a Pairs: line");
    let counts: Vec<u64> = pairs.split_whitespace().skip(1).skip(1).step_by(2).map(|c| c.parse().unwrap()).collect();
    assert_eq!(counts.iter().sum::<u64>(), 3, "{pairs}");
    let half_points: u64 = counts.iter().enumerate().map(|(i, c)| i as u64 * c).sum();
    assert_eq!(half_points, 2 * w + d, "{out}");
    assert!(out.lines().any(|l| l.starts_with("Elo: ")), "{out}");
    let sprt = out.lines().find(|l| l.starts_with("SPRT: LLR=")).expect("an SPRT line");
    assert!(sprt.contains("(bounds -2.94, 2.94)"), "{sprt}");
    // Same seed, same match.
    assert_eq!(stdout(&raum(&["match", "--a", "random", "--b", "random", "--games", "6", "--seed", "7"])), out);
}

#[test]
fn the_engine_beats_a_random_mover_and_records_replay() {
    let record = temp("engine.tsv");
    let o = raum(&[
        "match",
        "--variant",
        "five-up",
        "--a",
        "engine:nodes=2000",
        "--b",
        "random",
        "--games",
        "4",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let (n, w, d, _) = wdl(&out);
    assert_eq!(n, 4);
    assert!(2 * w + d >= 6, "the engine scores at least 75%: {out}");
    check_record(&record, 4, VariantId::FiveUp);
}

#[test]
fn greedy_against_random_in_raumschach_records_replay() {
    let record = temp("greedy.tsv");
    let o = raum(&[
        "match",
        "--variant",
        "raumschach",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "4",
        "--max-plies",
        "200",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    check_record(&record, 4, VariantId::Raumschach);
}

fn check_record(path: &std::path::Path, games: usize, id: VariantId) {
    let v = Variant::get(id);
    let text = std::fs::read_to_string(path).expect("the record is written");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), games, "{text}");
    for (i, line) in lines.iter().enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 7, "{line}");
        assert_eq!(f[0], (i + 1).to_string());
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&f[3]), "{line}");
        let mut game = Game::new(parse_position(v, f[5]).expect("the opening parses"));
        for text in f[6].split_whitespace() {
            let m = parse_coordinate(game.position(), text).unwrap_or_else(|e| panic!("{text}: {e} in {line}"));
            game.play(m).unwrap_or_else(|_| panic!("{text} is illegal in {line}"));
        }
        let decisive = f[3] != "1/2-1/2";
        if f[4] == "checkmate" {
            assert!(decisive && game.outcome().is_some(), "{line}");
        }
        if f[4].starts_with("max plies") || f[4].starts_with("adjudicated") {
            assert!(game.outcome().is_none(), "{line}");
        }
    }
}

/// The record's (result, reason, number of moves) for each game.
fn outcomes(path: &std::path::Path) -> Vec<(String, String, usize)> {
    let text = std::fs::read_to_string(path).expect("the record is written");
    text.lines()
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            (f[3].to_string(), f[4].to_string(), f[6].split_whitespace().count())
        })
        .collect()
}

#[test]
fn adjudication_ends_settled_games() {
    // Five Up, White mates in 2 (from the engine's mate suite): after White's first move both
    // engines see the mate, so Black resigns before it is played. Player A speaks the
    // protocol (its scores come from its `info` lines), B is built in; each is White once.
    let book = temp("mate-in-2.txt");
    std::fs::write(&book, "5|5|5|5|5/5|5|5|5|1R3/k4|5|5|5|5/5|2Q2|5|2P1P|5/5|P4|5|5|2R1K w k - 4 49\n").unwrap();
    let record = temp("resign.tsv");
    let uci = format!("uci:nodes=20000:{} uci", env!("CARGO_BIN_EXE_raum"));
    let mut args = vec!["match", "--a", &uci, "--b", "engine:nodes=20000", "--games", "2"];
    args.extend(["--openings", book.to_str().unwrap(), "--record", record.to_str().unwrap()]);
    let o = raum(&[args.as_slice(), &["--resign-moves", "1", "--resign-score", "1000"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Adjudicated: 2 by resignation, 0 drawn"), "{}", stdout(&o));
    let resigned = ("1-0".to_string(), "adjudicated: Black resigns".to_string(), 2);
    assert_eq!(outcomes(&record), vec![resigned.clone(), resigned]);
    check_record(&record, 2, VariantId::FiveUp);

    // Every score is within the margin: drawn once each side has moved.
    let record = temp("draw.tsv");
    let o = raum(&[
        "match",
        "--a",
        "engine:nodes=500",
        "--b",
        "engine:nodes=500",
        "--games",
        "2",
        "--draw-moves",
        "1",
        "--draw-after",
        "0",
        "--draw-score",
        "200000",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let drawn = ("1/2-1/2".to_string(), "adjudicated draw".to_string(), 2);
    assert_eq!(outcomes(&record), vec![drawn.clone(), drawn]);

    // A random mover reports no score, so its games are never adjudicated.
    let record = temp("no-scores.tsv");
    let o = raum(&[
        "match",
        "--a",
        "engine:nodes=500",
        "--b",
        "random",
        "--games",
        "2",
        "--resign-moves",
        "1",
        "--resign-score",
        "1",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Adjudicated: 0 by resignation, 0 drawn"), "{}", stdout(&o));
    assert!(outcomes(&record).iter().all(|(_, reason, _)| reason == "checkmate"), "{:?}", outcomes(&record));

    let o = raum(&["match", "--a", "random", "--b", "random", "--resign-moves", "2", "--resign-score", "0"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--resign-score must be above 0"), "{}", stderr(&o));
    let o = raum(&["match", "--a", "random", "--b", "random", "--resign-moves", "2", "--resign-score", "-5"]);
    assert!(stderr(&o).contains("--resign-score must be above 0"), "{}", stderr(&o));
    let o = raum(&["match", "--a", "random", "--b", "random", "--draw-moves", "2", "--draw-score", "-1"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--draw-score must be at least 0"), "{}", stderr(&o));
}

#[test]
fn clocks_are_kept_and_a_flag_loses() {
    // Both engines play on a clock, one built in with an increment and one over the
    // protocol with three seconds for every 8 moves (told the clocks by `go wtime .. btime ..
    // winc .. binc .. movestogo ..`): neither runs out of time, even on a machine busy
    // with the browser tests beside these (scripts/test.sh).
    let record = temp("clock.tsv");
    let uci = format!("uci:tc=8/3:{} uci", env!("CARGO_BIN_EXE_raum"));
    let o = raum(&[
        "match",
        "--a",
        "engine:tc=5+0.1",
        "--b",
        &uci,
        "--games",
        "2",
        "--max-plies",
        "16",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for (result, reason, moves) in outcomes(&record) {
        assert!(!reason.contains("on time"), "{result} {reason}");
        assert!(moves == 16 || reason == "checkmate", "{result} {reason} after {moves} plies");
    }
    check_record(&record, 2, VariantId::FiveUp);

    // An engine that takes a second a move on a 0.2-second clock loses on time, as White
    // and as Black, before its move is even looked at.
    let script = temp("slow.sh");
    std::fs::write(
        &script,
        "while read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; \
         go*) sleep 1; echo 'bestmove 0000';; quit) exit 0;; esac; done\n",
    )
    .unwrap();
    let slow = format!("uci:tc=0.2:sh {}", script.display());
    let record = temp("flag.tsv");
    let o =
        raum(&["match", "--a", &slow, "--b", "engine:nodes=300", "--games", "2", "--record", record.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let flagged = |result: &str, side: &str| (result.to_string(), format!("{side} lost on time"));
    let got: Vec<(String, String)> = outcomes(&record).into_iter().map(|(r, why, _)| (r, why)).collect();
    assert_eq!(got, vec![flagged("0-1", "White"), flagged("1-0", "Black")]);
    assert!(stdout(&o).contains("W: 0  D: 0  L: 2"), "{}", stdout(&o));

    for bad in ["engine:tc=0", "engine:tc=fast", "uci:tc=-1:./engine", "engine:tc=0/60"] {
        let o = raum(&["match", "--a", bad, "--b", "random"]);
        assert!(!o.status.success(), "{bad}");
        assert!(stderr(&o).contains("no time control"), "{bad}: {}", stderr(&o));
    }
}

#[test]
fn openings_file_is_used() {
    let book = temp("book.txt");
    std::fs::write(
        &book,
        "# a comment\nrwkgr|ppppp|5|5|5/nbqnb|ppppp|5|5|5/5|5|5|5|5/5|5|5|PPPPP|NBQNB/5|5|5|PPPPP|RWKGR w Kk - 0 1\n",
    )
    .unwrap();
    let record = temp("book.tsv");
    let o = raum(&[
        "match",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "2",
        "--openings",
        book.to_str().unwrap(),
        "--max-plies",
        "40",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&record).unwrap();
    for line in text.lines() {
        assert!(line.split('\t').nth(5).unwrap().ends_with("w Kk - 0 1"), "{line}");
    }
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0].split('\t').nth(1), Some("greedy"));
    assert_eq!(lines[1].split('\t').nth(2), Some("greedy"), "colours swap within a pair");
}

/// Wing Table: White (king and rook) takes Black's queen, which stalemates
/// Black; every other move leaves White a queen for a rook down.
const STALEMATING_OPENING: &str = "k3|4|4|6|6|6|2R3|6|6|4|1q2|4/4|K3|6|6|6|6|6|6|4|4/4|6|6|6|6|6|6|4 w - - 0 1";

#[test]
fn a_savard_stalemate_scores_three_fifths() {
    let book = temp("stalemate-book.txt");
    std::fs::write(&book, format!("{STALEMATING_OPENING}\n")).unwrap();
    let (record, pgn) = (temp("stalemate.tsv"), temp("stalemate.pgn"));
    let run = |games: &str| {
        let o = raum(&[
            "match",
            "--variant",
            "wing-table",
            "--a",
            "engine:depth=2",
            "--b",
            "engine:depth=3",
            "--games",
            games,
            "--openings",
            book.to_str().unwrap(),
            "--record",
            record.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    // One game: A, White, stalemates at once and scores 3/5.
    let out = run("1");
    assert!(out.contains("Games: 1  W: 1 (1 by stalemate)  D: 0  L: 0  (score 60.0%)"), "{out}");
    assert!(out.contains("Elo: +70.4 ± inf (95%)"), "{out}");
    assert_eq!(wdl(&out), (1, 1, 0, 0), "{out}");
    // A pair: each side stalemates as White, so A wins one game by stalemate
    // and loses the other, 3/5 + 2/5 = 1 point of 2.
    let out = run("2");
    assert!(out.contains("Games: 2  W: 1 (1 by stalemate)  D: 0  L: 1 (1 by stalemate)  (score 50.0%)"), "{out}");
    assert!(out.contains("Pairs: 0: 0  0.5: 0  1: 1  1.5: 0  2: 0"), "{out}");
    let text = std::fs::read_to_string(&record).unwrap();
    for (i, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!((f[3], f[4], f[6]), ("3/5-2/5", "stalemate", "1c6-1c2"), "{line}");
        assert_eq!(f[1], if i == 0 { "engine:depth=2" } else { "engine:depth=3" }, "{line}");
    }
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Result \"3/5-2/5\"]").count(), 2, "{games}");
    assert_eq!(games.matches("[Termination \"stalemate\"]").count(), 2, "{games}");
    assert!(games.contains(" 3/5-2/5\n"), "{games}");
    // Replayed under the rules, which end each game in the stalemate the result says.
    let o = raum(&["pgn", "--check", pgn.to_str().unwrap()]);
    assert_eq!(stdout(&o), "2 games, all legal\n", "{}", stderr(&o));
}

#[test]
fn bad_specs_are_clear_errors() {
    for (spec, says) in [
        ("stockfish", "unknown player 'stockfish'"),
        ("engine:nodes=abc", "not a positive whole number"),
        ("engine:speed=3", "unknown engine setting 'speed'"),
        ("engine:nodes=5,off=magic", "unknown search feature 'magic'"),
        ("uci:nodes=5", "uci:LIMITS:COMMAND"),
        ("uci:nodes=5:/nonexistent/engine", "starting engine '/nonexistent/engine'"),
        ("engine", "give the engine's limit"),
    ] {
        let o = raum(&["match", "--a", spec, "--b", "random", "--games", "2"]);
        assert!(!o.status.success(), "{spec}");
        assert!(stderr(&o).contains(says), "{spec}: {}", stderr(&o));
        assert!(stderr(&o).contains("in --a"), "{spec}: {}", stderr(&o));
    }
    let o = raum(&["match", "--a", "random", "--b", "random", "--games", "0"]);
    assert!(!o.status.success() && stderr(&o).contains("--games"));
}

#[test]
fn games_in_parallel_give_the_same_match() {
    let args = |j: &str, record: &std::path::Path| {
        raum(&[
            "match",
            "--a",
            "engine:nodes=300",
            "--b",
            "engine:nodes=300,off=null-move,off=lmr",
            "--games",
            "6",
            "--concurrency",
            j,
            "--record",
            record.to_str().unwrap(),
        ])
    };
    let (r1, r2) = (temp("j1.tsv"), temp("j2.tsv"));
    let one = args("1", &r1);
    let two = args("2", &r2);
    assert!(one.status.success() && two.status.success(), "{}{}", stderr(&one), stderr(&two));
    assert_eq!(stdout(&one), stdout(&two));
    // The same games, perhaps finished in another order.
    let sorted = |p: &std::path::Path| {
        let mut l: Vec<String> = std::fs::read_to_string(p).unwrap().lines().map(str::to_string).collect();
        l.sort();
        l
    };
    assert_eq!(sorted(&r1), sorted(&r2));
    assert_eq!(sorted(&r1).len(), 6);
}

#[test]
fn an_external_engine_plays_over_the_protocol() {
    // Raum's own `uci` command as the external engine.
    let engine = format!("uci:nodes=400,Hash=4:{} uci", env!("CARGO_BIN_EXE_raum"));
    let record = temp("uci.tsv");
    let o = raum(&[
        "match",
        "--variant",
        "raumschach",
        "--a",
        &engine,
        "--b",
        "engine:nodes=400",
        "--games",
        "2",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&record).unwrap();
    let v = Variant::get(VariantId::Raumschach);
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        assert!(!f[4].contains("illegal") && !f[4].contains(':'), "{line}");
        let mut game = Game::new(parse_position(v, f[5]).unwrap());
        for m in f[6].split_whitespace() {
            let m = parse_coordinate(game.position(), m).unwrap();
            game.play(m).unwrap();
        }
        assert!(game.moves().len() > 10, "{line}");
    }
    // The same engine over the protocol and built in play the same moves.
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0].split('\t').nth(6), lines[1].split('\t').nth(6), "{text}");
}

#[test]
fn an_engine_that_dies_loses_and_the_match_goes_on() {
    // A "UCI engine" that answers the handshake and then exits.
    let script = temp("dies.sh");
    std::fs::write(&script, "read l; echo uciok; read l; read l; echo readyok; read l; read l; echo readyok\n")
        .unwrap();
    let engine = format!("uci:nodes=10:sh {}", script.display());
    let o = raum(&["match", "--a", &engine, "--b", "random", "--games", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (n, w, d, l) = wdl(&stdout(&o));
    assert_eq!((n, w, d, l), (2, 0, 0, 2), "{}", stdout(&o));
}

#[test]
fn a_forfeit_in_a_game_of_more_sides_keeps_its_reason_in_the_record() {
    // The engine dies at its first move: its side is out, the others play on,
    // and the record says why at the resignation.
    let script = temp("dies3.sh");
    std::fs::write(&script, "read l; echo uciok; read l; read l; echo readyok; read l; read l; echo readyok\n")
        .unwrap();
    let engine = format!("uci:nodes=10:sh {}", script.display());
    let pgn = temp("forfeit3.pgn");
    let players = format!("{engine},random,random");
    let o = raum(&[
        "match",
        "--variant",
        "triquetral-3p",
        "--players",
        &players,
        "--games",
        "1",
        "--max-plies",
        "12",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&pgn).unwrap();
    let resigns = text.find("-resigns {").unwrap_or_else(|| panic!("no resignation with a comment:\n{text}"));
    let comment = &text[resigns..text[resigns..].find('}').map_or(text.len(), |e| resigns + e)];
    assert!(comment.contains(':'), "the comment names the side and why: {comment}");
    let replay = raum(&["pgn", pgn.to_str().unwrap()]);
    assert!(replay.status.success(), "{}", stderr(&replay));
}

#[test]
fn the_match_stops_at_the_sprt_verdict() {
    let o = raum(&[
        "match",
        "--a",
        "engine:nodes=200",
        "--b",
        "random",
        "--games",
        "400",
        "--sprt-elo0",
        "0",
        "--sprt-elo1",
        "200",
        "--sprt-stop",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let (n, ..) = wdl(&out);
    assert!(n < 400 && out.contains("H1 accepted") && out.contains("Stopped at the SPRT verdict"), "{out}");
    // Not before 20 pairs: one pair won twice would have crossed any bound.
    assert!(n >= 40, "{out}");
}

#[test]
fn multi_player_matches_seat_every_player_on_every_side() {
    let pgn = temp("three.pgn");
    let p = pgn.to_str().unwrap();
    let o = raum(&[
        "match",
        "--variant",
        "triquetral-3p",
        "--players",
        "engine:nodes=300,greedy,random",
        "--games",
        "3",
        "--pgn",
        p,
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("3 games"), "{out}");
    for rank in ["1. ", "2. ", "3. "] {
        assert!(out.contains(rank), "{out}");
    }
    assert_eq!(out.matches("over 3 games").count(), 3, "{out}");
    // The games' records name a player per side and read back with raum pgn.
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Variant \"triquetral-3p\"]").count(), 3, "{text}");
    assert_eq!(text.matches("[Green \"").count(), 3, "{text}");
    assert!(text.contains("[White \"engine:nodes=300\"]") && text.contains("[Blue \"engine:nodes=300\"]"), "{text}");
    let o = raum(&["pgn", "--check", p]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("3 games, all legal"));
    let o = raum(&["match", "--variant", "wing-table-4p", "--players", "engine:nodes=200,greedy", "--games", "2"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("as a team against B (greedy)"), "{out}");
    let o = raum(&["match", "--variant", "triquetral-3p", "--players", "greedy,greedy"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("seats 3 players"));
    let o = raum(&["match", "--variant", "five-up", "--players", "greedy,greedy"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("--a and --b"));
}

#[test]
fn multi_player_matches_take_openings_and_write_records_that_replay() {
    // The position after White's first move, Blue to move, as the book's one line.
    let fen = raum(&["fen", "--variant", "triquetral-3p", "--moves", "6f3-6f4"]);
    assert!(fen.status.success(), "{}", stderr(&fen));
    let book = temp("three-book.txt");
    std::fs::write(&book, format!("# one opening\n{}", stdout(&fen))).unwrap();
    let (record, pgn) = (temp("three.tsv"), temp("three-openings.pgn"));
    let run = |engine: &str, games: &str| {
        let o = raum(&[
            "match",
            "--variant",
            "triquetral-3p",
            "--players",
            &format!("{engine},greedy,greedy"),
            "--openings",
            book.to_str().unwrap(),
            "--record",
            record.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
            "--games",
            games,
            "--max-plies",
            "24",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    // The command (kept short by the ply limit), then a whole rotation on node counts.
    for (engine, games) in [("engine:movetime=100", "2"), ("engine:nodes=300", "3")] {
        let out = run(engine, games);
        assert!(out.contains(&format!("{games} games")) && out.contains("1. ") && out.contains("3. "), "{out}");
        let text = std::fs::read_to_string(&record).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), games.parse::<usize>().unwrap(), "{text}");
        for (i, line) in lines.iter().enumerate() {
            // Number, a player per side, result, reason, opening, moves.
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!((f.len(), f[0]), (8, (i + 1).to_string().as_str()), "{line}");
            assert_eq!(f[1 + i % 3], engine, "the engine moves over the sides: {line}");
            assert_eq!(f[6], stdout(&fen).trim(), "{line}");
            assert!(f[4].split('-').count() == 3, "a score per side: {line}");
        }
        let games_text = std::fs::read_to_string(&pgn).unwrap();
        assert_eq!(games_text.matches("[SetUp \"1\"]").count(), lines.len(), "{games_text}");
        let o = raum(&["pgn", "--check", pgn.to_str().unwrap()]);
        assert_eq!(stdout(&o), format!("{} games, all legal\n", lines.len()), "{}", stderr(&o));
    }
    // Same seed, same match.
    let first = std::fs::read_to_string(&record).unwrap();
    run("engine:nodes=300", "3");
    assert_eq!(std::fs::read_to_string(&record).unwrap(), first);
}
