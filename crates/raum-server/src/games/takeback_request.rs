//! Take-back requests between people (online games for two): a player asks
//! to take back their last move, and the opponent accepts (the game goes
//! back to the asker's turn before that move: one event, or two when the
//! opponent has replied) or declines. The asker may withdraw (decline their
//! own request); any move cancels it. A request is stored, as a draw offer
//! is: any server answers it, and it outlives a restart. With more than two
//! sides, refused.

use super::refusal::Refusal;
use super::registry::Games;
use super::request::Mode;
use super::room::{Room, TakebackAsk};
use crate::engine_pool::Client;
use crate::live_game::side_key;
use std::sync::Arc;

/// The events `side`'s last move leaves: taking back to there gives it the move again.
fn before_last_move(room: &Room, side: usize) -> Option<usize> {
    let key = side_key(&room.game.sides()[side]);
    room.game.events().iter().rposition(|e| e.kind == "move" && e.color == key)
}

impl Games {
    /// `action`: `request` (idempotent: asking again changes nothing),
    /// `accept` (the opponent's request) or `decline` (the opponent's, or
    /// one's own: withdrawn). With `ply`, refused unless the game has that
    /// many events: an answer meant for another position changes nothing.
    pub async fn takeback_request(
        self: &Arc<Self>,
        client: Client,
        id: &str,
        token: Option<&str>,
        action: &str,
        ply: Option<usize>,
    ) -> Result<Arc<str>, Refusal> {
        let room_arc = self.room(id).await?;
        let mut room = room_arc.lock().await;
        let seat = room.require_seat(token)?;
        if room.mode != Mode::Online {
            return Err(Refusal::new(
                409,
                "take-back requests are for online games: at one screen or against the engine, POST .../undo",
            ));
        }
        if !room.game.two() {
            return Err(Refusal::new(409, "take-back requests are for games of two: with more sides there are none"));
        }
        room.over()?;
        let me = room.acting_side(seat, None)?;
        let now = room.game.ply();
        if let Some(p) = ply
            && p != now
        {
            return Err(Refusal::new(409, format!("the game has {now} moves, not {p}: refresh first")));
        }
        match action {
            "request" => match room.takeback {
                Some(t) if t.by == me => {}
                Some(_) => {
                    return Err(Refusal::new(
                        409,
                        "your opponent asks to take back a move: accept or decline that first",
                    ));
                }
                None => {
                    if before_last_move(&room, me).is_none() {
                        return Err(Refusal::new(409, "you have made no move to take back"));
                    }
                    let before = (room.draw.clone(), room.takeback);
                    room.takeback = Some(TakebackAsk { by: me, ply: now });
                    self.store_offers(&mut room, before).await?;
                    room.rebuild();
                }
            },
            "accept" => {
                let Some(asked) = room.takeback.filter(|t| t.by != me) else {
                    return Err(Refusal::new(409, "there is no take-back request from your opponent to accept"));
                };
                // A move cancels a request, so it is for the position now.
                let plies = before_last_move(&room, asked.by)
                    .filter(|_| asked.ply == now)
                    .ok_or_else(|| Refusal::new(409, "the take-back request no longer fits the game"))?;
                room.client = client;
                self.take_back(&mut room, &room_arc, plies).await?;
            }
            "decline" if room.takeback.is_none() => {
                return Err(Refusal::new(409, "there is no take-back request to decline"));
            }
            "decline" => {
                let before = (room.draw.clone(), room.takeback);
                room.takeback = None;
                self.store_offers(&mut room, before).await?;
                room.rebuild();
            }
            other => {
                return Err(Refusal::new(
                    400,
                    format!("take-back action '{other}': expected request, accept or decline"),
                ));
            }
        }
        Ok(room.state())
    }
}
