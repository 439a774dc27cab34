//! `raum uci`: the engine protocol in the UCI style (DESIGN.md "Interfaces").
//!
//! Commands are read line by line from standard input; answers go to standard
//! output, one flushed line at a time. The search runs on its own thread so
//! that `stop`, `isready` and `quit` are answered while it runs. Bad input never
//! ends the session: it is answered with `info string error: <what was wrong>`.
//! [`run`] is the session itself, on any input and output, so that tests and
//! the fuzz targets can drive it in-process.

use anyhow::Result;
use raum_engine::multi::{MultiEngine, MultiSearch};
use raum_engine::{CurrMove, Engine, LEVELS, Limits, Score, SearchInfo, Skill, level_elos, strength_for_elo, wdl};
use raum_notation::{format_move, parse_coordinate, parse_position};
use raum_rules::multi::MultiId;
use raum_rules::{Game, Position, Variant, VariantFn, VariantId, Width};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

pub(crate) const DEFAULT_HASH_MB: usize = 16;
pub(crate) const MAX_HASH_MB: usize = 4096;
const DEFAULT_THREADS: usize = 1;
const MAX_THREADS: usize = 64;
/// Most lines `MultiPV` may ask for.
const MAX_MULTIPV: usize = 256;
/// The seed of a session's level: a script replayed gets the same moves.
const SKILL_SEED: u64 = 0x5EED;

/// Bounds that a harness puts on a session so that any input ends soon and
/// stays small (a fuzz target cannot wait for `go depth 100` or zero a 4 GB
/// table per input). `raum uci` runs with none: `Caps::default()`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Caps {
    /// Most nodes any one search may visit, whatever `go` asked for.
    pub nodes: Option<u64>,
    /// Largest hash table in MB (the default and `setoption Hash` are cut to it).
    pub hash_mb: Option<usize>,
    /// Most search threads (`setoption Threads` is cut to it).
    pub threads: Option<usize>,
}

/// The session's output, shared with the search thread: whole lines, each
/// flushed at once, so that the two threads' lines never interleave.
#[derive(Clone)]
pub(crate) struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    /// Writes one line and flushes it (from either thread).
    pub(crate) fn send(&self, line: &str) {
        // A poisoned lock only means another line failed half-way; keep answering.
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A closed output cannot be reported anywhere; the session ends at the end of input.
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    pub(crate) fn error(&self, what: &str) {
        self.send(&format!("info string error: {what}"));
    }
}

/// A search in progress: its stop flag and the thread, which hands the engine back.
pub(crate) struct Running {
    pub(crate) stop: Arc<AtomicBool>,
    /// `go infinite` or no limit at all: only `stop` ends it.
    pub(crate) unbounded: bool,
    /// Set just before `bestmove` is written: from then on the thread only hands
    /// the engine back, so a command sent after `bestmove` waits for that.
    pub(crate) answered: Arc<AtomicBool>,
    pub(crate) handle: JoinHandle<Returned>,
}

/// The engine a search thread hands back.
pub(crate) enum Returned {
    /// The two-player engine.
    Two(Engine),
    /// The multi-player engine.
    Multi(Box<MultiEngine>),
}

/// The game a session plays: a two-player variant or a multi-player game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chosen {
    Two(VariantId),
    Multi(MultiId),
}

impl Chosen {
    /// The game named by `UCI_Variant`'s value.
    pub(crate) fn from_name(name: &str) -> Result<Chosen, raum_rules::UnknownVariant> {
        match MultiId::from_name(name) {
            Some(id) => Ok(Chosen::Multi(id)),
            None => VariantId::from_name(name).map(Chosen::Two),
        }
    }
}

/// `option name UCI_Variant ...`: every game the session plays, `current` first.
pub(crate) fn variant_option(current: &str) -> String {
    let vars: String = VariantId::ALL
        .iter()
        .map(|v| v.name())
        .chain(MultiId::ALL.iter().map(|m| m.name()))
        .map(|v| format!(" var {v}"))
        .collect();
    format!("option name UCI_Variant type combo default {current}{vars}")
}

/// What a session keeps whatever the variant: the options, the engine (whose
/// table serves every width) and the search under way.
pub(crate) struct Session {
    pub(crate) out: Out,
    pub(crate) caps: Caps,
    pub(crate) hash_mb: usize,
    threads: usize,
    /// `None` while a search owns it.
    engine: Option<Engine>,
    /// The multi-player engine, made on first use; `None` while a search owns it.
    pub(crate) multi: Option<Box<MultiEngine>>,
    /// The search every side for itself (`setoption name MultiSearch`).
    pub(crate) multi_search: MultiSearch,
    /// Lines searched (`MultiPV`).
    multipv: usize,
    /// Whether info lines carry win/draw/loss chances (`UCI_ShowWDL`).
    show_wdl: bool,
    /// The playing level (`Skill Level`), the top one the full engine.
    level: u32,
    /// Whether `UCI_Elo` rather than `Skill Level` sets the strength (`UCI_LimitStrength`).
    limit_strength: bool,
    /// The strength asked for on the variant's scale (`UCI_Elo`).
    elo: i32,
    pub(crate) running: Option<Running>,
}

/// What the session does after a line.
pub(crate) enum Next {
    /// Read the next line.
    Continue,
    /// `quit`: end the session.
    Quit,
    /// `setoption name UCI_Variant` named this game: go on with it, at its width.
    Variant(Chosen),
}

pub(crate) fn score_text(s: Score) -> String {
    match s {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// What an info line shows besides the line itself.
#[derive(Clone, Copy)]
struct Shown {
    /// `multipv N` (when more than one line is searched).
    multipv: bool,
    /// `wdl W D L`.
    wdl: bool,
}

/// `UCI_Elo`'s range in the variant `id`: its measured scale, whole numbers.
fn elo_range(id: VariantId) -> (i32, i32) {
    let (scale, _) = level_elos(id);
    (scale[0].round() as i32, scale[scale.len() - 1].round() as i32)
}

fn info_line<S: Width>(v: &Variant<S>, i: &SearchInfo, shown: Shown) -> String {
    let ms = i.time.as_millis();
    let nps = (i.nodes as u128 * 1000) / ms.max(1);
    let mut s = format!("info depth {} seldepth {}", i.depth, i.seldepth);
    if shown.multipv {
        s.push_str(&format!(" multipv {}", i.multipv));
    }
    s.push_str(&format!(" score {}", score_text(i.score)));
    if shown.wdl {
        let w = wdl(i.score);
        s.push_str(&format!(" wdl {} {} {}", w.win, w.draw, w.loss));
    }
    s.push_str(&format!(" nodes {} nps {} hashfull {} time {}", i.nodes, nps, i.hashfull, ms));
    if !i.pv.is_empty() {
        s.push_str(" pv");
        for &m in &i.pv {
            s.push(' ');
            s.push_str(&format_move(v, m));
        }
    }
    s
}

impl Session {
    fn new(out: Out, caps: Caps) -> Session {
        let hash_mb = caps.hash_mb.map_or(DEFAULT_HASH_MB, |c| DEFAULT_HASH_MB.min(c));
        let threads = caps.threads.map_or(DEFAULT_THREADS, |c| DEFAULT_THREADS.min(c));
        Session {
            out,
            caps,
            hash_mb,
            threads,
            engine: None,
            multi: None,
            multi_search: MultiSearch::default(),
            multipv: 1,
            show_wdl: false,
            level: LEVELS,
            limit_strength: false,
            elo: 0,
            running: None,
        }
    }

    /// The strength to play at in the variant `id`: the level, or with
    /// `UCI_LimitStrength` the one `UCI_Elo` calls for on `id`'s scale.
    fn strength(&self, id: VariantId) -> f64 {
        if self.limit_strength { strength_for_elo(id, f64::from(self.elo)).0 } else { f64::from(self.level) }
    }

    /// The engine, created on first use (so that `setoption Hash` before the first
    /// search does not allocate twice).
    fn engine(&mut self) -> &mut Engine {
        let (h, t) = (self.hash_mb, self.threads);
        self.engine.get_or_insert_with(|| Engine::new(h, t))
    }

    /// Takes back a search that has ended by itself; true while one still runs.
    fn searching(&mut self) -> bool {
        if self.running.as_ref().is_some_and(|r| r.answered.load(Ordering::SeqCst) || r.handle.is_finished()) {
            self.join();
        }
        self.running.is_some()
    }

    /// Waits for the running search (if any) to end and takes the engine back.
    pub(crate) fn join(&mut self) {
        if let Some(r) = self.running.take() {
            match r.handle.join() {
                Ok(Returned::Two(engine)) => self.engine = Some(engine),
                Ok(Returned::Multi(engine)) => self.multi = Some(engine),
                Err(_) => {
                    self.out.error("the search thread failed; starting a fresh engine");
                    self.engine = None;
                }
            }
        }
    }

    /// Before a command that changes what is searched (`go`, `position`,
    /// `ucinewgame`, `setoption`): a bounded search is waited for, so that a
    /// script's commands take effect in the order sent, as in Stockfish. An
    /// unbounded one ends only by `stop`: false while it runs.
    pub(crate) fn settle(&mut self) -> bool {
        if !self.searching() {
            return true;
        }
        if self.running.as_ref().is_some_and(|r| r.unbounded) {
            return false;
        }
        self.join();
        true
    }

    pub(crate) fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
        }
        self.join();
    }

    /// End of input: a bounded search is waited for, an unbounded one stopped.
    pub(crate) fn finish(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.unbounded) {
            self.stop();
        } else {
            self.join();
        }
    }
}

/// The session on one variant, at that variant's width: reads commands until
/// `quit`, the end of input, or a change of variant (which it hands back to
/// [`uci`] to be dispatched anew).
struct OnVariant<'a> {
    session: &'a mut Session,
    input: &'a mut dyn BufRead,
}

impl VariantFn for OnVariant<'_> {
    type Output = Option<Chosen>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Option<Chosen> {
        let mut here = Here { s: self.session, v, game: Game::new(Position::start(v)), position_set: false };
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match self.input.read_until(b'\n', &mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    here.s.out.error(&format!("cannot read input: {e}"));
                    break;
                }
            }
            // Bytes that are not UTF-8 become U+FFFD and so an unknown command.
            let line = String::from_utf8_lossy(&buf);
            match here.handle(&line) {
                Next::Continue => {}
                Next::Quit => return None,
                Next::Variant(id) => return Some(id),
            }
        }
        here.s.finish();
        None
    }
}

/// The session's state on variant `v`: the game at its width.
struct Here<'a, S: Width> {
    s: &'a mut Session,
    v: &'static Variant<S>,
    game: Game<S>,
    /// Whether `position` has been given since the start or the last variant change.
    position_set: bool,
}

impl<S: Width> Here<'_, S> {
    /// Handles one line.
    fn handle(&mut self, line: &str) -> Next {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else { return Next::Continue };
        match cmd {
            "uci" => self.uci(),
            "isready" => self.s.out.send("readyok"),
            "setoption" => return self.setoption(args),
            "ucinewgame" => {
                if !self.s.settle() {
                    self.s.out.error("ucinewgame during an infinite search; send stop first");
                } else {
                    self.s.engine().new_game();
                    self.game = Game::new(Position::start(self.v));
                    self.position_set = false;
                }
            }
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => self.s.stop(),
            "quit" => {
                self.s.stop();
                return Next::Quit;
            }
            _ => self.s.out.error(&format!("unknown command '{cmd}'")),
        }
        Next::Continue
    }

    fn uci(&self) {
        let out = &self.s.out;
        out.send(&format!("id name Raum {}", env!("CARGO_PKG_VERSION")));
        out.send("id author Raum developers");
        // Every game the rules build, so that a new one is offered as soon as it exists.
        out.send(&variant_option(self.v.id().name()));
        out.send(&format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"));
        out.send(&format!("option name Threads type spin default {DEFAULT_THREADS} min 1 max {MAX_THREADS}"));
        out.send(&format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"));
        out.send("option name UCI_ShowWDL type check default false");
        out.send(&format!("option name Skill Level type spin default {LEVELS} min 1 max {LEVELS}"));
        out.send("option name UCI_LimitStrength type check default false");
        let (lo, hi) = elo_range(self.v.id());
        out.send(&format!("option name UCI_Elo type spin default {lo} min {lo} max {hi}"));
        out.send("uciok");
    }

    fn setoption(&mut self, args: &[&str]) -> Next {
        if !self.s.settle() {
            self.s.out.error("setoption during a search (go infinite); send stop first");
            return Next::Continue;
        }
        if args.first().is_none_or(|a| !a.eq_ignore_ascii_case("name")) {
            self.s.out.error("setoption needs 'name <option> value <value>'");
            return Next::Continue;
        }
        let rest = &args[1..];
        let vi = rest.iter().position(|a| a.eq_ignore_ascii_case("value"));
        let (name, value) = match vi {
            Some(i) => (rest[..i].join(" "), rest[i + 1..].join(" ")),
            None => (rest.join(" "), String::new()),
        };
        let out = &self.s.out;
        let spin = |value: &str, max: usize, cap: Option<usize>| -> Option<usize> {
            match value.parse::<usize>() {
                Ok(n) if (1..=max).contains(&n) => Some(cap.map_or(n, |c| n.min(c))),
                _ => {
                    out.error(&format!("option {name} needs a whole number from 1 to {max}, not '{value}'"));
                    None
                }
            }
        };
        match name.to_ascii_lowercase().as_str() {
            "" => out.error("setoption needs an option name"),
            // The new variant's game starts afresh (the same variant's too), at its width.
            "uci_variant" => match Chosen::from_name(&value.to_ascii_lowercase()) {
                Ok(id) => return Next::Variant(id),
                Err(e) => out.error(&format!("UCI_Variant: {e}")),
            },
            "hash" => {
                if let Some(mb) = spin(&value, MAX_HASH_MB, self.s.caps.hash_mb) {
                    self.s.hash_mb = mb;
                    if let Some(e) = &mut self.s.engine {
                        e.set_hash(mb);
                    }
                }
            }
            "threads" => {
                if let Some(n) = spin(&value, MAX_THREADS, self.s.caps.threads) {
                    self.s.threads = n;
                    if let Some(e) = &mut self.s.engine {
                        e.set_threads(n);
                    }
                }
            }
            "multipv" => {
                if let Some(n) = spin(&value, MAX_MULTIPV, None) {
                    self.s.multipv = n;
                }
            }
            "skill level" => {
                if let Some(n) = spin(&value, LEVELS as usize, None) {
                    self.s.level = n as u32;
                }
            }
            "uci_limitstrength" => match check_value(&value) {
                Some(on) => self.s.limit_strength = on,
                None => out.error(&format!("option UCI_LimitStrength needs true or false, not '{value}'")),
            },
            "uci_elo" => match value.trim().parse::<i32>() {
                Ok(elo) => {
                    self.s.elo = elo;
                    let id = self.v.id();
                    let (lo, hi) = elo_range(id);
                    if !(lo..=hi).contains(&elo) {
                        let (s, _) = strength_for_elo(id, f64::from(elo));
                        out.send(&format!(
                            "info string UCI_Elo {elo} is outside {}'s measured scale ({lo} to {hi}): level {s} plays",
                            id.name()
                        ));
                    }
                }
                Err(_) => out.error(&format!("option UCI_Elo needs a whole number, not '{value}'")),
            },
            "uci_showwdl" => match check_value(&value) {
                Some(on) => self.s.show_wdl = on,
                None => out.error(&format!("option UCI_ShowWDL needs true or false, not '{value}'")),
            },
            _ => out.error(&format!(
                "unknown option '{name}' (options: UCI_Variant, Hash, Threads, MultiPV, UCI_ShowWDL, Skill Level, \
                 UCI_LimitStrength, UCI_Elo)"
            )),
        }
        Next::Continue
    }

    /// `position startpos|fen <string> [moves ...]`. On any error the previous
    /// position is kept.
    fn position(&mut self, args: &[&str]) {
        // During an infinite search the new position waits for the next `go`
        // (the running search keeps its own copy); a bounded one is waited for.
        self.s.settle();
        let v = self.v;
        let mi = args.iter().position(|&a| a == "moves");
        let (setup, moves) = match mi {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let start = match setup.split_first() {
            Some((&"startpos", [])) => Position::start(v),
            Some((&"startpos", extra)) => {
                self.s.out.error(&format!("position startpos: unexpected '{}' (expected 'moves')", extra.join(" ")));
                return;
            }
            Some((&"fen", [])) => {
                self.s.out.error("position fen: the position string is missing");
                return;
            }
            Some((&"fen", fen)) => {
                let fen = fen.join(" ");
                match parse_position(v, &fen) {
                    Ok(p) => p,
                    Err(e) => {
                        self.s.out.error(&format!("position fen \"{fen}\" ({}): {e}; position unchanged", v.id()));
                        return;
                    }
                }
            }
            Some((other, _)) => {
                self.s.out.error(&format!("position: expected 'startpos' or 'fen', not '{other}'; position unchanged"));
                return;
            }
            None => {
                self.s.out.error("position: expected 'startpos' or 'fen'; position unchanged");
                return;
            }
        };
        let mut game = Game::new(start);
        for (i, text) in moves.iter().enumerate() {
            let played = parse_coordinate(game.position(), text)
                .map_err(|e| e.to_string())
                .and_then(|m| game.play(m).map_err(|e| e.to_string()));
            if let Err(e) = played {
                self.s.out.error(&format!("position: move {} ({text}): {e}; position unchanged", i + 1));
                return;
            }
        }
        self.game = game;
        self.position_set = true;
    }

    fn go(&mut self, args: &[&str]) {
        if !self.s.settle() {
            self.s.out.error("go while a search is running (go infinite); ignored (send stop first)");
            return;
        }
        let (mut limits, searchmoves) = match parse_go(args) {
            Ok(l) => l,
            Err(e) => {
                self.s.out.error(&format!("go: {e}; not searching"));
                return;
            }
        };
        if !self.position_set {
            self.s.out.error(&format!("go before position: searching the {} start position", self.v.id()));
            self.position_set = true;
        }
        for text in &searchmoves {
            match parse_coordinate(self.game.position(), text) {
                Ok(m) => limits.searchmoves.push(m),
                Err(e) => {
                    self.s.out.error(&format!("go: searchmoves {text}: {e}; not searching"));
                    return;
                }
            }
        }
        let unbounded = limits.infinite
            || (limits.depth.is_none()
                && limits.nodes.is_none()
                && limits.movetime.is_none()
                && limits.wtime.is_none()
                && limits.btime.is_none());
        if let Some(cap) = self.s.caps.nodes {
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }
        let strength = self.s.strength(self.v.id());
        let mut engine = self.s.engine.take().unwrap_or_else(|| Engine::new(self.s.hash_mb, self.s.threads));
        // The same choices for the same commands: a strength is seeded once, when it is set.
        if engine.skill().map_or(f64::from(LEVELS), Skill::strength) != strength {
            engine.set_skill(Some(Skill::with_strength(strength, SKILL_SEED)));
        }
        engine.set_multipv(self.s.multipv);
        let shown = Shown { multipv: self.s.multipv > 1, wdl: self.s.show_wdl };
        let game = self.game.clone();
        let v = self.v;
        let out = self.s.out.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let answered = Arc::new(AtomicBool::new(false));
        let answered_flag = Arc::clone(&answered);
        // The thread hands back only the engine, which has no width: the session
        // may change variant once the search is over.
        let handle = std::thread::spawn(move || {
            let mut last_pv = Vec::new();
            let currmove_out = out.clone();
            let r = engine.search_reporting(
                &game,
                &limits,
                flag,
                &mut |i| {
                    if i.multipv == 1 {
                        last_pv.clone_from(&i.pv);
                    }
                    out.send(&info_line(v, i, shown))
                },
                &mut |c: &CurrMove| {
                    currmove_out.send(&format!(
                        "info depth {} currmove {} currmovenumber {}",
                        c.depth,
                        format_move(v, c.mv),
                        c.number
                    ))
                },
            );
            // A search cut short after finding a better root move ends on a line not yet
            // shown: show it, so that the last line agrees with `bestmove`.
            if r.info.pv != last_pv {
                out.send(&info_line(v, &r.info, shown));
            }
            answered_flag.store(true, Ordering::SeqCst);
            match (r.best, r.ponder) {
                (Some(m), Some(p)) => out.send(&format!("bestmove {} ponder {}", format_move(v, m), format_move(v, p))),
                (Some(m), None) => out.send(&format!("bestmove {}", format_move(v, m))),
                (None, _) => out.send("bestmove 0000"),
            }
            Returned::Two(engine)
        });
        self.s.running = Some(Running { stop, unbounded, answered, handle });
    }
}

/// `go`'s keywords.
const GO_KEYS: [&str; 10] =
    ["depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "infinite", "searchmoves"];

/// `true`/`false` of a check option.
fn check_value(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// Reads `go`'s arguments: the limits, and the texts of `searchmoves` (read
/// against the position by the caller).
pub(crate) fn parse_go(args: &[&str]) -> Result<(Limits, Vec<String>), String> {
    let mut l = Limits::default();
    let mut searchmoves = Vec::new();
    let mut it = args.iter().peekable();
    while let Some(&key) = it.next() {
        if key == "infinite" {
            l.infinite = true;
            continue;
        }
        if key == "searchmoves" {
            while let Some(&&m) = it.peek()
                && !GO_KEYS.contains(&m)
            {
                searchmoves.push(m.to_string());
                it.next();
            }
            if searchmoves.is_empty() {
                return Err("'searchmoves' needs at least one move".to_string());
            }
            continue;
        }
        let mut num = |what: &str| -> Result<u64, String> {
            let t = it.next().ok_or_else(|| format!("'{key}' needs {what}"))?;
            t.parse::<u64>().map_err(|_| format!("'{key}' needs {what}, not '{t}'"))
        };
        let ms = |n: u64| Some(Duration::from_millis(n));
        match key {
            "depth" => {
                let d = num("a depth from 1 to 100")?;
                if !(1..=100).contains(&d) {
                    return Err(format!("'depth' needs a depth from 1 to 100, not {d}"));
                }
                l.depth = Some(d as u32);
            }
            "nodes" => l.nodes = Some(num("a node count")?),
            "movetime" => l.movetime = ms(num("milliseconds")?),
            "wtime" => l.wtime = ms(num("milliseconds")?),
            "btime" => l.btime = ms(num("milliseconds")?),
            "winc" => l.winc = ms(num("milliseconds")?),
            "binc" => l.binc = ms(num("milliseconds")?),
            "movestogo" => {
                let n = num("a move count")?;
                l.movestogo = Some(u32::try_from(n).map_err(|_| format!("'movestogo' {n} is too large"))?);
            }
            other => {
                return Err(format!(
                    "unknown parameter '{other}' (known: depth nodes movetime wtime btime winc binc movestogo infinite searchmoves)"
                ));
            }
        }
    }
    Ok((l, searchmoves))
}

/// `raum uci`: the session on standard input and output.
pub fn uci() -> Result<()> {
    run(&mut std::io::stdin().lock(), Box::new(std::io::stdout()), Caps::default());
    Ok(())
}

/// The engine protocol session, reading commands from `input` until `quit` or
/// its end and answering on `output`. Each variant's part runs at that
/// variant's width (through [`VariantId::dispatch`]), and a change of variant
/// comes back here to be dispatched anew; options, engine and table carry over.
/// Returns once every search it started has answered.
pub fn run(input: &mut dyn BufRead, output: Box<dyn Write + Send>, caps: Caps) {
    let mut session = Session::new(Out(Arc::new(Mutex::new(output))), caps);
    let mut game = Chosen::Two(VariantId::FiveUp);
    loop {
        let next = match game {
            Chosen::Two(id) => id.dispatch(OnVariant { session: &mut session, input }),
            Chosen::Multi(id) => id.dispatch(crate::uci_multi::OnMulti { session: &mut session, input }),
        };
        match next {
            Some(next) => game = next,
            None => break,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Output that the test reads back after the session (the search thread writes too).
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_session_runs_in_process_and_caps_bound_it() {
        let out = Shared::default();
        // Without the cap the first search would take hours; with it, it answers at once.
        // The second asks for more nodes than the cap: no search reports more than it.
        let mut input =
            &b"position startpos moves Dc2-Cc2 Bc4-Cc4 Db1-Ca1\ngo depth 100\nisready\ngo nodes 100000\nisready\n"[..];
        run(&mut input, Box::new(out.clone()), Caps { nodes: Some(500), hash_mb: Some(1), threads: Some(1) });
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert_eq!(text.lines().filter(|l| l.starts_with("bestmove ")).count(), 2, "{text}");
        assert!(text.lines().any(|l| l == "readyok"), "{text}");
        let nodes: Vec<u64> = text
            .lines()
            .filter_map(|l| l.split(" nodes ").nth(1))
            .map(|rest| rest.split_whitespace().next().unwrap().parse().unwrap())
            .collect();
        assert!(!nodes.is_empty() && nodes.iter().all(|&n| n <= 500), "{text}");
    }

    #[test]
    fn go_arguments() {
        let (l, _) =
            parse_go(&["depth", "4", "movetime", "200", "wtime", "1000", "btime", "900", "movestogo", "20"]).unwrap();
        assert_eq!(l.depth, Some(4));
        assert_eq!(l.movetime, Some(Duration::from_millis(200)));
        assert_eq!(l.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(l.movestogo, Some(20));
        assert!(parse_go(&["infinite"]).unwrap().0.infinite);
        let (l, moves) = parse_go(&["searchmoves", "Ec2-Ec3", "Bb1-Cb3", "depth", "3"]).unwrap();
        assert_eq!((moves.as_slice(), l.depth), (["Ec2-Ec3".to_string(), "Bb1-Cb3".to_string()].as_slice(), Some(3)));
        assert!(parse_go(&["searchmoves", "depth", "3"]).unwrap_err().contains("at least one move"));
        assert!(parse_go(&["depth", "x"]).unwrap_err().contains("not 'x'"));
        assert!(parse_go(&["depth"]).unwrap_err().contains("needs"));
        assert!(parse_go(&["depth", "0"]).is_err());
        assert!(parse_go(&["movetime", "-5"]).is_err());
        assert!(parse_go(&["sideways"]).unwrap_err().contains("unknown parameter"));
    }
}
