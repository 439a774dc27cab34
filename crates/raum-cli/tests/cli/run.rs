//! Running the `raum` binary as other tools do, and reading what it wrote.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// `raum` with `args`, stdin closed.
pub fn raum(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_raum")).args(args).output().expect("raum runs")
}

/// `raum` with `args`, `input` on its stdin.
pub fn raum_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_raum"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("raum starts");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("input written");
    child.wait_with_output().expect("raum finishes")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
