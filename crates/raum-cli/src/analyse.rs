//! `raum analyse`: the engine's best lines in a position, for people: each
//! line's score from White's side, its win/draw/loss chances, and its moves
//! in descriptive notation, numbered as a game record numbers them.

use crate::args::{AnalyseArgs, position, variant_id};
use crate::terminal::{describe, line};
use anyhow::{Result, bail};
use raum_engine::{Engine, Limits, SearchInfo, wdl};
use raum_notation::{format_position, parse_move};
use raum_rules::{Color, Game, Variant, VariantFn, Width};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub fn analyse(a: &AnalyseArgs) -> Result<()> {
    if crate::args::multi_id(&a.position.variant).is_some() {
        bail!("raum analyse reads two-player variants; for the multi-player games use the protocol (raum uci)");
    }
    if !(1..=256).contains(&a.multipv) {
        bail!("--multipv must be from 1 to 256, not {}", a.multipv);
    }
    if a.depth.is_some_and(|d| !(1..=100).contains(&d)) {
        bail!("--depth must be from 1 to 100");
    }
    if !(1..=4096).contains(&a.hash) || !(1..=64).contains(&a.threads) {
        bail!("--hash must be from 1 to 4096 MB and --threads from 1 to 64");
    }
    if a.movetime == Some(0) || a.nodes == Some(0) {
        bail!("--movetime and --nodes must be above 0");
    }
    variant_id(&a.position.variant)?.dispatch(Analyse(a))
}

struct Analyse<'a>(&'a AnalyseArgs);

impl VariantFn for Analyse<'_> {
    type Output = Result<()>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Result<()> {
        let a = self.0;
        let pos = position(v, &a.position)?;
        let mut limits = Limits { depth: a.depth, nodes: a.nodes, ..Limits::default() };
        limits.movetime = match (a.movetime, a.depth, a.nodes) {
            (Some(ms), ..) => Some(Duration::from_millis(ms)),
            // No limit given: a second.
            (None, None, None) => Some(Duration::from_millis(1000)),
            _ => None,
        };
        for text in a.searchmoves.as_deref().unwrap_or("").split_whitespace() {
            let m = parse_move(&pos, text).map_err(|e| anyhow::anyhow!("in --searchmoves, {text}: {e}"))?;
            limits.searchmoves.push(m);
        }
        if pos.legal_moves().is_empty() {
            let what = if pos.is_check() { "checkmate" } else { "stalemate" };
            println!("{}: no legal move ({what})", format_position(&pos));
            return Ok(());
        }
        let mut engine = Engine::new(a.hash, a.threads);
        engine.set_multipv(a.multipv);
        let game = Game::new(pos);
        let progress = a.progress;
        let r = engine.search(&game, &limits, Arc::new(AtomicBool::new(false)), &mut |i| {
            if progress {
                println!("{}", line_text(&game, i));
            }
        });
        let side = if pos.side_to_move() == Color::White { "White" } else { "Black" };
        println!("{} ({side} to move): depth {}, {} nodes", format_position(&pos), r.info.depth, r.info.nodes);
        for l in &r.lines {
            println!("{}", line_text(&game, l));
        }
        Ok(())
    }
}

/// `1. +0.35 (W 41% D 27% L 32%) 1. P-Cc3 P-Cc4 2. N-Bc1`: the score and
/// chances are White's.
fn line_text<S: Width>(game: &Game<S>, l: &SearchInfo) -> String {
    let pos = game.position();
    let w = wdl(l.score);
    let (win, loss) = if pos.side_to_move() == Color::White { (w.win, w.loss) } else { (w.loss, w.win) };
    format!(
        "{:>2}. {:<8} (W {:>2}% D {:>2}% L {:>2}%) d{} {}",
        l.multipv,
        describe(l.score, pos.side_to_move()),
        (win + 5) / 10,
        (w.draw + 5) / 10,
        (loss + 5) / 10,
        l.depth,
        line(pos, &l.pv)
    )
}
