//! Raum's engine: search and evaluation for 3D chess.
//!
//! - Search ([`Engine::search`]): iterative deepening, principal-variation
//!   search with aspiration windows, quiescence over captures and promotions,
//!   a lock-free transposition table, check extension, null-move pruning,
//!   late-move reductions, reverse futility, futility and late-move pruning,
//!   move ordering (hash move, MVV-LVA, promotions, two killers per ply,
//!   history), mate scores, and draws by repetition (game history and search
//!   path), the 50-move rule, stalemate (a draw, or on Savard's boards worth
//!   a pawn to the side that gives it) and bare kings. Lazy SMP: helper
//!   threads share the table and the main thread decides. With one thread a
//!   search is deterministic for a fixed node limit.
//! - Evaluation ([`evaluate`]): per-variant terms as data ([`EvalParams`]).
//! - Tuning ([`tune`]): Texel-style fitting of [`EvalParams`] to game results.
//! - Time: [`Limits`] as the engine protocol gives them, turned into a
//!   [`TimePlan`].
//!
//! Evaluation, search and tuning are generic over the board's cell-set type
//! (`S: raum_rules::Width`) and compiled once per width; nothing branches on
//! width at run time. An interface reaches a variant of any width through
//! `raum_rules::VariantId::dispatch`, the one place a width is chosen. The
//! [`Engine`] itself (options and transposition table) has no width: only
//! [`Engine::search`] and [`Engine::set_eval_params`] take one.
//!
//! ```
//! use raum_engine::{Engine, Limits, Score};
//! use raum_rules::{Game, Position, Variant, VariantId};
//! use std::sync::{Arc, atomic::AtomicBool};
//! let game = Game::new(Position::start(Variant::get(VariantId::FiveUp)));
//! let mut engine = Engine::new(16, 1);
//! let limits = Limits { depth: Some(2), ..Limits::default() };
//! let r = engine.search(&game, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
//! assert!(game.position().is_legal(r.best.unwrap()));
//! assert!(matches!(r.info.score, Score::Cp(_)));
//! ```

mod any;
mod calibration;
mod cpu;
mod eval;
mod features;
mod learned;
mod levels;
pub mod multi;
mod params;
mod search;
mod time;
mod tt;
pub mod tune;
mod wdl;

pub use any::AnyEngine;
pub use calibration::{elo_for_strength, level_elos, strength_for_elo};
pub use eval::{Basic, EvalParams, EvalTables, Material, PieceAttacks, evaluate};
pub use features::{Feature, Features, UnknownFeature};
pub use learned::listing as learned_listing;
pub use levels::{LEVEL_NODES, LEVEL_TABLE, LEVELS, Level, Skill, level_limits, level_table};
pub use params::{ParamError, SearchParams};
pub use search::CURRMOVE_AFTER;
pub use time::TimePlan;
pub use wdl::{WDL_DRAWS, WDL_K, Wdl, wdl};

use raum_rules::{Game, GameAt, Move, Variant, VariantId, Width};
use std::any::Any;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A search score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in `n` moves by the side to move; `n < 0`: the side to move is mated in `-n`
    /// (`Mate(0)`: it is mated already).
    Mate(i32),
}

/// How long to search, as the engine protocol's `go` gives it. Every limit set
/// applies; the first reached ends the search. With none set (and not
/// `infinite`), the search runs to the deepest depth Raum supports.
#[derive(Default, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Iterations to complete.
    pub depth: Option<u32>,
    /// Nodes to search (all threads together).
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// White's clock.
    pub wtime: Option<Duration>,
    /// Black's clock.
    pub btime: Option<Duration>,
    /// White's increment per move.
    pub winc: Option<Duration>,
    /// Black's increment per move.
    pub binc: Option<Duration>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search until stopped; clocks are ignored (depth and nodes still end the
    /// iterations, then the search waits for `stop`).
    pub infinite: bool,
    /// Only these root moves are searched (the protocol's `go searchmoves`);
    /// empty, or none of them legal: every legal move.
    pub searchmoves: Vec<Move>,
}

/// What one completed iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Nominal depth in plies.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// The score of the principal variation.
    pub score: Score,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Which line this is, best first from 1 (more than one with
    /// [`Engine::set_multipv`]).
    pub multipv: usize,
    /// How full the transposition table is, in permille.
    pub hashfull: u32,
}

/// The root move a search has just started on, with its number in the
/// root's move order (1 the first): what the protocol's `info currmove`
/// reports while a long search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CurrMove {
    /// The iteration.
    pub depth: u32,
    /// The move.
    pub mv: Move,
    /// Its number among the root moves searched at this iteration.
    pub number: usize,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// The last completed iteration (nodes and time are the final totals).
    pub info: SearchInfo,
    /// Every line of the last completed iteration, best first (`info` is the
    /// first): one, or as many as [`Engine::set_multipv`] asked for and the
    /// position has root moves.
    pub lines: Vec<SearchInfo>,
}

/// A searcher: owns the transposition table, the thread count, the search
/// features in use and, optionally, evaluation terms of its own for a variant.
///
/// The engine is the same for every board width: the table stores hashes and
/// moves, and only [`Engine::search`] (generic over the position's cell-set
/// type) meets a width. So one engine, with its table, serves a session that
/// changes variants, whatever their widths.
pub struct Engine {
    tt: tt::Tt,
    hash_mb: usize,
    threads: usize,
    /// `None`: each variant's [`Features::for_variant`].
    features: Option<Features>,
    /// `None`: each variant's [`SearchParams::for_variant`].
    params: Option<SearchParams>,
    /// Evaluation tables replacing the built-in ones for one variant: an
    /// `EvalTables<S>` at that variant's width, type-erased so that the engine
    /// needs no width parameter (see [`Engine::search`]).
    eval: Option<(VariantId, Arc<dyn Any + Send + Sync>)>,
    /// Lines searched (MultiPV), at least one.
    multipv: usize,
    /// A playing level below the full engine.
    skill: Option<Skill>,
}

impl Engine {
    /// An engine with a `hash_mb` MiB transposition table and `threads` search threads.
    pub fn new(hash_mb: usize, threads: usize) -> Engine {
        Engine {
            tt: tt::Tt::new(hash_mb),
            hash_mb,
            threads: threads.max(1),
            features: None,
            params: None,
            eval: None,
            multipv: 1,
            skill: None,
        }
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash(&mut self, mb: usize) {
        if mb != self.hash_mb {
            self.tt = tt::Tt::new(mb);
            self.hash_mb = mb;
        } else {
            self.tt.clear();
        }
    }

    /// Sets the number of search threads (at least one).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    /// Searches the `n` best root moves, each with its own line and score
    /// (the protocol's `MultiPV`; at least one). Lines after the first cost
    /// time: each is a search of the root without the moves before it.
    ///
    /// ```
    /// use raum_engine::{Engine, Limits};
    /// use raum_rules::{Game, Position, Variant, VariantId};
    /// use std::sync::{Arc, atomic::AtomicBool};
    /// let game = Game::new(Position::start(Variant::get(VariantId::FiveUp)));
    /// let mut engine = Engine::new(1, 1);
    /// engine.set_multipv(3);
    /// let r = engine.search(&game, &Limits { depth: Some(2), ..Limits::default() }, Arc::new(AtomicBool::new(false)), &mut |_| {});
    /// assert_eq!(r.lines.len(), 3);
    /// assert!(r.lines.windows(2).all(|w| w[0].pv[0] != w[1].pv[0]));
    /// ```
    pub fn set_multipv(&mut self, n: usize) {
        self.multipv = n.max(1);
    }

    /// The number of lines searched.
    pub fn multipv(&self) -> usize {
        self.multipv
    }

    /// Plays at a level ([`Skill`]; `None`, or the top level: the full
    /// engine): each search is cut to the level's budget, searches the
    /// level's lines, and plays the one the level chooses (`best`, `ponder`);
    /// `info` and `lines` stay what the search found.
    pub fn set_skill(&mut self, skill: Option<Skill>) {
        self.skill = skill.filter(|s| !s.is_full());
    }

    /// The level in play, if below the full engine.
    pub fn skill(&self) -> Option<&Skill> {
        self.skill.as_ref()
    }

    /// Sets the search features to use in every variant (by default each
    /// variant's [`Features::for_variant`]).
    pub fn set_features(&mut self, features: Features) {
        self.features = Some(features);
    }

    /// The search features used in `variant`.
    pub fn features(&self, variant: VariantId) -> Features {
        self.features.unwrap_or_else(|| Features::for_variant(variant))
    }

    /// Sets the search parameters to use in every variant (by default each
    /// variant's [`SearchParams::for_variant`]).
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = Some(params);
    }

    /// The search parameters used in `variant`.
    pub fn params(&self, variant: VariantId) -> SearchParams {
        self.params.unwrap_or_else(|| SearchParams::for_variant(variant))
    }

    /// Evaluates `variant`'s positions with `params` instead of the built-in
    /// [`EvalParams::for_variant`] (other variants keep theirs).
    ///
    /// ```
    /// use raum_engine::{Engine, EvalParams};
    /// use raum_rules::{Variant, VariantId};
    /// let mut params = EvalParams::for_variant(VariantId::FiveUp);
    /// params.tempo = 0;
    /// let mut engine = Engine::new(1, 1);
    /// engine.set_eval_params(Variant::get(VariantId::FiveUp), params);
    /// ```
    pub fn set_eval_params<S: Width>(&mut self, variant: &'static Variant<S>, params: EvalParams) {
        self.eval = Some((variant.id(), Arc::new(EvalTables::new(variant, params))));
    }

    /// Forgets everything learned from earlier searches: after this, a
    /// one-thread search with a node limit repeats exactly.
    pub fn new_game(&mut self) {
        self.tt.clear();
    }

    /// How full the transposition table is, in permille of a sample.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches the game's current position; `stop` aborts; `on_info` is called
    /// after each completed iteration. Compiled once per width `S`; the table
    /// is shared by all (it holds hashes and moves, whatever the board).
    #[inline]
    pub fn search<S: Width>(
        &mut self,
        game: &Game<S>,
        limits: &Limits,
        stop: Arc<AtomicBool>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.search_reporting(game, limits, stop, on_info, &mut |_| {})
    }

    /// [`Engine::search`], also telling `on_currmove` each root move as the
    /// search starts on it, once the search has run for [`CURRMOVE_AFTER`]
    /// (as the protocol's `info currmove` does: earlier it is only noise).
    #[inline]
    pub fn search_reporting<S: Width>(
        &mut self,
        game: &Game<S>,
        limits: &Limits,
        stop: Arc<AtomicBool>,
        on_info: &mut dyn FnMut(&SearchInfo),
        on_currmove: &mut dyn FnMut(&CurrMove),
    ) -> SearchResult {
        self.search_at(S::game_at(game), limits, stop, on_info, on_currmove)
    }

    /// [`Engine::search_reporting`] at the game's width. Not generic: the
    /// search is compiled here, once per width, and not again in each crate
    /// that searches (see [`GameAt`]).
    fn search_at(
        &mut self,
        game: GameAt<'_>,
        limits: &Limits,
        stop: Arc<AtomicBool>,
        on_info: &mut dyn FnMut(&SearchInfo),
        on_currmove: &mut dyn FnMut(&CurrMove),
    ) -> SearchResult {
        match game {
            GameAt::W128(g) => self.search_width(g, limits, stop, on_info, on_currmove),
            GameAt::W256(g) => self.search_width(g, limits, stop, on_info, on_currmove),
            GameAt::W512(g) => self.search_width(g, limits, stop, on_info, on_currmove),
        }
    }

    fn search_width<S: Width>(
        &mut self,
        game: &Game<S>,
        limits: &Limits,
        stop: Arc<AtomicBool>,
        on_info: &mut dyn FnMut(&SearchInfo),
        on_currmove: &mut dyn FnMut(&CurrMove),
    ) -> SearchResult {
        let Some(mut skill) = self.skill.take() else {
            return self.search_lines(game, limits, stop, on_info, on_currmove, self.multipv);
        };
        let id = game.position().variant().id();
        let level = skill.level_for_move(id);
        let capped = levels::capped(limits, &level);
        // The lines searched only for the level's choice are not reported.
        let shown = self.multipv;
        let mut report = |i: &SearchInfo| {
            if i.multipv <= shown {
                on_info(i)
            }
        };
        let mut r = self.search_lines(game, &capped, stop, &mut report, on_currmove, shown.max(level.lines));
        if level.grab {
            let et = self.eval_tables::<S>(id);
            if let Some(m) = skill.grab(game.position(), |k| et.value(k)) {
                r.best = Some(m);
                r.ponder = r.lines.iter().find(|l| l.pv.first() == Some(&m)).and_then(|l| l.pv.get(1).copied());
            }
        } else {
            let chosen = skill.choose(&level, &r.lines);
            if let Some(line) = r.lines.get(chosen)
                && let Some(&m) = line.pv.first()
            {
                r.best = Some(m);
                r.ponder = line.pv.get(1).copied();
            }
        }
        self.skill = Some(skill);
        r
    }

    /// The evaluation of `id`'s positions: the override if one was set for it.
    fn eval_tables<S: Width>(&self, id: VariantId) -> &EvalTables<S> {
        // The override was built for this variant, hence at its width: the
        // downcast (once per search) finds it.
        match &self.eval {
            Some((v, tables)) if *v == id => tables.downcast_ref().unwrap_or_else(|| EvalTables::get(id)),
            _ => EvalTables::get(id),
        }
    }

    fn search_lines<S: Width>(
        &mut self,
        game: &Game<S>,
        limits: &Limits,
        stop: Arc<AtomicBool>,
        on_info: &mut dyn FnMut(&SearchInfo),
        on_currmove: &mut dyn FnMut(&CurrMove),
        multipv: usize,
    ) -> SearchResult {
        self.tt.new_search();
        let id = game.position().variant().id();
        let et = self.eval_tables(id);
        let setup = search::Setup {
            tt: &self.tt,
            et,
            features: self.features(id),
            params: self.params(id),
            threads: self.threads,
            multipv,
        };
        search::run(setup, game, limits, &stop, on_info, on_currmove)
    }
}
