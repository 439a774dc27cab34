//! `raum`: the command-line interface to Raum's 3D-chess rules.

mod adjudication;
mod analyse;
mod args;
mod bench;
mod check;
mod clock;
#[cfg(feature = "lab")]
mod lab;
mod matches;
mod perft;
mod play;
mod records;
mod rng;
#[cfg(feature = "serve")]
mod serve;
mod show;
mod stats;
mod terminal;
mod tune;
mod uci_client;

use anyhow::Result;
use clap::Parser;
use raum_cli::uci;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    if !keeps_sigpipe(&cli.command) {
        quiet_broken_pipe();
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Commands that write to sockets or to programs they started, and must
/// survive a peer that goes away (they see the error instead of dying).
fn keeps_sigpipe(c: &args::Command) -> bool {
    match c {
        args::Command::Match(_) => true,
        #[cfg(feature = "serve")]
        args::Command::Serve(_) => true,
        _ => false,
    }
}

/// A reader that stops reading (`raum show | head`) ends the program quietly,
/// as it does other Unix tools, instead of a panic in `println!`. Not for
/// `raum match`, which writes to engines it started and must survive one that
/// dies (it sees the error and scores the game).
fn quiet_broken_pipe() {
    #[cfg(unix)]
    // SAFETY: setting the default action of SIGPIPE, before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Runs a command. Each command that takes a variant parses its id and hands
/// its body, written once as a generic `VariantFn`, to `VariantId::dispatch`:
/// the variant's cell-set width is chosen there and nowhere else.
fn run(cli: args::Cli) -> Result<()> {
    use args::Command::*;
    match cli.command {
        Perft(a) => perft::perft(&a),
        Divide(a) => perft::divide(&a),
        Check(a) => check::check(&a),
        Moves(a) => perft::moves(&a),
        Fen(a) => perft::fen(&a),
        Show(a) => show::show(&a),
        Play(a) => play::play(&a),
        Bench(a) => bench::bench(&a),
        Analyse(a) => analyse::analyse(&a),
        Uci => uci::uci(),
        #[cfg(feature = "serve")]
        Serve(a) => serve::serve(&a),
        Match(a) => matches::run_match(&a).map(|_| ()),
        Pgn(a) => records::pgn(&a),
        Tune(a) => tune::tune(&a),
        #[cfg(feature = "lab")]
        Lab(a) => lab::lab(&a),
    }
}
