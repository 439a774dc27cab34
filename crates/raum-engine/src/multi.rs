//! The engine for games of more than two sides (RULES.md "Savard's
//! multi-player forms").
//!
//! With teams the game is zero-sum between two teams, and one search serves:
//! the side to move's *coalition* (its team) maximises, every other side
//! minimises, which is exact alpha-beta. Every side for itself there is no
//! exact reduction to two players, and three searches are offered
//! ([`MultiSearch`], [`MultiEngine::set_multi_search`]):
//!
//! - **best-reply** (the default, [`MultiSearch::BestReply`], Schadd &
//!   Winands 2011): the root side moves; then, in one layer, only the single
//!   best move among *all* the opponents' moves (each generated as if that
//!   opponent were to move) is played, and the root side moves again. The
//!   tree is the two-player one, alpha-beta applies, and the root side sees
//!   deeper along its own moves; the positions it visits are not all
//!   reachable. It won the match of the three searches (BENCHMARKS.md,
//!   issue 17).
//! - **paranoid** ([`MultiSearch::Paranoid`]): the root side alone maximises
//!   and every other side minimises its value, as if they had all allied
//!   against it; alpha-beta applies unchanged.
//! - **max^n** ([`MultiSearch::MaxN`], Luckhardt & Irani 1986): each node's
//!   value is a vector with one value per side, and the side to move picks the
//!   child best in its own component. Only immediate pruning (a win for the
//!   side to move ends its node) applies: the values do not sum to a constant.
//!
//! Scores are from the root coalition's side. Iterative deepening, a
//! transposition table keyed by the root coalition and the search (a score
//! means something only for one coalition; max^n keeps its vectors in a table
//! of its own), quiescence over captures and promotions, hash move, MVV-LVA
//! and two killers a ply, node and time limits, for all three. With a fixed
//! node limit every search is deterministic.
//!
//! Evaluation per side from the pieces' data: material ([`EvalParams::derived`]
//! from the board), a reach bonus (a piece's empty-board moves from its cell,
//! weighted by its mobility term) and pawn advance; with teams a coalition's
//! value is its sides' sum minus the others', every side for itself a side's
//! value is its own minus the mean of the opponents still in, plus a bonus per
//! opponent out (max^n's vector holds that value for every side).
//!
//! ```
//! use raum_bitboard::Wide;
//! use raum_engine::Limits;
//! use raum_engine::multi::MultiEngine;
//! use raum_rules::multi::{MultiGame, MultiId, MultiPosition, MultiVariant};
//! use std::sync::atomic::AtomicBool;
//! let v = MultiVariant::<Wide<4>>::at_width(MultiId::WingTable4p);
//! let game = MultiGame::new(MultiPosition::start(v));
//! let mut engine = MultiEngine::new(4);
//! let r = engine.search(&game, &Limits { depth: Some(2), ..Limits::default() }, &AtomicBool::new(false), &mut |_| {});
//! assert!(game.position().legal_moves().contains(&r.best.unwrap()));
//!
//! // Every side for itself: best-reply search (the default) or another.
//! use raum_engine::multi::MultiSearch;
//! assert_eq!(engine.multi_search(), MultiSearch::BestReply);
//! let v = MultiVariant::<Wide<4>>::at_width(MultiId::Triquetral3p);
//! let game = MultiGame::new(MultiPosition::start(v));
//! engine.set_multi_search("paranoid".parse::<MultiSearch>().unwrap());
//! let r = engine.search(&game, &Limits { nodes: Some(2_000), ..Limits::default() }, &AtomicBool::new(false), &mut |_| {});
//! assert!(game.position().legal_moves().contains(&r.best.unwrap()));
//! assert!(r.info.nodes <= 2_000);
//! ```

use crate::eval::EvalParams;
use crate::{Limits, Score, SearchInfo, SearchResult};
use raum_rules::multi::{MAX_SIDES, MultiGame, MultiPosition, MultiVariant};
use raum_rules::{Kind, MAX_KINDS, Move, MoveList, MultiGameAt, Role, Width};
use std::any::Any;
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

mod brs;
mod maxn;

/// The search used when every side plays for itself (with teams the search
/// is always the exact coalition alpha-beta).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MultiSearch {
    /// The root side against a coalition of all the others.
    Paranoid,
    /// Best-reply search: the root side's moves alternate with the single
    /// best reply among all opponents' moves.
    #[default]
    BestReply,
    /// max^n: a value per side, each side maximising its own.
    MaxN,
}

impl MultiSearch {
    /// Every search.
    pub const ALL: [MultiSearch; 3] = [MultiSearch::Paranoid, MultiSearch::BestReply, MultiSearch::MaxN];

    /// The name read by [`FromStr`] (and `search=` in `raum match`).
    pub const fn name(self) -> &'static str {
        match self {
            MultiSearch::Paranoid => "paranoid",
            MultiSearch::BestReply => "brs",
            MultiSearch::MaxN => "maxn",
        }
    }
}

impl core::fmt::Display for MultiSearch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a [`MultiSearch`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown multi-player search '{0}' (paranoid, brs or maxn)")]
pub struct UnknownMultiSearch(pub String);

impl FromStr for MultiSearch {
    type Err = UnknownMultiSearch;

    /// `paranoid`, `brs` (or `best-reply`), `maxn` (or `max-n`, `max^n`), in any case.
    fn from_str(s: &str) -> Result<MultiSearch, UnknownMultiSearch> {
        match s.trim().to_ascii_lowercase().as_str() {
            "paranoid" => Ok(MultiSearch::Paranoid),
            "brs" | "best-reply" | "bestreply" => Ok(MultiSearch::BestReply),
            "maxn" | "max-n" | "max^n" => Ok(MultiSearch::MaxN),
            _ => Err(UnknownMultiSearch(s.to_string())),
        }
    }
}

/// A mate score; mate in `n` plies scores `MATE - n`.
const MATE: i32 = 30_000;
/// Scores beyond this are mates.
const MATE_BOUND: i32 = MATE - 1_000;
/// Being stalemated with teams: the team scores 2/5 instead of 1/2 (as in
/// the two-player search, a pawn's worth).
const STALEMATE: i32 = 100;
const INF: i32 = MATE + 1;
/// Every side for itself: an opponent taken out, worth more than any army
/// (the last side in wins), so the search plays for it.
const OUT_BONUS: i32 = 5_000;
const MAX_PLY: usize = 64;

/// A game's evaluation tables.
#[derive(Debug)]
pub struct MultiEval<S: Width> {
    /// Centipawns per kind (the king 0).
    value: [i32; MAX_KINDS],
    /// `[(side * kinds + kind) * cells + cell]`: the reach bonus, and for
    /// pawns the advance bonus.
    square: Vec<i32>,
    kinds: usize,
    cells: usize,
    _width: core::marker::PhantomData<S>,
}

impl<S: Width> MultiEval<S> {
    /// Builds the tables of `v` from its pieces' data.
    pub fn new(v: &'static MultiVariant<S>) -> MultiEval<S> {
        let b = v.board();
        let params = EvalParams::derived(b);
        let kinds = b.pieces().len();
        let cells = b.cells();
        let mut value = [0; MAX_KINDS];
        let mut mobility = [0; MAX_KINDS];
        for (k, def) in b.pieces().iter().enumerate() {
            if def.role == Role::King {
                continue;
            }
            value[k] = params.piece_values.iter().find(|p| p.0 == def.letter).map_or(0, |p| p.1);
            mobility[k] = params.mobility.iter().find(|p| p.0 == def.letter).map_or(0, |p| p.1);
        }
        let sides = v.sides().len();
        let mut square = vec![0; sides * kinds * cells];
        for side in 0..sides {
            // Steps each cell still needs to promote, walking the side's pawn steps.
            let steps_to_promote = |cell: usize| {
                let mut at = S::single(cell);
                for d in 0..16 {
                    if (at & b.promotion_zone(side)).any() {
                        return Some(d);
                    }
                    at = at.cells().fold(S::EMPTY, |acc, c| acc | b.pawn_steps(side, c));
                    if at.is_empty() {
                        return None;
                    }
                }
                None
            };
            for (k, def) in b.pieces().iter().enumerate() {
                for cell in 0..cells {
                    let bonus = match def.role {
                        Role::Pawn => steps_to_promote(cell)
                            .and_then(|d| params.pawn_advance.get(d as usize).copied())
                            .unwrap_or(0),
                        Role::King => 0,
                        Role::Piece => {
                            let piece = raum_rules::Piece::new(raum_rules::Color::White, Kind(k as u8));
                            let reach = b.targets(piece, cell, S::single(cell), S::EMPTY).count() as i32;
                            mobility[k] * reach / 2
                        }
                    };
                    square[(side * kinds + k) * cells + cell] = bonus;
                }
            }
        }
        MultiEval { value, square, kinds, cells, _width: core::marker::PhantomData }
    }

    /// The tables of `v`, built once per game and width.
    pub fn get(v: &'static MultiVariant<S>) -> &'static MultiEval<S> {
        static CACHE: OnceLock<Mutex<HashMap<(usize, &'static str), Built>>> = OnceLock::new();
        let key = (core::mem::size_of::<S>(), v.id().name());
        let mut map = CACHE.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
        let entry = *map.entry(key).or_insert_with(|| Box::leak(Box::new(MultiEval::new(v))));
        entry.downcast_ref::<MultiEval<S>>().expect("one width per game")
    }

    /// A kind's material value.
    pub fn value(&self, kind: Kind) -> i32 {
        self.value[kind.index()]
    }

    /// Each side's value: material, reach and pawn advance.
    pub fn side_values(&self, pos: &MultiPosition<S>) -> [i32; MAX_SIDES] {
        let mut out = [0; MAX_SIDES];
        for (cell, side, kind) in pos.men() {
            let s = side as usize;
            out[s] += self.value[kind.index()] + self.square[(s * self.kinds + kind.index()) * self.cells + cell];
        }
        out
    }
}

/// A game's tables at some width, type-erased for the cache.
type Built = &'static (dyn Any + Send + Sync);

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    mv: u32,
    score: i32,
    depth: i8,
    bound: u8,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// The multi-player searcher: a transposition table, and which search plays
/// every side for itself.
pub struct MultiEngine {
    table: Vec<Entry>,
    /// max^n's table of value vectors, made on its first search.
    vectors: Vec<maxn::VectorEntry>,
    hash_mb: usize,
    kind: MultiSearch,
}

impl MultiEngine {
    /// An engine with a table of about `hash_mb` megabytes, searching
    /// [`MultiSearch::default`] (best-reply) every side for itself.
    pub fn new(hash_mb: usize) -> MultiEngine {
        let entries = (hash_mb.max(1) << 20) / core::mem::size_of::<Entry>();
        MultiEngine {
            table: vec![Entry::default(); entries.next_power_of_two() / 2],
            vectors: Vec::new(),
            hash_mb: hash_mb.max(1),
            kind: MultiSearch::default(),
        }
    }

    /// An engine with a table of about `hash_mb` megabytes playing `kind`.
    pub fn with_search(hash_mb: usize, kind: MultiSearch) -> MultiEngine {
        let mut e = MultiEngine::new(hash_mb);
        e.set_multi_search(kind);
        e
    }

    /// Chooses the search for games where every side plays for itself.
    pub fn set_multi_search(&mut self, kind: MultiSearch) {
        self.kind = kind;
    }

    /// The table's size in MB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// The search used every side for itself.
    pub fn multi_search(&self) -> MultiSearch {
        self.kind
    }

    /// Forgets everything learnt (a new game).
    pub fn new_game(&mut self) {
        self.table.fill(Entry::default());
        self.vectors.fill(maxn::VectorEntry::default());
    }

    /// Searches the game's position for the side to move. `Limits`' depth,
    /// nodes and movetime apply (and a clock's time, shared over 30 moves);
    /// the search never counts more nodes than `nodes`. Every side for itself
    /// the engine's [`MultiSearch`] decides how; with teams it is alpha-beta.
    #[inline]
    pub fn search<S: Width>(
        &mut self,
        game: &MultiGame<S>,
        limits: &Limits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.search_at(S::multi_game_at(game), limits, stop, info)
    }

    /// [`MultiEngine::search`] at the game's width, compiled here once per
    /// width (see [`raum_rules::GameAt`]).
    fn search_at(
        &mut self,
        game: MultiGameAt<'_>,
        limits: &Limits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        match game {
            MultiGameAt::W128(g) => self.search_width(g, limits, stop, info),
            MultiGameAt::W256(g) => self.search_width(g, limits, stop, info),
            MultiGameAt::W512(g) => self.search_width(g, limits, stop, info),
        }
    }

    fn search_width<S: Width>(
        &mut self,
        game: &MultiGame<S>,
        limits: &Limits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let pos = game.position().clone();
        let v = pos.variant();
        let root = pos.side_to_move();
        let coalition: u8 = (0..v.sides().len())
            .filter(|&s| if v.teams() { v.sides()[s].team == v.sides()[root].team } else { s == root })
            .fold(0, |m, s| m | 1 << s);
        let kind = if v.teams() { MultiSearch::Paranoid } else { self.kind };
        if kind == MultiSearch::MaxN && self.vectors.is_empty() {
            let entries = (self.hash_mb << 20) / core::mem::size_of::<maxn::VectorEntry>();
            self.vectors = vec![maxn::VectorEntry::default(); entries.next_power_of_two() / 2];
        }
        let start = Instant::now();
        let clock = limits.wtime.map(|t| t / 30);
        let budget = limits.movetime.or(clock).map(|t| t.saturating_sub(Duration::from_millis(2)));
        let mut s = Searcher {
            eval: MultiEval::get(v),
            table: &mut self.table,
            vectors: &mut self.vectors,
            coalition,
            root_side: root,
            // Paranoid keys stay as they were; best-reply's scores mean something else.
            root_key: 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(coalition as u64 + 1)
                ^ if kind == MultiSearch::BestReply { 0xB5E5_7E91_D1E5_0001 } else { 0 },
            history: game_history(game),
            nodes: 0,
            node_limit: limits.nodes,
            start,
            budget,
            stop,
            aborted: false,
            killers: [[0; 2]; MAX_PLY],
            seldepth: 0,
        };
        let root_moves = pos.legal_moves();
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            ponder: None,
            info: SearchInfo {
                depth: 0,
                seldepth: 0,
                score: Score::Cp(0),
                nodes: 0,
                time: Duration::ZERO,
                pv: Vec::new(),
                multipv: 1,
                hashfull: 0,
            },
            lines: Vec::new(),
        };
        if root_moves.len() <= 1 {
            result.lines = vec![result.info.clone()];
            return result;
        }
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 4).clamp(1, MAX_PLY as u32 - 4);
        let mut pos = pos;
        for depth in 1..=max_depth {
            let (score, best) = match kind {
                MultiSearch::Paranoid => s.search(&mut pos, depth as i32, 0, -INF, INF, true),
                MultiSearch::BestReply => s.brs(&mut pos, depth as i32, 0, -INF, INF, true),
                MultiSearch::MaxN => {
                    let (values, best) = s.maxn(&mut pos, depth as i32, 0, true);
                    (values[root], best)
                }
            };
            if s.aborted {
                break;
            }
            result.best = best.or(result.best);
            result.info = SearchInfo {
                depth,
                seldepth: s.seldepth as u32,
                score: to_score(score),
                nodes: s.nodes,
                time: start.elapsed(),
                pv: result.best.into_iter().collect(),
                multipv: 1,
                hashfull: 0,
            };
            info(&result.info);
            if score.abs() > MATE_BOUND || s.out_of_time(true) {
                break;
            }
        }
        result.info.nodes = s.nodes;
        result.info.time = start.elapsed();
        result.lines = vec![result.info.clone()];
        result
    }
}

/// The hashes of the game's positions since the last capture or pawn move,
/// the current one last.
fn game_history<S: Width>(game: &MultiGame<S>) -> Vec<u64> {
    // Earlier positions held a man since taken or a pawn since moved: they cannot recur.
    let all = game.history();
    let keep = (game.position().halfmove_clock() as usize + 1).min(all.len());
    all[all.len() - keep..].to_vec()
}

/// The position with `side` to move: the same men and clocks (best-reply
/// search plays an opponent's move whoever's turn it is). `side` must be in.
fn with_mover<S: Width>(pos: &MultiPosition<S>, side: usize) -> MultiPosition<S> {
    if pos.side_to_move() == side {
        return pos.clone();
    }
    MultiPosition::from_men(pos.variant(), &pos.men(), side, pos.halfmove_clock(), pos.fullmove_number())
        .expect("the men of a legal position, a side still in to move")
}

fn to_score(score: i32) -> Score {
    if score > MATE_BOUND {
        Score::Mate((MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        Score::Mate(-(MATE + score + 1) / 2)
    } else {
        Score::Cp(score)
    }
}

struct Searcher<'a, S: Width> {
    eval: &'static MultiEval<S>,
    table: &'a mut [Entry],
    /// max^n's table (empty for the other searches).
    vectors: &'a mut [maxn::VectorEntry],
    /// The sides (bits) that maximise.
    coalition: u8,
    /// The side the search is for.
    root_side: usize,
    root_key: u64,
    /// Hashes since the last irreversible move: the game's, then the search path's.
    history: Vec<u64>,
    nodes: u64,
    node_limit: Option<u64>,
    start: Instant,
    /// The time for this move.
    budget: Option<Duration>,
    stop: &'a AtomicBool,
    aborted: bool,
    killers: [[u32; 2]; MAX_PLY],
    seldepth: usize,
}

impl<S: Width> Searcher<'_, S> {
    fn out_of_time(&self, iteration_done: bool) -> bool {
        // After an iteration, half the time spent: the next would likely not finish.
        let late = self.budget.is_some_and(|b| self.start.elapsed() >= if iteration_done { b / 2 } else { b });
        late || self.node_limit.is_some_and(|n| self.nodes >= n) || self.stop.load(Ordering::Relaxed)
    }

    /// Counts a node; `true` when the search must stop (then the node is
    /// not counted, so a node limit is never passed).
    fn tick(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.nodes += 1;
        if self.nodes & 1023 == 0 && self.out_of_time(false) {
            self.aborted = true;
        }
        if self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.aborted = true;
        }
        false
    }

    fn maximises(&self, side: usize) -> bool {
        self.coalition & (1 << side) != 0
    }

    /// The position for the root coalition. With teams: its sides' values
    /// minus the others'. Every side for itself: the root side's value minus
    /// the mean of the opponents still in (so that a balanced position, and a
    /// draw, are 0), plus [`OUT_BONUS`] per opponent taken out.
    fn evaluate(&self, pos: &MultiPosition<S>) -> i32 {
        let values = self.eval.side_values(pos);
        let sides = pos.variant().sides().len();
        if pos.variant().teams() {
            return (0..sides).map(|s| if self.maximises(s) { values[s] } else { -values[s] }).sum();
        }
        let opponents: Vec<usize> = (0..sides).filter(|&s| !self.maximises(s) && pos.is_in(s)).collect();
        let own: i32 = (0..sides).filter(|&s| self.maximises(s)).map(|s| values[s]).sum();
        let theirs: i32 = opponents.iter().map(|&s| values[s]).sum::<i32>() / opponents.len().max(1) as i32;
        own - theirs + self.draw_value(pos)
    }

    /// What a draw is worth to the root coalition: 0 with teams; every side
    /// for itself, a share among fewer sides is worth more.
    fn draw_value(&self, pos: &MultiPosition<S>) -> i32 {
        if pos.variant().teams() {
            return 0;
        }
        let sides = pos.variant().sides().len();
        OUT_BONUS * (0..sides).filter(|&s| !self.maximises(s) && !pos.is_in(s)).count() as i32
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.table.len() - 1)
    }

    /// Orders moves: hash move, captures by victim then attacker, killers, the rest.
    fn order(&self, pos: &MultiPosition<S>, list: &[Move], hash_move: u32, ply: usize) -> Vec<Move> {
        let mut scored: Vec<(i32, Move)> = list
            .iter()
            .map(|&m| {
                let key = if m.bits() == hash_move {
                    1_000_000
                } else if let Some((_, victim)) = pos.man_at(m.to()) {
                    let attacker = pos.man_at(m.from()).map_or(0, |(_, k)| self.eval.value(k));
                    100_000 + self.eval.value(victim) * 16 - attacker / 16
                } else if let Some(p) = m.promotion() {
                    90_000 + self.eval.value(p)
                } else if ply < MAX_PLY && self.killers[ply].contains(&m.bits()) {
                    80_000
                } else {
                    0
                };
                (key, m)
            })
            .collect();
        scored.sort_by_key(|&(k, _)| -k);
        scored.into_iter().map(|(_, m)| m).collect()
    }

    /// What a position with no legal move for the side to move is worth.
    /// `None`: every side for itself, the side is out and the game goes on.
    fn no_moves(&self, pos: &MultiPosition<S>, ply: usize) -> Option<i32> {
        let side = pos.side_to_move();
        let sign = if self.maximises(side) { 1 } else { -1 };
        let v = pos.variant();
        if v.teams() {
            return Some(if pos.is_check() { -sign * (MATE - ply as i32) } else { -sign * STALEMATE });
        }
        if self.maximises(side) {
            return Some(-(MATE - ply as i32));
        }
        // An opponent leaves; if only the root side is left, it has won.
        let left: Vec<usize> = pos.sides_in().into_iter().filter(|&s| s != side).collect();
        if left.len() == 1 {
            return Some(if self.maximises(left[0]) { MATE - ply as i32 } else { -(MATE - ply as i32) });
        }
        None
    }

    fn is_draw(&self, pos: &MultiPosition<S>) -> bool {
        let board = pos.variant().board();
        if pos.only_royals() || pos.halfmove_clock() >= board.halfmove_limit(pos.sides_in().len()) {
            return true;
        }
        if board.repetition_limit().is_none() {
            return false;
        }
        let h = pos.hash();
        // Twice before (game or search path) counts as a draw in the search.
        self.history.iter().rev().skip(1).filter(|&&x| x == h).count() >= 1
    }

    fn search(
        &mut self,
        pos: &mut MultiPosition<S>,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        root: bool,
    ) -> (i32, Option<Move>) {
        if self.tick() {
            return (0, None);
        }
        self.seldepth = self.seldepth.max(ply);
        if !root && self.is_draw(pos) {
            return (self.draw_value(pos), None);
        }
        if depth <= 0 || ply + 1 >= MAX_PLY {
            return (self.quiesce(pos, ply, alpha, beta, 0), None);
        }
        let max = self.maximises(pos.side_to_move());
        let key = pos.hash() ^ self.root_key;
        let slot = self.slot(key);
        let e = self.table[slot];
        let mut hash_move = 0;
        if e.key == key {
            hash_move = e.mv;
            if !root && e.depth as i32 >= depth {
                let s = e.score;
                match e.bound {
                    EXACT => return (s, None),
                    LOWER if s >= beta => return (s, None),
                    UPPER if s <= alpha => return (s, None),
                    _ => {}
                }
            }
        }
        let mut list = MoveList::new();
        pos.legal_moves_into(&mut list);
        if list.is_empty() {
            return match self.no_moves(pos, ply) {
                Some(s) => (s, None),
                None => {
                    let mut next = pos.clone();
                    next.remove_side();
                    self.search(&mut next, depth, ply + 1, alpha, beta, false)
                }
            };
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut best = if max { -INF } else { INF };
        let mut best_move = None;
        for m in self.order(pos, &list, hash_move, ply) {
            let undo = pos.play(m);
            self.history.push(pos.hash());
            let (score, _) = self.search(pos, depth - 1, ply + 1, alpha, beta, false);
            self.history.pop();
            pos.unplay(m, undo);
            if self.aborted {
                return (best, best_move);
            }
            let better = if max { score > best } else { score < best };
            if better {
                best = score;
                best_move = Some(m);
            }
            if max {
                alpha = alpha.max(score);
            } else {
                beta = beta.min(score);
            }
            if alpha >= beta {
                if pos.man_at(m.to()).is_none() && ply < MAX_PLY {
                    let k = &mut self.killers[ply];
                    if k[0] != m.bits() {
                        k[1] = k[0];
                        k[0] = m.bits();
                    }
                }
                break;
            }
        }
        let bound = if best <= alpha0 {
            UPPER
        } else if best >= beta0 {
            LOWER
        } else {
            EXACT
        };
        self.table[slot] = Entry {
            key,
            mv: best_move.map_or(0, |m| m.bits()),
            score: best,
            depth: depth.min(i8::MAX as i32) as i8,
            bound,
        };
        (best, best_move)
    }

    fn quiesce(&mut self, pos: &mut MultiPosition<S>, ply: usize, mut alpha: i32, mut beta: i32, qply: u32) -> i32 {
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let max = self.maximises(pos.side_to_move());
        let stand = self.evaluate(pos);
        if max {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
        }
        if qply >= 8 || ply + 1 >= MAX_PLY {
            return stand;
        }
        let mut list = MoveList::new();
        pos.legal_captures_into(&mut list);
        let mut best = stand;
        for m in self.order(pos, &list, 0, MAX_PLY) {
            let undo = pos.play(m);
            let score = self.quiesce(pos, ply + 1, alpha, beta, qply + 1);
            pos.unplay(m, undo);
            if self.aborted {
                return best;
            }
            if max {
                best = best.max(score);
                alpha = alpha.max(score);
            } else {
                best = best.min(score);
                beta = beta.min(score);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }
}
