//! `raum lab coverage`: Aikin's "potential coverage density" (Five Up,
//! "Piece Values"): each piece placed alone on the centre of an empty board,
//! the cells it can move to or capture on counted; the counts of every man
//! of both armies at the start summed and divided by the board's cells. Beside
//! it the same from every cell (the mean reach), which an edge-heavy board
//! (Octahedral's points, the 8x8x8 corners) lowers. A pawn counts as White's.

use crate::args::{CoverageArgs, multi_id};
use anyhow::Result;
use raum_rules::multi::{MultiId, MultiVariant};
use raum_rules::{Color, GameId, Kind, MultiFn, Piece, Position, Variant, VariantFn, VariantId, Width};

/// One piece's reach.
struct PieceReach {
    letter: char,
    name: &'static str,
    /// Cells reached from the centre.
    centre: usize,
    /// Mean cells reached over every cell.
    mean: f64,
    /// Men of this kind in both armies (every side's) at the start.
    men: usize,
}

/// A game's coverage.
struct Coverage {
    id: String,
    cells: usize,
    centre: String,
    pieces: Vec<PieceReach>,
}

impl Coverage {
    fn total(&self) -> usize {
        self.pieces.iter().map(|p| p.centre * p.men).sum()
    }
    fn mean_total(&self) -> f64 {
        self.pieces.iter().map(|p| p.mean * p.men as f64).sum()
    }
    fn men(&self) -> usize {
        self.pieces.iter().map(|p| p.men).sum()
    }
}

/// Aikin's own counts for Five Up (the seed, "Piece Values"): K 14, Q 36,
/// G 26, W 40, R 12, B 24, N 24, P 7; 612 in all, "almost 4.9" on 125 cells.
const AIKIN: &[(char, usize)] =
    &[('K', 14), ('Q', 36), ('G', 26), ('W', 40), ('R', 12), ('B', 24), ('N', 24), ('P', 7)];

fn reach<S: Width>(v: &'static Variant<S>, men: impl Fn(Kind) -> usize) -> Coverage {
    let n = v.cells();
    let mid = v.centre();
    let pieces = v
        .pieces()
        .iter()
        .enumerate()
        .map(|(k, def)| {
            let piece = Piece::new(Color::White, Kind(k as u8));
            let count = |c: usize| {
                let (moves, captures) = v.reach(piece, c);
                (moves | captures).count() as usize
            };
            let mean = (0..n).map(count).sum::<usize>() as f64 / n as f64;
            PieceReach { letter: def.letter, name: def.name, centre: count(mid), mean, men: men(Kind(k as u8)) }
        })
        .collect();
    Coverage { id: v.id().name().to_string(), cells: n, centre: v.cell_name(mid), pieces }
}

struct Two;
impl VariantFn for Two {
    type Output = Coverage;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Coverage {
        let start = Position::start(v);
        // A unicorn riding with its piece is a man of its own.
        let riders = (0..v.cells()).filter(|&c| start.rider_at(c)).count();
        reach(v, |k| {
            let alone = (0..v.cells()).filter(|&c| start.piece_at(c).is_some_and(|p| p.kind == k)).count();
            alone + if v.rider() == Some(k) { riders } else { 0 }
        })
    }
}

struct Multi;
impl MultiFn for Multi {
    type Output = Coverage;
    fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Coverage {
        let mut c = reach(v.board(), |k| v.start_men().iter().filter(|&&(_, _, kind)| kind == k).count());
        c.id = v.id().name().to_string();
        c
    }
}

fn of(id: GameId) -> Coverage {
    match id {
        GameId::Two(v) => v.dispatch(Two),
        GameId::Multi(m) => m.dispatch(Multi),
    }
}

/// `raum lab coverage`.
pub fn coverage(a: &CoverageArgs) -> Result<()> {
    match &a.variant {
        Some(name) => {
            let id = match multi_id(name) {
                Some(m) => GameId::Multi(m),
                None => GameId::Two(crate::args::variant_id(name)?),
            };
            print!("{}", detail(&of(id)));
        }
        None => {
            let all: Vec<GameId> = VariantId::ALL
                .iter()
                .map(|&v| GameId::Two(v))
                .chain(MultiId::ALL.iter().map(|&m| GameId::Multi(m)))
                .collect();
            print!("{}", summary(&all.into_iter().map(of).collect::<Vec<_>>()));
        }
    }
    Ok(())
}

/// One game: each piece's reach and the army's totals, Aikin's beside Five Up's.
fn detail(c: &Coverage) -> String {
    let five_up = c.id == "five-up";
    let mut out = format!(
        "{}: {} cells; each piece alone, from {} (the centre) and the mean over every cell\n\n",
        c.id, c.cells, c.centre
    );
    out.push_str(&format!(
        "  {:<14} {:>6} {:>8} {:>5} {:>9}{}\n",
        "piece",
        "centre",
        "mean",
        "men",
        "men x ctr",
        if five_up { "  Aikin" } else { "" }
    ));
    for p in &c.pieces {
        let aikin = AIKIN.iter().find(|(l, _)| *l == p.letter).map(|(_, n)| format!("  {n:>5}")).unwrap_or_default();
        out.push_str(&format!(
            "  {:<14} {:>6} {:>8.2} {:>5} {:>9}{}\n",
            format!("{} {}", p.letter, p.name),
            p.centre,
            p.mean,
            p.men,
            p.centre * p.men,
            if five_up { aikin } else { String::new() }
        ));
    }
    out.push_str(&format!(
        "\n  both armies: {} men; coverage {} from the centre, density {:.2}; {:.0} from every cell, density {:.2}\n",
        c.men(),
        c.total(),
        c.total() as f64 / c.cells as f64,
        c.mean_total(),
        c.mean_total() / c.cells as f64
    ));
    if five_up {
        let aikin: usize =
            c.pieces.iter().map(|p| AIKIN.iter().find(|(l, _)| *l == p.letter).map_or(0, |(_, n)| n * p.men)).sum();
        out.push_str(&format!(
            "  Aikin's count: {aikin}, density {:.2} (\"almost 4.9\")\n",
            aikin as f64 / c.cells as f64
        ));
    }
    out
}

/// Every game in one table.
fn summary(all: &[Coverage]) -> String {
    let mut out = format!(
        "{:<16} {:>5} {:>4} {:>9} {:>8} {:>9} {:>8}\n",
        "game", "cells", "men", "coverage", "density", "mean cov", "density"
    );
    for c in all {
        out.push_str(&format!(
            "{:<16} {:>5} {:>4} {:>9} {:>8.2} {:>9.0} {:>8.2}\n",
            c.id,
            c.cells,
            c.men(),
            c.total(),
            c.total() as f64 / c.cells as f64,
            c.mean_total(),
            c.mean_total() / c.cells as f64
        ));
    }
    out.push_str("\n(coverage: each man's reach from the centre of an empty board, summed over both armies, as Aikin counts;\n mean cov: each man's mean reach over every cell; density: divided by the cells; raum lab coverage -v GAME for the pieces)\n");
    out
}
