//! Games being played: each a [`Room`] (the game, its seats, clocks, result
//! and listeners), kept in memory while in use and in the [`Store`] always.
//!
//! Every change goes the same way: check it, apply it in memory, commit it
//! to the store (undoing it in memory if the store refuses), then tell the
//! listeners. So whatever a client was told is stored.

use crate::engine_pool::{EnginePool, PoolError};
use crate::live::{Analysis, LiveGame, MoveError, new_game, replay_record};
use crate::multi_room::{MultiRoom, SeatRequest, multi_of};
use crate::store::{GameMeta, GameSummary, Store, StoreError, StoredMove, StoredResult, now};
use raum_engine::{LEVELS, Limits, Skill, level_limits};
use raum_notation::{RecordResult, parse_records, record_date, termination_of};
use raum_rules::{Color, Outcome, VariantId};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// A refused or failed request: an HTTP status and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The HTTP status.
    pub status: u16,
    /// What was wrong, for people.
    pub message: String,
}

impl Refusal {
    /// A refusal with this status.
    pub fn new(status: u16, message: impl Into<String>) -> Self {
        Refusal { status, message: message.into() }
    }
}

fn stored(e: StoreError) -> Refusal {
    eprintln!("raum serve: {e}");
    Refusal::new(500, format!("the game could not be stored: {e}"))
}

/// Who sits in a game's seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Two people at one screen: one token moves both sides.
    Local,
    /// A person against the engine.
    Engine,
    /// Two people, each with a seat token, and spectators.
    Online,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Local => "local",
            Mode::Engine => "engine",
            Mode::Online => "online",
        }
    }

    fn parse(s: &str) -> Option<Mode> {
        [Mode::Local, Mode::Engine, Mode::Online].into_iter().find(|m| m.name() == s)
    }
}

/// The engine's seat in an engine game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineSeat {
    /// The side the engine plays: `white` or `black`.
    pub color: String,
    /// Level 1..=[`LEVELS`].
    #[serde(default)]
    pub level: Option<u32>,
    /// Or a fixed time per move, in milliseconds.
    #[serde(default)]
    pub movetime: Option<u64>,
}

/// Clock settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSettings {
    /// Each side's time at the start, in milliseconds.
    pub initial_ms: u64,
    /// Added after each move, in milliseconds.
    #[serde(default)]
    pub increment_ms: u64,
}

/// Player names.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Names {
    /// White's name.
    #[serde(default)]
    pub white: Option<String>,
    /// Black's name.
    #[serde(default)]
    pub black: Option<String>,
}

/// `POST /api/games`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Variant id (optional with `pgn`, whose `[Variant]` tag names it).
    #[serde(default)]
    pub variant: Option<String>,
    /// `local`, `engine` or `online`.
    pub mode: String,
    /// Start from this position string.
    #[serde(default)]
    pub fen: Option<String>,
    /// Continue this game record.
    #[serde(default)]
    pub pgn: Option<String>,
    /// The engine's seat (mode `engine`).
    #[serde(default)]
    pub engine: Option<EngineSeat>,
    /// Player names.
    #[serde(default)]
    pub names: Option<Names>,
    /// Clocks.
    #[serde(default)]
    pub clock: Option<ClockSettings>,
    /// A multi-player game's seats, by side (`white`, `red`, ... or the
    /// side's letter): a person (the default) or the engine.
    #[serde(default)]
    pub seats: Option<HashMap<String, SeatRequest>>,
}

/// A seat's token matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// White's seat.
    White,
    /// Black's seat.
    Black,
    /// Both (a local game's one token).
    Both,
}

impl Seat {
    /// The side this seat speaks for: its own, or for a local game's one
    /// token the side to move.
    fn side(self, to_move: Color) -> Color {
        match self {
            Seat::White => Color::White,
            Seat::Black => Color::Black,
            Seat::Both => to_move,
        }
    }

    fn plays(self, c: Color) -> bool {
        matches!((self, c), (Seat::Both, _) | (Seat::White, Color::White) | (Seat::Black, Color::Black))
    }

    /// `white`, `black` or `both`.
    pub fn name(self) -> &'static str {
        match self {
            Seat::White => "white",
            Seat::Black => "black",
            Seat::Both => "both",
        }
    }
}

fn color_name(c: Color) -> &'static str {
    if c == Color::White { "white" } else { "black" }
}

fn parse_color(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// A finished game's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameResult {
    /// The result, typed (the app reads `score`, `points` and `winner`).
    #[serde(skip)]
    pub result: RecordResult,
    /// As records write it: `1-0`, `0-1`, `1/2-1/2`, or Savard's scored
    /// stalemate `3/5-2/5` and `2/5-3/5`.
    pub score: String,
    /// Each side's points, White's first: `["1", "0"]`, `["1/2", "1/2"]`, `["3/5", "2/5"]`.
    pub points: [String; 2],
    /// The side that scored more (`white` or `black`); none for a draw.
    pub winner: Option<&'static str>,
    /// RULES.md's termination word, or `agreement`.
    pub reason: String,
    /// For people: `0-1, checkmate`, `3/5-2/5, White stalemates`.
    pub text: String,
}

impl GameResult {
    fn new(result: RecordResult, reason: &str) -> Self {
        let score = result.as_str();
        let points = result.points();
        let winner = points.and_then(|[w, b]| match w.cmp(&b) {
            std::cmp::Ordering::Greater => Some(color_name(Color::White)),
            std::cmp::Ordering::Less => Some(color_name(Color::Black)),
            std::cmp::Ordering::Equal => None,
        });
        let said = match reason {
            "stalemate" => match result {
                RecordResult::WhiteStalemates => "White stalemates".to_string(),
                RecordResult::BlackStalemates => "Black stalemates".to_string(),
                _ => "stalemate".to_string(),
            },
            "fifty-move" => "50-move rule".to_string(),
            "repetition" => "threefold repetition".to_string(),
            "bare-kings" => "bare kings".to_string(),
            "agreement" => "draw agreed".to_string(),
            "resignation" => match score {
                "1-0" => "Black resigns".to_string(),
                "0-1" => "White resigns".to_string(),
                _ => "resignation".to_string(),
            },
            "time" => match score {
                "1-0" => "Black's time is up".to_string(),
                "0-1" => "White's time is up".to_string(),
                _ => "time is up".to_string(),
            },
            other => other.to_string(),
        };
        GameResult {
            result,
            score: score.into(),
            points: points.map_or_else(|| ["*".into(), "*".into()], |p| p.map(|x| x.to_string())),
            winner,
            reason: reason.into(),
            text: format!("{score}, {said}"),
        }
    }

    /// The result the rules give a game that they ended.
    pub fn of_outcome(o: Outcome) -> Self {
        GameResult::new(RecordResult::of_outcome(o), termination_of(o))
    }

    fn win_for(c: Color, reason: &str) -> Self {
        GameResult::new(RecordResult::win_for(c), reason)
    }

    fn stored(&self) -> StoredResult {
        StoredResult { score: self.score.clone(), reason: self.reason.clone() }
    }
}

/// The clocks, kept by the server.
#[derive(Clone, Debug)]
struct Clock {
    settings: ClockSettings,
    /// Remaining time, White and Black, as of `since`.
    left_ms: [i64; 2],
    /// When the side to move's clock started; `None` while stopped.
    since: Option<Instant>,
}

impl Clock {
    /// Time left for `c` now.
    fn left(&self, c: Color, to_move: Color) -> i64 {
        let base = self.left_ms[c.index()];
        match self.since {
            Some(t) if c == to_move => base - t.elapsed().as_millis() as i64,
            _ => base,
        }
    }
}

/// A game in memory.
pub struct Room {
    meta: GameMeta,
    mode: Mode,
    game: Box<dyn LiveGame>,
    result: Option<GameResult>,
    draw_offer: Option<Color>,
    clock: Option<Clock>,
    engine: Option<(Color, EngineSeat)>,
    /// The running engine search's stop flag.
    thinking: Option<Arc<AtomicBool>>,
    /// The task that ends the game when the side to move's flag falls.
    flag_timer: Option<tokio::task::AbortHandle>,
    /// Both clocks after each ply (with clocks), for take-backs.
    clock_after: Vec<[i64; 2]>,
    /// Grows with every change; starts from the wall clock in milliseconds,
    /// so that a restarted server's states are newer than the ones before.
    version: u64,
    /// When the game last changed.
    touched: Instant,
    state: Arc<str>,
    listeners: broadcast::Sender<Arc<str>>,
}

/// The state as sent to clients.
#[derive(Serialize)]
struct StateView<'a> {
    id: &'a str,
    variant: &'a str,
    mode: &'static str,
    version: u64,
    names: HashMap<&'static str, &'a str>,
    start: String,
    fen: String,
    side: &'static str,
    ply: usize,
    moves: &'a [crate::live::PlayedMove],
    start_pieces: &'a [(usize, char)],
    legal: Vec<crate::live::MoveView>,
    check: Vec<usize>,
    result: Option<&'a GameResult>,
    draw_offer: Option<&'static str>,
    clock: Option<ClockView>,
    engine: Option<EngineView>,
    seats: HashMap<&'static str, SeatView>,
}

#[derive(Serialize)]
struct ClockView {
    white_ms: i64,
    black_ms: i64,
    running: Option<&'static str>,
    increment_ms: u64,
}

#[derive(Serialize)]
struct EngineView {
    color: String,
    level: Option<u32>,
    movetime: Option<u64>,
    thinking: bool,
}

#[derive(Serialize)]
struct SeatView {
    human: bool,
}

impl Room {
    /// The state, as last sent.
    pub fn state(&self) -> Arc<str> {
        Arc::clone(&self.state)
    }

    /// Listens for every later state.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.listeners.subscribe()
    }

    /// The seat a token holds, if any.
    pub fn seat(&self, token: Option<&str>) -> Option<Seat> {
        let token = token?;
        let w = self.meta.white_token.as_deref().is_some_and(|t| same_secret(t, token));
        let b = self.meta.black_token.as_deref().is_some_and(|t| same_secret(t, token));
        match (w, b) {
            (true, true) => Some(Seat::Both),
            (true, false) => Some(Seat::White),
            (false, true) => Some(Seat::Black),
            (false, false) => None,
        }
    }

    fn require_seat(&self, token: Option<&str>) -> Result<Seat, Refusal> {
        match token {
            None | Some("") => Err(Refusal::new(403, "no seat token: spectators cannot change the game")),
            t => self.seat(t).ok_or_else(|| Refusal::new(403, "this token holds no seat in this game")),
        }
    }

    fn over(&self) -> Result<(), Refusal> {
        match &self.result {
            Some(r) => Err(Refusal::new(409, format!("the game is over ({})", r.text))),
            None => Ok(()),
        }
    }

    /// Records a change: a new version, its state serialised once and sent
    /// to every listener.
    fn rebuild(&mut self) {
        self.version += 1;
        self.touched = Instant::now();
        self.state = self.serialize();
        // No listener is not an error.
        let _ = self.listeners.send(Arc::clone(&self.state));
    }

    /// The state for a client arriving now: as last sent, with the clocks
    /// brought up to this moment if one is running.
    pub fn current_state(&mut self) -> Arc<str> {
        if self.clock.as_ref().is_some_and(|c| c.since.is_some()) {
            self.state = self.serialize();
        }
        Arc::clone(&self.state)
    }

    fn serialize(&self) -> Arc<str> {
        let side = self.game.side();
        let view = StateView {
            id: &self.meta.id,
            variant: &self.meta.variant,
            mode: self.mode.name(),
            version: self.version,
            names: HashMap::from([("white", self.meta.white.as_str()), ("black", self.meta.black.as_str())]),
            start: self.game.start_fen(),
            fen: self.game.fen(),
            side: color_name(side),
            ply: self.game.ply(),
            moves: self.game.moves(),
            start_pieces: self.game.start_pieces(),
            legal: if self.result.is_some() { Vec::new() } else { self.game.legal() },
            check: self.game.check(),
            result: self.result.as_ref(),
            draw_offer: self.draw_offer.map(color_name),
            clock: self.clock.as_ref().map(|c| ClockView {
                white_ms: c.left(Color::White, side).max(0),
                black_ms: c.left(Color::Black, side).max(0),
                running: c.since.map(|_| color_name(side)),
                increment_ms: c.settings.increment_ms,
            }),
            engine: self.engine.as_ref().map(|(c, e)| EngineView {
                color: color_name(*c).into(),
                level: e.level,
                movetime: e.movetime,
                thinking: self.thinking.is_some(),
            }),
            seats: HashMap::from([
                ("white", SeatView { human: self.meta.white_token.is_some() }),
                ("black", SeatView { human: self.meta.black_token.is_some() }),
            ]),
        };
        serde_json::to_string(&view).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}")).into()
    }

    /// The result the rules give now, if any.
    fn rules_result(&self) -> Option<GameResult> {
        self.game.outcome().map(GameResult::of_outcome)
    }

    /// The engine's limits: its level or time per move, and its clock where
    /// the game has clocks (whichever ends the search first).
    fn engine_limits(&self) -> Limits {
        let Some((_, seat)) = &self.engine else { return Limits::default() };
        let mut limits = match (seat.level, seat.movetime) {
            (Some(l), _) => level_limits(l).unwrap_or_default(),
            (None, Some(ms)) => Limits { movetime: Some(Duration::from_millis(ms)), ..Limits::default() },
            (None, None) => level_limits(3).unwrap_or_default(),
        };
        if let Some(clock) = &self.clock {
            let side = self.game.side();
            let inc = Some(Duration::from_millis(clock.settings.increment_ms));
            let left = |c| Some(Duration::from_millis(clock.left(c, side).max(1) as u64));
            limits.wtime = left(Color::White);
            limits.btime = left(Color::Black);
            limits.winc = inc;
            limits.binc = inc;
        }
        limits
    }

    /// The engine's level for its next move (levels below the top choose
    /// among the best moves at random), seeded by the game and the ply, so a
    /// position of a game is always answered alike.
    fn engine_skill(&self) -> Option<Skill> {
        let Some((_, seat)) = &self.engine else { return None };
        let level = match (seat.level, seat.movetime) {
            (Some(l), _) => l,
            (None, Some(_)) => return None,
            (None, None) => 3,
        };
        let seed =
            self.meta.id.bytes().fold(self.game.ply() as u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3));
        Skill::new(level, seed)
    }

    fn stop_engine(&mut self) {
        if let Some(stop) = self.thinking.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// A game in memory: two players' [`Room`] or a [`MultiRoom`]. What every
/// game offers (its state, its listeners, who a token seats) is here; the
/// requests that differ go to each kind's own code.
#[derive(Clone)]
pub enum AnyRoom {
    /// A two-player game.
    Two(Arc<tokio::sync::Mutex<Room>>),
    /// A game of three, four or six sides.
    Multi(Arc<tokio::sync::Mutex<MultiRoom>>),
}

impl AnyRoom {
    /// The state for a client arriving now.
    pub async fn current_state(&self) -> Arc<str> {
        match self {
            AnyRoom::Two(r) => r.lock().await.current_state(),
            AnyRoom::Multi(r) => r.lock().await.state(),
        }
    }

    /// The state now, a listener for every later state, and the seat of
    /// `token` (`white`, `black`, `both`; a multi-player side, or `all`).
    pub async fn listen(&self, token: Option<&str>) -> (Arc<str>, broadcast::Receiver<Arc<str>>, Option<&'static str>) {
        match self {
            AnyRoom::Two(r) => {
                let mut r = r.lock().await;
                (r.current_state(), r.subscribe(), r.seat(token).map(Seat::name))
            }
            AnyRoom::Multi(r) => {
                let r = r.lock().await;
                (r.state(), r.subscribe(), r.seat_name(token))
            }
        }
    }

    /// Whether nothing uses the room: no request holds it, no socket
    /// listens, no search or clock runs, and nothing changed for [`IDLE`].
    fn idle(&self) -> bool {
        match self {
            AnyRoom::Two(room) => {
                if Arc::strong_count(room) > 1 {
                    return false;
                }
                let Ok(r) = room.try_lock() else { return false };
                r.listeners.receiver_count() == 0
                    && r.thinking.is_none()
                    && r.clock.as_ref().is_none_or(|c| c.since.is_none())
                    && r.touched.elapsed() >= IDLE
            }
            AnyRoom::Multi(room) => {
                if Arc::strong_count(room) > 1 {
                    return false;
                }
                room.try_lock().is_ok_and(|r| r.idle(IDLE))
            }
        }
    }
}

/// Every game: the rooms in memory, the store, the engine threads.
pub struct Games {
    pub(crate) rooms: Mutex<HashMap<String, AnyRoom>>,
    last_sweep: Mutex<Instant>,
    pub(crate) store: Arc<dyn Store>,
    pub(crate) pool: EnginePool,
}

/// How long an unused room stays in memory.
const IDLE: Duration = Duration::from_secs(600);
/// How often idle rooms are looked for.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// What `POST /api/games` answers.
#[derive(Serialize)]
pub struct Created {
    /// The game's id.
    pub id: String,
    /// Seat tokens.
    pub tokens: HashMap<&'static str, String>,
    /// Links: each seat's, and the spectators'.
    pub links: HashMap<&'static str, String>,
    /// The state.
    pub state: serde_json::Value,
}

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    if getrandom::fill(&mut b).is_err() {
        // The OS's generator failing is not something to serve games without.
        panic!("no source of randomness for game ids and seat tokens");
    }
    b
}

/// A game id: 12 characters of base 62 (71 bits).
pub(crate) fn new_id() -> String {
    const ALPHABET: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    random_bytes::<12>().iter().map(|&b| ALPHABET[b as usize % 62] as char).collect()
}

/// A seat token: 128 random bits in hex.
pub(crate) fn new_token() -> String {
    random_bytes::<16>().iter().map(|b| format!("{b:02x}")).collect()
}

/// A player's name as given: control characters dropped, at most 40 characters.
pub(crate) fn clean_name(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).collect::<String>().trim().chars().take(40).collect()
}

pub(crate) const MAX_MOVETIME_MS: u64 = 60_000;

/// RULES.md's `Termination` words.
const TERMINATIONS: [&str; 9] = [
    "checkmate",
    "stalemate",
    "fifty-move",
    "repetition",
    "bare-kings",
    "time",
    "resignation",
    "adjudication",
    "illegal-move",
];

/// Milliseconds as PGN's `TimeControl` writes seconds: `300`, `0.5`.
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) { (ms / 1000).to_string() } else { format!("{}", ms as f64 / 1000.0) }
}

/// Whether two secrets are equal, in time that does not depend on where they differ.
pub(crate) fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
const MAX_CLOCK_MS: u64 = 24 * 3600 * 1000;

impl Games {
    /// Games kept in `store`, searched by `engine_workers` threads.
    pub fn new(store: Arc<dyn Store>, engine_workers: usize) -> Arc<Self> {
        Arc::new(Games {
            rooms: Mutex::new(HashMap::new()),
            last_sweep: Mutex::new(Instant::now()),
            store,
            pool: EnginePool::new(engine_workers),
        })
    }

    pub(crate) async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, Refusal> {
        let store = Arc::clone(&self.store);
        tokio::task::spawn_blocking(move || f(store.as_ref()))
            .await
            .map_err(|e| Refusal::new(500, format!("storage task failed: {e}")))?
            .map_err(stored)
    }

    /// The games in progress and finished, newest first.
    pub async fn list(&self) -> Result<Vec<GameSummary>, Refusal> {
        self.blocking(|s| s.list(500)).await
    }

    /// Creates a game.
    pub async fn create(self: &Arc<Self>, req: NewGame) -> Result<Created, Refusal> {
        self.evict_idle();
        if let Some(multi) = multi_of(&req)? {
            return self.create_multi(req, multi).await;
        }
        if req.seats.is_some() {
            return Err(Refusal::new(400, "\"seats\" is for multi-player games; two-player games take \"mode\""));
        }
        let mode = Mode::parse(&req.mode)
            .ok_or_else(|| Refusal::new(400, format!("mode '{}': expected local, engine or online", req.mode)))?;
        let (game, record_result) = match (&req.pgn, &req.fen) {
            (Some(_), Some(_)) => return Err(Refusal::new(400, "give a position string or a record, not both")),
            (Some(text), None) => {
                let records = parse_records(text).map_err(|e| Refusal::new(400, format!("record: {e}")))?;
                let record =
                    records.into_iter().next().ok_or_else(|| Refusal::new(400, "record: no game in the text"))?;
                let (game, record) = tokio::task::spawn_blocking(move || (replay_record(&record), record))
                    .await
                    .map_err(|e| Refusal::new(500, format!("replay failed: {e}")))?;
                let game = game.map_err(|e| Refusal::new(400, format!("record: {e}")))?;
                if let Some(v) = &req.variant
                    && v != game.variant().name()
                {
                    return Err(Refusal::new(400, format!("the record is a {} game, not {v}", game.variant().name())));
                }
                let result = record.result;
                // Only RULES.md's words stand as a reason; anything else is "recorded".
                let termination = record.tag("Termination").filter(|t| TERMINATIONS.contains(t)).map(str::to_string);
                (game, Some((result, termination)))
            }
            (None, fen) => {
                let name = req.variant.as_deref().ok_or_else(|| Refusal::new(400, "no variant given"))?;
                let id: VariantId = name.parse().map_err(|e| Refusal::new(404, format!("{e}")))?;
                (new_game(id, fen.as_deref()).map_err(|e| Refusal::new(400, e))?, None)
            }
        };
        if !crate::variants::offered(game.variant()) {
            return Err(Refusal::new(422, format!("{} is not in the web app yet", game.variant())));
        }
        let engine = match (mode, req.engine) {
            (Mode::Engine, Some(seat)) => {
                let color = parse_color(&seat.color).ok_or_else(|| {
                    Refusal::new(400, format!("engine color '{}': expected white or black", seat.color))
                })?;
                match (seat.level, seat.movetime) {
                    (Some(_), Some(_)) => {
                        return Err(Refusal::new(400, "give the engine a level or a movetime, not both"));
                    }
                    (Some(l), None) if level_limits(l).is_none() => {
                        return Err(Refusal::new(400, format!("engine level {l}: expected 1 to {LEVELS}")));
                    }
                    (None, Some(ms)) if ms == 0 || ms > MAX_MOVETIME_MS => {
                        return Err(Refusal::new(
                            400,
                            format!("engine movetime {ms}: expected 1 to {MAX_MOVETIME_MS} ms"),
                        ));
                    }
                    _ => {}
                }
                Some((color, seat))
            }
            (Mode::Engine, None) => return Err(Refusal::new(400, "an engine game needs \"engine\": {\"color\": ...}")),
            (_, Some(_)) => return Err(Refusal::new(400, "\"engine\" is only for mode engine")),
            (_, None) => None,
        };
        if let Some(c) = req.clock
            && (c.initial_ms == 0 || c.initial_ms > MAX_CLOCK_MS || c.increment_ms > MAX_CLOCK_MS)
        {
            return Err(Refusal::new(400, "clock: initial_ms must be 1 ms to 24 hours, increment_ms at most 24 hours"));
        }
        let names = req.names.unwrap_or_default();
        let name = |given: &Option<String>, color: Color| -> String {
            let given = given.as_deref().map(clean_name).filter(|n| !n.is_empty());
            match (&engine, given) {
                (Some((c, seat)), _) if *c == color => match (seat.level, seat.movetime) {
                    (Some(l), _) => format!("Raum (level {l})"),
                    (None, Some(ms)) => format!("Raum ({ms} ms)"),
                    _ => "Raum".into(),
                },
                (_, Some(n)) => n,
                _ => if color == Color::White { "White" } else { "Black" }.into(),
            }
        };
        let id = new_id();
        let (white_token, black_token) = match (mode, &engine) {
            (Mode::Local, _) => {
                let t = new_token();
                (Some(t.clone()), Some(t))
            }
            (Mode::Engine, Some((Color::White, _))) => (None, Some(new_token())),
            (Mode::Engine, _) => (Some(new_token()), None),
            (Mode::Online, _) => (Some(new_token()), Some(new_token())),
        };
        let meta = GameMeta {
            id: id.clone(),
            variant: game.variant().name().into(),
            mode: mode.name().into(),
            start: game.start_fen(),
            white: name(&names.white, Color::White),
            black: name(&names.black, Color::Black),
            white_token,
            black_token,
            engine: engine.as_ref().and_then(|(_, s)| serde_json::to_string(s).ok()),
            clock: req.clock.and_then(|c| serde_json::to_string(&c).ok()),
            seats: None,
            created: now(),
        };
        let mut room = Room::open(meta, mode, game, engine, req.clock);
        // A record's own result stands where the rules did not end its game.
        if room.result.is_none()
            && let Some((result, termination)) = record_result
            && result != RecordResult::Unfinished
        {
            room.result = Some(GameResult::new(result, termination.as_deref().unwrap_or("recorded")));
        }
        let moves: Vec<StoredMove> = room
            .game
            .moves()
            .iter()
            .map(|m| StoredMove { coord: m.view.coord.clone(), white_ms: None, black_ms: None })
            .collect();
        let (meta, result) = (room.meta.clone(), room.result.as_ref().map(GameResult::stored));
        self.blocking(move |s| s.create(&meta, &moves, result.as_ref())).await?;
        room.start_clock();
        room.rebuild();
        let state = serde_json::from_str(&room.state).unwrap_or(serde_json::Value::Null);
        let mut tokens = HashMap::new();
        let mut links = HashMap::from([("spectate", format!("/g/{id}"))]);
        for (seat, token) in [("white", &room.meta.white_token), ("black", &room.meta.black_token)] {
            if let Some(t) = token {
                tokens.insert(seat, t.clone());
                // The page learns from the link which side it seats.
                let c = if mode == Mode::Local { "both" } else { seat };
                links.insert(seat, format!("/g/{id}#t={t}&c={c}"));
            }
        }
        let room = Arc::new(tokio::sync::Mutex::new(room));
        self.rooms.lock().unwrap_or_else(|e| e.into_inner()).insert(id.clone(), AnyRoom::Two(Arc::clone(&room)));
        {
            let mut locked = room.lock().await;
            self.schedule(&mut locked, &room);
        }
        Ok(Created { id, tokens, links, state })
    }

    /// Drops from memory the rooms nobody uses: no request holds them, no
    /// socket listens, no search or clock runs, and nothing changed for
    /// [`IDLE`]. They are in the store and load again when asked for.
    fn evict_idle(&self) {
        let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        let mut last = self.last_sweep.lock().unwrap_or_else(|e| e.into_inner());
        if last.elapsed() < SWEEP_EVERY {
            return;
        }
        *last = Instant::now();
        rooms.retain(|_, room| !room.idle());
    }

    /// The room of game `id`, loaded from the store if not in memory.
    pub async fn room(self: &Arc<Self>, id: &str) -> Result<AnyRoom, Refusal> {
        if let Some(r) = self.rooms.lock().unwrap_or_else(|e| e.into_inner()).get(id) {
            return Ok(r.clone());
        }
        let unknown = || Refusal::new(404, format!("no game '{id}'"));
        if id.is_empty() || id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(unknown());
        }
        self.evict_idle();
        let key = id.to_string();
        // Replaying a long game is work for a blocking thread, like the load.
        let restored = self
            .blocking(move |s| {
                Ok(s.load(&key)?.map(|(meta, moves, result)| {
                    if MultiRoom::holds(&meta) {
                        MultiRoom::restore(meta, &moves, result)
                            .map(|r| AnyRoom::Multi(Arc::new(tokio::sync::Mutex::new(r))))
                    } else {
                        Room::restore(meta, &moves, result).map(|r| AnyRoom::Two(Arc::new(tokio::sync::Mutex::new(r))))
                    }
                }))
            })
            .await?;
        let room = match restored {
            None => return Err(unknown()),
            Some(r) => r.map_err(|e| Refusal::new(500, e))?,
        };
        let room = {
            let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
            // Another request may have loaded it meanwhile: keep the first.
            rooms.entry(id.to_string()).or_insert(room).clone()
        };
        match &room {
            AnyRoom::Two(arc) => {
                let mut locked = arc.lock().await;
                self.schedule(&mut locked, arc);
            }
            AnyRoom::Multi(arc) => {
                let mut locked = arc.lock().await;
                self.schedule_multi(&mut locked, arc);
            }
        }
        Ok(room)
    }

    /// The two-player room of game `id`; a multi-player game is refused
    /// with `multi` (what it does not offer).
    async fn two_room(self: &Arc<Self>, id: &str, multi: &str) -> Result<Arc<tokio::sync::Mutex<Room>>, Refusal> {
        match self.room(id).await? {
            AnyRoom::Two(r) => Ok(r),
            AnyRoom::Multi(_) => Err(Refusal::new(409, format!("{multi} in multi-player games"))),
        }
    }

    /// Plays `text` for the seat of `token` as the game's ply `ply`.
    pub async fn play(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        ply: usize,
        text: &str,
    ) -> Result<Arc<str>, Refusal> {
        let room_arc = match self.room(id).await? {
            AnyRoom::Two(r) => r,
            AnyRoom::Multi(r) => return self.play_multi(&r, token, ply, text).await,
        };
        let mut room = room_arc.lock().await;
        let seat = room.require_seat(token)?;
        room.over()?;
        if ply != room.game.ply() {
            return Err(Refusal::new(
                409,
                if ply < room.game.ply() {
                    format!("ply {ply} has been played already (the game has {} moves)", room.game.ply())
                } else {
                    format!("ply {ply} is ahead of the game, which has {} moves", room.game.ply())
                },
            ));
        }
        let side = room.game.side();
        if !seat.plays(side) {
            return Err(Refusal::new(
                403,
                format!("it is {}'s move, and this seat plays {}", color_name(side), seat.name()),
            ));
        }
        self.apply(&mut room, text).await?;
        self.schedule(&mut room, &room_arc);
        Ok(room.state())
    }

    /// Plays a move in `room` (any seat's checks done), stores it and tells
    /// the listeners.
    async fn apply(&self, room: &mut Room, text: &str) -> Result<(), Refusal> {
        let mover = room.game.side();
        // The mover's flag fell before the move arrived: the game is lost on time.
        if let Some(c) = &room.clock
            && c.since.is_some()
            && c.left(mover, mover) <= 0
        {
            self.flag(room).await?;
            return Err(Refusal::new(409, format!("{}'s time is up", color_name(mover))));
        }
        let played = match room.game.play(text) {
            Ok(p) => p.view.coord.clone(),
            Err(MoveError::GameOver) => return Err(Refusal::new(409, "the game is over")),
            Err(MoveError::Illegal(why)) => return Err(Refusal::new(422, why)),
        };
        let clock_before = room.clock.clone();
        if let Some(c) = &mut room.clock {
            if c.since.is_some() {
                let left = c.left(mover, mover);
                c.left_ms[mover.index()] = left + c.settings.increment_ms as i64;
            }
            c.since = Some(Instant::now());
        }
        let result = room.rules_result();
        let mv = StoredMove {
            coord: played,
            white_ms: room.clock.as_ref().map(|c| c.left_ms[0]),
            black_ms: room.clock.as_ref().map(|c| c.left_ms[1]),
        };
        let (id, ply, stored_result) =
            (room.meta.id.clone(), room.game.ply() - 1, result.as_ref().map(GameResult::stored));
        if let Err(e) = self.blocking(move |s| s.append_move(&id, ply, &mv, stored_result.as_ref())).await {
            room.game.undo();
            room.clock = clock_before;
            return Err(e);
        }
        if let Some(c) = &room.clock {
            room.clock_after.push(c.left_ms);
        }
        room.draw_offer = room.draw_offer.filter(|&c| c == mover);
        if result.is_some() {
            room.result = result;
            room.stop_clock();
        }
        room.rebuild();
        Ok(())
    }

    async fn flag(&self, room: &mut Room) -> Result<(), Refusal> {
        let loser = room.game.side();
        let result = GameResult::win_for(loser.opponent(), "time");
        let (id, stored_result) = (room.meta.id.clone(), result.stored());
        self.blocking(move |s| s.set_result(&id, Some(&stored_result))).await?;
        if let Some(c) = &mut room.clock {
            c.left_ms[loser.index()] = 0;
            c.since = None;
        }
        room.result = Some(result);
        room.stop_engine();
        room.stop_flag_timer();
        room.rebuild();
        Ok(())
    }

    /// After any change: start the engine if it is its turn, and watch the
    /// clock. Only spawns tasks, which take the room's lock when they run.
    fn schedule(self: &Arc<Self>, room: &mut Room, room_arc: &Arc<tokio::sync::Mutex<Room>>) {
        if room.result.is_some() {
            return;
        }
        if let Some(c) = &room.clock
            && c.since.is_some()
        {
            let side = room.game.side();
            let wait = Duration::from_millis(c.left(side, side).max(0) as u64 + 20);
            let (games, arc) = (Arc::clone(self), Arc::clone(room_arc));
            let timer = tokio::spawn(async move {
                tokio::time::sleep(wait).await;
                let mut room = arc.lock().await;
                let side = room.game.side();
                // The clock as it stands decides, whatever changed meanwhile.
                let fallen = room.clock.as_ref().is_some_and(|c| c.since.is_some() && c.left(side, side) <= 0);
                if fallen && room.result.is_none() {
                    let _ = games.flag(&mut room).await;
                }
            });
            if let Some(old) = room.flag_timer.replace(timer.abort_handle()) {
                old.abort();
            }
        }
        let engine_to_move = matches!(&room.engine, Some((c, _)) if *c == room.game.side());
        if !engine_to_move || room.thinking.is_some() {
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        room.thinking = Some(Arc::clone(&stop));
        let limits = room.engine_limits();
        let skill = room.engine_skill();
        let snapshot = room.game.boxed_clone();
        room.rebuild();
        let (games, arc) = (Arc::clone(self), Arc::clone(room_arc));
        tokio::spawn(async move {
            let flag = Arc::clone(&stop);
            let answer = games
                .pool
                .run(false, move |e| {
                    // The pool's engines are shared: the level is this search's only.
                    e.set_skill(skill);
                    let a = snapshot.analyse(e, &limits, flag);
                    e.set_skill(None);
                    a
                })
                .await;
            let mut room = arc.lock().await;
            let ours = matches!(&room.thinking, Some(s) if Arc::ptr_eq(s, &stop));
            if !ours || stop.load(Ordering::Relaxed) {
                return;
            }
            room.thinking = None;
            let played = match answer {
                Ok(Analysis { best: Some(best), .. }) => games.apply(&mut room, &best.coord).await,
                Ok(_) => Err(Refusal::new(500, "the engine found no move")),
                Err(e) => Err(Refusal::new(503, e.to_string())),
            };
            match played {
                Ok(()) => games.schedule(&mut room, &arc),
                // Not tried again at once (a failure on this position would
                // repeat): the next change to the game starts a new search.
                Err(e) => {
                    eprintln!("raum serve: game {}: the engine's move failed: {}", room.meta.id, e.message);
                    room.rebuild();
                }
            }
        });
    }

    /// Takes back the last move (engine games: back to the person's turn).
    /// With `ply` (the moves the client saw), a take-back sent twice takes
    /// back once.
    pub async fn undo(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        ply: Option<usize>,
    ) -> Result<Arc<str>, Refusal> {
        let room_arc = match self.room(id).await? {
            AnyRoom::Two(r) => r,
            AnyRoom::Multi(r) => return self.undo_multi(&r, token, ply).await,
        };
        let mut room = room_arc.lock().await;
        let seat = room.require_seat(token)?;
        if room.mode == Mode::Online {
            return Err(Refusal::new(409, "take-backs are not available in online games"));
        }
        if let Some(p) = ply
            && p != room.game.ply()
        {
            return Err(Refusal::new(409, format!("the game has {} moves, not {p}: refresh first", room.game.ply())));
        }
        if room.result.as_ref().is_some_and(|r| r.reason == "time") {
            return Err(Refusal::new(409, "a game lost on time cannot be taken back"));
        }
        let mut plies = room.game.ply();
        if plies == 0 {
            return Err(Refusal::new(409, "there is no move to take back"));
        }
        plies -= 1;
        if room.mode == Mode::Engine {
            // Back to a position where the person is to move.
            let person = if seat.plays(Color::White) { Color::White } else { Color::Black };
            let (now_ply, now_side) = (room.game.ply(), room.game.side());
            let side_at = |n: usize| if (now_ply - n).is_multiple_of(2) { now_side } else { now_side.opponent() };
            if side_at(plies) != person {
                if plies == 0 {
                    return Err(Refusal::new(409, "there is no move of yours to take back"));
                }
                plies -= 1;
            }
        }
        let key = room.meta.id.clone();
        self.blocking(move |s| s.truncate(&key, plies)).await?;
        room.stop_engine();
        while room.game.ply() > plies {
            room.game.undo();
        }
        room.result = None;
        room.draw_offer = None;
        room.clock_after.truncate(plies);
        let restored = room.clock_after.last().copied();
        if let Some(c) = &mut room.clock {
            let initial = c.settings.initial_ms as i64;
            c.left_ms = restored.unwrap_or([initial, initial]);
        }
        room.start_clock();
        room.rebuild();
        self.schedule(&mut room, &room_arc);
        Ok(room.state())
    }

    /// The seat of `token` resigns (a local game's token: the side to move,
    /// or in a multi-player game the `side` named).
    pub async fn resign(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        side: Option<&str>,
    ) -> Result<Arc<str>, Refusal> {
        let room_arc = match self.room(id).await? {
            AnyRoom::Two(_) if side.is_some() => {
                return Err(Refusal::new(400, "\"side\" is for multi-player games: a two-player seat resigns its own"));
            }
            AnyRoom::Two(r) => r,
            AnyRoom::Multi(r) => return self.resign_multi(&r, token, side).await,
        };
        let mut room = room_arc.lock().await;
        let seat = room.require_seat(token)?;
        room.over()?;
        let loser = seat.side(room.game.side());
        let result = GameResult::win_for(loser.opponent(), "resignation");
        self.finish(&mut room, result).await?;
        Ok(room.state())
    }

    async fn finish(&self, room: &mut Room, result: GameResult) -> Result<(), Refusal> {
        let (key, stored_result) = (room.meta.id.clone(), result.stored());
        self.blocking(move |s| s.set_result(&key, Some(&stored_result))).await?;
        room.result = Some(result);
        room.draw_offer = None;
        room.stop_engine();
        room.stop_clock();
        room.stop_flag_timer();
        room.rebuild();
        Ok(())
    }

    /// A draw offer, acceptance or refusal.
    pub async fn draw(self: &Arc<Self>, id: &str, token: Option<&str>, action: &str) -> Result<Arc<str>, Refusal> {
        let room_arc = self.two_room(id, "there are no draw offers (the rules' draws only)").await?;
        let mut room = room_arc.lock().await;
        let seat = room.require_seat(token)?;
        room.over()?;
        let me = seat.side(room.game.side());
        match action {
            "offer" => {
                if room.mode == Mode::Engine {
                    return Err(Refusal::new(409, "Raum's engine plays on: it does not take draw offers"));
                }
                match room.draw_offer {
                    // Offering while the other side's offer stands agrees to it.
                    Some(by) if by != me => {
                        self.finish(&mut room, GameResult::new(RecordResult::Draw, "agreement")).await?;
                    }
                    _ => {
                        room.draw_offer = Some(me);
                        room.rebuild();
                    }
                }
            }
            "accept" => match room.draw_offer {
                Some(by) if by != me || seat == Seat::Both => {
                    self.finish(&mut room, GameResult::new(RecordResult::Draw, "agreement")).await?;
                }
                _ => return Err(Refusal::new(409, "there is no draw offer from the other side to accept")),
            },
            "decline" => match room.draw_offer {
                Some(_) => {
                    room.draw_offer = None;
                    room.rebuild();
                }
                None => return Err(Refusal::new(409, "there is no draw offer to decline")),
            },
            other => {
                return Err(Refusal::new(400, format!("draw action '{other}': expected offer, accept or decline")));
            }
        }
        Ok(room.state())
    }

    /// The engine's view of the position now.
    pub async fn analyse(self: &Arc<Self>, id: &str, movetime_ms: u64) -> Result<Analysis, Refusal> {
        let room_arc = self.two_room(id, "the engine's analysis is not offered yet").await?;
        let snapshot = {
            let room = room_arc.lock().await;
            if room.mode == Mode::Online && room.result.is_none() {
                return Err(Refusal::new(409, "no engine help in an online game in progress"));
            }
            room.game.boxed_clone()
        };
        if movetime_ms == 0 || movetime_ms > 10_000 {
            return Err(Refusal::new(400, format!("movetime {movetime_ms}: expected 1 to 10000 ms")));
        }
        let limits = Limits { movetime: Some(Duration::from_millis(movetime_ms)), ..Limits::default() };
        self.pool.run(true, move |e| snapshot.analyse(e, &limits, Arc::new(AtomicBool::new(false)))).await.map_err(
            |e| match e {
                PoolError::Busy(_) => Refusal::new(503, e.to_string()),
                PoolError::Failed => Refusal::new(500, e.to_string()),
            },
        )
    }

    /// The game as a record (RULES.md's PGN-style text).
    pub async fn record(self: &Arc<Self>, id: &str) -> Result<String, Refusal> {
        let room_arc = match self.room(id).await? {
            AnyRoom::Two(r) => r,
            AnyRoom::Multi(r) => return Ok(r.lock().await.record()),
        };
        let room = room_arc.lock().await;
        let mut r = room.game.record();
        r.set_tag("Event", &format!("Raum {} game", room.mode.name()));
        r.set_tag("Site", "Raum web app");
        r.set_tag("Date", &record_date(room.meta.created));
        r.set_tag("White", &room.meta.white);
        r.set_tag("Black", &room.meta.black);
        if let Some(c) = &room.clock {
            r.set_tag(
                "TimeControl",
                &format!("{}+{}", seconds(c.settings.initial_ms), seconds(c.settings.increment_ms)),
            );
        }
        if let Some(res) = &room.result {
            r.set_result(res.result);
            if res.reason != "agreement" && res.reason != "recorded" {
                r.set_tag("Termination", &res.reason);
            }
        }
        Ok(r.to_string())
    }
}

impl Room {
    fn open(
        meta: GameMeta,
        mode: Mode,
        game: Box<dyn LiveGame>,
        engine: Option<(Color, EngineSeat)>,
        clock: Option<ClockSettings>,
    ) -> Room {
        let (listeners, _) = broadcast::channel(64);
        let clock = clock.map(|settings| Clock {
            settings,
            left_ms: [settings.initial_ms as i64, settings.initial_ms as i64],
            since: None,
        });
        let clock_after = match &clock {
            Some(c) => vec![c.left_ms; game.ply()],
            None => Vec::new(),
        };
        let version =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        let mut room = Room {
            meta,
            mode,
            game,
            result: None,
            draw_offer: None,
            clock,
            engine,
            thinking: None,
            flag_timer: None,
            clock_after,
            version,
            touched: Instant::now(),
            state: Arc::from(""),
            listeners,
        };
        room.result = room.rules_result();
        room
    }

    /// A stored game, replayed.
    fn restore(meta: GameMeta, moves: &[StoredMove], result: Option<StoredResult>) -> Result<Room, String> {
        let damaged = |why: String| format!("stored game {} is damaged: {why}", meta.id);
        let id: VariantId = meta.variant.parse().map_err(|e| damaged(format!("{e}")))?;
        let mode = Mode::parse(&meta.mode).ok_or_else(|| damaged(format!("mode '{}'", meta.mode)))?;
        let result = match result {
            Some(r) => Some(GameResult::new(
                RecordResult::parse(&r.score)
                    .filter(|&s| s != RecordResult::Unfinished)
                    .ok_or_else(|| damaged(format!("result '{}'", r.score)))?,
                &r.reason,
            )),
            None => None,
        };
        let mut game = new_game(id, Some(&meta.start)).map_err(damaged)?;
        for (i, m) in moves.iter().enumerate() {
            game.play(&m.coord).map_err(|e| damaged(format!("move {} {}: {e}", i + 1, m.coord)))?;
        }
        let engine = match &meta.engine {
            Some(text) => {
                let seat: EngineSeat = serde_json::from_str(text).map_err(|e| damaged(format!("engine: {e}")))?;
                let c = parse_color(&seat.color).ok_or_else(|| damaged("engine colour".into()))?;
                Some((c, seat))
            }
            None => None,
        };
        let clock: Option<ClockSettings> = match &meta.clock {
            Some(text) => Some(serde_json::from_str(text).map_err(|e| damaged(format!("clock: {e}")))?),
            None => None,
        };
        let mut room = Room::open(meta, mode, game, engine, clock);
        if let Some(c) = &mut room.clock {
            // Moves imported from a record carry no clocks: the start's stand.
            room.clock_after = moves
                .iter()
                .map(|m| [m.white_ms.unwrap_or(c.left_ms[0]), m.black_ms.unwrap_or(c.left_ms[1])])
                .collect();
            if let Some(&last) = room.clock_after.last() {
                c.left_ms = last;
            }
        }
        if let Some(r) = result {
            room.result = Some(r);
        }
        room.start_clock();
        room.rebuild();
        Ok(room)
    }

    /// Clocks run once the first move is made, while the game goes on.
    fn start_clock(&mut self) {
        let running = self.result.is_none() && self.game.ply() > 0;
        if let Some(c) = &mut self.clock {
            c.since = running.then(Instant::now);
        }
    }

    fn stop_flag_timer(&mut self) {
        if let Some(t) = self.flag_timer.take() {
            t.abort();
        }
    }

    fn stop_clock(&mut self) {
        let side = self.game.side();
        if let Some(c) = &mut self.clock {
            let left = c.left(side, side).max(0);
            if c.since.is_some() {
                c.left_ms[side.index()] = left;
            }
            c.since = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_control_characters_and_length() {
        assert_eq!(clean_name("  Ann\u{7}\n "), "Ann");
        assert_eq!(clean_name(&"x".repeat(100)).len(), 40);
    }

    #[test]
    fn ids_and_tokens_are_random_and_long() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
        assert!(new_id().chars().all(|c| c.is_ascii_alphanumeric()));
    }
}
