//! `raum play`: a game at the terminal, between two people or against Raum's engine.

use crate::args::{PlayArgs, position, variant_id};
use crate::records;
use anyhow::{Context, Result, bail};
use raum_engine::{Engine, LEVELS, Limits, Score, SearchResult, Skill};
use raum_notation::{
    Record, RecordResult, format_descriptive, format_move, format_position, parse_move, render_diagram, termination_of,
};
use raum_rules::{Color, Game, GameId, Move, Position, Variant, VariantFn, Width};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const HELP: &str = "Type a move in either notation: Ec2-Ec4, Bb4-Ab5=Q, castling Ec1-Ea1 (king to rook),
or as the seed games write them: P-Cc2, BxCe4, P(Dd2)-Dd3, N-Bc1, or just Cc2 for a pawn.
Commands: moves (list legal moves), undo (take back your last move), hint (Raum's suggestion
and its line), eval (Raum's evaluation of the position), lines [N] (Raum's N best lines,
default 3), fen (position string), board (draw again), resign, help, quit.";

/// How long the engine thinks for a hint or an evaluation.
const HINT_TIME: Duration = Duration::from_millis(500);

/// The engine's limits for the given `--level` / `--movetime`.
fn engine_limits(a: &PlayArgs) -> Result<Limits> {
    let mut limits = Limits::default();
    match (a.level, a.movetime) {
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

/// A score from White's point of view, for people: `+0.35`, `mate in 3 for Black`.
pub(crate) fn describe(score: Score, side: Color) -> String {
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
pub(crate) fn line<S: Width>(pos: &Position<S>, pv: &[Move]) -> String {
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

/// The full engine's view for the player (hints, evaluations, lines), whatever
/// level it plays at, on `lines` lines.
fn advise<S: Width>(engine: &mut Engine, game: &Game<S>, lines: usize) -> SearchResult {
    let (skill, multipv) = (engine.skill().cloned(), engine.multipv());
    engine.set_skill(None);
    engine.set_multipv(lines);
    let r = think(engine, game, &Limits { movetime: Some(HINT_TIME), ..Limits::default() });
    engine.set_skill(skill);
    engine.set_multipv(multipv);
    r
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
    if let Some(path) = &a.save {
        let resumed_here = a.load.as_deref().is_some_and(|l| same_file(l, path));
        if path.exists() && !resumed_here {
            bail!(
                "{} exists and --save does not overwrite a game: resume it with --load {0} --save {0}, or save to another file",
                path.display()
            );
        }
    }
    // The loaded game, of any number of sides, picks the path; else --variant does.
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
        None => match crate::args::multi_id(&a.position.variant) {
            Some(id) => GameId::Multi(id),
            None => GameId::Two(variant_id(&a.position.variant)?),
        },
    };
    let id = match id {
        GameId::Multi(id) => return crate::multi_play::play(id, a, loaded),
        GameId::Two(id) => id,
    };
    if a.seats.is_some() {
        bail!("--seats is for the multi-player games (wing-table-4p, triquetral-3p, triquetral-6p)");
    }
    id.dispatch(Play(a, loaded))
}

/// Whether two paths name the same file (a file that does not exist yet is
/// compared by name).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// `raum play`'s body at the variant's width.
struct Play<'a>(&'a PlayArgs, Option<Record>);

impl VariantFn for Play<'_> {
    type Output = Result<()>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Result<()> {
        play_at(v, self.0, self.1)
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

    fn push(&mut self, san: String, comment: Option<String>) -> Result<()> {
        self.record.push(san, comment);
        self.save()
    }

    fn end(&mut self, result: RecordResult, termination: &str) -> Result<()> {
        self.record.set_result(result.scores());
        self.record.set_tag("Termination", termination);
        self.save()
    }

    fn texts(&self) -> Vec<String> {
        self.record.moves.iter().map(|m| m.text.clone()).collect()
    }
}

/// The seed of the engine's choices at a level: `--seed`, or the clock's.
pub(crate) fn seed(a: &PlayArgs) -> u64 {
    a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
    })
}

/// The player names a new record gives.
fn player_names(a: &PlayArgs, human: Color) -> [String; 2] {
    let raum = match (a.level, a.movetime) {
        (Some(l), _) => format!("Raum (level {l})"),
        (None, ms) => format!("Raum ({} ms a move)", ms.unwrap_or(1000)),
    };
    let mut names = [String::from("Human"), String::from("Human")];
    if a.engine {
        names[human.opponent().index()] = raum;
    }
    names
}

fn play_at<S: Width>(v: &'static Variant<S>, a: &PlayArgs, loaded: Option<Record>) -> Result<()> {
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
    engine.set_skill(a.level.and_then(|l| Skill::new(l, seed(a))));
    let (mut game, record) = match loaded {
        Some(record) => {
            let file = a.load.as_deref().unwrap_or(Path::new("")).display().to_string();
            let game: Game<S> = record
                .replay()
                .with_context(|| format!("in {file}"))?
                .try_into()
                .with_context(|| format!("in {file}"))?;
            (game, record)
        }
        None => {
            let game = Game::new(position(v, &a.position)?);
            let mut record = Record::from_game(&game);
            record.set_tag("Event", "raum play");
            record.set_tag("Date", &records::today());
            let [white, black] = player_names(a, human);
            record.set_tag("White", &white);
            record.set_tag("Black", &black);
            (game, record)
        }
    };
    let mut keeper = Keeper { record, path: a.save.clone() };
    keeper.save()?;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    println!("Raum: {} — type 'help' for help.", v.spec().title);
    if a.engine {
        println!("You play {human}; Raum plays {}.", human.opponent());
    }
    if let Some(path) = &a.save {
        println!("The game is saved in {} after every move.", path.display());
    }
    print!("{}", render_diagram(v, &game.position().to_setup(), None));
    if keeper.record.result.is_some() && game.outcome().is_none() {
        let how = keeper.record.tag("Termination").map(|t| format!(" ({t})")).unwrap_or_default();
        println!("This game is over: {}{how}.", keeper.record.result_text());
        return Ok(());
    }
    let mut lines = stdin.lock().lines();
    loop {
        if let Some(outcome) = game.outcome() {
            if keeper.record.result.is_none() {
                keeper.end(RecordResult::of_outcome(outcome), termination_of(outcome))?;
            }
            println!("Game over: {outcome}");
            let texts = keeper.texts();
            println!("Moves: {}", numbered(&texts, game.start().side_to_move(), game.start().fullmove_number()));
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
            keeper.push(san, Some(records::eval_comment(r.info.score, side, r.info.depth)))?;
            print!("{}", render_diagram(v, &game.position().to_setup(), None));
            continue;
        }
        print!("{side} to move{}> ", if pos.is_check() { " (check)" } else { "" });
        out.flush()?;
        let Some(line_in) = lines.next() else {
            println!();
            println!("Input ended; game left unfinished after {} plies.", game.moves().len());
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
                let result = RecordResult::win_for(side.opponent());
                keeper.end(result, "resignation")?;
                println!("{side} resigns: {result}");
                return Ok(());
            }
            "moves" => {
                let mut list: Vec<String> = pos.legal_moves().iter().map(|&m| format_move(v, m)).collect();
                list.sort();
                println!("{} legal moves: {}", list.len(), list.join(" "));
            }
            "hint" | "eval" => {
                let r = advise(&mut engine, &game, 1);
                match (input, r.best) {
                    ("hint", Some(m)) => {
                        println!("Raum suggests {}  [{}]", format_descriptive(&pos, m), report(&pos, &r))
                    }
                    _ => println!("Raum's evaluation: {}", report(&pos, &r)),
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
                            println!(
                                "{}. {} (depth {}): {}",
                                l.multipv,
                                describe(l.score, pos.side_to_move()),
                                l.depth,
                                line(&pos, &l.pv)
                            );
                        }
                    }
                    Err(n) => println!("lines takes a number from 1 to 20, not '{n}'."),
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
                        keeper.record.moves.pop();
                    }
                }
                keeper.save()?;
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
                    keeper.push(san, None)?;
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
