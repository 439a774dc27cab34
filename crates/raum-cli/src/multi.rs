//! perft, divide, moves, fen and show for the multi-player games
//! (`wing-table-4p`, `triquetral-3p`, `triquetral-6p`).

use crate::args::{PerftArgs, PositionArgs, ShowArgs};
use anyhow::{Context, Result, bail};
use raum_notation::{
    format_multi_move, format_multi_position, parse_multi_move, parse_multi_position, render_multi_diagram,
};
use raum_rules::End;
use raum_rules::multi::{MultiGame, MultiId, MultiPosition, MultiVariant};
use raum_rules::{DrawReason, MultiFn, Width};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The multi-player game named on the command line, if it is one.
pub fn multi_id(name: &str) -> Option<MultiId> {
    MultiId::from_name(name)
}

/// The game of the arguments: the start or `--fen`, then `--moves` played as
/// a game (every side for itself, a side left with no legal move goes out).
fn game<S: Width>(v: &'static MultiVariant<S>, a: &PositionArgs) -> Result<MultiGame<S>> {
    if a.setup.is_some() {
        bail!("--setup is for book-3d; {} starts from its start or --fen", v.id());
    }
    let start = match &a.fen {
        Some(fen) => parse_multi_position(v, fen).with_context(|| format!("in --fen \"{fen}\""))?,
        None => MultiPosition::start(v),
    };
    let mut game = MultiGame::new(start);
    for (i, text) in a.moves.as_deref().unwrap_or("").split_whitespace().enumerate() {
        if game.outcome().is_some() {
            bail!("in --moves, move {} ({text}): the game is already over", i + 1);
        }
        let m =
            parse_multi_move(game.position(), text).with_context(|| format!("in --moves, move {} ({text})", i + 1))?;
        // Legal by parse_multi_move, so play cannot refuse it.
        let _ = game.play(m);
    }
    Ok(game)
}

/// Per-root-move counts, shared out over `threads` workers.
fn split<S: Width>(pos: &MultiPosition<S>, depth: u32, threads: usize) -> Vec<(String, u64)> {
    let v = pos.variant();
    let moves = pos.legal_moves();
    let next = AtomicUsize::new(0);
    let mut results = Vec::new();
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&m) = moves.get(i) else { break };
                        let count = if depth <= 1 { 1 } else { pos.play_copy(m).perft(depth - 1) };
                        out.push((format_multi_move(v, m), count));
                    }
                    out
                })
            })
            .collect();
        for w in workers {
            results.extend(w.join().unwrap_or_default());
        }
    });
    results.sort();
    results
}

fn report(nodes: u64, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    eprintln!("time {:.3} s, {} nodes, {:.0} nodes/s", secs, nodes, nodes as f64 / secs.max(1e-9));
}

/// `raum perft` (or `divide`, with per-move lines) on a multi-player game.
pub fn perft(id: MultiId, a: &PerftArgs, divide: bool) -> Result<()> {
    struct Body<'a>(&'a PerftArgs, bool);
    impl MultiFn for Body<'_> {
        type Output = Result<()>;
        fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Result<()> {
            let (a, divide) = (self.0, self.1);
            let game = game(v, &a.position)?;
            let mut pos = game.position().clone();
            let start = Instant::now();
            let nodes = if divide {
                let rows = split(&pos, a.depth, a.threads);
                for (m, n) in &rows {
                    println!("{m} {n}");
                }
                rows.iter().map(|r| r.1).sum()
            } else if a.threads == 1 || a.depth <= 1 {
                pos.perft(a.depth)
            } else {
                split(&pos, a.depth, a.threads).iter().map(|r| r.1).sum()
            };
            report(nodes, start);
            println!("{nodes}");
            Ok(())
        }
    }
    id.dispatch(Body(a, divide))
}

/// `raum moves` on a multi-player game.
pub fn moves(id: MultiId, a: &PositionArgs) -> Result<()> {
    struct Body<'a>(&'a PositionArgs);
    impl MultiFn for Body<'_> {
        type Output = Result<()>;
        fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Result<()> {
            let game = game(v, self.0)?;
            let mut list: Vec<String> =
                game.position().legal_moves().iter().map(|&m| format_multi_move(v, m)).collect();
            list.sort();
            for m in list {
                println!("{m}");
            }
            Ok(())
        }
    }
    id.dispatch(Body(a))
}

/// `raum fen` on a multi-player game.
pub fn fen(id: MultiId, a: &PositionArgs) -> Result<()> {
    struct Body<'a>(&'a PositionArgs);
    impl MultiFn for Body<'_> {
        type Output = Result<()>;
        fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Result<()> {
            println!("{}", format_multi_position(game(v, self.0)?.position()));
            Ok(())
        }
    }
    id.dispatch(Body(a))
}

/// `raum show` on a multi-player game: the levels, who is out, whose turn or how it ended.
pub fn show(id: MultiId, a: &ShowArgs) -> Result<()> {
    struct Body<'a>(&'a ShowArgs);
    impl MultiFn for Body<'_> {
        type Output = Result<()>;
        fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Result<()> {
            let a = self.0;
            let game = game(v, &a.position)?;
            let pos = game.position();
            let b = v.board();
            let marks = match &a.mark {
                None => S::EMPTY,
                Some(name) => {
                    let cell =
                        b.parse_cell(name).with_context(|| format!("--mark: '{name}' is not a cell of this board"))?;
                    let Some((side, _)) = pos.man_at(cell) else { bail!("--mark: no man on {name}") };
                    if side != pos.side_to_move() {
                        bail!("--mark: {name} holds a {} man; it is {}'s turn", v.sides()[side].name, pos.mover().name);
                    }
                    pos.legal_moves().iter().filter(|m| m.from() == cell).fold(S::EMPTY, |s, m| s | S::single(m.to()))
                }
            };
            print!("{}", render_multi_diagram(pos, marks));
            println!("Board: a reconstruction (RULES.md \"Savard's multi-player forms\"); {}", teams_line(v));
            for &(after, side) in game.removed() {
                println!("{} is out (no legal move after {after} moves)", v.sides()[side].name);
            }
            println!("{}", status(&game));
            Ok(())
        }
    }
    id.dispatch(Body(a))
}

/// "teams: White and Black against Red and Blue" or "every side for itself".
fn teams_line<S: Width>(v: &MultiVariant<S>) -> String {
    if !v.teams() {
        return "every side for itself".into();
    }
    let mut teams: Vec<Vec<&str>> = Vec::new();
    for s in v.sides() {
        let t = s.team as usize;
        if teams.len() <= t {
            teams.resize(t + 1, Vec::new());
        }
        teams[t].push(s.name);
    }
    let names: Vec<String> = teams.iter().map(|t| t.join(", ")).collect();
    format!("teams: {}", names.join(" against "))
}

/// Whose turn, or how the game ended with each side's score.
pub fn status<S: Width>(game: &MultiGame<S>) -> String {
    let pos = game.position();
    let v = pos.variant();
    let name = |s: usize| v.sides()[s].name;
    match game.outcome() {
        None if pos.is_check() => format!("{} to move, in check", pos.mover().name),
        None => format!("{} to move", pos.mover().name),
        Some(o) => {
            let why = match o.end {
                End::Checkmate { side } => format!("{} is checkmated", name(side)),
                End::Stalemate { side } => format!("{} is stalemated", name(side)),
                End::Resignation { side } => format!("{} resigns for its team", name(side)),
                End::LastSide { side } => format!("{} is the last side in", name(side)),
                End::Draw(DrawReason::BareKings) => "draw: only kings left".into(),
                End::Draw(DrawReason::Repetition) => "draw by threefold repetition".into(),
                End::Draw(DrawReason::FiftyMoves) => "draw: 50 rounds without a capture or a pawn move".into(),
                End::Draw(DrawReason::Stalemate) => "draw by stalemate".into(),
            };
            let scores: Vec<String> = o.scores.iter().enumerate().map(|(s, p)| format!("{} {}", name(s), p)).collect();
            format!("{why}; scores: {}", scores.join(", "))
        }
    }
}
