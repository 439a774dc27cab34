//! An external engine spoken to over the engine protocol (`raum match`'s
//! `uci:` players): the engine is started once, given the variant and the
//! options, and asked for a move with `position fen … moves …` and `go`.
//! Whatever goes wrong (no answer in time, the process gone, an unreadable
//! or illegal move) comes back as a reason, and the referee scores the game
//! as lost; the next game starts a fresh process if the old one died.

use anyhow::{Context, Result, bail};
use raum_engine::{Limits, Score};
use raum_notation::{format_game_move, format_game_position, format_game_start, parse_coordinate, parse_multi_move};
use raum_rules::{Action, AnyGame, GameRules, Move, on_game};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long the engine may take to answer `uci` and `isready`.
const HANDSHAKE: Duration = Duration::from_secs(20);
/// Time allowed beyond `movetime` before a move counts as not given.
const MOVETIME_GRACE: Duration = Duration::from_secs(5);
/// Time allowed for a move searched to a node or depth limit.
const UNTIMED_LIMIT: Duration = Duration::from_secs(300);

/// A running engine process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Process {
    fn start(command: &[String]) -> Result<Process> {
        let (program, args) = command.split_first().context("the engine command is empty")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting engine '{}'", command.join(" ")))?;
        let stdin = child.stdin.take().context("engine stdin")?;
        let stdout = child.stdout.take().context("engine stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Process { child, stdin, lines })
    }

    fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).context("the engine closed its input")
    }

    /// Reads lines until one whose first word is `word`; returns it.
    fn wait_for(&mut self, word: &str, within: Duration) -> Result<String> {
        self.wait_with_score(word, within).map(|(line, _)| line)
    }

    /// As [`Process::wait_for`], with the last score an `info` line gave on the way.
    fn wait_with_score(&mut self, word: &str, within: Duration) -> Result<(String, Option<Said>)> {
        let deadline = Instant::now() + within;
        let mut score = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.split_whitespace().next() == Some(word) => return Ok((line, score)),
                Ok(line) => score = info_score(&line).or(score),
                Err(RecvTimeoutError::Timeout) => bail!("no '{word}' from the engine within {within:?}"),
                Err(RecvTimeoutError::Disconnected) => bail!("the engine exited before sending '{word}'"),
            }
        }
    }

    fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if !self.alive() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An external engine as a match player.
pub struct UciEngine {
    command: Vec<String>,
    options: Vec<(String, String)>,
    variant: String,
    process: Option<Process>,
}

impl UciEngine {
    /// An engine run as `command`, playing `variant` (its id for `UCI_Variant`)
    /// with `options` set by `setoption`. The process starts (and the
    /// handshake is checked) at once.
    pub fn new(command: Vec<String>, options: Vec<(String, String)>, variant: &str) -> Result<Self> {
        let mut e = UciEngine { command, options, variant: variant.to_string(), process: None };
        e.ensure_started()?;
        Ok(e)
    }

    fn ensure_started(&mut self) -> Result<&mut Process> {
        if self.process.as_mut().is_some_and(|p| !p.alive()) {
            self.process = None;
        }
        if self.process.is_none() {
            let mut p = Process::start(&self.command)?;
            p.send("uci")?;
            p.wait_for("uciok", HANDSHAKE)?;
            p.send(&format!("setoption name UCI_Variant value {}", self.variant))?;
            for (name, value) in &self.options {
                p.send(&format!("setoption name {name} value {value}"))?;
            }
            p.send("isready")?;
            p.wait_for("readyok", HANDSHAKE)?;
            self.process = Some(p);
        }
        Ok(self.process.as_mut().expect("started above"))
    }

    /// Prepares a new game (restarting the engine if it died).
    pub fn new_game(&mut self) -> Result<()> {
        let p = self.ensure_started()?;
        p.send("ucinewgame")?;
        p.send("isready")?;
        p.wait_for("readyok", HANDSHAKE)?;
        Ok(())
    }

    /// The engine's move in `game`, searched to `limits`, with the last score
    /// it reported, or why there is none (the player then loses). A game in
    /// which a side resigned (more sides: it left the game) is sent as its
    /// position now, the protocol having no word for a resignation.
    pub fn choose(&mut self, game: &AnyGame, limits: &Limits) -> Result<(Move, Option<Said>), String> {
        let go = go_command(limits);
        let clock = if game.sides().len() == 2 && game.side_to_move() == 1 { limits.btime } else { limits.wtime };
        let within = [limits.movetime, clock].into_iter().flatten().min().map_or(UNTIMED_LIMIT, |t| t + MOVETIME_GRACE);
        let resigned = game.actions().iter().any(|a| matches!(a, Action::Resign(_)));
        let mut position =
            format!("position fen {}", if resigned { format_game_position(game) } else { format_game_start(game) });
        if !game.moves().is_empty() && !resigned {
            position.push_str(" moves");
            for &m in game.moves() {
                position.push(' ');
                position.push_str(&format_game_move(game, m));
            }
        }
        let p = self.ensure_started().map_err(|e| format!("{e:#}"))?;
        let answer = p.send(&position).and_then(|_| p.send(&go)).and_then(|_| p.wait_with_score("bestmove", within));
        let (line, score) = match answer {
            Ok(answer) => answer,
            Err(e) => {
                // A hung engine is not asked again: the next game starts a new one.
                self.process = None;
                return Err(format!("{e:#}"));
            }
        };
        let text = line.split_whitespace().nth(1).unwrap_or("");
        let m = on_game!(game, g => parse_coordinate(g.position(), text), g => parse_multi_move(g.position(), text))
            .map_err(|e| format!("answered '{line}': {e}"))?;
        Ok((m, score))
    }
}

/// The score of an `info` line (`score cp N` or `score mate N`), if it has one.
/// A score an engine reported, from its own side, with the depth it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Said {
    /// The score from the mover's side.
    pub score: Score,
    /// The search depth, if the engine said.
    pub depth: Option<u32>,
}

fn info_score(line: &str) -> Option<Said> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    // Everything after `string` is free text.
    let words: Vec<&str> = words.take_while(|&w| w != "string").collect();
    let at = words.iter().position(|&w| w == "score")?;
    let value = words.get(at + 2)?.parse().ok()?;
    let score = match *words.get(at + 1)? {
        "cp" => Score::Cp(value),
        "mate" => Score::Mate(value),
        _ => return None,
    };
    let depth = words.iter().position(|&w| w == "depth").and_then(|i| words.get(i + 1)?.parse().ok());
    Some(Said { score, depth })
}

/// The `go` command for `limits`.
fn go_command(limits: &Limits) -> String {
    let mut go = String::from("go");
    if let Some(n) = limits.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    if let Some(t) = limits.movetime {
        go.push_str(&format!(" movetime {}", t.as_millis()));
    }
    if let Some(d) = limits.depth {
        go.push_str(&format!(" depth {d}"));
    }
    for (word, time) in [("wtime", limits.wtime), ("btime", limits.btime), ("winc", limits.winc), ("binc", limits.binc)]
    {
        if let Some(t) = time {
            go.push_str(&format!(" {word} {}", t.as_millis()));
        }
    }
    if let Some(m) = limits.movestogo {
        go.push_str(&format!(" movestogo {m}"));
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_commands() {
        let l = Limits { nodes: Some(500), depth: Some(3), ..Limits::default() };
        assert_eq!(go_command(&l), "go nodes 500 depth 3");
        let l = Limits { movetime: Some(Duration::from_millis(100)), ..Limits::default() };
        assert_eq!(go_command(&l), "go movetime 100");
        let ms = Duration::from_millis;
        let l = Limits {
            wtime: Some(ms(9000)),
            btime: Some(ms(7500)),
            winc: Some(ms(100)),
            binc: Some(ms(0)),
            movestogo: Some(12),
            ..Limits::default()
        };
        assert_eq!(go_command(&l), "go wtime 9000 btime 7500 winc 100 binc 0 movestogo 12");
    }

    #[test]
    fn info_lines_give_scores() {
        assert_eq!(
            info_score("info depth 5 seldepth 9 score cp -35 nodes 100 pv Ec2-Ec3").map(|s| s.score),
            Some(Score::Cp(-35))
        );
        assert_eq!(info_score("info depth 9 score mate 2 upperbound nodes 5").map(|s| s.score), Some(Score::Mate(2)));
        assert_eq!(info_score("info depth 9 score mate -1").map(|s| s.score), Some(Score::Mate(-1)));
        assert_eq!(info_score("info depth 9 score mate -1").and_then(|s| s.depth), Some(9));
        assert_eq!(info_score("info score cp 10 nodes 5").map(|s| s.depth), Some(None));
        for none in [
            "info depth 5 nodes 100",
            "info string the score cp 100 is a guess",
            "info depth 5 score cp",
            "info depth 5 score cp many",
            "info depth 5 score wdl 100 0 0",
            "bestmove Ec2-Ec3",
            "",
        ] {
            assert_eq!(info_score(none), None, "{none}");
        }
    }

    #[test]
    fn a_missing_program_is_an_error_not_a_panic() {
        let r = UciEngine::new(vec!["/nonexistent/raum-engine".into()], vec![], "five-up");
        assert!(format!("{:#}", r.err().expect("no such program")).contains("starting engine"));
    }
}
