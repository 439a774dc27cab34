//! [`Room`]: a two-player game in memory (the game, its seats, clocks,
//! result, engine search and listeners), opened new or restored from the
//! store.

use super::clock::Clock;
use super::game_result::GameResult;
use super::refusal::Refusal;
use super::request::{ClockSettings, EngineSeat, Mode};
use super::seat::{Seat, parse_color};
use super::tokens::same_secret;
use crate::any_game::{LiveGame, new_game};
use crate::store::{GameMeta, StoredMove, StoredResult};
use raum_engine::{Limits, Skill, level_limits};
use raum_notation::RecordResult;
use raum_rules::{Color, VariantId};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// A game in memory.
pub struct Room {
    pub(super) meta: GameMeta,
    pub(super) mode: Mode,
    pub(super) game: Box<dyn LiveGame>,
    pub(super) result: Option<GameResult>,
    pub(super) draw_offer: Option<Color>,
    pub(super) clock: Option<Clock>,
    pub(super) engine: Option<(Color, EngineSeat)>,
    /// The running engine search's stop flag.
    pub(super) thinking: Option<Arc<AtomicBool>>,
    /// The task that ends the game when the side to move's flag falls.
    pub(super) flag_timer: Option<tokio::task::AbortHandle>,
    /// Both clocks after each ply (with clocks), for take-backs.
    pub(super) clock_after: Vec<[i64; 2]>,
    /// Grows with every change; starts from the wall clock in milliseconds,
    /// so that a restarted server's states are newer than the ones before.
    pub(super) version: u64,
    /// When the game last changed.
    pub(super) touched: Instant,
    pub(super) state: Arc<str>,
    pub(super) listeners: broadcast::Sender<Arc<str>>,
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

    /// The result the rules give now, if any.
    pub(super) fn rules_result(&self) -> Option<GameResult> {
        self.game.outcome().map(GameResult::of_outcome)
    }

    /// The engine's limits: its level or time per move, and its clock where
    /// the game has clocks (whichever ends the search first).
    pub(super) fn engine_limits(&self) -> Limits {
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
    pub(super) fn engine_skill(&self) -> Option<Skill> {
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

    pub(super) fn stop_engine(&mut self) {
        if let Some(stop) = self.thinking.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }

    pub(super) fn open(
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
    pub(super) fn restore(meta: GameMeta, moves: &[StoredMove], result: Option<StoredResult>) -> Result<Room, String> {
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
    pub(super) fn start_clock(&mut self) {
        let running = self.result.is_none() && self.game.ply() > 0;
        if let Some(c) = &mut self.clock {
            c.since = running.then(Instant::now);
        }
    }

    pub(super) fn stop_flag_timer(&mut self) {
        if let Some(t) = self.flag_timer.take() {
            t.abort();
        }
    }

    pub(super) fn stop_clock(&mut self) {
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
