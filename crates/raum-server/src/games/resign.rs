//! Resignations: two sides, the resigning side loses; more, the side is
//! out (docs/rules.md: with teams its team loses), an event of the game.

use super::game_result::GameResult;
use super::refusal::Refusal;
use super::registry::Games;
use super::room::Room;
use std::sync::Arc;

impl Games {
    /// The seat of `token` resigns: its own side; at one screen the side
    /// to move, or in a multi-player game the `side` named.
    pub async fn resign(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        side: Option<&str>,
    ) -> Result<Arc<str>, Refusal> {
        let room_arc = self.room(id).await?;
        let mut room = room_arc.lock().await;
        if room.game.two() && side.is_some() {
            return Err(Refusal::new(400, "\"side\" is for multi-player games: a two-player seat resigns its own"));
        }
        let seat = room.require_seat(token)?;
        room.over()?;
        let loser = room.acting_side(seat, side)?;
        if room.game.two() {
            let result = GameResult::loss_for(room.game.sides(), loser, "resignation");
            self.finish(&mut room, result).await?;
            return Ok(room.state());
        }
        if room.seats[loser].engine() {
            return Err(Refusal::new(409, format!("{} is Raum's seat, and Raum plays on", room.side_name(loser))));
        }
        room.game.resign(loser, "resign").map_err(|e| Refusal::new(409, e))?;
        // Whatever was being searched is another position now.
        room.stop_engine();
        room.draw.retain(|&s| s != loser);
        let result = room.rules_result();
        let letter = room.game.sides()[loser].letter;
        let committed = self.commit_event(&mut room, format!("resign {letter}"), loser, result).await;
        // A new search, or the stopped one again if the store refused.
        self.schedule(&mut room, &room_arc);
        committed.map(|()| room.state())
    }

    /// Ends the game with a result that is no event of it (two sides'
    /// resignation or flag, a draw agreed).
    pub(super) async fn finish(&self, room: &mut Room, result: GameResult) -> Result<(), Refusal> {
        let (key, stored_result) = (room.meta.id.clone(), result.stored());
        if let Err(e) = self.blocking(move |s| s.finish(&key, &stored_result)).await {
            if e.status == 409 {
                // Another server ended it first: the room follows the store.
                self.reload_later(&room.meta.id);
            }
            return Err(e);
        }
        room.result = Some(result);
        room.draw.clear();
        room.takeback = None;
        room.stop_engine();
        room.stop_clock();
        room.stop_flag_timer();
        room.rebuild();
        Ok(())
    }
}
