//! The requests to a two-player game, as [`Games`]' methods: create it,
//! play a move, take back, resign, offer a draw, analyse, write its record.
//! Each checks the request, applies it in memory, stores it, then tells the
//! listeners; a multi-player game's requests go to its own code.

use super::game_result::GameResult;
use super::refusal::Refusal;
use super::registry::{AnyRoom, Games};
use super::request::{Created, Mode, NewGame, TERMINATIONS, check_clock, clean_name, engine_seat};
use super::room::Room;
use super::seat::{Seat, color_name};
use super::tokens::{new_id, new_token};
use crate::any_game::{Analysis, MoveError, new_game, replay_record};
use crate::engine_pool::PoolError;
use crate::multi_room::multi_of;
use crate::store::{GameMeta, StoredMove, now};
use raum_engine::Limits;
use raum_notation::{RecordResult, parse_records, record_date};
use raum_rules::{Color, VariantId};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

impl Games {
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
                let result = record.result.clone();
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
        let engine = engine_seat(mode, req.engine)?;
        check_clock(req.clock)?;
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
            && let Some(result) = RecordResult::of_scores(result.as_deref()).filter(|&r| r != RecordResult::Unfinished)
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
    pub(super) async fn apply(&self, room: &mut Room, text: &str) -> Result<(), Refusal> {
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

    pub(super) async fn flag(&self, room: &mut Room) -> Result<(), Refusal> {
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
            r.set_result(res.result.scores());
            if res.reason != "agreement" && res.reason != "recorded" {
                r.set_tag("Termination", &res.reason);
            }
        }
        Ok(r.to_string())
    }
}

/// Milliseconds as PGN's `TimeControl` writes seconds: `300`, `0.5`.
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) { (ms / 1000).to_string() } else { format!("{}", ms as f64 / 1000.0) }
}
