//! `raum play`: two people at one terminal.

use crate::args::{PlayArgs, position};
use anyhow::Result;
use raum_notation::{format_descriptive, format_move, format_position, parse_move, render_diagram};
use raum_rules::{Cells, Color, Game};
use std::io::{BufRead, Write};

const HELP: &str = "Type a move in either notation: Ec2-Ec4, Bb4-Ab5=Q, castling Ec1-Ea1 (king to rook),
or as the seed games write them: P-Cc2, BxCe4, P(Dd2)-Dd3, N-Bc1, or just Cc2 for a pawn.
Commands: moves (list legal moves), undo (take back one move), fen (position string),
board (draw again), resign, help, quit.";

pub fn play(a: &PlayArgs) -> Result<()> {
    let start = position(&a.position)?;
    let v = start.variant();
    let mut game = Game::new(start);
    let mut record: Vec<String> = Vec::new();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    println!("Raum: {} — type 'help' for help.", v.spec().title);
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
        print!("{side} to move{}> ", if pos.is_check() { " (check)" } else { "" });
        out.flush()?;
        let Some(line) = lines.next() else {
            println!();
            println!("Input ended; game left unfinished after {} plies.", record.len());
            return Ok(());
        };
        let line = line?;
        let input = line.trim();
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
            "undo" => {
                if game.undo() {
                    record.pop();
                    print!("{}", render_diagram(v, &game.position().to_setup(), None));
                } else {
                    println!("Nothing to take back.");
                }
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

fn move_prefix(pos: &raum_rules::Position<Cells>) -> String {
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
