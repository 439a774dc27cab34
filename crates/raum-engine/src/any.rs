//! One engine entry point for every game ([`AnyEngine`]): a search of an
//! [`AnyGame`], two sides or more, answers with the move to play, the score
//! from the mover's side (its team's, where sides play in teams) and the line.
//! Two-player games go to [`Engine`]'s alpha-beta (skill levels, MultiPV,
//! threads), the others to [`MultiEngine`]'s searches (teams: alpha-beta for
//! the team; every side for itself: [`MultiSearch`](crate::multi::MultiSearch)).

use crate::multi::MultiEngine;
use crate::{CurrMove, Engine, Limits, SearchInfo, SearchResult};
use raum_rules::{AnyGame, on_game};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The engine for every game: a two-player [`Engine`] and, made on the first
/// multi-player search, a [`MultiEngine`] with a table of the same size.
///
/// ```
/// use raum_engine::{AnyEngine, Limits, Score};
/// use raum_rules::{AnyGame, GameId, GameRules};
/// use std::sync::{Arc, atomic::AtomicBool};
/// let mut engine = AnyEngine::new(1, 1);
/// let limits = Limits { depth: Some(2), ..Limits::default() };
/// for name in ["five-up", "triquetral-3p"] {
///     let game = AnyGame::start(GameId::from_name(name).unwrap());
///     let r = engine.search(&game, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
///     let best = r.best.expect("a move");
///     assert!(game.legal_moves().contains(&best));
///     assert_eq!(r.info.pv.first(), Some(&best));
///     assert!(matches!(r.info.score, Score::Cp(_)));
/// }
/// ```
pub struct AnyEngine {
    two: Engine,
    multi: Option<MultiEngine>,
    hash_mb: usize,
}

impl AnyEngine {
    /// An engine with tables of `hash_mb` MiB and `threads` search threads
    /// (the two-player search's; the multi-player searches run on one).
    pub fn new(hash_mb: usize, threads: usize) -> AnyEngine {
        AnyEngine { two: Engine::new(hash_mb, threads), multi: None, hash_mb }
    }

    /// The two-player engine: its levels, MultiPV, threads and terms.
    pub fn two(&mut self) -> &mut Engine {
        &mut self.two
    }

    /// The multi-player engine: which search plays every side for itself.
    pub fn multi(&mut self) -> &mut MultiEngine {
        let hash_mb = self.hash_mb;
        self.multi.get_or_insert_with(|| MultiEngine::new(hash_mb))
    }

    /// Resizes (and clears) the tables: the two-player engine's now, the
    /// multi-player engine's when it is next made.
    pub fn set_hash(&mut self, mb: usize) {
        self.two.set_hash(mb);
        self.hash_mb = mb;
        if self.multi.as_ref().is_some_and(|m| m.hash_mb() != mb) {
            self.multi = None;
        }
    }

    /// The number of search threads of the two-player search (the
    /// multi-player searches run on one).
    pub fn set_threads(&mut self, n: usize) {
        self.two.set_threads(n);
    }

    /// Forgets everything learnt (a new game).
    pub fn new_game(&mut self) {
        self.two.new_game();
        if let Some(m) = &mut self.multi {
            m.new_game();
        }
    }

    /// Searches the game's position for the side to move; `stop` aborts;
    /// `on_info` hears each completed iteration. The score is the mover's
    /// (its team's with teams). Skill levels and MultiPV apply where the
    /// two-player engine searches; a multi-player search gives one line.
    pub fn search(
        &mut self,
        game: &AnyGame,
        limits: &Limits,
        stop: Arc<AtomicBool>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.search_reporting(game, limits, stop, on_info, &mut |_| {})
    }

    /// [`AnyEngine::search`], also telling `on_currmove` of each root move
    /// as the two-player search starts on it ([`Engine::search_reporting`]).
    /// In a multi-player game the mover's clock is whichever of `wtime` and
    /// `btime` is given (`wtime` first), and `searchmoves` is not offered.
    pub fn search_reporting(
        &mut self,
        game: &AnyGame,
        limits: &Limits,
        stop: Arc<AtomicBool>,
        on_info: &mut dyn FnMut(&SearchInfo),
        on_currmove: &mut dyn FnMut(&CurrMove),
    ) -> SearchResult {
        on_game!(game,
        g => self.two.search_reporting(g, limits, stop, on_info, on_currmove),
        m => {
            let limits = Limits { wtime: limits.wtime.or(limits.btime), ..limits.clone() };
            self.multi().search(m, &limits, &stop, on_info)
        })
    }
}
