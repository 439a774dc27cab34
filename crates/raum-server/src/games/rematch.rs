//! Rematches: once a game is over, any of its players may ask for the next
//! game: the same variant, start, mode, clocks and engine, each seat passed
//! on to the next side in turn order (with two sides, colours swapped).
//! Every seat keeps its token: the next game's seat holds the same token's
//! hash, so no token is handed out again and each player's own token (which
//! only they hold) opens their new seat. The first player to ask makes the
//! game; anyone asking after, the opponent following the offer included, is
//! answered the same game. The next game is stored with the link to it in
//! one transaction, and the link is in the old game's state (`rematch`).

use super::refusal::Refusal;
use super::registry::Games;
use super::request::{ClockSettings, EngineSeat};
use super::room::Room;
use super::seat::StoredSeat;
use super::tokens::new_id;
use crate::engine_pool::Client;
use crate::live_game::{LiveGame, side_key};
use crate::store::{GameMeta, Rematch, now};
use serde::Serialize;
use std::sync::Arc;

/// What `POST /api/games/{id}/rematch` answers.
#[derive(Debug, Serialize)]
pub struct RematchAnswer {
    /// The next game's id.
    pub id: String,
    /// The token's seat there (`black`, or at one screen `both`/`all`).
    pub side: Option<&'static str>,
    /// Whether this request made it (the first to ask).
    pub created: bool,
}

/// The next game of `room`: its record, its seats, and its clocks.
fn next_game(room: &Room) -> Result<(GameMeta, LiveGame, Vec<StoredSeat>, Option<ClockSettings>), Refusal> {
    let game = LiveGame::new(room.game.id(), Some(&room.meta.start)).map_err(|e| Refusal::new(500, e))?;
    let n = room.seats.len();
    // The player of side i plays side i + 1.
    let seats: Vec<StoredSeat> = (0..n).map(|j| room.seats[(j + n - 1) % n].clone()).collect();
    let damaged = |what: &str, e: serde_json::Error| Refusal::new(500, format!("the game's {what} do not read: {e}"));
    let clock: Option<ClockSettings> =
        room.meta.clock.as_deref().map(serde_json::from_str).transpose().map_err(|e| damaged("clocks", e))?;
    let two = game.two();
    // A two-player engine's settings, on its new side.
    let engine = match (&room.meta.engine, seats.iter().position(StoredSeat::engine)) {
        (Some(text), Some(side)) if two => {
            let mut seat: EngineSeat = serde_json::from_str(text).map_err(|e| damaged("engine settings", e))?;
            seat.color = side_key(&game.sides()[side]).to_string();
            serde_json::to_string(&seat).ok()
        }
        _ => None,
    };
    let token = |side: usize| match &seats[side].token {
        Some(hash) if two => Some(hash.as_str().to_string()),
        _ => None,
    };
    let meta = GameMeta {
        id: new_id(),
        variant: room.meta.variant.clone(),
        mode: room.meta.mode.clone(),
        start: room.meta.start.clone(),
        white: seats[0].name.clone(),
        black: seats.get(1).map_or_else(String::new, |s| s.name.clone()),
        white_token: token(0),
        black_token: token(1),
        engine,
        clock: room.meta.clock.clone(),
        seats: if two { None } else { serde_json::to_string(&seats).ok() },
        created: now(),
        rematch: None,
        offers: None,
    };
    Ok((meta, game, seats, clock))
}

impl Games {
    /// The rematch of finished game `id` for the seat of `token`: made if no
    /// player asked before, else the one made then.
    pub async fn rematch(
        self: &Arc<Self>,
        client: Client,
        id: &str,
        token: Option<&str>,
    ) -> Result<RematchAnswer, Refusal> {
        let room_arc = self.room(id).await?;
        let mut room = room_arc.lock().await;
        let seat = room.require_seat(token)?;
        if room.result.is_none() {
            return Err(Refusal::new(409, "the game is not over: a rematch follows a finished game"));
        }
        let mut created = false;
        let next_id = match &room.meta.rematch {
            Some(r) => r.game.clone(),
            None => {
                let by = seat.name(room.game.sides());
                let (meta, game, seats, clock) = next_game(&room)?;
                let (previous, stored) = (room.meta.id.clone(), meta.clone());
                let linked = self.blocking(move |s| s.create_rematch(&previous, by, &stored)).await?;
                let link = match linked {
                    // Made meanwhile by another server on the same file: that one stands.
                    Some(existing) => existing,
                    None => {
                        created = true;
                        let next_id = meta.id.clone();
                        let mode = room.mode;
                        let mut next = Room::open(meta, mode, game, seats, clock);
                        next.client = client;
                        next.start_clock();
                        next.rebuild();
                        let next = Arc::new(tokio::sync::Mutex::new(next));
                        self.rooms.lock().unwrap_or_else(|e| e.into_inner()).insert(next_id.clone(), Arc::clone(&next));
                        // Raum may have the first move.
                        let mut locked = next.lock().await;
                        self.schedule(&mut locked, &next);
                        Rematch { by: by.to_string(), game: next_id }
                    }
                };
                let next_id = link.game.clone();
                room.meta.rematch = Some(link);
                room.rebuild();
                next_id
            }
        };
        drop(room);
        let next = self.room(&next_id).await?;
        let side = next.lock().await.seat_name(token);
        Ok(RematchAnswer { id: next_id, side, created })
    }
}
