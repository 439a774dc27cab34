//! `raum play`: a game at the terminal, two sides or more: a seat per side,
//! each a person at this terminal or Raum's engine (`--engine` plays every
//! side but `--color`'s; `--seats w=human,r=engine,...` in the multi-player
//! games).

use crate::args::{PlayArgs, game as start_game};
use crate::records;
use crate::terminal::{self, announce, diagram, ending, in_check, report, written};
use anyhow::{Context, Result, bail};
use raum_engine::{AnyEngine, LEVELS, Limits, SearchResult, Skill};
use raum_notation::{
    Record, format_game_move, format_game_position, format_resignation, game_termination, parse_game_move,
};
use raum_rules::{AnyGame, GameId, GameRules};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const HELP: &str = "Type a move in coordinates: Ec2-Ec4, Bb4-Ab5=Q, castling Ec1-Ea1 (king to rook), 2e3-2e4;
in two-player games also as the seed games write them: P-Cc2, BxCe4, P(Dd2)-Dd3, N-Bc1, or
just Cc2 for a pawn. Commands: moves (list legal moves), undo (take back to the last person's
turn), hint (Raum's suggestion and its line), eval (Raum's evaluation of the position), lines [N]
(Raum's N best lines, default 3; one in games of more sides), fen (position string), board (draw
again), resign (the side to move resigns: with teams its team loses; every side for itself it is
out and the others play on), help, quit.";

/// How long the engine thinks for a hint or an evaluation.
const HINT_TIME: Duration = Duration::from_millis(500);

/// The engine's limits for the given `--level` / `--movetime`.
fn engine_limits(id: GameId, a: &PlayArgs) -> Result<Limits> {
    let mut limits = Limits::default();
    match (a.level, a.movetime) {
        (Some(_), _) if matches!(id, GameId::Multi(_)) => {
            bail!("--level is for two-player games so far; give the engine --movetime")
        }
        (Some(_), Some(_)) => bail!("give --level or --movetime, not both"),
        (Some(l), None) => {
            let Some(level) = raum_engine::level_limits(l) else {
                bail!("--level must be between 1 and {LEVELS}, not {l}");
            };
            limits = level;
        }
        (None, Some(0)) => bail!("--movetime must be at least 1 ms"),
        (None, ms) => limits.movetime = Some(Duration::from_millis(ms.unwrap_or(1000))),
    }
    Ok(limits)
}

/// Who sits at each side, in turn order: `true` for the engine.
fn seats(id: GameId, a: &PlayArgs) -> Result<Vec<bool>> {
    let sides = id.sides();
    let find =
        |name: &str| sides.iter().position(|s| s.letter.to_string() == name || s.name.eq_ignore_ascii_case(name));
    match (&a.seats, a.engine) {
        (Some(_), _) if sides.len() == 2 => {
            bail!("--seats is for the multi-player games (wing-table-4p, triquetral-3p, triquetral-6p)")
        }
        (Some(_), true) => bail!("give --seats or --engine, not both"),
        (Some(text), false) => {
            let mut engine = vec![false; sides.len()];
            for part in text.split(',') {
                let (side, who) =
                    part.split_once('=').with_context(|| format!("'{part}': write side=human or side=engine"))?;
                let side = side.trim();
                let Some(seat) = find(side) else {
                    let names: Vec<String> = sides.iter().map(|s| format!("{} ({})", s.letter, s.name)).collect();
                    bail!("'{side}' is not a side of {id}: {}", names.join(", "));
                };
                engine[seat] = match who.trim() {
                    "human" => false,
                    "engine" => true,
                    other => bail!("'{other}': a seat is human or engine"),
                };
            }
            Ok(engine)
        }
        (None, true) => {
            let name = a.color.as_deref().unwrap_or(sides[0].name);
            let Some(human) = find(name) else {
                let names: Vec<String> = sides.iter().map(|s| s.name.to_ascii_lowercase()).collect();
                let (last, rest) = names.split_last().expect("a game has sides");
                bail!("--color must be {} or {last}, not '{name}'", rest.join(", "));
            };
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

fn think(engine: &mut AnyEngine, game: &AnyGame, limits: &Limits) -> SearchResult {
    engine.search(game, limits, Arc::new(AtomicBool::new(false)), &mut |_| {})
}

/// The full engine's view for the player (hints, evaluations, lines), whatever
/// level it plays at, on `lines` lines (one where the multi-player searches play).
fn advise(engine: &mut AnyEngine, game: &AnyGame, lines: usize) -> SearchResult {
    let two = engine.two();
    let (skill, multipv) = (two.skill().cloned(), two.multipv());
    two.set_skill(None);
    two.set_multipv(lines);
    let r = think(engine, game, &Limits { movetime: Some(HINT_TIME), ..Limits::default() });
    let two = engine.two();
    two.set_skill(skill);
    two.set_multipv(multipv);
    r
}

pub fn play(a: &PlayArgs) -> Result<()> {
    if let Some(path) = &a.save {
        let resumed_here = a.load.as_deref().is_some_and(|l| same_file(l, path));
        if path.exists() && !resumed_here {
            bail!(
                "{} exists and --save does not overwrite a game: resume it with --load {0} --save {0}, or save to another file",
                path.display()
            );
        }
    }
    let file = || a.load.as_deref().unwrap_or(Path::new("")).display().to_string();
    let loaded = a.load.as_deref().map(records::load_one).transpose()?;
    let loaded_id = match &loaded {
        Some(r) => Some(r.variant().with_context(|| format!("in {}", file()))?),
        None => None,
    };
    if let Some(id) = loaded_id
        && a.position.variant != "five-up"
        && a.position.variant != id.name()
    {
        if let Some(named) = crate::args::multi_id(&a.position.variant)
            && !matches!(id, GameId::Multi(_))
        {
            bail!("--variant {named} but the loaded game is a two-player game");
        }
        bail!("--variant {} but the loaded game is {id}", a.position.variant);
    }
    let id = match loaded_id {
        Some(id) => id,
        None => GameId::from_name(&a.position.variant)?,
    };
    let limits = engine_limits(id, a)?;
    let engine_seats = seats(id, a)?;
    let mut engine = AnyEngine::new(64, 1);
    engine.two().set_skill(a.level.and_then(|l| Skill::new(l, seed(a))));
    let (mut game, record) = match loaded {
        Some(record) => (record.replay().with_context(|| format!("in {}", file()))?, record),
        None => {
            let game = start_game(&a.position)?;
            let mut record = Record::from_game(&game);
            record.set_tag("Event", "raum play");
            record.set_tag("Date", &records::today());
            let raum = match (a.level, a.movetime) {
                (Some(l), _) => format!("Raum (level {l})"),
                (None, ms) => format!("Raum ({} ms a move)", ms.unwrap_or(1000)),
            };
            for (side, &engine) in game.sides().iter().zip(&engine_seats) {
                record.set_tag(side.name, if engine { &raum } else { "Human" });
            }
            (game, record)
        }
    };
    let sides = game.sides();
    let mut keeper = Keeper { record, path: a.save.clone() };
    keeper.save()?;
    println!("Raum: {} — type 'help' for help.", terminal::title(&game));
    match (sides.len(), a.engine) {
        (2, true) => {
            let human = engine_seats.iter().position(|&e| !e).unwrap_or(0);
            println!("You play {}; Raum plays {}.", sides[human].name, sides[1 - human].name);
        }
        (2, false) => {}
        _ => {
            let seating: Vec<String> = sides
                .iter()
                .zip(&engine_seats)
                .map(|(s, &e)| format!("{} {}", s.name, if e { "Raum" } else { "you" }))
                .collect();
            println!("Seats: {}.", seating.join(", "));
        }
    }
    if let Some(path) = &a.save {
        println!("The game is saved in {} after every move.", path.display());
    }
    print!("{}", diagram(&game));
    if keeper.record.result.is_some() && game.result().is_none() {
        let how = keeper.record.tag("Termination").map(|t| format!(" ({t})")).unwrap_or_default();
        println!("This game is over: {}{how}.", keeper.record.result_text());
        return Ok(());
    }
    let mut out = std::io::stdout();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut removed_seen = terminal::removed(&game).len();
    // After a move: the board again, for the person to move (or at the end).
    let show_next = |game: &AnyGame| {
        if game.result().is_some() || !engine_seats[game.side_to_move()] {
            print!("{}", diagram(game));
        }
    };
    loop {
        let removed = terminal::removed(&game);
        for &side in &removed[removed_seen.min(removed.len())..] {
            println!("{} has no legal move and leaves the game; its men leave the board.", sides[side].name);
        }
        removed_seen = removed.len();
        if let Some(result) = game.result() {
            if keeper.record.result.is_none() {
                keeper.record.set_result(Some(result.scores));
                if let Some(t) = game_termination(&game) {
                    keeper.record.set_tag("Termination", t);
                }
                keeper.save()?;
            }
            println!("Game over: {}", ending(&game));
            println!("Moves: {}", keeper.record.movetext());
            return Ok(());
        }
        let side = game.side_to_move();
        let mover = sides[side].name;
        if engine_seats[side] {
            let r = think(&mut engine, &game, &limits);
            let Some(m) = r.best else { bail!("the engine found no move in a game that is not over") };
            let (said, word, comment) = (announce(&game, m), written(&game, m), terminal::comment(&game, &r));
            let reported = report(&game, &r);
            game.play(m)
                .map_err(|_| anyhow::anyhow!("the engine chose an illegal move {}", format_game_move(&game, m)))?;
            println!("{said}  [{reported}]");
            keeper.push(word, Some(comment))?;
            show_next(&game);
            continue;
        }
        print!("{mover} to move{}> ", if in_check(&game) { " (check)" } else { "" });
        out.flush()?;
        let Some(line_in) = lines.next() else {
            println!();
            println!("Input ended; game left unfinished after {} plies.", game.moves().len());
            return Ok(());
        };
        let line_in = line_in?;
        let input = line_in.trim();
        match input {
            "" => {}
            "help" | "?" => println!("{HELP}"),
            "quit" | "exit" => {
                println!("Game left unfinished.");
                return Ok(());
            }
            "resign" => {
                game.resign(side).map_err(|e| anyhow::anyhow!("{mover} cannot resign: {e}"))?;
                // A two-player record tells a resignation by its result alone (RULES.md).
                if sides.len() > 2 {
                    keeper.record.push(format_resignation(&sides[side]), None);
                }
                keeper.save()?;
                if sides.len() == 2 {
                    println!("{mover} resigns.");
                } else if game.teams() {
                    println!("{mover} resigns for its team.");
                } else {
                    println!("{mover} resigns and is out; its men leave the board.");
                    if game.result().is_none() {
                        show_next(&game);
                    }
                }
            }
            "moves" => {
                let mut list: Vec<String> = game.legal_moves().iter().map(|&m| format_game_move(&game, m)).collect();
                list.sort();
                println!("{} legal moves: {}", list.len(), list.join(" "));
            }
            "hint" | "eval" => {
                let r = advise(&mut engine, &game, 1);
                match (input, r.best) {
                    ("hint", Some(m)) => println!("Raum suggests {}  [{}]", written(&game, m), report(&game, &r)),
                    _ => println!("Raum's evaluation: {}", report(&game, &r)),
                }
            }
            lines if lines == "lines" || lines.starts_with("lines ") => {
                let n = match lines["lines".len()..].trim() {
                    "" => Ok(3),
                    n => n.parse::<usize>().ok().filter(|n| (1..=20).contains(n)).ok_or(n),
                };
                match n {
                    Ok(n) => {
                        let r = advise(&mut engine, &game, n);
                        for l in &r.lines {
                            let (score, pv) = (terminal::score(&game, l.score), terminal::pv(&game, &l.pv));
                            println!("{}. {score} (depth {}): {pv}", l.multipv, l.depth);
                        }
                    }
                    Err(n) => println!("lines takes a number from 1 to 20, not '{n}'."),
                }
            }
            "undo" => {
                // Back to the last position where a person was to move.
                let mut taken = 0;
                while game.undo() {
                    keeper.record.moves.pop();
                    taken += 1;
                    if !engine_seats[game.side_to_move()] {
                        break;
                    }
                }
                if taken == 0 {
                    println!("Nothing to take back.");
                    continue;
                }
                keeper.save()?;
                print!("{}", diagram(&game));
            }
            "fen" => println!("{}", format_game_position(&game)),
            "board" => print!("{}", diagram(&game)),
            text => match parse_game_move(&game, text) {
                Ok(m) => {
                    let (said, word) = (announce(&game, m), written(&game, m));
                    if game.play(m).is_err() {
                        println!("{text} is not legal here.");
                        continue;
                    }
                    println!("{said}");
                    keeper.push(word, None)?;
                    show_next(&game);
                }
                Err(e) => println!("{e}. Type 'moves' for the legal moves, 'help' for help."),
            },
        }
    }
}

/// Whether two paths name the same file (a file that does not exist yet is
/// compared by name).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The game's record, kept in `--save`'s file after every change.
struct Keeper {
    record: Record,
    path: Option<PathBuf>,
}

impl Keeper {
    fn save(&self) -> Result<()> {
        match &self.path {
            Some(path) => records::save(path, &self.record.to_string()),
            None => Ok(()),
        }
    }

    fn push(&mut self, word: String, comment: Option<String>) -> Result<()> {
        self.record.push(word, comment);
        self.save()
    }
}

/// The seed of the engine's choices at a level: `--seed`, or the clock's.
pub(crate) fn seed(a: &PlayArgs) -> u64 {
    a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
    })
}
