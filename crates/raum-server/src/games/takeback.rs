//! Take-backs at one screen and against the engine: back to the last
//! position where a person was to move (at least one event). Online, a
//! take-back is asked for and answered (`takeback_request`); both end in
//! [`Games::take_back`].

use super::refusal::Refusal;
use super::registry::Games;
use super::request::Mode;
use super::room::Room;
use super::schedule::RoomArc;
use crate::engine_pool::Client;
use std::sync::Arc;

impl Games {
    /// Takes back to the last person's turn. With `ply` (the events the
    /// client saw), a take-back sent twice takes back once.
    pub async fn undo(
        self: &Arc<Self>,
        client: Client,
        id: &str,
        token: Option<&str>,
        ply: Option<usize>,
    ) -> Result<Arc<str>, Refusal> {
        let room_arc = self.room(id).await?;
        let mut room = room_arc.lock().await;
        room.require_seat(token)?;
        if room.mode == Mode::Online {
            return Err(Refusal::new(
                409,
                "in an online game a take-back is asked of the opponent: POST .../takeback {\"action\": \"request\"}",
            ));
        }
        let now = room.game.ply();
        if let Some(p) = ply
            && p != now
        {
            return Err(Refusal::new(409, format!("the game has {now} moves, not {p}: refresh first")));
        }
        if room.result.as_ref().is_some_and(|r| r.reason == "time") {
            return Err(Refusal::new(409, "a game lost on time cannot be taken back"));
        }
        // Where the take-back lands: found on a copy, so that a refusal changes nothing.
        let mut probe = room.game.clone();
        let mut plies = now;
        while probe.undo() {
            plies -= 1;
            if !room.seats[probe.side()].engine() {
                break;
            }
        }
        if plies == now || room.seats[probe.side()].engine() {
            return Err(Refusal::new(409, "there is no move of a person's to take back"));
        }
        room.client = client;
        self.take_back(&mut room, &room_arc, plies).await?;
        Ok(room.state())
    }

    /// Takes `room` back to its first `plies` events: stored first, then in
    /// memory, with the clocks as they were after the last event kept; the
    /// result, a draw offer and a take-back request go.
    pub(super) async fn take_back(
        self: &Arc<Self>,
        room: &mut Room,
        room_arc: &RoomArc,
        plies: usize,
    ) -> Result<(), Refusal> {
        let (key, from) = (room.meta.id.clone(), room.game.ply());
        if let Err(e) = self.blocking(move |s| s.truncate(&key, from, plies)).await {
            if e.status == 409 {
                self.reload_later(&room.meta.id);
            }
            return Err(e);
        }
        room.stop_engine();
        while room.game.ply() > plies {
            room.game.undo();
        }
        room.result = room.rules_result();
        room.draw.clear();
        room.takeback = None;
        room.clock_after.truncate(plies);
        let restored = room.clock_after.last().cloned();
        if let Some(c) = &mut room.clock {
            c.left_ms = restored.unwrap_or_else(|| vec![c.settings.initial_ms as i64; c.left_ms.len()]);
        }
        room.start_clock();
        room.rebuild();
        self.schedule(room, room_arc);
        Ok(())
    }
}
