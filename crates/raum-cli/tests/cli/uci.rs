//! `raum uci`: scripted sessions through the binary's stdin and stdout.

use raum_engine::LEVELS;
use raum_notation::parse_coordinate;
use raum_rules::{Game, Position, Variant, VariantFn, VariantId, Width};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Generous bound for anything that should be quick, so a slow shared machine does not flake.
const PATIENCE: Duration = Duration::from_secs(30);

struct Uci {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Uci {
    fn start() -> Uci {
        let mut child = Command::new(env!("CARGO_BIN_EXE_raum"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("raum uci starts");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Uci { child, stdin, lines }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("command written");
        stdin.flush().expect("flushed");
    }

    /// Lines up to and including the first that `done` accepts.
    fn until(&mut self, within: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + within;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let stop = done(&line);
                    seen.push(line);
                    if stop {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("timed out; lines so far: {seen:#?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("raum uci ended; lines so far: {seen:#?}"),
            }
        }
    }

    fn until_bestmove(&mut self, within: Duration) -> Vec<String> {
        self.until(within, |l| l.starts_with("bestmove "))
    }

    /// `isready` answers `readyok`; returns the lines before it.
    fn ready(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(PATIENCE, |l| l == "readyok");
        lines.pop();
        lines
    }

    /// `quit`: the process exits 0.
    fn quit(mut self) -> Vec<String> {
        self.send("quit");
        self.stdin = None;
        let status = self.child.wait().expect("raum exits");
        assert!(status.success(), "{status}");
        self.lines.iter().collect()
    }
}

fn bestmove(lines: &[String]) -> String {
    let last = lines.last().expect("a line");
    last.strip_prefix("bestmove ").expect("bestmove line").split_whitespace().next().unwrap().to_string()
}

/// Whether `mv` is legal after `moves` from `id`'s start position (at the variant's width).
fn legal_after(id: VariantId, moves: &[&str], mv: &str) -> bool {
    struct LegalAfter<'a>(&'a [&'a str], &'a str);
    impl VariantFn for LegalAfter<'_> {
        type Output = bool;
        fn call<S: Width>(self, v: &'static Variant<S>) -> bool {
            let mut game = Game::new(Position::start(v));
            for m in self.0 {
                let m = parse_coordinate(game.position(), m).expect("script move legal");
                game.play(m).expect("script move plays");
            }
            parse_coordinate(game.position(), self.1).is_ok()
        }
    }
    id.dispatch(LegalAfter(moves, mv))
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info string error: ")).collect()
}

/// The variant ids that RULES.md's "Variant ids" paragraph names, in its order:
/// every `quoted` word from the paragraph's start to its blank line. RULES.md
/// lives beside the repository (`../shared/`, the team's shared rulings), not
/// in it: the paragraph is copied to `tests/data/rules-variant-ids.md`, which
/// the test reads, and where `../shared/RULES.md` is present (the team's
/// checkouts and CI) the copy must still be the paragraph there.
fn rules_variant_ids() -> Vec<String> {
    let copy_path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/rules-variant-ids.md");
    let copy = std::fs::read_to_string(copy_path).unwrap_or_else(|e| panic!("{copy_path}: {e}"));
    let paragraph = |text: &str| -> Option<String> {
        let start = text.find("**Variant ids**")?;
        Some(text[start..].split("\n\n").next()?.trim_end().to_string())
    };
    let ours = paragraph(&copy).unwrap_or_else(|| panic!("no Variant ids paragraph in {copy_path}"));
    let rules = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/RULES.md");
    if let Ok(text) = std::fs::read_to_string(rules) {
        let theirs = paragraph(&text).unwrap_or_else(|| panic!("no Variant ids paragraph in {rules}"));
        assert_eq!(ours, theirs, "{copy_path} is no longer RULES.md's paragraph: copy it again");
    }
    // After the heading's own `--variant`, the odd pieces between backticks are the ids.
    let (_, ids) = ours.split_once("records):").expect("the paragraph's heading");
    ids.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

#[test]
fn handshake_lists_options_and_answers_isready() {
    let mut e = Uci::start();
    e.send("uci");
    let lines = e.until(PATIENCE, |l| l == "uciok");
    assert!(lines[0].starts_with("id name Raum "), "{lines:?}");
    assert!(lines.contains(&"id author Raum developers".to_string()));
    // Every variant id that RULES.md lists is offered, and nothing else, Five Up by default.
    let option = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo default five-up var "))
        .unwrap_or_else(|| panic!("no UCI_Variant option in {lines:?}"));
    let mut offered: Vec<&str> = option.split(" var ").skip(1).collect();
    offered.sort_unstable();
    let mut listed = rules_variant_ids();
    assert_eq!(listed.len(), 19, "{listed:?}");
    listed.sort_unstable();
    assert_eq!(offered, listed, "{option}");
    assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 4096".to_string()));
    assert!(lines.contains(&"option name Threads type spin default 1 min 1 max 64".to_string()));
    assert!(e.ready().is_empty());
    e.send("setoption name hash value 8");
    e.send("setoption name THREADS value 2");
    e.send("ucinewgame");
    assert!(e.ready().is_empty());
    assert!(e.quit().is_empty());
}

#[test]
fn position_and_go_depth_give_info_and_a_legal_bestmove() {
    let mut e = Uci::start();
    let moves = ["Ec2-Ec4", "Ad4-Ad3"];
    e.send("ucinewgame");
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go depth 4");
    let lines = e.until_bestmove(PATIENCE);
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth ")).collect();
    assert_eq!(infos.len(), 4, "{lines:?}");
    let last = infos[3];
    for field in [" seldepth ", " score ", " nodes ", " nps ", " time ", " pv "] {
        assert!(last.contains(field), "{last}");
    }
    assert!(last.starts_with("info depth 4 "), "{last}");
    let best = bestmove(&lines);
    assert!(legal_after(VariantId::FiveUp, &moves, &best), "{best}");
    // The first pv move is the best move.
    assert_eq!(last.split(" pv ").nth(1).unwrap().split(' ').next().unwrap(), best);
    e.quit();
}

#[test]
fn the_last_line_and_the_ponder_move_agree_with_bestmove() {
    // At these node counts (one thread) the last iteration is cut short after a new
    // best root move, which once left the last line and the ponder move on the old one.
    for nodes in [14000, 15000] {
        let mut e = Uci::start();
        let moves = ["Ec2-Ec4"];
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send(&format!("go nodes {nodes}"));
        let lines = e.until_bestmove(PATIENCE);
        assert!(errors(&lines).is_empty(), "{lines:?}");
        let last = lines.iter().rfind(|l| l.starts_with("info depth ")).expect("an info line");
        let pv: Vec<&str> = last.split(" pv ").nth(1).expect("a pv").split(' ').collect();
        let words: Vec<&str> = lines.last().unwrap().split(' ').collect();
        assert_eq!(words[1], pv[0], "{lines:?}");
        assert!(pv.len() > 1, "{last}");
        assert_eq!(words[2..], ["ponder", pv[1]], "{lines:?}");
        assert!(legal_after(VariantId::FiveUp, &[moves[0], pv[0]], pv[1]), "{last}");
        e.quit();
    }
}

#[test]
fn position_fen_is_read_up_to_moves() {
    let mut e = Uci::start();
    // The king-opposition diagram of the README: White's king has two moves.
    e.send("position fen q4|5|5|5|5/5|2k2|5|5|5/5|5|2K2|5|5/5|5|5|5|5/5|5|5|5|5 w - - moves Cc3-Cc2");
    e.send("go depth 2");
    let lines = e.until_bestmove(PATIENCE);
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert_ne!(bestmove(&lines), "0000");
    e.quit();
}

#[test]
fn go_movetime_returns_in_time() {
    let mut e = Uci::start();
    e.send("position startpos");
    let start = Instant::now();
    e.send("go movetime 200");
    let lines = e.until_bestmove(PATIENCE);
    let took = start.elapsed();
    assert!(took < Duration::from_millis(2000), "{took:?}");
    assert!(legal_after(VariantId::FiveUp, &[], &bestmove(&lines)));
    e.quit();
}

#[test]
fn go_infinite_runs_until_stop_and_answers_isready_meanwhile() {
    let mut e = Uci::start();
    e.send("position startpos moves Ec2-Ec4");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let during = e.ready();
    assert!(!during.iter().any(|l| l.starts_with("bestmove")), "{during:?}");
    e.send("stop");
    let lines = e.until_bestmove(PATIENCE);
    assert!(legal_after(VariantId::FiveUp, &["Ec2-Ec4"], &bestmove(&lines)));
    assert!(e.ready().is_empty());
    e.quit();
}

#[test]
fn quit_and_end_of_input_stop_an_infinite_search_with_a_bestmove() {
    let mut e = Uci::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let rest = e.quit();
    assert!(rest.last().is_some_and(|l| l.starts_with("bestmove ")), "{rest:?}");

    let mut e = Uci::start();
    e.send("position startpos");
    e.send("go infinite");
    e.stdin = None; // end of input
    let status = e.child.wait().expect("raum exits");
    assert!(status.success());
    let rest: Vec<String> = e.lines.iter().collect();
    assert!(rest.last().is_some_and(|l| l.starts_with("bestmove ")), "{rest:?}");
}

#[test]
fn finds_the_five_up_mate_in_one() {
    let mut e = Uci::start();
    e.send("position startpos moves Dc2-Cc2 Bc4-Cc4 Db1-Ca1");
    e.send("go depth 3");
    let lines = e.until_bestmove(PATIENCE);
    let last_info = lines.iter().rfind(|l| l.starts_with("info depth ")).expect("info");
    assert!(last_info.contains(" score mate 1 "), "{last_info}");
    assert_eq!(bestmove(&lines), "Bb5-Eb2");
    // After the mate there is no legal move.
    e.send("position startpos moves Dc2-Cc2 Bc4-Cc4 Db1-Ca1 Bb5-Eb2");
    e.send("go depth 2");
    assert_eq!(bestmove(&e.until_bestmove(PATIENCE)), "0000");
    e.quit();
}

#[test]
fn uci_variant_switches_to_raumschach() {
    let mut e = Uci::start();
    e.send("setoption name UCI_Variant value raumschach");
    e.send("go depth 3");
    let lines = e.until_bestmove(PATIENCE);
    // No `position` since the switch: the start position is searched, with a note.
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(errors(&lines)[0].contains("raumschach start position"));
    let best = bestmove(&lines);
    assert!(legal_after(VariantId::Raumschach, &[], &best), "{best}");
    // Raumschach's start, not Five Up's: this move exists only there.
    e.send("position startpos moves Bc1-Cb2");
    e.send("go depth 2");
    let lines = e.until_bestmove(PATIENCE);
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(legal_after(VariantId::Raumschach, &["Bc1-Cb2"], &bestmove(&lines)));
    // A multi-player game is a variant like the others here.
    e.send("setoption name UCI_Variant value triquetral-6p");
    let errs = e.ready();
    assert!(errors(&errs).is_empty(), "{errs:?}");
    e.quit();
}

#[test]
fn uci_variant_switches_between_widths() {
    // Pyramid (220 cells) and Betza's boards (512) run at wider cell sets than
    // Five Up (125): one session moves between them, engine and options kept.
    let mut e = Uci::start();
    e.send("setoption name Hash value 4");
    for (id, first) in
        [(VariantId::Pyramid, "Vd2-VId3"), (VariantId::BetzaUpright, "4e2-4e4"), (VariantId::FiveUp, "Ec2-Ec4")]
    {
        e.send(&format!("setoption name UCI_Variant value {id}"));
        e.send(&format!("position startpos moves {first}"));
        e.send("go depth 2");
        let lines = e.until_bestmove(PATIENCE);
        assert!(errors(&lines).is_empty(), "{id}: {lines:?}");
        let best = bestmove(&lines);
        assert!(legal_after(id, &[first], &best), "{id}: {best}");
    }
    e.quit();
}

#[test]
fn malformed_and_out_of_order_commands_are_answered_and_survived() {
    let mut e = Uci::start();
    let script = [
        ("", None),
        ("   ", None),
        ("garbage", Some("unknown command 'garbage'")),
        ("go depth x", Some("'depth' needs a depth from 1 to 100, not 'x'")),
        ("go nodes", Some("'nodes' needs a node count")),
        ("go movetime -5", Some("not '-5'")),
        ("go sideways 3", Some("unknown parameter 'sideways'")),
        ("position", Some("expected 'startpos' or 'fen'")),
        ("position middlegame", Some("not 'middlegame'")),
        ("position fen", Some("position string is missing")),
        ("position fen this is no position", Some("position fen \"this is no position\"")),
        ("position fen 5/5 w - -", Some("position fen")),
        ("position startpos moves Ec2-Ec4 Ec4-Ec5", Some("move 2 (Ec4-Ec5)")),
        ("position startpos moves Zz9-Ec4", Some("move 1 (Zz9-Ec4)")),
        ("setoption name Foo value 1", Some("unknown option 'Foo'")),
        ("setoption name Hash value lots", Some("not 'lots'")),
        ("setoption name Threads value 0", Some("from 1 to 64")),
        ("setoption", Some("setoption needs")),
        ("setoption name UCI_Variant value chess", Some("unknown variant 'chess'")),
    ];
    for (cmd, expected) in script {
        e.send(cmd);
        let lines = e.ready();
        match expected {
            None => assert!(lines.is_empty(), "{cmd}: {lines:?}"),
            Some(text) => {
                assert_eq!(lines.len(), 1, "{cmd}: {lines:?}");
                assert!(lines[0].starts_with("info string error: "), "{cmd}: {lines:?}");
                assert!(lines[0].contains(text), "{cmd}: expected '{text}' in {lines:?}");
            }
        }
    }
    // Commands during a search.
    e.send("position startpos moves Ec2-Ec4");
    e.send("go infinite");
    e.send("go depth 2");
    e.send("setoption name Hash value 8");
    e.send("ucinewgame");
    e.send("nonsense during search");
    let during = e.ready();
    assert_eq!(errors(&during).len(), 4, "{during:?}");
    assert!(during.iter().any(|l| l.contains("go while a search is running")));
    assert!(during.iter().any(|l| l.contains("setoption during a search")));
    e.send("stop");
    let lines = e.until_bestmove(PATIENCE);
    assert!(legal_after(VariantId::FiveUp, &["Ec2-Ec4"], &bestmove(&lines)));
    e.send("stop"); // nothing to stop: harmless
    // The illegal `position` commands above left the last good position in place;
    // a normal search still works.
    e.send("position startpos moves Ec2-Ec4 Ad4-Ad3");
    e.send("go depth 3");
    let lines = e.until_bestmove(PATIENCE);
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(legal_after(VariantId::FiveUp, &["Ec2-Ec4", "Ad4-Ad3"], &bestmove(&lines)));
    assert!(e.ready().is_empty());
    e.quit();
}

/// A script that pipes a whole session at once: commands that arrive during a
/// bounded search wait for it and then take effect in order, so each `go`
/// gets its own legal `bestmove` (issue 16's piped session).
#[test]
fn piped_commands_during_a_bounded_search_take_effect_in_order() {
    let mut e = Uci::start();
    for cmd in
        ["position startpos", "go movetime 50", "ucinewgame", "position startpos moves Ec2-Ec4", "go movetime 200"]
    {
        e.send(cmd);
    }
    let first = e.until_bestmove(PATIENCE);
    assert!(errors(&first).is_empty(), "{first:?}");
    assert!(legal_after(VariantId::FiveUp, &[], &bestmove(&first)), "{first:?}");
    let second = e.until_bestmove(PATIENCE);
    assert!(errors(&second).is_empty(), "{second:?}");
    assert!(legal_after(VariantId::FiveUp, &["Ec2-Ec4"], &bestmove(&second)), "{second:?}");
    // A setoption and a go sent during a bounded search are not refused either.
    e.send("go depth 3");
    e.send("setoption name Hash value 8");
    e.send("go depth 2");
    let third = e.until_bestmove(PATIENCE);
    let fourth = e.until_bestmove(PATIENCE);
    assert!(errors(&third).is_empty() && errors(&fourth).is_empty(), "{third:?} {fourth:?}");
    assert!(legal_after(VariantId::FiveUp, &["Ec2-Ec4"], &bestmove(&fourth)));
    assert!(e.ready().is_empty());
    e.quit();
}

/// Whether `mv` is legal in the multi-player game `id` after `moves` from the start.
fn multi_legal_after(id: raum_rules::multi::MultiId, moves: &[&str], mv: &str) -> bool {
    use raum_rules::multi::{MultiGame, MultiPosition, MultiVariant};
    struct Check<'a>(&'a [&'a str], &'a str);
    impl raum_rules::MultiFn for Check<'_> {
        type Output = bool;
        fn call<S: Width>(self, v: &'static MultiVariant<S>) -> bool {
            let mut game = MultiGame::new(MultiPosition::start(v));
            for m in self.0 {
                let m = raum_notation::parse_multi_move(game.position(), m).unwrap();
                game.play(m).unwrap();
            }
            raum_notation::parse_multi_move(game.position(), self.1).is_ok()
        }
    }
    id.dispatch(Check(moves, mv))
}

#[test]
fn multi_player_games_answer_for_any_side_to_move() {
    use raum_rules::multi::MultiId;
    let mut e = Uci::start();
    e.send("setoption name UCI_Variant value wing-table-4p");
    e.send("uci");
    let lines = e.until(PATIENCE, |l| l == "uciok");
    assert!(lines.iter().any(|l| l.contains("default wing-table-4p") && l.contains("var triquetral-6p")), "{lines:?}");
    // Red to move: the answer is Red's.
    e.send("position startpos moves 2e3-2e4");
    e.send("go depth 2");
    let lines = e.until_bestmove(PATIENCE);
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(multi_legal_after(MultiId::WingTable4p, &["2e3-2e4"], &bestmove(&lines)), "{lines:?}");
    // Piped without waiting: each go answers in order, for its own position.
    e.send("position startpos");
    e.send("go movetime 50");
    e.send("ucinewgame");
    e.send("position startpos moves 2e3-2e4 2c6-2d6");
    e.send("go movetime 100");
    let first = e.until_bestmove(PATIENCE);
    let second = e.until_bestmove(PATIENCE);
    assert!(multi_legal_after(MultiId::WingTable4p, &[], &bestmove(&first)), "{first:?}");
    assert!(multi_legal_after(MultiId::WingTable4p, &["2e3-2e4", "2c6-2d6"], &bestmove(&second)), "{second:?}");
    // A Blue position string, and bad input answered without ending the session.
    e.send("setoption name UCI_Variant value triquetral-3p");
    e.send("position fen 5 w - -");
    e.send("position startpos moves 5e3-5e4 9z9-1a1");
    let errs = e.ready();
    assert_eq!(errs.len(), 2, "{errs:?}");
    assert!(errs[0].contains("expected 8 levels"), "{errs:?}");
    assert!(errs[1].contains("move 2 (9z9-1a1)"), "{errs:?}");
    e.send("position startpos moves 5e3-5e4");
    e.send("go nodes 2000");
    let lines = e.until_bestmove(PATIENCE);
    assert!(multi_legal_after(MultiId::Triquetral3p, &["5e3-5e4"], &bestmove(&lines)), "{lines:?}");
    // Every side for itself the search is an option: each one answers legally.
    e.send("uci");
    let lines = e.until(PATIENCE, |l| l == "uciok");
    assert!(
        lines.iter().any(|l| l == "option name MultiSearch type combo default brs var paranoid var brs var maxn"),
        "{lines:?}"
    );
    e.send("setoption name MultiSearch value alphabeta");
    let errs = e.ready();
    assert!(errs.len() == 1 && errs[0].contains("unknown multi-player search 'alphabeta'"), "{errs:?}");
    for kind in ["paranoid", "maxn", "brs"] {
        e.send(&format!("setoption name MultiSearch value {kind}"));
        e.send("go depth 2");
        let lines = e.until_bestmove(PATIENCE);
        assert!(errors(&lines).is_empty(), "{kind}: {lines:?}");
        assert!(multi_legal_after(MultiId::Triquetral3p, &["5e3-5e4"], &bestmove(&lines)), "{kind}: {lines:?}");
    }
    e.quit();
}

#[test]
fn analysis_options_multipv_wdl_searchmoves_and_levels() {
    let mut e = Uci::start();
    e.send("uci");
    let lines = e.until(PATIENCE, |l| l == "uciok");
    for option in [
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name UCI_ShowWDL type check default false",
        &format!("option name Skill Level type spin default {LEVELS} min 1 max {LEVELS}"),
    ] {
        assert!(lines.iter().any(|l| l == option), "{option}: {lines:?}");
    }
    // Three lines at each depth, different first moves, best first; bestmove is the first.
    e.send("setoption name MultiPV value 3");
    e.send("setoption name UCI_ShowWDL value true");
    e.send("position startpos moves Ec2-Ec4");
    e.send("go depth 3");
    let lines = e.until_bestmove(PATIENCE);
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let last: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth 3 ")).collect();
    assert_eq!(last.len(), 3, "{lines:?}");
    let field = |l: &str, key: &str| -> Vec<String> {
        let t: Vec<&str> = l.split_whitespace().collect();
        let i = t.iter().position(|&x| x == key).unwrap_or_else(|| panic!("no {key} in {l}"));
        t[i + 1..].iter().map(|s| s.to_string()).collect()
    };
    let mut firsts = Vec::new();
    for (k, l) in last.iter().enumerate() {
        assert_eq!(field(l, "multipv")[0], (k + 1).to_string(), "{l}");
        let wdl: Vec<u32> = field(l, "wdl")[..3].iter().map(|x| x.parse().unwrap()).collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{l}");
        assert!(field(l, "hashfull")[0].parse::<u32>().is_ok(), "{l}");
        firsts.push(field(l, "pv")[0].clone());
    }
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{firsts:?}");
    assert_eq!(bestmove(&lines), firsts[0]);
    // searchmoves: the answer is one of them; a move that is not legal is refused.
    e.send("setoption name MultiPV value 1");
    e.send("go depth 2 searchmoves Ab4-Ab3 Ac4-Ac3");
    let lines = e.until_bestmove(PATIENCE);
    assert!(["Ab4-Ab3", "Ac4-Ac3"].contains(&bestmove(&lines).as_str()), "{lines:?}");
    e.send("go depth 2 searchmoves Ec2-Ec3");
    e.send("setoption name MultiPV value 0");
    e.send("setoption name UCI_ShowWDL value maybe");
    e.send(&format!("setoption name Skill Level value {}", LEVELS + 1));
    let errs = e.ready();
    assert_eq!(errs.len(), 4, "{errs:?}");
    assert!(errs[0].contains("searchmoves Ec2-Ec3"), "{errs:?}");
    assert!(
        errs[1].contains("MultiPV")
            && errs[2].contains("true or false")
            && errs[3].contains(&format!("from 1 to {LEVELS}"))
    );
    // The weakest level still answers legally.
    e.send("setoption name Skill Level value 1");
    e.send("go depth 3");
    let lines = e.until_bestmove(PATIENCE);
    assert!(legal_after(VariantId::FiveUp, &["Ec2-Ec4"], &bestmove(&lines)), "{lines:?}");
    e.quit();
}

#[test]
fn uci_elo_picks_the_level_of_that_strength() {
    // The option's range is the variant's measured scale; its bottom is level 1.
    let mut e = Uci::start();
    e.send("uci");
    let lines = e.until(PATIENCE, |l| l == "uciok");
    assert!(lines.iter().any(|l| l == "option name UCI_LimitStrength type check default false"), "{lines:?}");
    let elo = lines.iter().find(|l| l.starts_with("option name UCI_Elo type spin")).expect("UCI_Elo offered");
    let t: Vec<&str> = elo.split_whitespace().collect();
    let at = |k: &str| t[t.iter().position(|&x| x == k).unwrap() + 1].parse::<i32>().unwrap();
    let (lo, hi) = (at("min"), at("max"));
    assert!(lo < hi && at("default") == lo, "{elo}");
    // Level 1 and the Elo of level 1 make the same choices under the session's seed.
    let moves = |setup: &[String]| -> Vec<String> {
        let mut e = Uci::start();
        for l in setup {
            e.send(l);
        }
        let mut played: Vec<String> = Vec::new();
        for _ in 0..6 {
            e.send(&format!("position startpos moves {}", played.join(" ")));
            e.send("go depth 3");
            let lines = e.until_bestmove(PATIENCE);
            assert!(errors(&lines).is_empty(), "{lines:?}");
            played.push(bestmove(&lines));
        }
        e.quit();
        played
    };
    let level1 = moves(&["setoption name Skill Level value 1".into()]);
    let elo1 =
        moves(&["setoption name UCI_LimitStrength value true".into(), format!("setoption name UCI_Elo value {lo}")]);
    assert_eq!(level1, elo1);
    let full = moves(&[]);
    let off =
        moves(&["setoption name UCI_LimitStrength value false".into(), format!("setoption name UCI_Elo value {lo}")]);
    assert_eq!(full, off, "UCI_Elo counts only with UCI_LimitStrength");
    // Beyond the scale: said, and the nearest end plays; not a number: refused.
    e.send(&format!("setoption name UCI_Elo value {}", hi + 1000));
    let said = e.until(PATIENCE, |l| l.starts_with("info string UCI_Elo"));
    assert!(said.last().unwrap().contains("outside five-up's measured scale"), "{said:?}");
    e.send("setoption name UCI_Elo value strong");
    e.send("setoption name UCI_LimitStrength value maybe");
    let errs = e.ready();
    assert_eq!(errs.len(), 2, "{errs:?}");
    assert!(errs[0].contains("whole number") && errs[1].contains("true or false"), "{errs:?}");
    e.quit();
}

#[test]
fn a_long_search_reports_its_root_moves() {
    let mut e = Uci::start();
    e.send("position startpos");
    // An infinite search, stopped once it reports a root move (after a second
    // of its own clock): a `movetime` search may end an iteration early, and
    // on a busy machine the engine's start takes a while, so no fixed wait of
    // the test's is sure to give the search its second.
    e.send("go infinite");
    let mut lines = e.until(PATIENCE, |l| l.contains(" currmove "));
    e.send("stop");
    lines.extend(e.until_bestmove(PATIENCE));
    let current: Vec<&String> = lines.iter().filter(|l| l.contains(" currmove ")).collect();
    assert!(!current.is_empty(), "{lines:?}");
    let l = current[0].split_whitespace().collect::<Vec<_>>();
    assert!(l[0] == "info" && l[1] == "depth" && l[3] == "currmove" && l[5] == "currmovenumber", "{l:?}");
    assert!(legal_after(VariantId::FiveUp, &[], l[4]), "{l:?}");
    e.quit();
}
