//! `raum play`: a game at the terminal, between two people or against Raum's engine.

use crate::args::{PlayArgs, position, variant_id};
use anyhow::{Result, bail};
use raum_engine::{Engine, Limits, Score, SearchResult};
use raum_notation::{format_descriptive, format_move, format_position, parse_move, render_diagram};
use raum_rules::{Color, Game, Move, Position, Variant, VariantFn, Width};
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const HELP: &str = "Type a move in either notation: Ec2-Ec4, Bb4-Ab5=Q, castling Ec1-Ea1 (king to rook),
or as the seed games write them: P-Cc2, BxCe4, P(Dd2)-Dd3, N-Bc1, or just Cc2 for a pawn.
Commands: moves (list legal moves), undo (take back your last move), hint (Raum's suggestion
and its line), eval (Raum's evaluation of the position), fen (position string),
board (draw again), resign, help, quit.";

/// Node budgets of the engine levels 1..=10: deterministic strength steps.
const LEVEL_NODES: [u64; 10] =
    [1_000, 4_000, 15_000, 50_000, 150_000, 400_000, 1_000_000, 2_500_000, 6_000_000, 15_000_000];

/// How long the engine thinks for a hint or an evaluation.
const HINT_TIME: Duration = Duration::from_millis(500);

/// The engine's limits for the given `--level` / `--movetime`.
fn engine_limits(a: &PlayArgs) -> Result<Limits> {
    let mut limits = Limits::default();
    match (a.level, a.movetime) {
        (Some(_), Some(_)) => bail!("give --level or --movetime, not both"),
        (Some(l), None) => {
            let Some(&nodes) = LEVEL_NODES.get(l.wrapping_sub(1) as usize) else {
                bail!("--level must be between 1 and 10, not {l}");
            };
            limits.nodes = Some(nodes);
            limits.movetime = Some(Duration::from_secs(60));
        }
        (None, Some(0)) => bail!("--movetime must be at least 1 ms"),
        (None, ms) => limits.movetime = Some(Duration::from_millis(ms.unwrap_or(1000))),
    }
    Ok(limits)
}

/// A score from White's point of view, for people: `+0.35`, `mate in 3 for Black`.
fn describe(score: Score, side: Color) -> String {
    let sign = if side == Color::White { 1 } else { -1 };
    match score {
        Score::Cp(cp) => format!("{:+.2}", f64::from(cp * sign) / 100.0),
        Score::Mate(n) => {
            let winner = if n > 0 { side } else { side.opponent() };
            format!("mate in {} for {winner}", n.abs())
        }
    }
}

/// The principal variation in descriptive notation, numbered from `pos`.
fn line<S: Width>(pos: &Position<S>, pv: &[Move]) -> String {
    let mut p = *pos;
    let mut parts = Vec::new();
    for (i, &m) in pv.iter().enumerate() {
        if !p.is_legal(m) {
            break;
        }
        if p.side_to_move() == Color::White || i == 0 {
            parts.push(move_prefix(&p));
        }
        parts.push(format_descriptive(&p, m));
        p.play(m);
    }
    parts.join(" ")
}

fn think<S: Width>(engine: &mut Engine, game: &Game<S>, limits: &Limits) -> SearchResult {
    engine.search(game, limits, Arc::new(AtomicBool::new(false)), &mut |_| {})
}

fn report<S: Width>(pos: &Position<S>, r: &SearchResult) -> String {
    format!(
        "eval {}, depth {}, {} nodes; line: {}",
        describe(r.info.score, pos.side_to_move()),
        r.info.depth,
        r.info.nodes,
        line(pos, &r.info.pv)
    )
}

pub fn play(a: &PlayArgs) -> Result<()> {
    variant_id(&a.position.variant)?.dispatch(Play(a))
}

/// `raum play`'s body at the variant's width.
struct Play<'a>(&'a PlayArgs);

impl VariantFn for Play<'_> {
    type Output = Result<()>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Result<()> {
        play_at(v, self.0)
    }
}

fn play_at<S: Width>(v: &'static Variant<S>, a: &PlayArgs) -> Result<()> {
    let start = position(v, &a.position)?;
    let limits = engine_limits(a)?;
    let human = match a.color.as_deref() {
        None | Some("white") | Some("w") => Color::White,
        Some("black") | Some("b") => Color::Black,
        Some(other) => bail!("--color must be white or black, not '{other}'"),
    };
    if a.color.is_some() && !a.engine {
        bail!("--color chooses your side against the engine: add --engine");
    }
    let mut engine = Engine::new(64, 1);
    let mut game = Game::new(start);
    let mut record: Vec<String> = Vec::new();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    println!("Raum: {} — type 'help' for help.", v.spec().title);
    if a.engine {
        println!("You play {human}; Raum plays {}.", human.opponent());
    }
    print!("{}", render_diagram(v, &game.position().to_setup(), None));
    let mut lines = stdin.lock().lines();
    loop {
        if let Some(outcome) = game.outcome() {
            println!("Game over: {outcome}");
            println!("Moves: {}", numbered(&record, game.start().side_to_move(), game.start().fullmove_number()));
            return Ok(());
        }
        let pos = *game.position();
        let side = pos.side_to_move();
        if a.engine && side != human {
            let r = think(&mut engine, &game, &limits);
            let Some(m) = r.best else { bail!("the engine found no move in a position that is not over") };
            let san = format_descriptive(&pos, m);
            game.play(m).map_err(|_| anyhow::anyhow!("the engine chose an illegal move {}", format_move(v, m)))?;
            println!("{} {san}  ({})  [{}]", move_prefix(&pos), format_move(v, m), report(&pos, &r));
            record.push(san);
            print!("{}", render_diagram(v, &game.position().to_setup(), None));
            continue;
        }
        print!("{side} to move{}> ", if pos.is_check() { " (check)" } else { "" });
        out.flush()?;
        let Some(line_in) = lines.next() else {
            println!();
            println!("Input ended; game left unfinished after {} plies.", record.len());
            return Ok(());
        };
        let line_in = line_in?;
        let input = line_in.trim();
        match input {
            "" => continue,
            "help" | "?" => println!("{HELP}"),
            "quit" | "exit" => {
                println!("Game left unfinished.");
                return Ok(());
            }
            "resign" => {
                let winner = side.opponent();
                println!("{side} resigns: {}", if winner == Color::White { "1-0" } else { "0-1" });
                return Ok(());
            }
            "moves" => {
                let mut list: Vec<String> = pos.legal_moves().iter().map(|&m| format_move(v, m)).collect();
                list.sort();
                println!("{} legal moves: {}", list.len(), list.join(" "));
            }
            "hint" | "eval" => {
                let r = think(&mut engine, &game, &Limits { movetime: Some(HINT_TIME), ..Limits::default() });
                match (input, r.best) {
                    ("hint", Some(m)) => {
                        println!("Raum suggests {}  [{}]", format_descriptive(&pos, m), report(&pos, &r))
                    }
                    _ => println!("Raum's evaluation: {}", report(&pos, &r)),
                }
            }
            "undo" => {
                // Against the engine, take back its reply too, so it is your move again.
                let plies = if a.engine { 2 } else { 1 };
                if game.moves().len() < plies {
                    println!("Nothing to take back.");
                    continue;
                }
                for _ in 0..plies {
                    if game.undo() {
                        record.pop();
                    }
                }
                print!("{}", render_diagram(v, &game.position().to_setup(), None));
            }
            "fen" => println!("{}", format_position(&pos)),
            "board" => print!("{}", render_diagram(v, &pos.to_setup(), None)),
            text => match parse_move(&pos, text) {
                Ok(m) => {
                    let san = format_descriptive(&pos, m);
                    if game.play(m).is_err() {
                        println!("{text} is not legal here.");
                        continue;
                    }
                    println!("{} {san}  ({})", move_prefix(&pos), format_move(v, m));
                    record.push(san);
                    print!("{}", render_diagram(v, &game.position().to_setup(), None));
                }
                Err(e) => println!("{e}. Type 'moves' for the legal moves, 'help' for help."),
            },
        }
    }
}

fn move_prefix<S: Width>(pos: &Position<S>) -> String {
    match pos.side_to_move() {
        Color::White => format!("{}.", pos.fullmove_number()),
        Color::Black => format!("{}...", pos.fullmove_number()),
    }
}

fn numbered(record: &[String], first: Color, mut number: u32) -> String {
    let mut s = String::new();
    let mut side = first;
    for (i, m) in record.iter().enumerate() {
        if side == Color::White {
            s.push_str(&format!("{number}. "));
        } else if i == 0 {
            s.push_str(&format!("{number}... "));
        }
        s.push_str(m);
        s.push(' ');
        if side == Color::Black {
            number += 1;
        }
        side = side.opponent();
    }
    s.trim_end().to_string()
}
