//! `POST /api/games`: a new game of any kind, from its start, a position
//! string or a record, with its seats, stored before it is answered. The
//! answer is the one place a seat token is given in clear: the store and
//! the room keep only its hash.

use super::refusal::Refusal;
use super::registry::Games;
use super::request::{Created, Mode, NewGame, TERMINATIONS, check_clock, engine_seat};
use super::room::Room;
use super::seating::{NewSeats, multi_seats, two_player_seats};
use super::tokens::new_id;
use crate::engine_pool::Client;
use crate::live_game::{LiveGame, side_key};
use crate::store::{GameMeta, StoredMove, now};
use raum_notation::parse_records_in;
use raum_rules::GameId;
use std::collections::HashMap;
use std::sync::Arc;

/// The game a request starts, and a record's own result and termination.
type Start = (LiveGame, Option<(Vec<raum_rules::Points>, Option<String>)>);

/// The game a request asks for: its record's, or its variant's from the
/// start or a position string.
async fn start(games: &Games, req: &NewGame) -> Result<Start, Refusal> {
    match (&req.pgn, &req.fen) {
        (Some(_), Some(_)) => Err(Refusal::new(400, "give a position string or a record, not both")),
        (Some(text), None) => {
            // A record without a Variant tag is a game of the variant asked for.
            let records = parse_records_in(text, req.variant.as_deref())
                .map_err(|e| Refusal::new(400, format!("record: {e}")))?;
            let record = records
                .into_iter()
                .next()
                .ok_or_else(|| Refusal::new(400, "the record is empty: it holds no game (no tags, no moves)"))?;
            if let Some(name) = record.tag("Variant") {
                games.ensure_variant(name).await?;
            }
            let (game, record) = tokio::task::spawn_blocking(move || (LiveGame::replay(&record), record))
                .await
                .map_err(|e| Refusal::new(500, format!("replay failed: {e}")))?;
            let game = game.map_err(|e| Refusal::new(400, format!("record: {e}")))?;
            if let Some(v) = &req.variant
                && v != game.id().name()
            {
                return Err(Refusal::new(400, format!("the record is a {} game, not {v}", game.id())));
            }
            // Only RULES.md's words stand as a reason; anything else is "recorded".
            let termination = record.tag("Termination").filter(|t| TERMINATIONS.contains(t)).map(str::to_string);
            Ok((game, record.result.clone().map(|scores| (scores, termination))))
        }
        (None, fen) => {
            let name = req.variant.as_deref().ok_or_else(|| Refusal::new(400, "no variant given"))?;
            games.ensure_variant(name).await?;
            let id = GameId::from_name(name).map_err(|e| Refusal::new(404, format!("{e}")))?;
            Ok((LiveGame::new(id, fen.as_deref()).map_err(|e| Refusal::new(400, e))?, None))
        }
    }
}

/// The seats a request makes for `game`, what the store keeps of a
/// two-player engine's seat, and the checks of what each kind takes.
fn seats(req: &mut NewGame, mode: Mode, game: &LiveGame) -> Result<(NewSeats, Option<String>), Refusal> {
    if game.two() {
        if req.seats.is_some() {
            return Err(Refusal::new(400, "\"seats\" is for multi-player games; two-player games take \"mode\""));
        }
        let engine = engine_seat(mode, req.engine.take())?;
        let stored = engine.as_ref().and_then(|(_, s)| serde_json::to_string(s).ok());
        let seats = two_player_seats(mode, engine.as_ref().map(|(c, s)| (*c, s)), req.names.take().unwrap_or_default());
        return Ok((seats, stored));
    }
    let refuse = |why: &str| Err(Refusal::new(400, why.to_string()));
    match mode {
        Mode::Engine => refuse(
            "mode 'engine': a multi-player game is played at one screen (local) or online, with the engine's seats in \
             \"seats\"",
        ),
        _ if req.engine.is_some() => refuse("\"engine\" is for two-player games: give the engine's seats in \"seats\""),
        _ if req.names.is_some() => refuse("\"names\" is for two-player games: give names in \"seats\""),
        Mode::Local if req.clock.is_some() => refuse("clocks in multi-player games are for online games"),
        _ => Ok((multi_seats(game.sides(), req.seats.take(), mode == Mode::Local)?, None)),
    }
}

impl Games {
    /// Creates a game for `client` (charged with the engine's moves until
    /// someone else changes the game).
    pub async fn create(self: &Arc<Self>, client: Client, mut req: NewGame) -> Result<Created, Refusal> {
        self.evict_idle();
        let multi = req.variant.as_deref().is_some_and(|v| raum_rules::multi::MultiId::from_name(v).is_some());
        let mode = Mode::parse(&req.mode).ok_or_else(|| {
            let also = if multi { "; a multi-player game is played at one screen (local) or online" } else { "" };
            Refusal::new(400, format!("mode '{}': expected local, engine or online{also}", req.mode))
        })?;
        super::request::check_names(&req)?;
        let (game, recorded) = start(self, &req).await?;
        let (NewSeats { seats, tokens: clear, .. }, engine) = seats(&mut req, mode, &game)?;
        check_clock(req.clock)?;
        let sides = game.sides();
        let id = new_id();
        let token = |side: usize| match &seats[side].token {
            Some(hash) if game.two() => Some(hash.as_str().to_string()),
            _ => None,
        };
        let meta = GameMeta {
            id: id.clone(),
            variant: game.id().name().into(),
            mode: mode.name().into(),
            start: game.start_fen(),
            white: seats[0].name.clone(),
            black: seats[1].name.clone(),
            white_token: token(0),
            black_token: token(1),
            engine,
            clock: req.clock.and_then(|c| serde_json::to_string(&c).ok()),
            seats: if game.two() { None } else { serde_json::to_string(&seats).ok() },
            created: now(),
            rematch: None,
            offers: None,
        };
        let mut room = Room::open(meta, mode, game, seats, req.clock);
        room.client = client;
        // A record's own result stands where the rules did not end its game.
        if room.result.is_none()
            && let Some((scores, termination)) = recorded
        {
            if scores.len() != sides.len() {
                return Err(Refusal::new(
                    400,
                    format!("record: {} has {} sides, the result {}", room.game.id(), sides.len(), scores.len()),
                ));
            }
            room.result = Some(room.kept_result(scores, termination.as_deref().unwrap_or("recorded")));
        }
        let moves: Vec<StoredMove> = room
            .game
            .events()
            .iter()
            .map(|e| StoredMove {
                coord: e.coord.clone().unwrap_or_else(|| {
                    let letter = room.game.sides().iter().find(|s| side_key(s) == e.color).map_or('?', |s| s.letter);
                    format!("resign {letter}")
                }),
                white_ms: None,
                black_ms: None,
                at_ms: None,
            })
            .collect();
        let (meta, result) = (room.meta.clone(), room.result.as_ref().map(|r| r.stored()));
        self.blocking(move |s| s.create(&meta, &moves, result.as_ref())).await?;
        room.start_clock();
        room.rebuild();
        let state = serde_json::from_str(&room.state).unwrap_or(serde_json::Value::Null);
        let mut tokens = HashMap::new();
        let mut links = HashMap::from([("spectate", format!("/g/{id}"))]);
        for (def, t) in sides.iter().zip(&clear) {
            if let Some(t) = t {
                let key = side_key(def);
                tokens.insert(key, t.clone());
                // The page learns from the link which side it seats.
                let c = if mode == Mode::Local { room.seat(Some(t)).map_or(key, |s| s.name(sides)) } else { key };
                links.insert(key, format!("/g/{id}#t={t}&c={c}"));
            }
        }
        let room = Arc::new(tokio::sync::Mutex::new(room));
        self.rooms.lock().unwrap_or_else(|e| e.into_inner()).insert(id.clone(), Arc::clone(&room));
        {
            let mut locked = room.lock().await;
            self.schedule(&mut locked, &room);
        }
        Ok(Created { id, tokens, links, state })
    }
}
