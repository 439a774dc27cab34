//! `raum check FILE`: reads a variant file (docs/variants.md) and reports
//! every error with its file, line, column and key; for a file that reads,
//! a summary: the board, each piece's reach from the board's centre, what
//! looks wrong though it is allowed, and perft from the start.

use crate::args::CheckArgs;
use anyhow::{Context, Result, bail};
use raum_notation::{parse_game, parse_game_move};
use raum_rules::file::{PerftLine, load, read};
use raum_rules::{AnyGame, Color, GameId, GameRules, MultiFn, Piece, Role, Variant, VariantFn, Width};
use std::time::Instant;

pub fn check(a: &CheckArgs) -> Result<()> {
    if a.depth > 6 {
        bail!("--depth {} is more than a check needs; use raum perft for deep counts", a.depth);
    }
    let name = a.file.display().to_string();
    let text = std::fs::read_to_string(&a.file).with_context(|| format!("cannot read {name}"))?;
    let def = match read(&text, &name) {
        Ok(def) => def,
        Err(errors) => {
            println!("{errors}");
            bail!("{name}: {} error{}", errors.0.len(), if errors.0.len() == 1 { "" } else { "s" });
        }
    };
    let id = load(&text, &name)?;
    println!("{name}: {} ({}), {} sides, {} cells", def.title(), def.id(), def.side_count(), def.cells());
    let warnings = match id {
        GameId::Two(v) => v.dispatch(Summary),
        GameId::Multi(m) => m.dispatch(MultiSummary),
    };
    if warnings.is_empty() {
        println!("warnings: none");
    }
    for w in &warnings {
        println!("warning: {w}");
    }
    let game = AnyGame::start(id);
    for depth in 1..=a.depth {
        let start = Instant::now();
        let nodes = game.perft(depth);
        println!("perft {depth}: {nodes}");
        eprintln!("perft {depth}: {:.3} s", start.elapsed().as_secs_f64());
    }
    let mut wrong = 0;
    for p in def.perft_lines() {
        let at = format!("{name}:{}: [[perft]]", p.line);
        match expected_line(id, p) {
            Ok(nodes) if nodes == p.count => println!("{at} depth {}: {nodes}, as expected", p.depth),
            Ok(nodes) => {
                println!("{at} depth {}: {nodes}, but the file expects {}", p.depth, p.count);
                wrong += 1;
            }
            Err(e) => {
                println!("{at}: {e:#}");
                wrong += 1;
            }
        }
    }
    if wrong > 0 {
        bail!("{name}: {wrong} of {} [[perft]] expectations not met", def.perft_lines().len());
    }
    Ok(())
}

/// The count a `[[perft]]` line asks for.
fn expected_line(id: GameId, p: &PerftLine) -> Result<u64> {
    let mut game = match &p.fen {
        Some(fen) => parse_game(id, fen).with_context(|| format!("fen \"{fen}\""))?,
        None => AnyGame::start(id),
    };
    for (i, text) in p.moves.as_deref().unwrap_or("").split_whitespace().enumerate() {
        let m = parse_game_move(&game, text).with_context(|| format!("moves, move {} ({text})", i + 1))?;
        game.play(m).map_err(|_| anyhow::anyhow!("moves, move {} ({text}): not legal here", i + 1))?;
    }
    Ok(game.perft(p.depth))
}

struct Summary;
impl VariantFn for Summary {
    type Output = Vec<String>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Vec<String> {
        summary(v, v.start_setup().board.iter().enumerate().filter_map(|(c, p)| p.map(|_| c)).collect())
    }
}

struct MultiSummary;
impl MultiFn for MultiSummary {
    type Output = Vec<String>;
    fn call<S: Width>(self, v: &'static raum_rules::multi::MultiVariant<S>) -> Vec<String> {
        summary(v.board(), v.start_men().iter().map(|&(c, _, _)| c).collect())
    }
}

/// Prints each piece's reach from the centre; returns the warnings.
fn summary<S: Width>(v: &'static Variant<S>, start: Vec<usize>) -> Vec<String> {
    let n = v.cells();
    let mid = v.centre();
    println!("pieces, from {} on an empty board (moves; cells attacked):", v.cell_name(mid));
    let mut warnings = Vec::new();
    let mut reached = S::EMPTY;
    for (k, def) in v.pieces().iter().enumerate() {
        let piece = Piece::new(Color::White, raum_rules::Kind(k as u8));
        let (moves, attacked) = v.reach(piece, mid);
        let role = match def.role {
            Role::King => " (royal)",
            Role::Pawn => " (pawn, as White's)",
            Role::Piece => "",
        };
        println!("  {} {}{role}: {}; {}", def.letter, def.name, moves.count(), attacked.count());
        let mut anywhere = S::EMPTY;
        for cell in 0..n {
            let (moves, captures) = v.reach(piece, cell);
            anywhere |= moves | captures;
        }
        if anywhere.is_empty() {
            warnings.push(format!("{} ({}) can never move", def.letter, def.name));
        }
        reached |= anywhere;
    }
    if v.pawn().is_some() {
        for set in 0..v.pawn_set_count() {
            if v.promotion_zone(set).is_empty() || v.promotion_kinds().is_empty() {
                warnings.push(format!(
                    "pawns of set '{}' can never promote ({})",
                    v.pawn_set_name(set),
                    if v.promotion_kinds().is_empty() { "nothing to promote to" } else { "no promotion cells" }
                ));
            }
        }
    }
    for c in start {
        reached.insert(c);
    }
    let unreached: Vec<String> = (0..n).filter(|&c| !reached.has(c)).map(|c| v.cell_name(c)).collect();
    if !unreached.is_empty() {
        let shown: Vec<&str> = unreached.iter().take(8).map(String::as_str).collect();
        warnings.push(format!(
            "{} cell{} no man can ever reach: {}{}",
            unreached.len(),
            if unreached.len() == 1 { "" } else { "s" },
            shown.join(", "),
            if unreached.len() > 8 { ", ..." } else { "" }
        ));
    }
    warnings
}
