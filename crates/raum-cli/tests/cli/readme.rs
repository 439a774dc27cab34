//! README.md's examples are run and their output compared, so the README
//! cannot drift from what `raum` does: every `console` block (each `$ raum ...`
//! line run, its output compared line for line) and every engine-protocol
//! session (a `text` block whose first line is `uci`: its commands piped to
//! `raum uci`, the answers compared, the timing fields `nps` and `time` aside).
//! The other blocks (the `sh` setup commands, the `raum match` and `raum tune`
//! transcripts, which take minutes and depend on timing) are not run, and the
//! README says so.

use std::io::Write;
use std::process::{Command, Stdio};

/// The repository's root, where the README's reader runs the examples.
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// Splits a command line on spaces, honouring double quotes.
fn split_args(line: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    args.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            _ => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        args.push(cur);
    }
    args
}

fn normalise(text: &str) -> Vec<String> {
    text.lines().map(|l| l.trim_end().to_string()).collect()
}

/// README.md's fenced blocks: the fence's info string and the lines inside.
fn blocks() -> Vec<(String, Vec<String>)> {
    let readme = std::fs::read_to_string(format!("{ROOT}/README.md")).expect("README.md");
    let mut blocks = Vec::new();
    let mut open: Option<(String, Vec<String>)> = None;
    for line in readme.lines() {
        if let Some(info) = line.trim_start().strip_prefix("```") {
            match open.take() {
                Some(block) => blocks.push(block),
                None => open = Some((info.trim().to_string(), Vec::new())),
            }
        } else if let Some((_, lines)) = open.as_mut() {
            lines.push(line.to_string());
        }
    }
    assert!(open.is_none(), "README.md ends inside a fenced block");
    blocks
}

#[test]
fn readme_examples_run_as_shown() {
    let mut finished: Vec<(String, String)> = Vec::new();
    for (info, lines) in blocks() {
        if info != "console" {
            continue;
        }
        let mut current: Option<(String, String)> = None;
        for line in lines {
            if let Some(cmd) = line.strip_prefix("$ ") {
                finished.extend(current.take());
                current = Some((cmd.to_string(), String::new()));
            } else if let Some((_, out)) = current.as_mut() {
                out.push_str(&line);
                out.push('\n');
            }
        }
        finished.extend(current);
    }
    let examples = finished.len();
    for (cmd, expected) in finished {
        let args = split_args(&cmd);
        assert_eq!(args[0], "raum", "README example does not run raum: {cmd}");
        let o =
            Command::new(env!("CARGO_BIN_EXE_raum")).args(&args[1..]).current_dir(ROOT).output().expect("raum runs");
        assert!(o.status.success(), "{cmd}: {}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(normalise(&String::from_utf8_lossy(&o.stdout)), normalise(&expected), "README example: {cmd}");
    }
    assert!(examples >= 6, "only {examples} README examples found");
}

/// The commands of the engine protocol; every other line of a session is an answer.
const PROTOCOL_COMMANDS: &[&str] = &["uci", "isready", "setoption", "ucinewgame", "position", "go", "stop", "quit"];

/// An answer with the fields that depend on the clock (`nps`, `time`) blanked,
/// and `None` for a line that only a slow search prints (`currmove`, after a second).
fn untimed(line: &str) -> Option<String> {
    let line = line.trim_end();
    if !line.starts_with("info depth") {
        return Some(line.to_string());
    }
    let words: Vec<&str> = line.split(' ').collect();
    if words.contains(&"currmove") {
        return None;
    }
    let kept: Vec<&str> = words
        .iter()
        .enumerate()
        .map(|(i, w)| if i > 0 && matches!(words[i - 1], "nps" | "time") { "_" } else { w })
        .collect();
    Some(kept.join(" "))
}

#[test]
fn readme_protocol_sessions_run_as_shown() {
    let sessions: Vec<Vec<String>> = blocks()
        .into_iter()
        .filter(|(info, lines)| info == "text" && lines.first().is_some_and(|l| l.trim() == "uci"))
        .map(|(_, lines)| lines)
        .collect();
    assert!(!sessions.is_empty(), "README.md shows no engine-protocol session");
    for lines in sessions {
        let is_command = |l: &String| l.split(' ').next().is_some_and(|w| PROTOCOL_COMMANDS.contains(&w));
        let input: String = lines.iter().filter(|l| is_command(l)).map(|l| format!("{l}\n")).collect();
        let expected: Vec<String> = lines.iter().filter(|l| !is_command(l)).filter_map(|l| untimed(l)).collect();
        // The whole session at once, as a script pipes it: the protocol answers in order.
        let mut child = Command::new(env!("CARGO_BIN_EXE_raum"))
            .arg("uci")
            .current_dir(ROOT)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("raum uci starts");
        child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("the session is sent");
        let o = child.wait_with_output().expect("raum uci ends");
        assert!(o.status.success(), "raum uci: {}", String::from_utf8_lossy(&o.stderr));
        let got: Vec<String> = String::from_utf8_lossy(&o.stdout).lines().filter_map(untimed).collect();
        assert_eq!(got, expected, "README's protocol session (input:\n{input})");
    }
}
