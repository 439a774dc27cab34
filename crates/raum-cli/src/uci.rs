//! `raum uci`: the engine protocol in the UCI style (DESIGN.md "Interfaces").
//!
//! Commands are read line by line from standard input; answers go to standard
//! output, one flushed line at a time. The search runs on its own thread so
//! that `stop`, `isready` and `quit` are answered while it runs. Bad input never
//! ends the session: it is answered with `info string error: <what was wrong>`.
//!
//! One session plays every game, two sides or more (`setoption name
//! UCI_Variant value wing-table-4p`): `position` takes any side to move and
//! `go` answers for it, with the score from the mover's side (its team's,
//! where sides play in teams). `uci` lists the options that apply to the game
//! chosen: MultiPV, levels, `UCI_Elo`, win/draw/loss and threads where the
//! two-player search plays, `MultiSearch` where every side plays for itself
//! (the search it uses: `brs`, the default, `paranoid` or `maxn`;
//! BENCHMARKS.md "Every side for itself: three searches"). Options are kept
//! for the whole session, whichever game is chosen.
//! [`run`] is the session itself, on any input and output, so that tests and
//! the fuzz targets can drive it in-process.

use anyhow::Result;
use raum_engine::multi::MultiSearch;
use raum_engine::{AnyEngine, CurrMove, LEVELS, Limits, Score, SearchInfo, Skill, level_elos, strength_for_elo, wdl};
use raum_notation::{format_game_move, parse_game, parse_game_move};
use raum_rules::{AnyGame, GameId, Move, VariantId, on_game};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

const DEFAULT_HASH_MB: usize = 16;
const MAX_HASH_MB: usize = 4096;
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
struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    /// Writes one line and flushes it (from either thread).
    fn send(&self, line: &str) {
        // A poisoned lock only means another line failed half-way; keep answering.
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A closed output cannot be reported anywhere; the session ends at the end of input.
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    fn error(&self, what: &str) {
        self.send(&format!("info string error: {what}"));
    }
}

/// A search in progress: its stop flag and the thread, which hands the engine back.
struct Running {
    stop: Arc<AtomicBool>,
    /// `go infinite` or no limit at all: only `stop` ends it.
    unbounded: bool,
    /// Set just before `bestmove` is written: from then on the thread only hands
    /// the engine back, so a command sent after `bestmove` waits for that.
    answered: Arc<AtomicBool>,
    handle: JoinHandle<AnyEngine>,
}

/// `option name UCI_Variant ...`: every game the session plays, `current` first.
fn variant_option(current: GameId) -> String {
    let vars: String = GameId::ALL.iter().map(|v| format!(" var {v}")).collect();
    format!("option name UCI_Variant type combo default {current}{vars}")
}

/// The session: the options, the engine (whose tables serve every game) and
/// the search under way, and the game chosen with its position.
struct Session {
    out: Out,
    caps: Caps,
    hash_mb: usize,
    threads: usize,
    /// `None` while a search owns it.
    engine: Option<AnyEngine>,
    /// The search every side for itself (`setoption name MultiSearch`).
    multi_search: MultiSearch,
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
    running: Option<Running>,
    /// The position searched, with the moves that led to it.
    game: AnyGame,
    /// Whether `position` has been given since the start or the last variant change.
    position_set: bool,
}

/// What the session does after a line.
enum Next {
    /// Read the next line.
    Continue,
    /// `quit`: end the session.
    Quit,
}

fn score_text(s: Score) -> String {
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
    /// `hashfull N` (the two-player search measures it).
    hashfull: bool,
}

/// `UCI_Elo`'s range in the variant `id`: its measured scale, whole numbers.
fn elo_range(id: VariantId) -> (i32, i32) {
    let (scale, _) = level_elos(id);
    (scale[0].round() as i32, scale[scale.len() - 1].round() as i32)
}

fn info_line(game: &AnyGame, i: &SearchInfo, shown: Shown) -> String {
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
    s.push_str(&format!(" nodes {} nps {}", i.nodes, nps));
    if shown.hashfull {
        s.push_str(&format!(" hashfull {}", i.hashfull));
    }
    s.push_str(&format!(" time {ms}"));
    if !i.pv.is_empty() {
        s.push_str(" pv");
        for &m in &i.pv {
            s.push(' ');
            s.push_str(&format_game_move(game, m));
        }
    }
    s
}

/// Plays `m` as the game's own rules do between moves sent by a GUI (the
/// GUI is the arbiter: a two-player game goes on past a draw it could claim).
fn play_sent(game: &mut AnyGame, m: Move) -> Result<(), String> {
    on_game!(game, g => g.play(m)).map_err(|e| e.to_string())
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
            multi_search: MultiSearch::default(),
            multipv: 1,
            show_wdl: false,
            level: LEVELS,
            limit_strength: false,
            elo: 0,
            running: None,
            game: AnyGame::start(GameId::Two(VariantId::FiveUp)),
            position_set: false,
        }
    }

    /// The game chosen.
    fn id(&self) -> GameId {
        self.game.id()
    }

    /// The strength to play at in the variant `id`: the level, or with
    /// `UCI_LimitStrength` the one `UCI_Elo` calls for on `id`'s scale.
    fn strength(&self, id: GameId) -> f64 {
        match id {
            GameId::Two(id) if self.limit_strength => strength_for_elo(id, f64::from(self.elo)).0,
            _ => f64::from(self.level),
        }
    }

    /// The engine, created on first use (so that `setoption Hash` before the first
    /// search does not allocate twice).
    fn engine(&mut self) -> &mut AnyEngine {
        let (h, t) = (self.hash_mb, self.threads);
        self.engine.get_or_insert_with(|| AnyEngine::new(h, t))
    }

    /// Takes back a search that has ended by itself; true while one still runs.
    fn searching(&mut self) -> bool {
        if self.running.as_ref().is_some_and(|r| r.answered.load(Ordering::SeqCst) || r.handle.is_finished()) {
            self.join();
        }
        self.running.is_some()
    }

    /// Waits for the running search (if any) to end and takes the engine back.
    fn join(&mut self) {
        if let Some(r) = self.running.take() {
            match r.handle.join() {
                Ok(engine) => self.engine = Some(engine),
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
    fn settle(&mut self) -> bool {
        if !self.searching() {
            return true;
        }
        if self.running.as_ref().is_some_and(|r| r.unbounded) {
            return false;
        }
        self.join();
        true
    }

    fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
        }
        self.join();
    }

    /// End of input: a bounded search is waited for, an unbounded one stopped.
    fn finish(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.unbounded) {
            self.stop();
        } else {
            self.join();
        }
    }

    /// Handles one line.
    fn handle(&mut self, line: &str) -> Next {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else { return Next::Continue };
        match cmd {
            "uci" => self.uci(),
            "isready" => self.out.send("readyok"),
            "setoption" => self.setoption(args),
            "ucinewgame" => {
                if !self.settle() {
                    self.out.error("ucinewgame during an infinite search; send stop first");
                } else {
                    self.engine().new_game();
                    self.game = AnyGame::start(self.id());
                    self.position_set = false;
                }
            }
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => self.stop(),
            "quit" => {
                self.stop();
                return Next::Quit;
            }
            _ => self.out.error(&format!("unknown command '{cmd}'")),
        }
        Next::Continue
    }

    fn uci(&self) {
        let out = &self.out;
        out.send(&format!("id name Raum {}", env!("CARGO_PKG_VERSION")));
        out.send("id author Raum developers");
        // Every game the rules build, so that a new one is offered as soon as it exists.
        out.send(&variant_option(self.id()));
        out.send("option name VariantFile type string default <empty>");
        out.send(&format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"));
        match self.id() {
            GameId::Two(id) => {
                out.send(&format!("option name Threads type spin default {DEFAULT_THREADS} min 1 max {MAX_THREADS}"));
                out.send(&format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"));
                out.send("option name UCI_ShowWDL type check default false");
                out.send(&format!("option name Skill Level type spin default {LEVELS} min 1 max {LEVELS}"));
                out.send("option name UCI_LimitStrength type check default false");
                let (lo, hi) = elo_range(id);
                out.send(&format!("option name UCI_Elo type spin default {lo} min {lo} max {hi}"));
            }
            GameId::Multi(_) => {
                let vars: String = MultiSearch::ALL.iter().map(|k| format!(" var {k}")).collect();
                out.send(&format!("option name MultiSearch type combo default {}{vars}", MultiSearch::default()));
            }
        }
        out.send("uciok");
    }

    fn setoption(&mut self, args: &[&str]) {
        if !self.settle() {
            self.out.error("setoption during a search (go infinite); send stop first");
            return;
        }
        if args.first().is_none_or(|a| !a.eq_ignore_ascii_case("name")) {
            self.out.error("setoption needs 'name <option> value <value>'");
            return;
        }
        let rest = &args[1..];
        let vi = rest.iter().position(|a| a.eq_ignore_ascii_case("value"));
        let (name, value) = match vi {
            Some(i) => (rest[..i].join(" "), rest[i + 1..].join(" ")),
            None => (rest.join(" "), String::new()),
        };
        let out = &self.out;
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
            // The new variant's game starts afresh (the same variant's too).
            "uci_variant" => match GameId::from_name(&value.to_ascii_lowercase()) {
                Ok(id) => {
                    self.game = AnyGame::start(id);
                    self.position_set = false;
                }
                Err(e) => out.error(&format!("UCI_Variant: {e}")),
            },
            // A variant file (docs/variants.md): loaded, and its game starts; its
            // id is then also a UCI_Variant value.
            "variantfile" => match read_variant_file(&value) {
                Ok(id) => {
                    self.game = AnyGame::start(id);
                    self.position_set = false;
                }
                Err(e) => {
                    for line in e.lines() {
                        out.error(&format!("VariantFile: {line}"));
                    }
                }
            },
            "hash" => {
                if let Some(mb) = spin(&value, MAX_HASH_MB, self.caps.hash_mb) {
                    self.hash_mb = mb;
                    if let Some(e) = &mut self.engine {
                        e.set_hash(mb);
                    }
                }
            }
            "threads" => {
                if let Some(n) = spin(&value, MAX_THREADS, self.caps.threads) {
                    self.threads = n;
                    if let Some(e) = &mut self.engine {
                        e.set_threads(n);
                    }
                }
            }
            "multipv" => {
                if let Some(n) = spin(&value, MAX_MULTIPV, None) {
                    self.multipv = n;
                }
            }
            "skill level" => {
                if let Some(n) = spin(&value, LEVELS as usize, None) {
                    self.level = n as u32;
                }
            }
            "uci_limitstrength" => match check_value(&value) {
                Some(on) => self.limit_strength = on,
                None => out.error(&format!("option UCI_LimitStrength needs true or false, not '{value}'")),
            },
            "uci_elo" => match value.trim().parse::<i32>() {
                Ok(elo) => {
                    self.elo = elo;
                    if let GameId::Two(id) = self.id() {
                        let (lo, hi) = elo_range(id);
                        if !(lo..=hi).contains(&elo) {
                            let (s, _) = strength_for_elo(id, f64::from(elo));
                            out.send(&format!(
                                "info string UCI_Elo {elo} is outside {}'s measured scale ({lo} to {hi}): level {s} plays",
                                id.name()
                            ));
                        }
                    }
                }
                Err(_) => out.error(&format!("option UCI_Elo needs a whole number, not '{value}'")),
            },
            "uci_showwdl" => match check_value(&value) {
                Some(on) => self.show_wdl = on,
                None => out.error(&format!("option UCI_ShowWDL needs true or false, not '{value}'")),
            },
            "multisearch" => match value.to_ascii_lowercase().parse::<MultiSearch>() {
                Ok(kind) => self.multi_search = kind,
                Err(e) => out.error(&format!("option MultiSearch: {e}")),
            },
            _ => out.error(&format!(
                "unknown option '{name}' (options: UCI_Variant, Hash, Threads, MultiPV, UCI_ShowWDL, Skill Level, \
                 UCI_LimitStrength, UCI_Elo, MultiSearch)"
            )),
        }
    }

    /// `position startpos|fen <string> [moves ...]`. On any error the previous
    /// position is kept.
    fn position(&mut self, args: &[&str]) {
        // During an infinite search the new position waits for the next `go`
        // (the running search keeps its own copy); a bounded one is waited for.
        self.settle();
        let id = self.id();
        let mi = args.iter().position(|&a| a == "moves");
        let (setup, moves) = match mi {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let mut game = match setup.split_first() {
            Some((&"startpos", [])) => AnyGame::start(id),
            Some((&"startpos", extra)) => {
                self.out.error(&format!("position startpos: unexpected '{}' (expected 'moves')", extra.join(" ")));
                return;
            }
            Some((&"fen", [])) => {
                self.out.error("position fen: the position string is missing");
                return;
            }
            Some((&"fen", fen)) => {
                let fen = fen.join(" ");
                match parse_game(id, &fen) {
                    Ok(g) => g,
                    Err(e) => {
                        self.out.error(&format!("position fen \"{fen}\" ({id}): {e}; position unchanged"));
                        return;
                    }
                }
            }
            Some((other, _)) => {
                self.out.error(&format!("position: expected 'startpos' or 'fen', not '{other}'; position unchanged"));
                return;
            }
            None => {
                self.out.error("position: expected 'startpos' or 'fen'; position unchanged");
                return;
            }
        };
        for (i, text) in moves.iter().enumerate() {
            let played = parse_game_move(&game, text).map_err(|e| e.to_string()).and_then(|m| play_sent(&mut game, m));
            if let Err(e) = played {
                self.out.error(&format!("position: move {} ({text}): {e}; position unchanged", i + 1));
                return;
            }
        }
        self.game = game;
        self.position_set = true;
    }

    fn go(&mut self, args: &[&str]) {
        if !self.settle() {
            self.out.error("go while a search is running (go infinite); ignored (send stop first)");
            return;
        }
        let (mut limits, searchmoves) = match parse_go(args) {
            Ok(l) => l,
            Err(e) => {
                self.out.error(&format!("go: {e}; not searching"));
                return;
            }
        };
        let id = self.id();
        let two = matches!(id, GameId::Two(_));
        if !two && !searchmoves.is_empty() {
            self.out.error("go: searchmoves is not offered in the multi-player games; not searching");
            return;
        }
        if !self.position_set {
            self.out.error(&format!("go before position: searching the {id} start position"));
            self.position_set = true;
        }
        for text in &searchmoves {
            match parse_game_move(&self.game, text) {
                Ok(m) => limits.searchmoves.push(m),
                Err(e) => {
                    self.out.error(&format!("go: searchmoves {text}: {e}; not searching"));
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
        if let Some(cap) = self.caps.nodes {
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }
        let strength = self.strength(id);
        let (multipv, multi_search) = (self.multipv, self.multi_search);
        let mut engine = self.engine.take().unwrap_or_else(|| AnyEngine::new(self.hash_mb, self.threads));
        // The same choices for the same commands: a strength is seeded once, when it is set.
        let two_engine = engine.two();
        if two_engine.skill().map_or(f64::from(LEVELS), Skill::strength) != strength {
            two_engine.set_skill(Some(Skill::with_strength(strength, SKILL_SEED)));
        }
        two_engine.set_multipv(multipv);
        if !two {
            engine.multi().set_multi_search(multi_search);
        }
        let shown = Shown { multipv: two && multipv > 1, wdl: two && self.show_wdl, hashfull: two };
        let game = self.game.clone();
        let out = self.out.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let answered = Arc::new(AtomicBool::new(false));
        let answered_flag = Arc::clone(&answered);
        let infinite = limits.infinite;
        let handle = std::thread::spawn(move || {
            let mut last_pv = Vec::new();
            let currmove_out = out.clone();
            let r = engine.search_reporting(
                &game,
                &limits,
                Arc::clone(&flag),
                &mut |i| {
                    if i.multipv == 1 {
                        last_pv.clone_from(&i.pv);
                    }
                    out.send(&info_line(&game, i, shown))
                },
                &mut |c: &CurrMove| {
                    currmove_out.send(&format!(
                        "info depth {} currmove {} currmovenumber {}",
                        c.depth,
                        format_game_move(&game, c.mv),
                        c.number
                    ))
                },
            );
            // A search cut short after finding a better root move ends on a line not yet
            // shown: show it, so that the last line agrees with `bestmove`.
            if two && r.info.pv != last_pv {
                out.send(&info_line(&game, &r.info, shown));
            }
            // `go infinite` answers only after `stop`, as the protocol asks.
            while infinite && !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(5));
            }
            answered_flag.store(true, Ordering::SeqCst);
            match (r.best, r.ponder) {
                (Some(m), Some(p)) => {
                    out.send(&format!("bestmove {} ponder {}", format_game_move(&game, m), format_game_move(&game, p)))
                }
                (Some(m), None) => out.send(&format!("bestmove {}", format_game_move(&game, m))),
                (None, _) => out.send("bestmove 0000"),
            }
            engine
        });
        self.running = Some(Running { stop, unbounded, answered, handle });
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
fn parse_go(args: &[&str]) -> Result<(Limits, Vec<String>), String> {
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
/// its end and answering on `output`; options, engine and table carry over
/// from one game to the next. Returns once every search it started has answered.
pub fn run(input: &mut dyn BufRead, output: Box<dyn Write + Send>, caps: Caps) {
    let mut session = Session::new(Out(Arc::new(Mutex::new(output))), caps);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                session.out.error(&format!("cannot read input: {e}"));
                break;
            }
        }
        // Bytes that are not UTF-8 become U+FFFD and so an unknown command.
        let line = String::from_utf8_lossy(&buf);
        if let Next::Quit = session.handle(&line) {
            return;
        }
    }
    session.finish();
}

/// The most a variant file may hold, in bytes (the largest built-in one holds
/// under 3 KB).
const MAX_VARIANT_FILE: u64 = 1 << 20;

/// Reads and loads the variant file at `path`: a regular file, at most
/// [`MAX_VARIANT_FILE`] bytes.
fn read_variant_file(path: &str) -> Result<GameId, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Err(format!("{path} is not a file"));
    }
    let mut text = String::new();
    file.take(MAX_VARIANT_FILE + 1).read_to_string(&mut text).map_err(|e| format!("cannot read {path}: {e}"))?;
    if text.len() as u64 > MAX_VARIANT_FILE {
        return Err(format!("{path} is longer than {MAX_VARIANT_FILE} bytes"));
    }
    raum_rules::file::load(&text, path).map_err(|e| e.to_string())
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
