//! The search: iterative deepening PVS with aspiration windows, quiescence,
//! pruning and reductions, and lazy SMP over a shared transposition table.

use crate::eval::{EvalTables, Material, PieceAttacks};
use crate::features::{Feature, Features};
use crate::params::SearchParams;
use crate::time::TimePlan;
use crate::tt::{Bound, Tt};
use crate::{CurrMove, Limits, Score, SearchInfo, SearchResult};
use raum_rules::{Game, Move, MoveKind, MoveList, Position, StalemateRule, Width};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Deepest ply the search reaches (quiescence included).
pub(crate) const MAX_PLY: usize = 128;
/// Deepest iteration.
const MAX_DEPTH: u32 = 100;
/// The score of delivering mate now; mate in `p` plies scores `MATE - p`.
pub(crate) const MATE: i32 = 32_000;
/// Scores at least this large in magnitude are mates.
const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
const INF: i32 = 32_500;
const DRAW: i32 = 0;
/// What stalemating the opponent is worth, in centipawns, where the variant
/// scores a stalemate (Savard's boards: 3/5 of a point to the side that
/// stalemates, 2/5 to the side stalemated); the stalemated side to move
/// scores `-STALEMATE`. Elsewhere a stalemate is a draw.
// A certain 3/5 is a tenth of a point above a draw and two fifths below a
// win. On the logistic scale `raum match` reports, 3/5 is the expected score
// of a side about 70 Elo stronger: a modest edge, of the order of an extra
// pawn, not a won game. The evaluation's pawn is 100 (Savard's boards derive
// their values with the pawn at 100), so a stalemate counts as a pawn: the
// search takes it over a draw or a level game, plays on when a piece or more
// up (which usually wins, worth more than 3/5), always prefers mate (mate
// scores are over 300 times higher), and the side about to be stalemated
// accepts it only when it is more than a pawn down.
const STALEMATE: i32 = 100;

/// Entries in each thread's evaluation cache (a power of two).
const EVAL_CACHE: usize = 1 << 16;

/// How far mobility and king safety may move the evaluation from material
/// and pawns, for lazy evaluation in quiescence (rarely more than 100 cp in
/// Raum's own games).
const LAZY_MARGIN: i32 = 250;

/// Delta pruning in quiescence: a capture is skipped when even this much
/// on top of the captured piece cannot lift the stand-pat score to alpha.
const DELTA_MARGIN: i32 = 200;

/// How long a search runs before it reports each root move it starts on
/// (the protocol's `info currmove`); shorter searches would only flood a GUI.
pub const CURRMOVE_AFTER: Duration = Duration::from_secs(1);

/// Nodes between checks of the clock and the stop flags.
const POLL_INTERVAL: u64 = 1024;

/// Everything the threads of one search share.
struct Shared<'a, S: Width> {
    tt: &'a Tt,
    et: &'a EvalTables<S>,
    features: Features,
    params: SearchParams,
    /// The caller's stop flag.
    stop: &'a AtomicBool,
    /// Set when the search must end: limits reached, or the main thread is done.
    abort: AtomicBool,
    /// Nodes reported by every thread so far.
    nodes: AtomicU64,
    start: Instant,
    node_limit: Option<u64>,
    plan: TimePlan,
}

/// One ply's bookkeeping.
#[derive(Clone, Copy)]
struct Frame {
    killers: [Option<Move>; 2],
    /// Plies since the last null move (bounds the repetition scan).
    since_null: u32,
}

/// A move with its ordering score.
#[derive(Clone, Copy)]
struct Scored {
    mv: Move,
    score: i32,
}

/// The stages of a node's moves (see `Worker::negamax`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    Captures,
    Killers,
    Rest,
    Done,
}

/// Ordering bands, from first to last.
const ORDER_HASH: i32 = 30_000_000;
const ORDER_GOOD_CAPTURE: i32 = 20_000_000;
const ORDER_PROMOTION: i32 = 19_000_000;
const ORDER_KILLER: i32 = 18_000_000;
const ORDER_BAD_CAPTURE: i32 = -20_000_000;
const ORDER_UNDERPROMOTION: i32 = -30_000_000;
const HISTORY_MAX: i32 = 16_384;
/// Moves picked one by one (selection sort) before the rest are sorted at once.
const SELECT: usize = 6;

struct Worker<'a, S: Width> {
    main: bool,
    shared: &'a Shared<'a, S>,
    et: &'a EvalTables<S>,
    /// Copied from `shared` for the hot paths.
    features: Features,
    params: SearchParams,
    pos: Position<S>,
    cells: usize,
    /// The variant allows the capture and legality shortcuts (see
    /// `raum_rules::Variant::plain_captures`); otherwise every move comes from
    /// the legal generator.
    shortcuts: bool,
    nodes: u64,
    flushed: u64,
    next_poll: u64,
    stopped: bool,
    seldepth: usize,
    /// Hashes of the game's positions, then of the search path; the last is the current position.
    hashes: Vec<u64>,
    /// Material along the search path, kept move by move; the last is the current position's.
    material: Vec<Material>,
    stack: Vec<Frame>,
    /// `[side][from][to]`.
    history: Vec<i32>,
    pv: Vec<Move>,
    pv_len: [usize; MAX_PLY + 1],
    buffers: Vec<Vec<Scored>>,
    /// Per ply: losing captures held back until the quiet moves are listed.
    deferred: Vec<Vec<Scored>>,
    /// Per ply: the legal moves.
    move_lists: Vec<Vec<Move>>,
    /// Where the generator writes before the moves are copied to `move_lists`.
    scratch: Box<MoveList>,
    lmr: Box<[[u8; 64]; 64]>,
    /// Evaluations by hash (`hash`, score).
    eval_cache: Vec<(u64, i32)>,
    /// The side to move's piece attacks from the last full evaluation, and the hash of its position.
    attacks: Box<PieceAttacks<S>>,
    attacks_key: u64,
    /// The best root move found so far, its score and principal variation.
    root_best: Option<(Move, i32, Vec<Move>)>,
    /// The score of a node whose side to move has no move and is not in
    /// check (see [`stalemated`]).
    stalemated: i32,
    /// The root moves to search (`go searchmoves`); empty: all.
    root_allowed: Vec<Move>,
    /// Root moves left out: the lines already found at this iteration (MultiPV).
    root_excluded: Vec<Move>,
    /// Lines to find (MultiPV), at least one.
    lines: usize,
    /// The iteration under way, for [`CurrMove`].
    depth_now: u32,
    /// The main thread's reporter of root moves.
    report: Option<&'a mut dyn FnMut(&CurrMove)>,
    /// MultiPV: the table the lines after the first write to (they read
    /// it, then the shared one), so that the first line's search is exactly
    /// the single-line search.
    side_tt: Option<Tt>,
    /// Whether the side table is in use (a line after the first).
    on_side: bool,
}

/// What an engine brings to a search.
pub(crate) struct Setup<'a, S: Width> {
    pub tt: &'a Tt,
    pub et: &'a EvalTables<S>,
    pub features: Features,
    pub params: SearchParams,
    pub threads: usize,
    pub multipv: usize,
}

/// Searches `game`'s position with `threads` threads.
pub(crate) fn run<S: Width>(
    Setup { tt, et, features, params, threads, multipv }: Setup<'_, S>,
    game: &Game<S>,
    limits: &Limits,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo),
    on_currmove: &mut dyn FnMut(&CurrMove),
) -> SearchResult {
    let start = Instant::now();
    let pos = *game.position();
    let shared = Shared {
        tt,
        et,
        features,
        params,
        stop,
        abort: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        start,
        node_limit: limits.nodes,
        plan: TimePlan::new(limits, pos.side_to_move()),
    };
    let max_depth = limits.depth.map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH));
    let legal = pos.legal_moves();
    if legal.is_empty() {
        let score = if pos.is_check() { Score::Mate(0) } else { Score::Cp(stalemated(&pos)) };
        let info = SearchInfo {
            depth: 0,
            seldepth: 0,
            score,
            nodes: 0,
            time: start.elapsed(),
            pv: Vec::new(),
            multipv: 1,
            hashfull: tt.hashfull(),
        };
        return SearchResult { best: None, ponder: None, lines: vec![info.clone()], info };
    }
    // `searchmoves` that are legal here, in the generator's order; none: all.
    let allowed: Vec<Move> = legal.iter().copied().filter(|m| limits.searchmoves.contains(m)).collect();
    let lines = multipv.clamp(1, if allowed.is_empty() { legal.len() } else { allowed.len() });
    let shared = &shared;
    std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads)
            .map(|id| {
                let allowed = allowed.clone();
                s.spawn(move || {
                    let mut w = Worker::new(shared, game, false);
                    w.root_allowed = allowed;
                    w.iterate(max_depth, 1 + (id as u32 & 1), &mut |_| {});
                    w.flush();
                })
            })
            .collect();
        let mut main = Worker::new(shared, game, true);
        main.root_allowed = allowed;
        main.lines = lines;
        main.report = Some(on_currmove);
        let mut found =
            if lines == 1 { vec![main.iterate(max_depth, 1, on_info)] } else { main.iterate_lines(max_depth, on_info) };
        main.flush();
        if limits.infinite {
            // The protocol's `go infinite` answers only after `stop`.
            while !shared.stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        shared.abort.store(true, Ordering::Relaxed);
        for h in helpers {
            let _ = h.join();
        }
        for line in &mut found {
            line.nodes = shared.nodes.load(Ordering::Relaxed);
            line.time = start.elapsed();
        }
        let info = found[0].clone();
        let best = if lines == 1 { main.root_best.as_ref().map(|b| b.0) } else { info.pv.first().copied() };
        SearchResult { best, ponder: info.pv.get(1).copied(), info, lines: found }
    })
}

/// The score of the side to move in `pos` when it has no move and is not
/// in check: a draw, or being stalemated where the variant scores that.
fn stalemated<S: Width>(pos: &Position<S>) -> i32 {
    match pos.variant().stalemate_rule() {
        StalemateRule::Draw => DRAW,
        StalemateRule::ThreeFifths => -STALEMATE,
    }
}

/// The score in the protocol's terms.
fn to_score(s: i32) -> Score {
    if s >= MATE_BOUND {
        Score::Mate((MATE - s + 1) / 2)
    } else if s <= -MATE_BOUND {
        Score::Mate(-(MATE + s) / 2)
    } else {
        Score::Cp(s)
    }
}

/// Mate scores are stored relative to the node, not the root.
fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// The legal moves of `pos` in `out`, generated into the worker's one
/// fixed-capacity `scratch` list (no large list in any search frame, no copy
/// of the unused capacity).
#[inline(never)]
fn legal_into<S: Width>(pos: &Position<S>, scratch: &mut MoveList, out: &mut Vec<Move>) {
    pos.legal_moves_into(scratch);
    out.clear();
    out.extend_from_slice(scratch);
}

/// The stored score if its bound settles the window `(alpha, beta)`.
#[inline(always)]
fn tt_cutoff(bound: Bound, score: i32, alpha: i32, beta: i32) -> Option<i32> {
    let cut = match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    cut.then_some(score)
}

impl<'a, S: Width> Worker<'a, S> {
    fn new(shared: &'a Shared<'a, S>, game: &Game<S>, main: bool) -> Self {
        let pos = *game.position();
        let cells = pos.variant().cells();
        let mut hashes = Vec::with_capacity(game.hashes().len() + MAX_PLY + 2);
        hashes.extend_from_slice(game.hashes());
        let mut lmr = Box::new([[0u8; 64]; 64]);
        let p = &shared.params;
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (p.lmr_base as f64 / 100.0 + (d as f64).ln() * (m as f64).ln() * 100.0 / p.lmr_div as f64) as u8;
            }
        }
        let mut material = Vec::with_capacity(MAX_PLY + 2);
        material.push(shared.et.material(&pos));
        Worker {
            main,
            shared,
            et: shared.et,
            features: shared.features,
            params: shared.params,
            pos,
            cells,
            shortcuts: pos.variant().plain_captures(),
            nodes: 0,
            flushed: 0,
            next_poll: shared.node_limit.map_or(POLL_INTERVAL, |l| l.min(POLL_INTERVAL)),
            stopped: false,
            seldepth: 0,
            hashes,
            material,
            stack: vec![Frame { killers: [None; 2], since_null: u32::MAX / 2 }; MAX_PLY + 2],
            history: vec![0; 2 * cells * cells],
            pv: vec![Move::normal(0, 0); (MAX_PLY + 1) * (MAX_PLY + 1)],
            pv_len: [0; MAX_PLY + 1],
            buffers: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(256)).collect(),
            deferred: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(32)).collect(),
            move_lists: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(256)).collect(),
            scratch: Box::default(),
            lmr,
            eval_cache: vec![(0, 0); EVAL_CACHE],
            attacks: Box::default(),
            attacks_key: 0,
            root_best: None,
            stalemated: stalemated(&pos),
            root_allowed: Vec::new(),
            root_excluded: Vec::new(),
            lines: 1,
            depth_now: 0,
            report: None,
            side_tt: None,
            on_side: false,
        }
    }

    /// The static evaluation, through the cache.
    #[inline]
    fn eval(&mut self) -> i32 {
        let h = self.pos.hash();
        let slot = self.eval_cache[h as usize & (EVAL_CACHE - 1)];
        if slot.0 == h && h != 0 {
            return slot.1;
        }
        let basic = self.basic();
        self.full_eval(basic)
    }

    /// The current position's material, kept along the path.
    #[inline(always)]
    fn material_here(&self) -> Material {
        *self.material.last().expect("the root's material is pushed first")
    }

    /// The cheap part of the evaluation, from the material kept along the path.
    #[inline(always)]
    fn basic(&self) -> crate::eval::Basic {
        self.et.basic_from(&self.pos, self.material_here())
    }

    /// Plays `m` and pushes the new position's hash and material.
    #[inline(always)]
    fn play(&mut self, m: Move) -> raum_rules::Undo<S> {
        let after = self.et.material_after(&self.pos, m, self.material_here());
        let undo = self.pos.play(m);
        self.hashes.push(self.pos.hash());
        self.material.push(after.unwrap_or_else(|| self.et.material(&self.pos)));
        undo
    }

    #[inline]
    fn full_eval(&mut self, basic: crate::eval::Basic) -> i32 {
        let h = self.pos.hash();
        let e = self.et.finish(&self.pos, basic, &mut self.attacks);
        self.attacks_key = h;
        self.eval_cache[h as usize & (EVAL_CACHE - 1)] = (h, e);
        e
    }

    /// The static evaluation where only its relation to `alpha..beta` matters:
    /// when material and pawns alone are far outside the window, they are the answer.
    #[inline]
    fn lazy_eval(&mut self, alpha: i32, beta: i32) -> i32 {
        let h = self.pos.hash();
        let slot = self.eval_cache[h as usize & (EVAL_CACHE - 1)];
        if slot.0 == h && h != 0 {
            return slot.1;
        }
        let basic = self.basic();
        if basic.score - LAZY_MARGIN >= beta || basic.score + LAZY_MARGIN <= alpha {
            return basic.score;
        }
        self.full_eval(basic)
    }

    /// The table's entry for `hash`, unless the table is switched off for the tree.
    #[inline(always)]
    fn probe(&self, hash: u64) -> Option<crate::tt::TtEntry> {
        if !self.features.has(Feature::Tt) {
            return None;
        }
        if self.on_side
            && let Some(e) = self.side_tt.as_ref().and_then(|t| t.probe(hash))
        {
            return Some(e);
        }
        self.shared.tt.probe(hash)
    }

    /// The table this search writes to: the shared one, or for MultiPV's later lines the side table.
    #[inline(always)]
    fn table(&self) -> &Tt {
        match &self.side_tt {
            Some(t) if self.on_side => t,
            _ => self.shared.tt,
        }
    }

    /// A leaf without quiescence (the `qsearch` feature off): the static
    /// evaluation, or the mate or draw score.
    fn static_leaf(&mut self, ply: usize, in_check: bool) -> i32 {
        if self.count_node() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply + 1);
        if let Some(s) = self.draw_score(ply, in_check) {
            return s;
        }
        if in_check && self.pos.count_legal() == 0 {
            return -MATE + ply as i32;
        }
        self.eval()
    }

    /// Adds this thread's unreported nodes to the shared count.
    fn flush(&mut self) {
        self.shared.nodes.fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// Checks the clock, the node limit and the stop flags.
    #[cold]
    fn poll(&mut self) {
        self.flush();
        let sh = self.shared;
        let total = sh.nodes.load(Ordering::Relaxed);
        self.next_poll = self.nodes + POLL_INTERVAL;
        if let Some(limit) = sh.node_limit {
            if total >= limit {
                sh.abort.store(true, Ordering::Relaxed);
            } else {
                self.next_poll = self.nodes + (limit - total).min(POLL_INTERVAL);
            }
        }
        if self.main
            && let Some(hard) = sh.plan.hard
            && sh.start.elapsed() >= hard
        {
            sh.abort.store(true, Ordering::Relaxed);
        }
        if sh.abort.load(Ordering::Relaxed) || sh.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }

    /// Counts a node; `true` if the search must stop.
    #[inline(always)]
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
        self.stopped
    }

    /// Iterative deepening from `first` to `max_depth`; returns the last completed iteration.
    fn iterate(&mut self, max_depth: u32, first: u32, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchInfo {
        let mut info = self.empty_info();
        // A move to fall back on if not even the first iteration completes.
        if let Some(m) = self.fallback() {
            self.root_best = Some((m, -INF, vec![m]));
        }
        let mut score = 0;
        for depth in first..=max_depth {
            self.seldepth = 0;
            self.depth_now = depth;
            let s = self.aspiration(depth as i32, score);
            if self.stopped {
                // A root move that beat the previous best before the abort is kept (root_best).
                break;
            }
            score = s;
            if let Some((_, _, pv)) = &self.root_best {
                info = SearchInfo {
                    depth,
                    seldepth: self.seldepth as u32,
                    score: to_score(score),
                    nodes: self.nodes,
                    time: self.shared.start.elapsed(),
                    pv: pv.clone(),
                    multipv: 1,
                    hashfull: 0,
                };
            }
            if self.main {
                self.flush();
                info.nodes = self.shared.nodes.load(Ordering::Relaxed);
                info.hashfull = self.shared.tt.hashfull();
                on_info(&info);
                if let Some(soft) = self.shared.plan.soft
                    && self.shared.start.elapsed() >= soft
                {
                    break;
                }
            }
            if self.shared.abort.load(Ordering::Relaxed) || self.shared.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        // An iteration cut short may have found a better root move, which is the one
        // played: report its line, so that the best move, the line and the ponder move agree.
        if let Some((m, s, pv)) = &self.root_best
            && info.pv.first() != Some(m)
        {
            info.pv = pv.clone();
            if *s > -INF {
                info.score = to_score(*s);
            }
        }
        info
    }

    /// A line with nothing in it yet.
    fn empty_info(&self) -> SearchInfo {
        SearchInfo {
            depth: 0,
            seldepth: 0,
            score: Score::Cp(0),
            nodes: 0,
            time: Duration::ZERO,
            pv: Vec::new(),
            multipv: 1,
            hashfull: 0,
        }
    }

    /// The move played if not even the first iteration completes: the table's,
    /// else the first root move that may be searched.
    fn fallback(&self) -> Option<Move> {
        let root = self.pos;
        let legal: Vec<Move> = root
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| self.root_allowed.is_empty() || self.root_allowed.contains(m))
            .collect();
        self.shared.tt.probe(root.hash()).and_then(|e| e.mv).filter(|m| legal.contains(m)).or(legal.first().copied())
    }

    /// Iterative deepening of `self.lines` lines (MultiPV, main thread only):
    /// at each iteration the first line is the root's best move, each later
    /// one the best of the root without the moves before it, each searched
    /// with an aspiration window around its own last score. The first line
    /// is exactly the single-line search (the later lines write to a table of
    /// their own and leave the move-ordering history as they found it), so
    /// MultiPV never changes the move played. A later line can score above
    /// the first only by search noise (the root without a move is worth at
    /// most the root): it is shown at the first's score. Returns the last
    /// completed iteration's lines, best first; when time runs out after the
    /// first line of an iteration, that line with the others of the
    /// iteration before.
    fn iterate_lines(&mut self, max_depth: u32, on_info: &mut dyn FnMut(&SearchInfo)) -> Vec<SearchInfo> {
        self.side_tt = Some(Tt::new((self.shared.tt.megabytes() / 2).max(1)));
        let mut done: Vec<(i32, SearchInfo)> = Vec::new();
        for depth in 1..=max_depth {
            self.depth_now = depth;
            self.root_excluded.clear();
            let mut now: Vec<(i32, SearchInfo)> = Vec::new();
            let mut saved = None;
            for k in 0..self.lines {
                self.seldepth = 0;
                self.root_best = None;
                if k == 1 {
                    saved = Some((self.history.clone(), self.stack.clone()));
                    self.on_side = true;
                }
                let prev = done.get(k).map_or(0, |d| d.0);
                let s = self.aspiration(depth as i32, prev);
                if self.stopped {
                    break;
                }
                let Some((m, _, pv)) = self.root_best.take() else { break };
                self.root_excluded.push(m);
                let info = SearchInfo {
                    depth,
                    seldepth: self.seldepth as u32,
                    score: to_score(s),
                    nodes: self.nodes,
                    time: self.shared.start.elapsed(),
                    pv,
                    multipv: 0,
                    hashfull: 0,
                };
                now.push((s, info));
            }
            self.root_excluded.clear();
            self.on_side = false;
            if let Some((history, stack)) = saved {
                self.history = history;
                self.stack = stack;
            }
            if now.len() < self.lines {
                // Cut short: a first line found at this depth replaces the old first.
                if let Some(first) = now.into_iter().next() {
                    let m = first.1.pv[0];
                    done.retain(|d| d.1.pv[0] != m);
                    done.insert(0, first);
                    done.truncate(self.lines);
                }
                break;
            }
            let first = now[0].0;
            for line in &mut now[1..] {
                if line.0 > first {
                    line.0 = first;
                    line.1.score = to_score(first);
                }
            }
            now[1..].sort_by_key(|d| std::cmp::Reverse(d.0));
            done = now;
            self.flush();
            let nodes = self.shared.nodes.load(Ordering::Relaxed);
            let hashfull = self.shared.tt.hashfull();
            for (k, (_, info)) in done.iter_mut().enumerate() {
                info.multipv = k + 1;
                info.nodes = nodes;
                info.hashfull = hashfull;
                on_info(info);
            }
            if let Some(soft) = self.shared.plan.soft
                && self.shared.start.elapsed() >= soft
            {
                break;
            }
            if self.shared.abort.load(Ordering::Relaxed) || self.shared.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        if done.is_empty() {
            let mut info = self.empty_info();
            info.pv = self.fallback().into_iter().collect();
            return vec![info];
        }
        done.into_iter()
            .enumerate()
            .map(|(k, (_, mut info))| {
                info.multipv = k + 1;
                info
            })
            .collect()
    }

    /// One iteration with an aspiration window around the previous score.
    fn aspiration(&mut self, depth: i32, prev: i32) -> i32 {
        let mut delta = self.params.aspiration;
        let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND && self.features.has(Feature::Aspiration) {
            (prev - delta, prev + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let in_check = self.pos.is_check();
            let s = self.negamax(alpha, beta, depth, 0, in_check, false);
            if self.stopped {
                return s;
            }
            if s <= alpha && alpha > -INF {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INF);
            } else if s >= beta && beta < INF {
                beta = (s + delta).min(INF);
            } else {
                return s;
            }
            delta += delta / 2;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// The score if the current position (at `ply > 0`) is drawn by the
    /// 50-move rule, bare kings or repetition (any earlier occurrence counts).
    #[inline]
    fn draw_score(&self, ply: usize, in_check: bool) -> Option<i32> {
        let pos = &self.pos;
        let clock = pos.halfmove_clock();
        if (clock >= 100 && !in_check) || (pos.kind_cells(pos.variant().king()) ^ pos.occupied()).is_empty() {
            // Stalemate comes before these rules; only where it is scored does that change the value.
            if self.stalemated != DRAW && pos.count_legal() == 0 {
                return Some(self.stalemated);
            }
            return Some(DRAW);
        }
        let window = (clock.min(self.stack[ply].since_null) as usize).min(self.hashes.len() - 1);
        let last = self.hashes.len() - 1;
        let h = self.hashes[last];
        let mut i = 2;
        while i <= window {
            if self.hashes[last - i] == h {
                return Some(DRAW);
            }
            i += 2;
        }
        None
    }

    /// Whether `m`, a hash move, is legal here, decided without the move
    /// generator for a plain move of a piece other than a pawn (its target is
    /// among the piece's attacks and its king is safe after it); `None` for
    /// other moves, which the generator decides.
    fn quick_legal(&self, m: Move) -> Option<bool> {
        if m.kind() != MoveKind::Normal || m.promotion().is_some() || !self.shortcuts {
            return None;
        }
        let (from, to) = (m.from(), m.to());
        if from >= self.cells || to >= self.cells {
            return Some(false);
        }
        let pos = &self.pos;
        let us = pos.side_to_move();
        let Some(p) = pos.piece_at(from).filter(|p| p.color == us) else { return Some(false) };
        if Some(p.kind) == pos.variant().pawn() {
            return None;
        }
        // The cells a piece attacks are where it moves only if it moves as it captures
        // (not so the Five Up king); otherwise only its captures are decided here.
        if !self.et.moves_as_captures(p.kind) && !pos.color_cells(us.opponent()).has(to) {
            return None;
        }
        let reach = self.et.attacks_in(p.kind.index(), from, pos) & !pos.color_cells(us);
        if !reach.has(to) {
            return Some(false);
        }
        let after = pos.play_copy(m);
        Some(!after.king_attacked(us))
    }

    #[inline(always)]
    fn is_capture(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::EnPassant => true,
            MoveKind::Castle => false,
            _ => self.enemy_at(m.to()),
        }
    }

    /// Whether an enemy man stands on `cell` (a move onto a friendly man is a
    /// unicorn mounting or being mounted, not a capture).
    #[inline(always)]
    fn enemy_at(&self, cell: usize) -> bool {
        self.pos.color_cells(self.pos.side_to_move().opponent()).has(cell)
    }

    /// What taking the men on `cell` wins: the piece, and its riding unicorn.
    #[inline(always)]
    fn men_value(&self, cell: usize) -> i32 {
        let pos = &self.pos;
        let rider = pos.variant().rider().filter(|_| pos.rider_at(cell)).map_or(0, |u| self.et.value(u));
        pos.piece_at(cell).map_or(0, |p| self.et.value(p.kind)) + rider
    }

    /// Value of what `m` captures (0 for a quiet move).
    #[inline(always)]
    fn victim_value(&self, m: Move) -> i32 {
        match m.kind() {
            MoveKind::EnPassant => self.et.value(self.pos.variant().pawn().expect("en passant needs pawns")),
            MoveKind::Castle => 0,
            _ if self.enemy_at(m.to()) => self.men_value(m.to()),
            _ => 0,
        }
    }

    #[inline(always)]
    fn mover_value(&self, m: Move) -> i32 {
        self.pos.piece_at(m.from()).map_or(0, |p| self.et.value(p.kind))
    }

    /// A capture that probably loses material: a more valuable piece takes a
    /// defended one.
    #[inline]
    fn losing_capture(&self, m: Move, victim: i32) -> bool {
        let mover = self.mover_value(m);
        if mover <= victim + 50 || m.promotion().is_some() {
            return false;
        }
        let occ = self.pos.occupied() ^ S::single(m.from());
        self.pos.attacked_by(self.pos.side_to_move().opponent(), m.to(), occ)
    }

    /// Whether `m` could give check (`false` is certain); castling and en
    /// passant are not filtered. `disc`: [`EvalTables::discoveries`] here.
    #[inline(always)]
    fn may_check(&self, m: Move, disc: S) -> bool {
        let them = self.pos.side_to_move().opponent();
        match self.pos.piece_at(m.from()) {
            Some(p) if m.kind() == MoveKind::Normal || m.kind() == MoveKind::DoubleStep => {
                let piece = m.promotion().map_or(p, |k| raum_rules::Piece::new(p.color, k));
                self.et.may_check(piece, m.from(), m.to(), self.pos.king_cell(them), disc)
            }
            _ => true,
        }
    }

    #[inline(always)]
    fn history_index(&self, m: Move) -> usize {
        (self.pos.side_to_move().index() * self.cells + m.from()) * self.cells + m.to()
    }

    fn update_history(&mut self, m: Move, bonus: i32) {
        let i = self.history_index(m);
        let h = &mut self.history[i];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let row = ply * (MAX_PLY + 1);
        let child = (ply + 1) * (MAX_PLY + 1);
        self.pv[row + ply] = m;
        let end = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..end {
            self.pv[row + i] = self.pv[child + i];
        }
        self.pv_len[ply] = end;
    }

    /// Plays `m`, pushing its hash; `true` if it gives check.
    #[inline(always)]
    fn make(&mut self, m: Move, ply: usize, disc: S) -> (raum_rules::Undo<S>, bool) {
        // The cheap filter spares most moves the full test.
        let may_check = self.may_check(m, disc);
        let undo = self.play(m);
        self.stack[ply + 1].since_null = self.stack[ply].since_null + 1;
        (undo, may_check && self.pos.is_check())
    }

    #[inline(always)]
    fn unmake(&mut self, m: Move, undo: raum_rules::Undo<S>) {
        self.pos.unplay(m, undo);
        self.hashes.pop();
        self.material.pop();
    }

    fn negamax(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        in_check: bool,
        null_ok: bool,
    ) -> i32 {
        if self.stopped {
            return 0;
        }
        self.pv_len[ply] = ply;
        if in_check && self.features.has(Feature::CheckExtension) {
            depth += 1;
        }
        if depth <= 0 {
            if !self.features.has(Feature::Qsearch) {
                return self.static_leaf(ply, in_check);
            }
            return self.qsearch(alpha, beta, ply, in_check);
        }
        if self.count_node() {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.seldepth = self.seldepth.max(ply + 1);
        if !root {
            if let Some(s) = self.draw_score(ply, in_check) {
                return s;
            }
            if ply >= MAX_PLY - 2 {
                return if in_check { DRAW } else { self.eval() };
            }
            // Mate-distance pruning.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        let hash = self.pos.hash();
        let entry = self.probe(hash);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry
            && !pv_node
            && e.depth >= depth
            && let Some(s) = tt_cutoff(e.bound, score_from_tt(e.score, ply), alpha, beta)
        {
            return s;
        }

        // Only the pruning of non-PV nodes reads the static evaluation.
        let static_eval = if in_check || pv_node { -INF } else { self.eval() };
        let us = self.pos.side_to_move();
        if !pv_node && !in_check {
            // Reverse futility: far above beta near the leaves.
            // (Not with only pawns left: the node might be a stalemate.)
            if depth <= self.params.rfp_depth
                && self.features.has(Feature::ReverseFutility)
                && beta.abs() < MATE_BOUND
                && static_eval - self.params.rfp_margin * depth >= beta
                && self.et.has_pieces(&self.pos, us)
            {
                return static_eval;
            }
            // Null move: give the opponent a free move; if that still fails high, cut.
            if null_ok
                && depth >= self.params.null_depth
                && self.features.has(Feature::NullMove)
                && static_eval >= beta
                && self.et.has_pieces(&self.pos, us)
            {
                let r = self.params.null_reduction(depth, static_eval - beta);
                {
                    let null = self.pos.null_move();
                    let saved = self.pos;
                    self.pos = null;
                    self.hashes.push(null.hash());
                    self.material.push(self.material_here());
                    self.stack[ply + 1].since_null = 0;
                    let s = -self.negamax(-beta, -beta + 1, depth - 1 - r, ply + 1, false, false);
                    self.pos = saved;
                    self.hashes.pop();
                    self.material.pop();
                    if self.stopped {
                        return 0;
                    }
                    if s >= beta {
                        return if s >= MATE_BOUND { beta } else { s };
                    }
                }
            }
        }

        // Away from the root and out of check, moves come in stages: the hash
        // move (when a quick test proves it legal), captures and promotions,
        // killers, then everything else from the legal generator. A cutoff in an
        // early stage spares the generator. Elsewhere all moves are generated first.
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        let quick = tt_move.and_then(|m| self.quick_legal(m));
        let staged = self.shortcuts
            && !root
            && !in_check
            && self.pos.halfmove_clock() < 100
            && (tt_move.is_none() || quick.is_some());
        let mut buf = std::mem::take(&mut self.buffers[ply]);
        buf.clear();
        let mut deferred = std::mem::take(&mut self.deferred[ply]);
        deferred.clear();
        let mut generated = false;
        let mut tt_move = tt_move;
        let mut stage = Stage::Captures;
        if staged {
            tt_move = tt_move.filter(|_| quick == Some(true));
        } else {
            legal_into(&self.pos, &mut self.scratch, &mut moves);
            generated = true;
            if root && self.root_restricted() {
                let (allowed, excluded) = (&self.root_allowed, &self.root_excluded);
                moves.retain(|m| (allowed.is_empty() || allowed.contains(m)) && !excluded.contains(m));
            }
            if moves.is_empty() || (!root && self.pos.halfmove_clock() >= 100) {
                let empty = moves.is_empty();
                self.move_lists[ply] = moves;
                self.buffers[ply] = buf;
                self.deferred[ply] = deferred;
                return match (empty, in_check) {
                    (true, true) => -MATE + ply as i32,
                    (true, false) => self.stalemated,
                    (false, _) => DRAW,
                };
            }
            tt_move = tt_move.filter(|m| moves.contains(m));
            stage = Stage::Rest;
        }
        if let Some(m) = tt_move {
            buf.push(Scored { mv: m, score: ORDER_HASH });
        }
        // The pieces whose captures need a legality test (see `noisy_moves`).
        let mut unsure = S::EMPTY;
        let mut tried_killers: [Option<Move>; 2] = [None; 2];
        let mut sorted = false;

        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets: [Move; 64] = [Move::normal(0, 0); 64];
        let mut quiet_count = 0usize;
        let futile = !pv_node
            && !in_check
            && depth <= self.params.futility_depth
            && self.features.has(Feature::Futility)
            && static_eval + self.params.futility_base + self.params.futility_margin * depth <= alpha;
        let lmp_limit = if depth <= self.params.lmp_depth && self.features.has(Feature::LateMovePruning) {
            self.params.lmp_limit(depth)
        } else {
            usize::MAX
        };
        let killers = self.stack[ply].killers;
        // Where a moving piece could discover a check (for the gives-check filter).
        let disc = self.et.discoveries(&self.pos);

        let mut i = 0;
        loop {
            while i == buf.len() && stage != Stage::Done {
                // The next stage's moves; a batch is only added once the last is used up.
                match stage {
                    Stage::Captures => {
                        let start = buf.len();
                        unsure = self.noisy_moves(&mut buf, None);
                        let mut keep = start;
                        for j in start..buf.len() {
                            let sm = buf[j];
                            if Some(sm.mv) == tt_move {
                                continue;
                            }
                            // (Moves of this stage without a promotion are captures.)
                            if self.features.has(Feature::MvvLva)
                                && sm.mv.promotion().is_none()
                                && self.losing_capture(sm.mv, self.victim_value(sm.mv))
                            {
                                deferred.push(Scored { mv: sm.mv, score: ORDER_BAD_CAPTURE + sm.score });
                                continue;
                            }
                            buf[keep] = sm;
                            keep += 1;
                        }
                        buf.truncate(keep);
                        stage = Stage::Killers;
                    }
                    Stage::Killers => {
                        for (slot, k) in killers.iter().enumerate() {
                            let Some(k) = *k else { continue };
                            if Some(k) != tt_move
                                && k.promotion().is_none()
                                && !self.is_capture(k)
                                && self.quick_legal(k) == Some(true)
                            {
                                buf.push(Scored { mv: k, score: ORDER_KILLER + 1 - slot as i32 });
                                tried_killers[slot] = Some(k);
                            }
                        }
                        stage = Stage::Rest;
                    }
                    Stage::Rest => {
                        if !generated {
                            legal_into(&self.pos, &mut self.scratch, &mut moves);
                            generated = true;
                            if moves.is_empty() {
                                // Staged nodes are not in check: stalemate (nothing was searched).
                                self.move_lists[ply] = moves;
                                self.buffers[ply] = buf;
                                self.deferred[ply] = deferred;
                                return self.stalemated;
                            }
                        }
                        let best_promo = self.et.best_promotion();
                        // In a futile node with a move searched, the loop below prunes every quiet
                        // move that cannot give check: leave them out here, unscored and unsorted.
                        let drop_quiet = futile && !root && best > -MATE_BOUND;
                        for &m in &moves {
                            if Some(m) == tt_move
                                || (staged && (tried_killers.contains(&Some(m)) || self.is_noisy(m, best_promo)))
                                || (drop_quiet
                                    && m.promotion().is_none()
                                    && !self.is_capture(m)
                                    && !self.may_check(m, disc))
                            {
                                continue;
                            }
                            buf.push(Scored { mv: m, score: self.score_move(m, &killers, best_promo) });
                        }
                        buf.append(&mut deferred);
                        stage = Stage::Done;
                    }
                    Stage::Done => {}
                }
                sorted = false;
            }
            if i == buf.len() {
                break;
            }
            // Selection sort for the first few moves (most cutoffs come early), then one sort
            // of the rest of the batch.
            if i < SELECT {
                let mut bi = i;
                for j in i + 1..buf.len() {
                    if buf[j].score > buf[bi].score {
                        bi = j;
                    }
                }
                buf.swap(i, bi);
            } else if !sorted {
                buf[i..].sort_unstable_by_key(|s| std::cmp::Reverse(s.score));
                sorted = true;
            }
            i += 1;
            let m = buf[i - 1].mv;
            if staged
                && (m.from() == self.pos.king_cell(us) || unsure.has(m.from()))
                && self.is_noisy(m, self.et.best_promotion())
            {
                // A pseudo-legal capture or promotion of the capture stage (the generator's
                // are skipped in staged nodes), by the king or a piece that may be pinned.
                let after = self.pos.play_copy(m);
                if after.king_attacked(us) {
                    continue;
                }
            }
            let quiet = m.promotion().is_none() && !self.is_capture(m);
            let is_killer = killers.contains(&Some(m));

            // Late-move and futility pruning of quiet moves, checks excepted.
            let prune =
                !root && !in_check && best > -MATE_BOUND && quiet && !pv_node && (quiet_count >= lmp_limit || futile);
            if prune && !self.may_check(m, disc) {
                continue;
            }
            let (undo, gives_check) = self.make(m, ply, disc);
            if prune && !gives_check {
                self.unmake(m, undo);
                continue;
            }
            searched += 1;
            if root
                && let Some(report) = self.report.as_mut()
                && self.shared.start.elapsed() >= CURRMOVE_AFTER
            {
                report(&CurrMove { depth: self.depth_now, mv: m, number: searched });
            }
            let new_depth = depth - 1;
            let score = if searched == 1 {
                -self.negamax(-beta, -alpha, new_depth, ply + 1, gives_check, true)
            } else {
                let mut r = 0;
                if depth >= 3
                    && self.features.has(Feature::Lmr)
                    && searched > 1 + pv_node as usize
                    && quiet
                    && !in_check
                    && !gives_check
                {
                    r = self.lmr[(depth as usize).min(63)][searched.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if is_killer {
                        r -= 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                // Without PVS, every move gets the full window (plain alpha-beta).
                let zw = if self.features.has(Feature::Pvs) { -alpha - 1 } else { -beta };
                let mut s = -self.negamax(zw, -alpha, new_depth - r, ply + 1, gives_check, true);
                if s > alpha && r > 0 {
                    s = -self.negamax(zw, -alpha, new_depth, ply + 1, gives_check, true);
                }
                if s > alpha && s < beta && zw != -beta {
                    s = -self.negamax(-beta, -alpha, new_depth, ply + 1, gives_check, true);
                }
                s
            };
            self.unmake(m, undo);
            if self.stopped {
                self.buffers[ply] = buf;
                self.move_lists[ply] = moves;
                self.deferred[ply] = deferred;
                return 0;
            }

            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    self.update_pv(ply, m);
                    if root {
                        let pv = self.pv[..self.pv_len[0]].to_vec();
                        self.root_best = Some((m, score, pv));
                    }
                    if score >= beta {
                        if quiet && self.features.has(Feature::Killers) {
                            let k = &mut self.stack[ply].killers;
                            if k[0] != Some(m) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                        }
                        if quiet && self.features.has(Feature::History) {
                            let bonus = (depth * depth).min(400) * 8;
                            self.update_history(m, bonus);
                            for &q in &quiets[..quiet_count.min(quiets.len())] {
                                self.update_history(q, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet {
                if quiet_count < quiets.len() {
                    quiets[quiet_count] = m;
                }
                quiet_count += 1;
            }
        }
        self.buffers[ply] = buf;
        self.move_lists[ply] = moves;
        self.deferred[ply] = deferred;

        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A root searched without some of its moves has no value of its own.
        if !(root && self.root_restricted()) {
            self.table().store(hash, best_move.or(tt_move), score_to_tt(best, ply), depth, bound);
        }
        best
    }

    /// Whether the root's moves are cut down (`searchmoves`, MultiPV).
    fn root_restricted(&self) -> bool {
        !self.root_allowed.is_empty() || !self.root_excluded.is_empty()
    }

    /// The ordering score of `m`: good captures (MVV-LVA), promotions to the
    /// best kind, killers, quiet moves by history, losing captures, underpromotions.
    #[inline]
    fn score_move(&self, m: Move, killers: &[Option<Move>; 2], best_promo: Option<raum_rules::Kind>) -> i32 {
        if m.promotion().is_some() && m.promotion() != best_promo {
            ORDER_UNDERPROMOTION + self.victim_value(m)
        } else if self.is_capture(m) {
            if !self.features.has(Feature::MvvLva) {
                return ORDER_GOOD_CAPTURE;
            }
            let victim = self.victim_value(m);
            let mvv = victim * 16 - self.mover_value(m) / 16;
            if self.losing_capture(m, victim) { ORDER_BAD_CAPTURE + mvv } else { ORDER_GOOD_CAPTURE + mvv }
        } else if m.promotion().is_some() {
            ORDER_PROMOTION
        } else if Some(m) == killers[0] {
            ORDER_KILLER + 1
        } else if Some(m) == killers[1] {
            ORDER_KILLER
        } else {
            self.history[self.history_index(m)]
        }
    }

    /// Whether `m` is among the moves [`Worker::noisy_moves`] lists: a plain
    /// capture (no en passant) or a promotion to the best kind.
    #[inline(always)]
    fn is_noisy(&self, m: Move, best_promo: Option<raum_rules::Kind>) -> bool {
        m.kind() == MoveKind::Normal
            && ((m.promotion().is_some() && m.promotion() == best_promo)
                || (m.promotion().is_none() && self.enemy_at(m.to())))
    }

    /// Pseudo-legal captures and best-kind promotions for quiescence (the side
    /// to move is not in check), scored by MVV-LVA; with `prune` (stand-pat
    /// score, alpha), without the ones delta pruning or the losing-capture test
    /// drop. En passant is left out. Returns
    /// the cells of pieces that may be pinned: their moves (and king moves) need
    /// a legality test after they are played.
    fn noisy_moves(&self, buf: &mut Vec<Scored>, prune: Option<(i32, i32)>) -> S {
        let pos = &self.pos;
        let et = self.et;
        let v = pos.variant();
        let us = pos.side_to_move();
        let them = us.opponent();
        let own = pos.color_cells(us);
        let enemy = pos.color_cells(them);
        let occ = own | enemy;
        let kinds = v.pieces().len();
        let pawn = v.pawn();
        let king = pos.king_cell(us);
        let geo = v.tables();
        if !self.shortcuts {
            return self.noisy_legal(buf, prune);
        }
        let mut unsure = S::EMPTY;
        for &k in et.sliders() {
            for s in (pos.pieces(them, raum_rules::Kind(k as u8)) & et.aligned(king)).cells() {
                let b = geo.between(king, s) & occ;
                if (b & own).any() && !b.several() {
                    unsure |= b;
                }
            }
        }
        let push = |buf: &mut Vec<Scored>, m: Move, gain: i32, mover: i32, capture: bool, victim: i32| {
            if let Some((stand, alpha)) = prune
                && m.promotion().is_none()
                && (stand + gain + DELTA_MARGIN <= alpha || (capture && self.losing_capture(m, victim)))
            {
                return;
            }
            let score = if self.features.has(Feature::MvvLva) { gain * 16 - mover / 16 } else { 0 };
            buf.push(Scored { mv: m, score });
        };
        let mut captures = |from: usize, k: usize, targets: S| {
            let mover = et.value(raum_rules::Kind(k as u8));
            for to in (targets & enemy).cells() {
                let victim = pos.piece_at(to).map_or(0, |p| et.value(p.kind));
                push(buf, Move::normal(from, to), victim, mover, true, victim);
            }
        };
        let kk = v.king().index();
        captures(king, kk, et.attacks_in(kk, king, pos));
        if self.attacks_key == pos.hash() && self.attacks.complete {
            // The evaluation of this position just computed them.
            for &(from, k, att) in &self.attacks.list[..self.attacks.len] {
                captures(from as usize, k as usize, att);
            }
        } else {
            for k in 0..kinds {
                if Some(raum_rules::Kind(k as u8)) == pawn || k == kk {
                    continue;
                }
                for from in pos.pieces(us, raum_rules::Kind(k as u8)).cells() {
                    captures(from, k, et.attacks_in(k, from, pos));
                }
            }
        }
        if let Some(p) = pawn {
            let zone = v.promotion_zone(self.pos.pawn_set(us));
            let promo = et.best_promotion();
            let promo_gain = promo.map_or(0, |k| et.value(k)) - et.value(p);
            let mover = et.value(p);
            // A pawn's capture (a promotion inside the zone) or promoting step.
            let pawn_move = |buf: &mut Vec<Scored>, from: usize, to: usize, capture: bool| {
                let victim = if capture { pos.piece_at(to).map_or(0, |p| et.value(p.kind)) } else { 0 };
                if zone.has(to) {
                    push(
                        buf,
                        Move::new(from, to, MoveKind::Normal, promo),
                        victim + promo_gain,
                        mover,
                        capture,
                        victim,
                    );
                } else {
                    push(buf, Move::normal(from, to), victim, mover, capture, victim);
                }
            };
            let pawns = pos.pieces(us, p);
            if let Some(shifts) = v.pawn_shifts() {
                // All pawns at once, one shift per vector.
                for sh in &shifts.captures[us.index()] {
                    for to in (sh.apply(pawns) & enemy).cells() {
                        pawn_move(buf, (to as i32 - sh.delta) as usize, to, true);
                    }
                }
                for sh in &shifts.steps[us.index()] {
                    for to in (sh.apply(pawns) & zone & !occ).cells() {
                        pawn_move(buf, (to as i32 - sh.delta) as usize, to, false);
                    }
                }
            } else {
                for from in pawns.cells() {
                    for to in (et.pawn_attacks(us, from) & enemy).cells() {
                        pawn_move(buf, from, to, true);
                    }
                    for to in (et.pawn_steps(us, from) & zone & !occ).cells() {
                        pawn_move(buf, from, to, false);
                    }
                }
            }
        }
        unsure
    }

    /// [`Worker::noisy_moves`] from the legal generator, for variants where
    /// the shortcuts do not hold: the same moves (captures but en passant,
    /// best-kind promotions), scored and pruned alike; none needs a test.
    fn noisy_legal(&self, buf: &mut Vec<Scored>, prune: Option<(i32, i32)>) -> S {
        let pos = &self.pos;
        let et = self.et;
        let best = et.best_promotion();
        let pawn_value = pos.variant().pawn().map_or(0, |p| et.value(p));
        let promo_gain = best.map_or(0, |k| et.value(k)) - pawn_value;
        for &m in pos.legal_moves().iter() {
            if m.kind() != MoveKind::Normal || (m.promotion().is_some() && m.promotion() != best) {
                continue;
            }
            let capture = self.enemy_at(m.to());
            let victim = if capture { self.men_value(m.to()) } else { 0 };
            if !capture && m.promotion().is_none() {
                continue;
            }
            let gain = victim + if m.promotion().is_some() { promo_gain } else { 0 };
            if let Some((stand, alpha)) = prune
                && m.promotion().is_none()
                && (stand + gain + DELTA_MARGIN <= alpha || (capture && self.losing_capture(m, victim)))
            {
                continue;
            }
            let mover = self.mover_value(m);
            let score = if self.features.has(Feature::MvvLva) { gain * 16 - mover / 16 } else { 0 };
            buf.push(Scored { mv: m, score });
        }
        S::EMPTY
    }

    /// Quiescence: stand pat, then captures and promotions (all evasions in check).
    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, in_check: bool) -> i32 {
        if self.count_node() {
            return 0;
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply + 1);
        if let Some(s) = self.draw_score(ply, in_check) {
            return s;
        }
        if ply >= MAX_PLY - 2 {
            return if in_check { DRAW } else { self.eval() };
        }
        // With only the king and pawns, standing pat could hide a stalemate.
        if !in_check && !self.et.has_pieces(&self.pos, self.pos.side_to_move()) && self.pos.count_legal() == 0 {
            return self.stalemated;
        }
        let pv_node = beta - alpha > 1;
        let hash = self.pos.hash();
        let entry = self.probe(hash);
        if let Some(e) = entry
            && !pv_node
            && let Some(s) = tt_cutoff(e.bound, score_from_tt(e.score, ply), alpha, beta)
        {
            return s;
        }
        let stand = if in_check { -INF } else { self.lazy_eval(alpha, beta) };
        if stand >= beta {
            return stand;
        }
        let original_alpha = alpha;
        alpha = alpha.max(stand);
        let mut buf = std::mem::take(&mut self.buffers[ply]);
        buf.clear();
        // Pieces whose captures need a legality test (see `noisy_moves`).
        let mut unsure = S::EMPTY;
        if in_check {
            let mut moves = std::mem::take(&mut self.move_lists[ply]);
            legal_into(&self.pos, &mut self.scratch, &mut moves);
            for &m in &moves {
                let score = if (self.is_capture(m) || m.promotion().is_some()) && self.features.has(Feature::MvvLva) {
                    self.victim_value(m) * 16 - self.mover_value(m) / 16
                } else if self.is_capture(m) || m.promotion().is_some() {
                    0
                } else {
                    -INF
                };
                buf.push(Scored { mv: m, score });
            }
            let mated = moves.is_empty();
            self.move_lists[ply] = moves;
            if mated {
                self.buffers[ply] = buf;
                return -MATE + ply as i32;
            }
        } else {
            let prune = self.features.has(Feature::Delta).then_some((stand, alpha));
            unsure = self.noisy_moves(&mut buf, prune);
        }
        let mut best = stand;
        let disc = if buf.is_empty() { S::EMPTY } else { self.et.discoveries(&self.pos) };
        let mut best_move = None;
        for i in 0..buf.len() {
            let mut bi = i;
            for j in i + 1..buf.len() {
                if buf[j].score > buf[bi].score {
                    bi = j;
                }
            }
            buf.swap(i, bi);
            let m = buf[i].mv;
            let us = self.pos.side_to_move();
            // Evasions come from the legal generator; a pseudo-legal capture needs a
            // test if the king moves or the mover may be pinned.
            let test = !in_check && (m.from() == self.pos.king_cell(us) || (unsure & S::single(m.from())).any());
            let may_check = self.may_check(m, disc);
            let undo = self.play(m);
            if test && self.pos.king_attacked(us) {
                self.unmake(m, undo);
                continue;
            }
            self.stack[ply + 1].since_null = self.stack[ply].since_null + 1;
            let gives_check = may_check && self.pos.is_check();
            let score = -self.qsearch(-beta, -alpha, ply + 1, gives_check);
            self.unmake(m, undo);
            if self.stopped {
                self.buffers[ply] = buf;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = buf;
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table().store(hash, best_move, score_to_tt(best, ply), 0, bound);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use raum_rules::{Variant, VariantFn, VariantId};

    /// Shared state for a worker that only generates or tests moves in `p`.
    fn test_shared<'a, S: Width>(
        tt: &'a Tt,
        stop: &'a AtomicBool,
        id: VariantId,
        limits: &Limits,
        p: &Position<S>,
    ) -> Shared<'a, S> {
        Shared {
            tt,
            et: EvalTables::get(id),
            features: Features::default(),
            params: SearchParams::default(),
            stop,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            start: Instant::now(),
            node_limit: None,
            plan: TimePlan::new(limits, p.side_to_move()),
        }
    }

    /// A xorshift step: the tests' random games.
    fn next(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// The quiescence generator, with its legality tests, against the rules'
    /// legal moves in random games of one variant: the same captures (en
    /// passant aside) and best-kind promotions. Returns the positions checked.
    struct NoisyMoves<'a>(&'a mut u64);
    impl VariantFn for NoisyMoves<'_> {
        type Output = usize;
        fn call<S: Width>(self, v: &'static Variant<S>) -> usize {
            let (seed, id) = (self.0, v.id());
            let tt = Tt::new(1);
            let stop = AtomicBool::new(false);
            let limits = Limits::default();
            let mut checked = 0;
            for _game in 0..60 {
                let mut game = Game::new(Position::start(v));
                for _ply in 0..150 {
                    let p = *game.position();
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    if !p.is_check() {
                        let shared = test_shared(&tt, &stop, id, &limits, &p);
                        let w = Worker::new(&shared, &game, true);
                        let mut buf = Vec::new();
                        let unsure = w.noisy_moves(&mut buf, None);
                        let us = p.side_to_move();
                        let mut got: Vec<Move> = Vec::new();
                        for s in &buf {
                            let m = s.mv;
                            if m.from() == p.king_cell(us) || unsure.has(m.from()) {
                                let after = p.play_copy(m);
                                if after.king_attacked(us) {
                                    assert!(!p.is_legal(m));
                                    continue;
                                }
                            }
                            assert!(p.is_legal(m), "{m:?} in {:?}", p);
                            got.push(m);
                        }
                        let best = w.et.best_promotion();
                        let mut want: Vec<Move> = moves
                            .iter()
                            .copied()
                            .filter(|&m| {
                                m.kind() == MoveKind::Normal
                                    && (m.promotion() == best && best.is_some()
                                        || m.promotion().is_none()
                                            && p.color_cells(p.side_to_move().opponent()).has(m.to()))
                            })
                            .collect();
                        got.sort();
                        want.sort();
                        assert_eq!(got, want, "{:?}", p);
                        checked += 1;
                    }
                    game.play(moves[(next(seed) % moves.len() as u64) as usize]).unwrap();
                }
            }
            checked
        }
    }

    #[test]
    fn noisy_moves_are_the_legal_captures_and_promotions() {
        let mut seed = 0x1234_5678_9ABC_DEF1u64;
        let checked: usize = VariantId::ALL.iter().map(|id| id.dispatch(NoisyMoves(&mut seed))).sum();
        assert!(checked > 5000, "{checked}");
    }

    /// The hash-move test without the generator against the generator, for
    /// the legal moves and for moves borrowed from other positions, in random
    /// games of one variant. Returns the moves decided and how many of them
    /// were illegal.
    struct QuickLegal<'a>(&'a mut u64);
    impl VariantFn for QuickLegal<'_> {
        type Output = (usize, usize);
        fn call<S: Width>(self, v: &'static Variant<S>) -> (usize, usize) {
            let (seed, id) = (self.0, v.id());
            let tt = Tt::new(1);
            let stop = AtomicBool::new(false);
            let limits = Limits::default();
            let (mut decided, mut illegal) = (0, 0);
            for _game in 0..20 {
                let mut game = Game::new(Position::start(v));
                let mut earlier: Vec<Move> = Vec::new();
                for _ply in 0..120 {
                    let p = *game.position();
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let shared = test_shared(&tt, &stop, id, &limits, &p);
                    let w = Worker::new(&shared, &game, true);
                    // `is_legal` without generating again for every move tried.
                    let mut legal: Vec<Move> = moves.iter().copied().collect();
                    legal.sort_unstable();
                    for &m in moves.iter().chain(earlier.iter()) {
                        if let Some(ok) = w.quick_legal(m) {
                            let is_legal = legal.binary_search(&m).is_ok();
                            assert_eq!(ok, is_legal, "{m:?} in {}", raum_notation::format_position(&p));
                            decided += 1;
                            illegal += usize::from(!ok);
                        }
                    }
                    earlier.extend(moves.iter().copied());
                    if earlier.len() > 400 {
                        earlier.drain(..200);
                    }
                    game.play(moves[(next(seed) % moves.len() as u64) as usize]).unwrap();
                }
            }
            (decided, illegal)
        }
    }

    #[test]
    fn quick_legality_agrees_with_the_generator() {
        let mut seed = 0x0DDB_1A5E_5BAD_5EEDu64;
        let (mut decided, mut illegal) = (0, 0);
        for id in VariantId::ALL {
            let (d, i) = id.dispatch(QuickLegal(&mut seed));
            decided += d;
            illegal += i;
        }
        assert!(decided > 100_000 && illegal > 10_000, "{decided} {illegal}");
    }

    #[test]
    fn mate_scores_convert() {
        assert_eq!(to_score(MATE - 1), Score::Mate(1));
        assert_eq!(to_score(MATE - 3), Score::Mate(2));
        assert_eq!(to_score(-MATE), Score::Mate(0));
        assert_eq!(to_score(-MATE + 2), Score::Mate(-1));
        assert_eq!(to_score(-MATE + 4), Score::Mate(-2));
        assert_eq!(to_score(123), Score::Cp(123));
        for ply in [0, 5, 40] {
            for s in [MATE - 7, -MATE + 9, 250] {
                assert_eq!(score_from_tt(score_to_tt(s, ply), ply), s);
            }
        }
    }
}
