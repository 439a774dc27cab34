//! [`Room`]: a game in memory, any number of sides (the game, its seats,
//! clocks, draw offer, take-back request, result, engine search and
//! listeners).

use super::clock::Clock;
use super::game_result::{GameResult, describe};
use super::refusal::Refusal;
use super::request::{ClockSettings, MAX_MOVETIME_MS, Mode};
use super::seat::{Seat, StoredSeat};
use super::seating::{side_index, side_list};
use crate::engine_pool::Client;
use crate::live_game::{LiveGame, side_key};
use crate::store::GameMeta;
use raum_engine::{Limits, Skill, level_limits};
use raum_notation::{describe_end, termination};
use raum_rules::Points;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// The engine's search for a game's move.
pub(super) struct Thinking {
    /// Set when the game changed under the search: its move is not played.
    pub(super) cancelled: AtomicBool,
    /// The search's stop flag: set on cancelling, and by the engine pool
    /// when the search must yield (its best move so far is played).
    pub(super) search: Arc<AtomicBool>,
}

/// A take-back asked for: by which side, when the game had how many events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TakebackAsk {
    pub(super) by: usize,
    pub(super) ply: usize,
}

/// A game in memory.
pub struct Room {
    pub(super) meta: GameMeta,
    pub(super) mode: Mode,
    pub(super) game: LiveGame,
    /// Who plays each side, in turn order.
    pub(super) seats: Vec<StoredSeat>,
    pub(super) result: Option<GameResult>,
    /// The sides that agree to a draw, the one that offered first.
    pub(super) draw: Vec<usize>,
    /// A person's request to take back their last move, waiting for the
    /// opponent's answer (online games for two).
    pub(super) takeback: Option<TakebackAsk>,
    pub(super) clock: Option<Clock>,
    /// The engine's search for this game, while it runs.
    pub(super) thinking: Option<Arc<Thinking>>,
    /// Whether this server holds the game's lease (`lease`: with other
    /// servers, only the holder searches the engine's moves and flags clocks).
    pub(super) leased: bool,
    /// Whether another server holds the lease and the engine is to move:
    /// it searches there, and this room's state says the engine thinks.
    pub(super) searched_elsewhere: bool,
    /// Who this game's engine moves are charged to: the client that last
    /// changed it (its id, once restored, until someone does).
    pub(super) client: Client,
    /// The task that acts when the side to move's flag falls.
    pub(super) flag_timer: Option<tokio::task::AbortHandle>,
    /// Every clock after each event (with clocks), for take-backs.
    pub(super) clock_after: Vec<Vec<i64>>,
    /// Per side: the pages open on its seat now (its sockets), so that a
    /// player learns when the opponent has joined or left.
    pub(super) present: Vec<u32>,
    /// Per side: whether it has a socket open on another server (several
    /// servers on one database: [`super::presence`]).
    pub(super) present_elsewhere: Vec<bool>,
    /// Grows with every change; starts from the wall clock in milliseconds,
    /// so that a restarted server's states are newer than the ones before.
    pub(super) version: u64,
    /// When the game last changed.
    pub(super) touched: Instant,
    pub(super) state: Arc<str>,
    pub(super) listeners: broadcast::Sender<Arc<str>>,
}

impl Room {
    pub(super) fn open(
        meta: GameMeta,
        mode: Mode,
        game: LiveGame,
        seats: Vec<StoredSeat>,
        clock: Option<ClockSettings>,
    ) -> Room {
        let (listeners, _) = broadcast::channel(64);
        let meta_id = meta.id.clone();
        let seats_len = seats.len();
        let clock = clock.map(|settings| Clock::new(settings, game.sides().len()));
        let clock_after = clock.as_ref().map_or_else(Vec::new, |c| vec![c.left_ms.clone(); game.ply()]);
        let version = super::restore::now_ms() as u64;
        let mut room = Room {
            meta,
            mode,
            game,
            seats,
            result: None,
            draw: Vec::new(),
            takeback: None,
            clock,
            thinking: None,
            leased: false,
            searched_elsewhere: false,
            client: Arc::from(format!("game:{}", meta_id)),
            flag_timer: None,
            clock_after,
            present: vec![0; seats_len],
            present_elsewhere: vec![false; seats_len],
            version,
            touched: Instant::now(),
            state: Arc::from(""),
            listeners,
        };
        room.result = room.rules_result();
        room
    }

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
        Seat::of(&self.seats, token.filter(|t| !t.is_empty())?, self.mode == Mode::Local)
    }

    /// The seat of a token as the WebSocket names it.
    pub fn seat_name(&self, token: Option<&str>) -> Option<&'static str> {
        self.seat(token).map(|s| s.name(self.game.sides()))
    }

    pub(super) fn require_seat(&self, token: Option<&str>) -> Result<Seat, Refusal> {
        match token {
            None | Some("") => Err(Refusal::new(403, "no seat token: spectators cannot change the game")),
            t => self.seat(t).ok_or_else(|| Refusal::new(403, "this token holds no seat in this game")),
        }
    }

    pub(super) fn over(&self) -> Result<(), Refusal> {
        match &self.result {
            Some(r) => Err(Refusal::new(409, format!("the game is over ({})", r.text))),
            None => Ok(()),
        }
    }

    /// The name of a side as messages write it: `white` (two sides, as
    /// before), `Blue` (more).
    pub(super) fn side_name(&self, side: usize) -> &'static str {
        let def = &self.game.sides()[side];
        if self.game.two() { side_key(def) } else { def.name }
    }

    /// The side `text` names: its key (`blue`), name or letter.
    pub(super) fn side_named(&self, text: &str) -> Result<usize, Refusal> {
        side_index(self.game.sides(), text).ok_or_else(|| {
            Refusal::new(400, format!("'{text}' is not a side of {}: {}", self.game.id(), side_list(self.game.sides())))
        })
    }

    /// The side a seat speaks for: its own; at one screen the side `named`,
    /// or the side to move.
    pub(super) fn acting_side(&self, seat: Seat, named: Option<&str>) -> Result<usize, Refusal> {
        let named = named.map(|s| self.side_named(s)).transpose()?;
        match (seat.own(), named) {
            (Some(s), Some(n)) if n != s => {
                Err(Refusal::new(403, format!("this seat plays {}, not {}", self.side_name(s), self.side_name(n))))
            }
            (Some(s), _) => Ok(s),
            (None, Some(n)) => Ok(n),
            (None, None) => Ok(self.game.side()),
        }
    }

    /// Records a change: a new version, its state serialised once and sent
    /// to every listener.
    pub(super) fn rebuild(&mut self) {
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

    /// Whether nothing listens, searches, runs a clock or changed for `idle`.
    pub(super) fn idle(&self, idle: Duration) -> bool {
        self.listeners.receiver_count() == 0
            && self.thinking.is_none()
            && self.clock.as_ref().is_none_or(|c| c.since.is_none())
            && self.touched.elapsed() >= idle
    }

    /// The result the rules give now, if any, with the reason records give
    /// it: where a resignation or a fallen flag in a game for more than two
    /// ended it, `resignation` or `time`.
    pub(super) fn rules_result(&self) -> Option<GameResult> {
        let sides = self.game.sides();
        let o = self.game.outcome()?;
        let reason = self.game.termination().unwrap_or_else(|| termination(o.end));
        Some(match self.game.events().last() {
            Some(e) if reason == "resignation" && e.kind != "move" => {
                let said = self.event_text(e.san.clone(), &o.scores);
                GameResult::new(sides, o.scores, if e.kind == "time" { "time" } else { reason }, &said)
            }
            _ if self.game.two() => GameResult::plain(sides, o.scores, reason),
            _ => GameResult::new(sides, o.scores, reason, &describe_end(sides, o.end)),
        })
    }

    /// What a resignation or fallen flag that ended the game says: `Red
    /// resigns`, and every side for itself the side left when only one is.
    fn event_text(&self, said: String, scores: &[Points]) -> String {
        match scores.iter().position(|&s| s == Points::ONE) {
            Some(last) if !self.game.teams() => format!("{said}; {} is the last side in", self.game.sides()[last].name),
            _ => said,
        }
    }

    /// A result kept in the store (or a record's), where the rules did not
    /// end the game.
    pub(super) fn kept_result(&self, scores: Vec<Points>, reason: &str) -> GameResult {
        let sides = self.game.sides();
        match self.game.events().last() {
            Some(e) if !self.game.two() && e.kind != "move" && (reason == "resignation" || reason == "time") => {
                let said = self.event_text(e.san.clone(), &scores);
                GameResult::new(sides, scores, reason, &said)
            }
            _ => {
                let said = describe(sides, &scores, reason);
                GameResult::new(sides, scores, reason, &said)
            }
        }
    }

    /// The engine's limits for `side`'s seat: its level or time per move,
    /// and its clock where the game has clocks (whichever ends the search first).
    pub(super) fn engine_limits(&self, side: usize) -> Limits {
        let seat = &self.seats[side];
        let mut limits = match (seat.level, seat.movetime) {
            (Some(l), _) => level_limits(l).unwrap_or_default(),
            (None, Some(ms)) => Limits { movetime: Some(Duration::from_millis(ms)), ..Limits::default() },
            (None, None) => level_limits(3).unwrap_or_default(),
        };
        // Games stored when the maximum was higher think no longer than it now.
        let most = Duration::from_millis(MAX_MOVETIME_MS);
        limits.movetime = Some(limits.movetime.map_or(most, |t| t.min(most)));
        if let Some(clock) = &self.clock {
            let inc = Some(Duration::from_millis(clock.settings.increment_ms));
            let left = |s: usize| Some(Duration::from_millis(clock.left(s, side).max(1) as u64));
            // Two sides: both clocks; more: the mover's, which the engine reads as its own.
            let (w, b) = if self.game.two() { (0, Some(1)) } else { (side, None) };
            limits.wtime = left(w);
            limits.btime = b.and_then(left);
            limits.winc = inc;
            limits.binc = inc;
        }
        limits
    }

    /// The engine's level for its next move (levels below the top choose
    /// among the best moves at random), seeded by the game and the ply, so a
    /// position of a game is always answered alike.
    pub(super) fn engine_skill(&self, side: usize) -> Option<Skill> {
        let seat = &self.seats[side];
        let level = match (seat.level, seat.movetime) {
            (Some(l), _) => l,
            (None, Some(_)) => return None,
            (None, None) => 3,
        };
        let seed =
            self.meta.id.bytes().fold(self.game.ply() as u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3));
        Skill::new(level, seed)
    }

    /// Whether the engine is to move and may: its seat's turn, while a
    /// person is still in the game (seats of Raum never play on alone).
    pub(super) fn engine_to_move(&self) -> bool {
        self.result.is_none()
            && self.seats[self.game.side()].engine()
            && self.game.sides_in().iter().any(|&s| !self.seats[s].engine())
    }

    /// Whether the game has work that runs on its own: the engine's move, or
    /// a clock that may fall.
    pub(super) fn has_timed_work(&self) -> bool {
        self.result.is_none() && (self.engine_to_move() || self.clock.as_ref().is_some_and(|c| c.since.is_some()))
    }

    pub(super) fn stop_engine(&mut self) {
        if let Some(t) = self.thinking.take() {
            t.cancelled.store(true, Ordering::Relaxed);
            t.search.store(true, Ordering::Relaxed);
        }
    }

    /// Clocks run once the first move is made, while the game goes on.
    pub(super) fn start_clock(&mut self) {
        let running = self.result.is_none() && self.game.ply() > 0;
        if let Some(c) = &mut self.clock {
            c.since = running.then(Instant::now);
        }
    }

    /// Stops what runs for this room on its own: the engine's search and the flag timer.
    pub(super) fn stop_work(&mut self) {
        self.stop_engine();
        self.stop_flag_timer();
    }

    pub(super) fn stop_flag_timer(&mut self) {
        if let Some(t) = self.flag_timer.take() {
            t.abort();
        }
    }

    pub(super) fn stop_clock(&mut self) {
        let side = self.game.side();
        if let Some(c) = &mut self.clock {
            if c.since.is_some() {
                c.left_ms[side] = c.left(side, side).max(0);
            }
            c.since = None;
        }
    }
}
