//! `raum play` for the multi-player games: a seat per side, each a person at
//! this terminal or Raum's engine (`--seats w=human,r=engine,k=human,b=engine`).

use crate::args::PlayArgs;
use crate::records;
use crate::show::status;
use anyhow::{Context, Result, bail};
use raum_engine::multi::MultiEngine;
use raum_engine::{Limits, Score};
use raum_notation::{
    Record, format_multi_move, format_multi_position, format_resignation, parse_multi_move, parse_multi_position,
    render_multi_diagram,
};
use raum_rules::multi::{MultiGame, MultiId, MultiPosition, MultiVariant};
use raum_rules::{MultiFn, Width};
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const HELP: &str = "Type a move in coordinates: 2e3-2e4, 2f8-2f9=Q (x may stand for -).
Commands: moves (list legal moves), undo (take back to the last person's turn), hint (Raum's
suggestion), fen (position string), board (draw again), resign (the side to move resigns: with
teams its team loses; every side for itself it is out and the others play on), help, quit.";

/// Who sits at each side, in turn order: `true` for the engine.
fn seats<S: Width>(v: &MultiVariant<S>, a: &PlayArgs) -> Result<Vec<bool>> {
    let sides = v.sides();
    let side_of = |name: &str| {
        sides.iter().position(|s| s.letter.to_string() == name || s.name.eq_ignore_ascii_case(name)).with_context(
            || {
                let names: Vec<String> = sides.iter().map(|s| format!("{} ({})", s.letter, s.name)).collect();
                format!("'{name}' is not a side of {}: {}", v.id(), names.join(", "))
            },
        )
    };
    match (&a.seats, a.engine) {
        (Some(_), true) => bail!("give --seats or --engine, not both"),
        (Some(text), false) => {
            let mut engine = vec![false; sides.len()];
            for part in text.split(',') {
                let (side, who) =
                    part.split_once('=').with_context(|| format!("'{part}': write side=human or side=engine"))?;
                engine[side_of(side.trim())?] = match who.trim() {
                    "human" => false,
                    "engine" => true,
                    other => bail!("'{other}': a seat is human or engine"),
                };
            }
            Ok(engine)
        }
        (None, true) => {
            let human = side_of(a.color.as_deref().unwrap_or("w"))?;
            Ok((0..sides.len()).map(|s| s != human).collect())
        }
        (None, false) => {
            if a.color.is_some() {
                bail!("--color chooses your side against the engine: add --engine");
            }
            Ok(vec![false; sides.len()])
        }
    }
}

/// `raum play` on a multi-player game.
pub fn play(id: MultiId, a: &PlayArgs, loaded: Option<Record>) -> Result<()> {
    struct Body<'a>(&'a PlayArgs, Option<Record>);
    impl MultiFn for Body<'_> {
        type Output = Result<()>;
        fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Result<()> {
            play_at(v, self.0, self.1)
        }
    }
    id.dispatch(Body(a, loaded))
}

/// The record, written to `--save`'s file after every change.
struct Keeper {
    record: Record,
    path: Option<std::path::PathBuf>,
}

impl Keeper {
    fn save(&self) -> Result<()> {
        match &self.path {
            Some(path) => records::save(path, &self.record.to_string()),
            None => Ok(()),
        }
    }
}

/// An engine score for people: from the mover's team's side.
fn describe(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(n) if n > 0 => format!("mate in {n}"),
        Score::Mate(n) => format!("mated in {}", -n),
    }
}

fn play_at<S: Width>(v: &'static MultiVariant<S>, a: &PlayArgs, loaded: Option<Record>) -> Result<()> {
    if a.level.is_some() {
        bail!("--level is for two-player games so far; give the engine --movetime");
    }
    let engine_seats = seats(v, a)?;
    let limits =
        Limits { movetime: Some(Duration::from_millis(a.movetime.unwrap_or(1000).max(1))), ..Limits::default() };
    let (mut game, record) = match loaded {
        Some(record) => {
            let file = a.load.as_deref().unwrap_or(Path::new("")).display().to_string();
            let game: MultiGame<S> = record
                .replay()
                .with_context(|| format!("in {file}"))?
                .try_into()
                .with_context(|| format!("in {file}"))?;
            (game, record)
        }
        None => {
            if a.position.setup.is_some() {
                bail!("--setup is for book-3d");
            }
            let start = match &a.position.fen {
                Some(fen) => parse_multi_position(v, fen).with_context(|| format!("in --fen \"{fen}\""))?,
                None => MultiPosition::start(v),
            };
            let mut game = MultiGame::new(start);
            for (i, text) in a.position.moves.as_deref().unwrap_or("").split_whitespace().enumerate() {
                let m = parse_multi_move(game.position(), text)
                    .with_context(|| format!("in --moves, move {} ({text})", i + 1))?;
                if game.play(m).is_err() {
                    bail!("in --moves, move {} ({text}): the game is already over", i + 1);
                }
            }
            let mut record = Record::from_game(&game);
            record.set_tag("Event", "raum play");
            record.set_tag("Date", &records::today());
            let ms = a.movetime.unwrap_or(1000);
            for (side, &engine) in v.sides().iter().zip(&engine_seats) {
                let who = if engine { format!("Raum ({ms} ms a move)") } else { "Human".to_string() };
                record.set_tag(side.name, &who);
            }
            (game, record)
        }
    };
    let mut keeper = Keeper { record, path: a.save.clone() };
    keeper.save()?;
    let mut engine = MultiEngine::new(64);
    println!("Raum: {} — type 'help' for help.", v.title());
    let seating: Vec<String> = v
        .sides()
        .iter()
        .zip(&engine_seats)
        .map(|(s, &e)| format!("{} {}", s.name, if e { "Raum" } else { "you" }))
        .collect();
    println!("Seats: {}.", seating.join(", "));
    if let Some(path) = &a.save {
        println!("The game is saved in {} after every move.", path.display());
    }
    print!("{}", render_multi_diagram(game.position(), S::EMPTY));
    let mut out = std::io::stdout();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut removed_seen = game.removed().len();
    loop {
        for &(_, side) in &game.removed()[removed_seen..] {
            println!("{} has no legal move and leaves the game; its men leave the board.", v.sides()[side].name);
        }
        removed_seen = game.removed().len();
        if game.outcome().is_some() {
            if keeper.record.result.is_none() {
                // The record of the game as the rules ended it gives the result and termination.
                let ended = Record::from_game(&game);
                keeper.record.set_result(ended.result.clone());
                if let Some(t) = ended.tag("Termination") {
                    keeper.record.set_tag("Termination", t);
                }
                keeper.save()?;
            }
            println!("Game over: {}", status(&game));
            return Ok(());
        }
        let pos = game.position().clone();
        let side = pos.side_to_move();
        if engine_seats[side] {
            let r = engine.search(&game, &limits, &AtomicBool::new(false), &mut |_| {});
            let Some(m) = r.best else { bail!("the engine found no move in a game that is not over") };
            game.play(m)
                .map_err(|_| anyhow::anyhow!("the engine chose an illegal move {}", format_multi_move(v, m)))?;
            let text = format_multi_move(v, m);
            println!("{} plays {text}  [eval {}, depth {}]", pos.mover().name, describe(r.info.score), r.info.depth);
            keeper.record.push(text, Some(format!("{}/{}", describe(r.info.score), r.info.depth)));
            keeper.save()?;
            if game.outcome().is_none() && !engine_seats[game.position().side_to_move()] {
                print!("{}", render_multi_diagram(game.position(), S::EMPTY));
            }
            continue;
        }
        print!("{} to move{}> ", pos.mover().name, if pos.is_check() { " (check)" } else { "" });
        out.flush()?;
        let Some(line_in) = lines.next() else {
            println!();
            println!("Input ended; game left unfinished after {} moves.", game.moves().len());
            return Ok(());
        };
        let line_in = line_in?;
        match line_in.trim() {
            "" => {}
            "help" | "?" => println!("{HELP}"),
            "quit" | "exit" => {
                println!("Game left unfinished.");
                return Ok(());
            }
            "resign" => {
                // With teams the game ends (the loop's top writes the result);
                // every side for itself the side is out and the others play on.
                game.resign(side).map_err(|e| anyhow::anyhow!("{} cannot resign: {e}", pos.mover().name))?;
                keeper.record.push(format_resignation(pos.mover()), None);
                keeper.save()?;
                if v.teams() {
                    println!("{} resigns for its team.", pos.mover().name);
                } else {
                    println!("{} resigns and is out; its men leave the board.", pos.mover().name);
                    if game.outcome().is_none() && !engine_seats[game.position().side_to_move()] {
                        print!("{}", render_multi_diagram(game.position(), S::EMPTY));
                    }
                }
            }
            "moves" => {
                let mut list: Vec<String> = pos.legal_moves().iter().map(|&m| format_multi_move(v, m)).collect();
                list.sort();
                println!("{} legal moves: {}", list.len(), list.join(" "));
            }
            "hint" => {
                let quick = Limits { movetime: Some(Duration::from_millis(500)), ..Limits::default() };
                let r = engine.search(&game, &quick, &AtomicBool::new(false), &mut |_| {});
                if let Some(m) = r.best {
                    println!("Raum suggests {}  [eval {}]", format_multi_move(v, m), describe(r.info.score));
                }
            }
            "undo" => {
                // Back to the last position where a person was to move.
                let mut taken = 0;
                while game.undo() {
                    keeper.record.moves.pop();
                    taken += 1;
                    if !engine_seats[game.position().side_to_move()] {
                        break;
                    }
                }
                if taken == 0 {
                    println!("Nothing to take back.");
                }
                keeper.save()?;
                print!("{}", render_multi_diagram(game.position(), S::EMPTY));
            }
            "fen" => println!("{}", format_multi_position(&pos)),
            "board" => print!("{}", render_multi_diagram(&pos, S::EMPTY)),
            text => match parse_multi_move(&pos, text) {
                Ok(m) => {
                    let written = format_multi_move(v, m);
                    if game.play(m).is_err() {
                        println!("{text} is not legal here.");
                        continue;
                    }
                    println!("{} plays {written}", pos.mover().name);
                    keeper.record.push(written, None);
                    keeper.save()?;
                    if game.outcome().is_none() && !engine_seats[game.position().side_to_move()] {
                        print!("{}", render_multi_diagram(game.position(), S::EMPTY));
                    }
                }
                Err(e) => println!("{e}. Type 'moves' for the legal moves, 'help' for help."),
            },
        }
    }
}
