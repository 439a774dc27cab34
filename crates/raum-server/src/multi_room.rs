//! Multi-player games in the web app (RULES.md "Savard's multi-player
//! forms"): a [`MultiRoom`] holds one game of three, four or six sides, a
//! seat per side (a person with a seat token of their own, or the engine
//! with a time per move) and its result. A game at one screen has one token
//! for every person's seat.
//!
//! Changes go as in two-player rooms (crate::games): check, apply in memory,
//! commit to the store (undone in memory if the store refuses), broadcast.
//! The store keeps the seats as JSON in the game's `seats` column and each
//! event in the moves table: a move's coordinates, or `resign <side letter>`.

use crate::any_game::MoveError;
use crate::any_multi_game::{LiveMulti, MultiEvent, MultiMoveView, new_multi, replay_multi, side_key};
use crate::games::refusal::Refusal;
use crate::games::registry::{AnyRoom, Games};
use crate::games::request::{Created, MAX_MOVETIME_MS, NewGame, clean_name};
use crate::games::tokens::{new_id, new_token, same_secret};
use crate::store::{GameMeta, StoredMove, StoredResult, now};
use raum_engine::Limits;
use raum_notation::{describe_end, format_result, parse_records, parse_result, record_date, termination};
use raum_rules::Points;
use raum_rules::SideDef;
use raum_rules::multi::MultiId;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// The engine's time per move when a seat gives none.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// A seat asked for in `POST /api/games` (`"seats": {"blue": {...}}`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    /// `human` (the default) or `engine`.
    #[serde(default)]
    pub player: Option<String>,
    /// A person's name.
    #[serde(default)]
    pub name: Option<String>,
    /// The engine's time per move, in milliseconds.
    #[serde(default)]
    pub movetime: Option<u64>,
}

/// A seat as stored: who plays the side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct StoredSeat {
    /// The player's name as shown.
    name: String,
    /// A person's seat token (the same for every person's seat at one screen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    token: Option<String>,
    /// The engine's time per move; `None`: a person's seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    movetime: Option<u64>,
}

/// The seat a token holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultiSeat {
    /// One side's seat (online).
    Side(usize),
    /// Every person's seat (one screen).
    All,
}

/// A finished game's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MultiResult {
    /// Each side's score in turn order.
    #[serde(skip)]
    pub scores: Vec<Points>,
    /// As records write it: `1-0-1-0`, `1/3-1/3-1/3`.
    pub score: String,
    /// Each side's points in turn order: `["1", "0", "1", "0"]`.
    pub points: Vec<String>,
    /// The sides that scored most (none for a draw, where all score alike).
    pub winners: Vec<&'static str>,
    /// RULES.md's termination word (`checkmate`, `stalemate`, `repetition`, ...,
    /// `resignation`), or `recorded` for a record's own result.
    pub reason: String,
    /// For people: `1-0-1-0, Red is checkmated`.
    pub text: String,
}

impl MultiResult {
    fn new(sides: &'static [SideDef], scores: Vec<Points>, reason: &str, said: &str) -> Self {
        let score = format_result(Some(&scores));
        let best = scores.iter().copied().max().unwrap_or(Points::ZERO);
        let winners = if scores.iter().all(|&s| s == best) {
            Vec::new()
        } else {
            sides.iter().zip(&scores).filter(|(_, s)| **s == best).map(|(d, _)| side_key(d)).collect()
        };
        MultiResult {
            points: scores.iter().map(Points::to_string).collect(),
            text: format!("{score}, {said}"),
            score,
            scores,
            winners,
            reason: reason.into(),
        }
    }

    fn stored(&self) -> StoredResult {
        StoredResult { score: self.score.clone(), reason: self.reason.clone() }
    }
}

/// What a resignation says: `Red resigns`, and every side for itself the
/// side left when only one is.
fn resignation_text(sides: &'static [SideDef], teams: bool, event: &MultiEvent, scores: &[Points]) -> String {
    match scores.iter().position(|&s| s == Points::ONE) {
        Some(last) if !teams => format!("{}; {} is the last side in", event.san, sides[last].name),
        _ => event.san.clone(),
    }
}

/// A multi-player game in memory.
pub struct MultiRoom {
    meta: GameMeta,
    /// One screen (one token for every person's seat) rather than online.
    local: bool,
    seats: Vec<StoredSeat>,
    game: Box<dyn LiveMulti>,
    result: Option<MultiResult>,
    /// The running engine search's stop flag.
    thinking: Option<Arc<AtomicBool>>,
    /// Grows with every change (from the wall clock, as two-player rooms).
    version: u64,
    touched: Instant,
    state: Arc<str>,
    listeners: broadcast::Sender<Arc<str>>,
}

/// The state as sent to clients (docs/api.md, "Multi-player games").
#[derive(Serialize)]
struct StateView<'a> {
    id: &'a str,
    variant: &'a str,
    kind: &'static str,
    mode: &'static str,
    version: u64,
    teams: bool,
    names: HashMap<&'static str, &'a str>,
    sides: Vec<SideView<'a>>,
    start: String,
    fen: String,
    side: &'static str,
    ply: usize,
    moves: &'a [MultiEvent],
    start_pieces: &'a [(usize, String)],
    legal: Vec<MultiMoveView>,
    check: Vec<usize>,
    in_check: bool,
    result: Option<&'a MultiResult>,
    engine: Option<EngineView>,
    draw_offer: Option<&'static str>,
    clock: Option<()>,
}

#[derive(Serialize)]
struct SideView<'a> {
    key: &'static str,
    letter: char,
    name: &'static str,
    team: u8,
    player: &'a str,
    human: bool,
    movetime: Option<u64>,
    #[serde(rename = "in")]
    in_game: bool,
    out: Option<OutView>,
    score: Option<&'a str>,
    thinking: bool,
}

#[derive(Serialize)]
struct OutView {
    /// The event that took the side out (1-based: the state after it).
    ply: usize,
    /// `resignation`, or `no-move` (no legal move on its turn).
    reason: &'static str,
}

#[derive(Serialize)]
struct EngineView {
    thinking: bool,
}

impl MultiRoom {
    /// Whether a stored game is a multi-player one.
    pub fn holds(meta: &GameMeta) -> bool {
        MultiId::from_name(&meta.variant).is_some()
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
    pub fn seat(&self, token: Option<&str>) -> Option<MultiSeat> {
        let token = token.filter(|t| !t.is_empty())?;
        let side = self.seats.iter().position(|s| s.token.as_deref().is_some_and(|t| same_secret(t, token)))?;
        Some(if self.local { MultiSeat::All } else { MultiSeat::Side(side) })
    }

    /// The seat of a token as the WebSocket names it: a side (`blue`) or `all`.
    pub fn seat_name(&self, token: Option<&str>) -> Option<&'static str> {
        self.seat(token).map(|s| match s {
            MultiSeat::All => "all",
            MultiSeat::Side(i) => side_key(&self.game.sides()[i]),
        })
    }

    fn require_seat(&self, token: Option<&str>) -> Result<MultiSeat, Refusal> {
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

    /// Whether nothing listens, searches or changed for `idle`.
    pub(crate) fn idle(&self, idle: Duration) -> bool {
        self.listeners.receiver_count() == 0 && self.thinking.is_none() && self.touched.elapsed() >= idle
    }

    fn side_name(&self, side: usize) -> &'static str {
        self.game.sides()[side].name
    }

    /// The side `text` names: its key (`blue`), name or letter.
    fn side_named(&self, text: &str) -> Result<usize, Refusal> {
        side_index(self.game.sides(), text).ok_or_else(|| {
            Refusal::new(400, format!("'{text}' is not a side of {}: {}", self.game.id(), side_list(self.game.sides())))
        })
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

    fn serialize(&self) -> Arc<str> {
        let sides = self.game.sides();
        let events = self.game.events();
        let in_game = self.game.sides_in();
        let to_move = self.game.side();
        let out = |key: &str| {
            events.iter().enumerate().rev().find(|(_, e)| e.out.contains(&key)).map(|(i, e)| OutView {
                ply: i + 1,
                reason: if e.kind == "resign" && e.color == key { "resignation" } else { "no-move" },
            })
        };
        let thinking = self.thinking.is_some();
        let view = StateView {
            id: &self.meta.id,
            variant: &self.meta.variant,
            kind: "multi",
            mode: if self.local { "local" } else { "online" },
            version: self.version,
            teams: self.game.teams(),
            names: sides.iter().zip(&self.seats).map(|(d, s)| (side_key(d), s.name.as_str())).collect(),
            sides: sides
                .iter()
                .zip(&self.seats)
                .enumerate()
                .map(|(i, (d, seat))| SideView {
                    key: side_key(d),
                    letter: d.letter,
                    name: d.name,
                    team: d.team,
                    player: &seat.name,
                    human: seat.movetime.is_none(),
                    movetime: seat.movetime,
                    in_game: in_game.contains(&i),
                    out: out(side_key(d)),
                    score: self.result.as_ref().and_then(|r| r.points.get(i)).map(String::as_str),
                    thinking: thinking && i == to_move,
                })
                .collect(),
            start: self.game.start_fen(),
            fen: self.game.fen(),
            side: side_key(&sides[to_move]),
            ply: self.game.ply(),
            moves: events,
            start_pieces: self.game.start_pieces(),
            legal: if self.result.is_some() { Vec::new() } else { self.game.legal() },
            check: self.game.check(),
            in_check: self.result.is_none() && self.game.in_check(),
            result: self.result.as_ref(),
            engine: self.seats.iter().any(|s| s.movetime.is_some()).then_some(EngineView { thinking }),
            draw_offer: None,
            clock: None,
        };
        serde_json::to_string(&view).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}")).into()
    }

    /// The result the rules give the game, if they ended it, with the
    /// reason records give it (`resignation` where a resignation ended it).
    fn rules_result(&self) -> Option<MultiResult> {
        let sides = self.game.sides();
        let o = self.game.outcome()?;
        let reason = self.game.termination().unwrap_or_else(|| termination(o.end));
        Some(match self.game.events().last() {
            Some(e) if reason == "resignation" && e.kind == "resign" => {
                let said = resignation_text(sides, self.game.teams(), e, &o.scores);
                MultiResult::new(sides, o.scores, reason, &said)
            }
            _ => MultiResult::new(sides, o.scores, reason, &describe_end(sides, o.end)),
        })
    }

    fn stop_engine(&mut self) {
        if let Some(stop) = self.thinking.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }

    fn open(meta: GameMeta, local: bool, seats: Vec<StoredSeat>, game: Box<dyn LiveMulti>) -> MultiRoom {
        let (listeners, _) = broadcast::channel(64);
        let version =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        let mut room = MultiRoom {
            meta,
            local,
            seats,
            game,
            result: None,
            thinking: None,
            version,
            touched: Instant::now(),
            state: Arc::from(""),
            listeners,
        };
        room.result = room.rules_result();
        room
    }

    /// A stored game, replayed: its moves and resignations.
    pub(crate) fn restore(
        meta: GameMeta,
        moves: &[StoredMove],
        result: Option<StoredResult>,
    ) -> Result<MultiRoom, String> {
        let damaged = |why: String| format!("stored game {} is damaged: {why}", meta.id);
        let id = MultiId::from_name(&meta.variant).ok_or_else(|| damaged(format!("game '{}'", meta.variant)))?;
        let local = match meta.mode.as_str() {
            "local" => true,
            "online" => false,
            other => return Err(damaged(format!("mode '{other}'"))),
        };
        let seats: Vec<StoredSeat> = serde_json::from_str(meta.seats.as_deref().unwrap_or("null"))
            .map_err(|e| damaged(format!("seats: {e}")))?;
        let mut game = new_multi(id, Some(&meta.start)).map_err(damaged)?;
        if seats.len() != game.sides().len() {
            return Err(damaged(format!("{} seats for {} sides", seats.len(), game.sides().len())));
        }
        for (i, m) in moves.iter().enumerate() {
            match m.coord.strip_prefix("resign ") {
                Some(letter) => {
                    let side = side_index(game.sides(), letter)
                        .ok_or_else(|| damaged(format!("event {}: no side '{letter}'", i + 1)))?;
                    game.resign(side).map_err(|e| damaged(format!("event {}: {e}", i + 1)))?;
                }
                None => {
                    game.play(&m.coord).map_err(|e| damaged(format!("move {} {}: {e}", i + 1, m.coord)))?;
                }
            }
        }
        let mut room = MultiRoom::open(meta, local, seats, game);
        if room.result.is_none()
            && let Some(r) = result
        {
            let sides = room.game.sides();
            let scores = parse_result(&r.score)
                .ok()
                .flatten()
                .filter(|s| s.len() == sides.len())
                .ok_or_else(|| format!("stored game {} is damaged: result '{}'", room.meta.id, r.score))?;
            let said = match (r.reason.as_str(), room.game.events().last()) {
                ("resignation", Some(e)) if e.kind == "resign" => {
                    resignation_text(sides, room.game.teams(), e, &scores)
                }
                (reason, _) => reason.to_string(),
            };
            room.result = Some(MultiResult::new(sides, scores, &r.reason, &said));
        }
        room.rebuild();
        Ok(room)
    }

    /// The game as a record (RULES.md's PGN-style text, a tag per side).
    pub(crate) fn record(&self) -> String {
        let mut r = self.game.record();
        r.set_tag("Event", &format!("Raum {} game", if self.local { "local" } else { "online" }));
        r.set_tag("Site", "Raum web app");
        r.set_tag("Date", &record_date(self.meta.created));
        for (side, seat) in self.game.sides().iter().zip(&self.seats) {
            r.set_tag(side.name, &seat.name);
        }
        if let Some(res) = &self.result {
            r.set_result(Some(res.scores.clone()));
            if res.reason != "recorded" {
                r.set_tag("Termination", &res.reason);
            }
        }
        r.to_string()
    }
}

/// The side `text` names in `sides`: its key (`blue`), name or letter.
fn side_index(sides: &[SideDef], text: &str) -> Option<usize> {
    sides.iter().position(|s| {
        side_key(s) == text || s.name.eq_ignore_ascii_case(text) || (text.len() == 1 && text.starts_with(s.letter))
    })
}

/// `white (w), red (r), black (k), blue (b)`.
fn side_list(sides: &[SideDef]) -> String {
    sides.iter().map(|s| format!("{} ({})", side_key(s), s.letter)).collect::<Vec<_>>().join(", ")
}

/// The multi-player game a request asks for: its variant's, or its record's.
pub(crate) fn multi_of(req: &NewGame) -> Result<Option<MultiId>, Refusal> {
    if let Some(name) = &req.variant {
        return Ok(MultiId::from_name(name));
    }
    let Some(text) = &req.pgn else { return Ok(None) };
    Ok(raum_notation::record_variants(text).first().and_then(|n| MultiId::from_name(n)))
}

/// Seats from a request: who plays each side, in turn order.
fn seats_from(
    sides: &'static [SideDef],
    asked: Option<HashMap<String, SeatRequest>>,
    local: bool,
) -> Result<Vec<StoredSeat>, Refusal> {
    let mut chosen: Vec<Option<SeatRequest>> = vec![None; sides.len()];
    for (key, seat) in asked.unwrap_or_default() {
        let side = side_index(sides, &key).ok_or_else(|| {
            Refusal::new(400, format!("seats: '{key}' is not a side of this game: {}", side_list(sides)))
        })?;
        if chosen[side].replace(seat).is_some() {
            return Err(Refusal::new(400, format!("seats: {} is given twice", sides[side].name)));
        }
    }
    let shared = local.then(new_token);
    let mut seats = Vec::with_capacity(sides.len());
    for (def, seat) in sides.iter().zip(chosen) {
        let seat = seat.unwrap_or_default();
        let name = seat.name.as_deref().map(clean_name).filter(|n| !n.is_empty());
        match seat.player.as_deref().unwrap_or("human") {
            "human" => {
                if seat.movetime.is_some() {
                    return Err(Refusal::new(
                        400,
                        format!("seats: {} is a person's: movetime is for the engine", def.name),
                    ));
                }
                let token = shared.clone().unwrap_or_else(new_token);
                seats.push(StoredSeat {
                    name: name.unwrap_or_else(|| def.name.into()),
                    token: Some(token),
                    movetime: None,
                });
            }
            "engine" => {
                let ms = seat.movetime.unwrap_or(DEFAULT_MOVETIME_MS);
                if ms == 0 || ms > MAX_MOVETIME_MS {
                    return Err(Refusal::new(
                        400,
                        format!("seats: {} movetime {ms}: expected 1 to {MAX_MOVETIME_MS} ms", def.name),
                    ));
                }
                if name.is_some() {
                    return Err(Refusal::new(
                        400,
                        format!("seats: {} is Raum's: a name is for a person's seat", def.name),
                    ));
                }
                seats.push(StoredSeat { name: format!("Raum ({ms} ms)"), token: None, movetime: Some(ms) });
            }
            other => {
                return Err(Refusal::new(
                    400,
                    format!("seats: {} player '{other}': expected human or engine", def.name),
                ));
            }
        }
    }
    if seats.iter().all(|s| s.token.is_none()) {
        return Err(Refusal::new(
            400,
            "seats: a game needs at least one person's seat (Raum does not play itself here)",
        ));
    }
    Ok(seats)
}

impl Games {
    /// Creates a multi-player game (`POST /api/games` with a multi-player variant).
    pub(crate) async fn create_multi(self: &Arc<Self>, req: NewGame, id: MultiId) -> Result<Created, Refusal> {
        let local = match req.mode.as_str() {
            "local" => true,
            "online" => false,
            other => {
                return Err(Refusal::new(
                    400,
                    format!(
                        "mode '{other}': a multi-player game is played at one screen (local) or online, with the \
                         engine's seats in \"seats\""
                    ),
                ));
            }
        };
        if req.engine.is_some() {
            return Err(Refusal::new(400, "\"engine\" is for two-player games: give the engine's seats in \"seats\""));
        }
        if req.names.is_some() {
            return Err(Refusal::new(400, "\"names\" is for two-player games: give names in \"seats\""));
        }
        if req.clock.is_some() {
            return Err(Refusal::new(400, "clocks are for two-player games so far"));
        }
        let (game, recorded) = match (&req.pgn, &req.fen) {
            (Some(_), Some(_)) => return Err(Refusal::new(400, "give a position string or a record, not both")),
            (Some(text), None) => {
                let records = parse_records(text).map_err(|e| Refusal::new(400, format!("record: {e}")))?;
                let record =
                    records.into_iter().next().ok_or_else(|| Refusal::new(400, "record: no game in the text"))?;
                let (game, record) = tokio::task::spawn_blocking(move || (replay_multi(&record), record))
                    .await
                    .map_err(|e| Refusal::new(500, format!("replay failed: {e}")))?;
                let game = game.map_err(|e| Refusal::new(400, format!("record: {e}")))?;
                if game.id() != id {
                    return Err(Refusal::new(400, format!("the record is a {} game, not {id}", game.id())));
                }
                let termination = record.tag("Termination").map(str::to_string);
                (game, record.result.map(|scores| (scores, termination)))
            }
            (None, fen) => (new_multi(id, fen.as_deref()).map_err(|e| Refusal::new(400, e))?, None),
        };
        let sides = game.sides();
        let seats = seats_from(sides, req.seats, local)?;
        let game_id = new_id();
        let meta = GameMeta {
            id: game_id.clone(),
            variant: id.name().into(),
            mode: if local { "local" } else { "online" }.into(),
            start: game.start_fen(),
            white: seats[0].name.clone(),
            black: seats[1].name.clone(),
            white_token: None,
            black_token: None,
            engine: None,
            clock: None,
            seats: serde_json::to_string(&seats).ok(),
            created: now(),
        };
        let mut room = MultiRoom::open(meta, local, seats, game);
        // A record's own result stands where the rules did not end its game.
        if room.result.is_none()
            && let Some((scores, termination)) = recorded
        {
            if scores.len() != sides.len() {
                return Err(Refusal::new(
                    400,
                    format!("record: {id} has {} sides, the result {}", sides.len(), scores.len()),
                ));
            }
            let reason = match termination.as_deref() {
                Some("resignation") => "resignation",
                _ => "recorded",
            };
            room.result = Some(MultiResult::new(sides, scores, reason, "as recorded"));
        }
        let moves: Vec<StoredMove> = room
            .game
            .events()
            .iter()
            .map(|e| StoredMove { coord: e.coord.clone().unwrap_or_default(), white_ms: None, black_ms: None })
            .collect();
        let (meta, result) = (room.meta.clone(), room.result.as_ref().map(MultiResult::stored));
        self.blocking(move |s| s.create(&meta, &moves, result.as_ref())).await?;
        room.rebuild();
        let state = serde_json::from_str(&room.state).unwrap_or(serde_json::Value::Null);
        let mut tokens = HashMap::new();
        let mut links = HashMap::from([("spectate", format!("/g/{game_id}"))]);
        for (def, seat) in sides.iter().zip(&room.seats) {
            if let Some(t) = &seat.token {
                let key = side_key(def);
                tokens.insert(key, t.clone());
                // The page learns from the link which side it seats.
                let c = if local { "all" } else { key };
                links.insert(key, format!("/g/{game_id}#t={t}&c={c}"));
            }
        }
        let room = Arc::new(tokio::sync::Mutex::new(room));
        self.rooms.lock().unwrap_or_else(|e| e.into_inner()).insert(game_id.clone(), AnyRoom::Multi(Arc::clone(&room)));
        {
            let mut locked = room.lock().await;
            self.schedule_multi(&mut locked, &room);
        }
        Ok(Created { id: game_id, tokens, links, state })
    }

    /// Plays `text` for the seat of `token` as the game's event `ply`.
    pub(crate) async fn play_multi(
        self: &Arc<Self>,
        room_arc: &Arc<tokio::sync::Mutex<MultiRoom>>,
        token: Option<&str>,
        ply: usize,
        text: &str,
    ) -> Result<Arc<str>, Refusal> {
        let mut room = room_arc.lock().await;
        let seat = room.require_seat(token)?;
        room.over()?;
        let now = room.game.ply();
        if ply != now {
            return Err(Refusal::new(
                409,
                if ply < now {
                    format!("ply {ply} has been played already (the game has {now} moves)")
                } else {
                    format!("ply {ply} is ahead of the game, which has {now} moves")
                },
            ));
        }
        let side = room.game.side();
        let name = room.side_name(side);
        match seat {
            MultiSeat::Side(s) if s != side => {
                return Err(Refusal::new(
                    403,
                    format!("it is {name}'s move, and this seat plays {}", room.side_name(s)),
                ));
            }
            _ if room.seats[side].movetime.is_some() => {
                return Err(Refusal::new(403, format!("it is {name}'s move, which Raum plays")));
            }
            _ => {}
        }
        self.apply_multi(&mut room, text).await?;
        self.schedule_multi(&mut room, room_arc);
        Ok(room.state())
    }

    /// Plays a move in `room` (the seat's checks done), stores it and tells the listeners.
    async fn apply_multi(&self, room: &mut MultiRoom, text: &str) -> Result<(), Refusal> {
        let coord = match room.game.play(text) {
            Ok(e) => e.coord.clone().unwrap_or_default(),
            Err(MoveError::GameOver) => return Err(Refusal::new(409, "the game is over")),
            Err(MoveError::Illegal(why)) => return Err(Refusal::new(422, why)),
        };
        let result = room.rules_result();
        self.commit_event(room, coord, result).await
    }

    /// Stores the event just applied to `room.game` (taking it back if the
    /// store refuses), sets the result and tells the listeners.
    async fn commit_event(
        &self,
        room: &mut MultiRoom,
        coord: String,
        result: Option<MultiResult>,
    ) -> Result<(), Refusal> {
        let mv = StoredMove { coord, white_ms: None, black_ms: None };
        let (id, ply, stored_result) =
            (room.meta.id.clone(), room.game.ply() - 1, result.as_ref().map(MultiResult::stored));
        if let Err(e) = self.blocking(move |s| s.append_move(&id, ply, &mv, stored_result.as_ref())).await {
            room.game.undo();
            return Err(e);
        }
        if result.is_some() {
            room.stop_engine();
        }
        room.result = result;
        room.rebuild();
        Ok(())
    }

    /// A side resigns: the token's own, or at one screen the side named (by
    /// default the side to move).
    pub(crate) async fn resign_multi(
        self: &Arc<Self>,
        room_arc: &Arc<tokio::sync::Mutex<MultiRoom>>,
        token: Option<&str>,
        side: Option<&str>,
    ) -> Result<Arc<str>, Refusal> {
        let mut room = room_arc.lock().await;
        let seat = room.require_seat(token)?;
        room.over()?;
        let named = side.map(|s| room.side_named(s)).transpose()?;
        let side = match (seat, named) {
            (MultiSeat::Side(s), Some(n)) if n != s => {
                return Err(Refusal::new(
                    403,
                    format!("this seat plays {}, not {}", room.side_name(s), room.side_name(n)),
                ));
            }
            (MultiSeat::Side(s), _) => s,
            (MultiSeat::All, Some(n)) => n,
            (MultiSeat::All, None) => room.game.side(),
        };
        if room.seats[side].movetime.is_some() {
            return Err(Refusal::new(409, format!("{} is Raum's seat, and Raum plays on", room.side_name(side))));
        }
        room.game.resign(side).map_err(|e| Refusal::new(409, e))?;
        let sides = room.game.sides();
        // A resignation that ends the game is its result's reason (rules_result).
        let result = room.rules_result();
        // Whatever was being searched is another position now.
        room.stop_engine();
        let letter = sides[side].letter;
        let committed = self.commit_event(&mut room, format!("resign {letter}"), result).await;
        // A new search, or the stopped one again if the store refused.
        self.schedule_multi(&mut room, room_arc);
        committed.map(|()| room.state())
    }

    /// At one screen: takes back to the last position where a person was to
    /// move (at least one event). `ply` (the events the client saw) makes a
    /// take-back sent twice take back once.
    pub(crate) async fn undo_multi(
        self: &Arc<Self>,
        room_arc: &Arc<tokio::sync::Mutex<MultiRoom>>,
        token: Option<&str>,
        ply: Option<usize>,
    ) -> Result<Arc<str>, Refusal> {
        let mut room = room_arc.lock().await;
        room.require_seat(token)?;
        if !room.local {
            return Err(Refusal::new(409, "take-backs are for games at one screen, not online"));
        }
        let now = room.game.ply();
        if let Some(p) = ply
            && p != now
        {
            return Err(Refusal::new(409, format!("the game has {now} moves, not {p}: refresh first")));
        }
        // Where the take-back lands: found on a copy, so that a refusal changes nothing.
        let mut probe = room.game.boxed_clone();
        let mut plies = now;
        while probe.undo() {
            plies -= 1;
            if room.seats[probe.side()].movetime.is_none() {
                break;
            }
        }
        if plies == now || room.seats[probe.side()].movetime.is_some() {
            return Err(Refusal::new(409, "there is no move of a person's to take back"));
        }
        let key = room.meta.id.clone();
        self.blocking(move |s| s.truncate(&key, plies)).await?;
        room.stop_engine();
        while room.game.ply() > plies {
            room.game.undo();
        }
        room.result = room.rules_result();
        room.rebuild();
        self.schedule_multi(&mut room, room_arc);
        Ok(room.state())
    }

    /// After any change: start the engine if the side to move is its seat.
    /// Only spawns a task, which takes the room's lock when it runs.
    pub(crate) fn schedule_multi(
        self: &Arc<Self>,
        room: &mut MultiRoom,
        room_arc: &Arc<tokio::sync::Mutex<MultiRoom>>,
    ) {
        if room.result.is_some() || room.thinking.is_some() {
            return;
        }
        let Some(ms) = room.seats[room.game.side()].movetime else { return };
        let stop = Arc::new(AtomicBool::new(false));
        room.thinking = Some(Arc::clone(&stop));
        let limits = Limits { movetime: Some(Duration::from_millis(ms)), ..Limits::default() };
        let snapshot = room.game.boxed_clone();
        room.rebuild();
        let (games, arc) = (Arc::clone(self), Arc::clone(room_arc));
        tokio::spawn(async move {
            let flag = Arc::clone(&stop);
            let answer = games.pool.run_multi(move |e| snapshot.search(e, &limits, &flag)).await;
            let mut room = arc.lock().await;
            let ours = matches!(&room.thinking, Some(s) if Arc::ptr_eq(s, &stop));
            if !ours || stop.load(Ordering::Relaxed) {
                return;
            }
            room.thinking = None;
            let played = match answer {
                Ok(Some(coord)) => games.apply_multi(&mut room, &coord).await,
                Ok(None) => Err(Refusal::new(500, "the engine found no move")),
                Err(e) => Err(Refusal::new(503, e.to_string())),
            };
            match played {
                Ok(()) => games.schedule_multi(&mut room, &arc),
                // Not tried again at once (a failure on this position would
                // repeat): the next change to the game starts a new search.
                Err(e) => {
                    eprintln!("raum serve: game {}: the engine's move failed: {}", room.meta.id, e.message);
                    room.rebuild();
                }
            }
        });
    }
}
