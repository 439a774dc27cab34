//! The engine's view of a position as the app shows it: the best lines
//! (MultiPV, two sides; one line in games for more), each with its score
//! from one side's point of view, its best move and its moves in both
//! notations. The game page's evaluation, the analysis board and the
//! review all read the engine through here.

use super::views::{Analysis, MoveView, side_key};
use super::{LiveGame, move_view, notation};
use raum_engine::{AnyEngine, Limits, Score, SearchInfo, SearchResult};
use raum_rules::GameRules;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Most lines one search may ask for.
pub const MAX_LINES: usize = 5;

/// One of the engine's lines.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct EngineLine {
    /// `+0.35`, or `#3` / `#-2` for a mate (positive: the view's side mates).
    pub score: String,
    /// The score in centipawns from the view's side (`None` for a mate).
    pub cp: Option<i32>,
    /// Mate in this many moves (negative: the view's side is mated).
    pub mate: Option<i32>,
    /// The depth of the iteration that found it.
    pub depth: u32,
    /// Its first move.
    pub best: Option<MoveView>,
    /// Its moves as the move list writes them.
    pub line: Vec<String>,
    /// Its moves in coordinates, as a client plays them.
    pub moves: Vec<String>,
}

/// The engine's lines for a position.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Lines {
    /// Whose side the scores are from: `white` in two-player games, the side
    /// to move (its team) in the others.
    pub view: &'static str,
    /// Best first.
    pub lines: Vec<EngineLine>,
    /// Nodes searched.
    pub nodes: u64,
    /// The last completed depth.
    pub depth: u32,
}

impl LiveGame {
    /// Searches the position now for up to `multipv` lines (two sides; one
    /// in games for more), within `limits`.
    pub fn lines(&self, engine: &mut AnyEngine, limits: &Limits, stop: Arc<AtomicBool>, multipv: usize) -> Lines {
        let result = self.search(engine, limits, stop, multipv);
        let mut found: Vec<&SearchInfo> =
            if result.lines.is_empty() { vec![&result.info] } else { result.lines.iter().collect() };
        // Best first for the mover, whatever iteration each line was last searched in.
        found.sort_by_key(|i| std::cmp::Reverse(rank(i.score)));
        // No legal move: no line (the rules' verdict stands, not the engine's).
        let lines = if result.best.is_none() { Vec::new() } else { found.into_iter().map(|i| self.line(i)).collect() };
        Lines { view: self.view(), lines, nodes: result.info.nodes, depth: result.info.depth }
    }

    /// Searches the position now: the best line's score, move and moves
    /// (the game page's evaluation and hint).
    pub fn analyse(&self, engine: &mut AnyEngine, limits: &Limits, stop: Arc<AtomicBool>) -> Analysis {
        let result = self.search(engine, limits, stop, 1);
        let l = self.line(&result.info);
        Analysis {
            score: l.score,
            depth: l.depth,
            best: result.best.map(|m| move_view(&self.game, m, notation(&self.game, m))),
            line: l.line,
            view: self.view(),
        }
    }

    fn search(&self, engine: &mut AnyEngine, limits: &Limits, stop: Arc<AtomicBool>, multipv: usize) -> SearchResult {
        engine.two().set_multipv(multipv.clamp(1, MAX_LINES));
        let result = engine.search(&self.game, limits, stop, &mut |_| {});
        engine.two().set_multipv(1);
        result
    }

    /// The side the scores are from ([`Lines::view`]).
    fn view(&self) -> &'static str {
        side_key(&self.sides()[if self.two() { 0 } else { self.side() }])
    }

    /// A line of the search, from the view's side, its moves checked as they
    /// are written out (a line stops at a move that is not legal).
    fn line(&self, info: &SearchInfo) -> EngineLine {
        let sign = if self.two() && self.side() == 1 { -1 } else { 1 };
        let (score, cp, mate) = match info.score {
            Score::Cp(cp) => (format!("{:+.2}", f64::from(cp * sign) / 100.0), Some(cp * sign), None),
            Score::Mate(n) => (format!("#{}", n * sign), None, Some(n * sign)),
        };
        let (mut line, mut moves) = (Vec::new(), Vec::new());
        let mut g = self.game.clone();
        for &m in &info.pv {
            if !g.legal_moves().contains(&m) {
                break;
            }
            line.push(notation(&g, m));
            moves.push(raum_notation::format_game_move(&g, m));
            if g.play(m).is_err() {
                break;
            }
        }
        let best = info.pv.first().filter(|m| self.game.legal_moves().contains(m));
        EngineLine {
            score,
            cp,
            mate,
            depth: info.depth,
            best: best.map(|&m| move_view(&self.game, m, notation(&self.game, m))),
            line,
            moves,
        }
    }
}

/// A score's order for the side to move: a nearer mate first, then more
/// centipawns, then a later mate against it.
fn rank(score: Score) -> i64 {
    match score {
        Score::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
        Score::Cp(cp) => i64::from(cp),
        Score::Mate(n) => -1_000_000 - i64::from(n),
    }
}
