//! Draw offers (docs/rules.md): a side offers, and the game is drawn when
//! every side still in agrees (at one screen, when the offer is accepted);
//! a side declines, or moves without having agreed, and the offer falls.
//! Every side for itself, offers wait until only two sides are in; the
//! engine takes none.

use super::game_result::GameResult;
use super::refusal::Refusal;
use super::registry::Games;
use super::request::Mode;
use raum_rules::Points;
use std::sync::Arc;

impl Games {
    /// A draw offer, acceptance or refusal.
    pub async fn draw(self: &Arc<Self>, id: &str, token: Option<&str>, action: &str) -> Result<Arc<str>, Refusal> {
        let room_arc = self.room(id).await?;
        let mut room = room_arc.lock().await;
        let seat = room.require_seat(token)?;
        room.over()?;
        let me = room.acting_side(seat, None)?;
        let sides_in = room.game.sides_in();
        if !room.game.two() && !room.game.teams() && sides_in.len() > 2 {
            return Err(Refusal::new(
                409,
                "every side for itself, a draw is agreed only when two sides are left (the rules' draws only until \
                 then)",
            ));
        }
        if !sides_in.contains(&me) {
            return Err(Refusal::new(409, format!("{} is out of the game", room.side_name(me))));
        }
        let before = (room.draw.clone(), room.takeback);
        match action {
            "offer" | "accept" if action == "offer" || (!room.draw.is_empty() && !room.draw.contains(&me)) => {
                if sides_in.iter().any(|&s| room.seats[s].engine()) {
                    return Err(Refusal::new(409, "Raum's engine plays on: it does not take draw offers"));
                }
                if !room.draw.contains(&me) {
                    room.draw.push(me);
                }
            }
            // At one screen every side is there to accept.
            "accept" if !room.draw.is_empty() && room.mode == Mode::Local => room.draw = sides_in.clone(),
            "accept" => return Err(Refusal::new(409, "there is no draw offer from another side to accept")),
            "decline" if room.draw.is_empty() => return Err(Refusal::new(409, "there is no draw offer to decline")),
            "decline" => room.draw.clear(),
            other => {
                return Err(Refusal::new(400, format!("draw action '{other}': expected offer, accept or decline")));
            }
        }
        if sides_in.iter().all(|s| room.draw.contains(s)) {
            let share = Points(Points::ONE.0 / sides_in.len() as u8);
            let scores = (0..room.game.sides().len())
                .map(|s| match () {
                    _ if room.game.teams() => Points::HALF,
                    _ if sides_in.contains(&s) => share,
                    _ => Points::ZERO,
                })
                .collect();
            let result = GameResult::plain(room.game.sides(), scores, "agreement");
            self.finish(&mut room, result).await?;
        } else {
            self.store_offers(&mut room, before).await?;
            room.rebuild();
        }
        Ok(room.state())
    }
}
