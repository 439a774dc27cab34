//! Moves: a seat's move, checked and played ([`Games::play`]); every event
//! (a move, a resignation or a fallen flag in a game for more than two)
//! applied, stored and broadcast the same way ([`Games::commit_event`]);
//! and a fallen flag ([`Games::flag`]).

use super::game_result::GameResult;
use super::refusal::Refusal;
use super::registry::Games;
use super::room::Room;
use crate::engine_pool::Client;
use crate::live_game::MoveError;
use crate::store::StoredMove;
use std::sync::Arc;
use std::time::Instant;

impl Games {
    /// Plays `text` for the seat of `token` as the game's event `ply`, for
    /// `client` (charged with the engine's reply).
    pub async fn play(
        self: &Arc<Self>,
        client: Client,
        id: &str,
        token: Option<&str>,
        ply: usize,
        text: &str,
    ) -> Result<Arc<str>, Refusal> {
        let room_arc = self.room(id).await?;
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
        if room.seats[side].engine() && room.mode == super::request::Mode::Local {
            return Err(Refusal::new(403, format!("it is {name}'s move, which Raum plays")));
        }
        if !seat.plays(side) {
            let own = seat.own().map_or("another side", |s| room.side_name(s));
            return Err(Refusal::new(403, format!("it is {name}'s move, and this seat plays {own}")));
        }
        let applied = self.apply(&mut room, text).await;
        room.client = client;
        // (after a refusal too: a flag that fell meanwhile changed the game)
        self.schedule(&mut room, &room_arc);
        applied.map(|()| room.state())
    }

    /// Plays a move in `room` (any seat's checks done), stores it and tells
    /// the listeners.
    pub(super) async fn apply(&self, room: &mut Room, text: &str) -> Result<(), Refusal> {
        let mover = room.game.side();
        // The mover's flag fell before the move arrived.
        if room.clock.as_ref().is_some_and(|c| c.fallen(mover)) {
            self.flag(room).await?;
            return Err(Refusal::new(409, format!("{}'s time is up", room.side_name(mover))));
        }
        let coord = match room.game.play(text) {
            Ok(e) => e.coord.clone().unwrap_or_default(),
            Err(MoveError::GameOver) => return Err(Refusal::new(409, "the game is over")),
            Err(MoveError::Illegal(why)) => return Err(Refusal::new(422, why)),
        };
        let clock_before = room.clock.clone();
        if let Some(c) = &mut room.clock {
            if c.since.is_some() {
                c.left_ms[mover] = c.left(mover, mover) + c.settings.increment_ms as i64;
            }
            c.since = Some(Instant::now());
        }
        // A move by a side that did not agree to a draw declines the offer.
        let draw_before = room.draw.clone();
        if !room.draw.contains(&mover) {
            room.draw.clear();
        }
        // A move cancels a take-back request, whoever made it.
        let takeback_before = room.takeback.take();
        let result = room.rules_result();
        if result.is_none() {
            self.claim_before_storing(room).await;
        }
        if let Err(e) = self.commit_event(room, coord, mover, result).await {
            (room.clock, room.draw, room.takeback) = (clock_before, draw_before, takeback_before);
            return Err(e);
        }
        self.metrics.moves.inc();
        Ok(())
    }

    /// Stores the event just applied to `room.game` (taking it back if the
    /// store refuses), sets the result and tells the listeners.
    pub(super) async fn commit_event(
        &self,
        room: &mut Room,
        coord: String,
        mover: usize,
        result: Option<GameResult>,
    ) -> Result<(), Refusal> {
        let (white_ms, black_ms) = room.clock.as_ref().map_or((None, None), |c| c.stored(mover));
        let mv = StoredMove { coord, white_ms, black_ms, at_ms: Some(super::restore::now_ms()) };
        let (id, ply, stored_result) = (room.meta.id.clone(), room.game.ply() - 1, result.as_ref().map(|r| r.stored()));
        if let Err(e) = self.blocking(move |s| s.append_move(&id, ply, &mv, stored_result.as_ref())).await {
            room.game.undo();
            if e.status == 409 {
                // Another server stored this ply first: the room follows the store.
                self.reload_later(&room.meta.id);
            }
            return Err(e);
        }
        if let Some(c) = &room.clock {
            room.clock_after.push(c.left_ms.clone());
        }
        // The store cleared the offers with the event: those still standing
        // (a draw offered by the side that moved) are stored again.
        if result.is_none() && room.offers_text().is_some() {
            let before = (room.draw.clone(), room.takeback);
            if let Err(e) = self.store_offers(room, before).await {
                tracing::warn!(game = %room.meta.id, error = %e.message, "a draw offer could not be kept");
                (room.draw, room.takeback) = (Vec::new(), None);
            }
        }
        if result.is_some() {
            room.result = result;
            room.draw.clear();
            room.takeback = None;
            room.stop_engine();
            room.stop_clock();
            room.stop_flag_timer();
        }
        room.rebuild();
        Ok(())
    }

    /// The side to move's flag fell: two sides, it loses; more, it is out
    /// as if it resigned (with teams its team loses), recorded as its
    /// resignation with `Termination "time"`.
    pub(super) async fn flag(&self, room: &mut Room) -> Result<(), Refusal> {
        let loser = room.game.side();
        if room.game.two() {
            let result = GameResult::loss_for(room.game.sides(), loser, "time");
            if let Some(c) = &mut room.clock {
                c.left_ms[loser] = 0;
            }
            return self.finish(room, result).await;
        }
        room.game.resign(loser, "time").map_err(|e| Refusal::new(409, e))?;
        room.stop_engine();
        let clock_before = room.clock.clone();
        if let Some(c) = &mut room.clock {
            c.left_ms[loser] = 0;
            c.since = Some(Instant::now());
        }
        room.draw.clear();
        let result = room.rules_result();
        let letter = room.game.sides()[loser].letter;
        if let Err(e) = self.commit_event(room, format!("time {letter}"), loser, result).await {
            room.clock = clock_before;
            return Err(e);
        }
        Ok(())
    }
}
