//! The engine's view of a game's position (evaluation, best move, line:
//! the page's hint and evaluation), for any game: at one screen, against
//! the engine, and for everyone once a game is over; never in an online
//! game in progress.

use super::refusal::Refusal;
use super::registry::Games;
use super::request::Mode;
use crate::engine_pool::{Client, Kind, Ticket};
use crate::live_game::Analysis;
use raum_engine::Limits;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

impl Games {
    /// The engine's view of the position now, or after `ply` events (moves)
    /// from the start, for `client` (see [`crate::engine_pool`] for the caps
    /// on analyses).
    pub async fn analyse(
        self: &Arc<Self>,
        client: Client,
        id: &str,
        movetime_ms: u64,
        ply: Option<usize>,
    ) -> Result<Analysis, Refusal> {
        let room_arc = self.room(id).await?;
        let mut snapshot = {
            let room = room_arc.lock().await;
            if room.mode == Mode::Online && room.result.is_none() {
                return Err(Refusal::new(409, "no engine help in an online game in progress"));
            }
            room.game.clone()
        };
        if movetime_ms == 0 || movetime_ms > 10_000 {
            return Err(Refusal::new(400, format!("movetime {movetime_ms}: expected 1 to 10000 ms")));
        }
        if let Some(ply) = ply {
            let now = snapshot.ply();
            if ply > now {
                return Err(Refusal::new(400, format!("ply {ply}: expected 0 to {now}, the moves played so far")));
            }
            // Back to that position on the copy: the game itself is untouched.
            for _ in ply..now {
                if !snapshot.undo() {
                    return Err(Refusal::new(500, format!("the game could not be taken back to ply {ply}")));
                }
            }
        }
        let limits = Limits { movetime: Some(Duration::from_millis(movetime_ms)), ..Limits::default() };
        let ticket =
            Ticket { kind: Kind::Analysis, client, game: Arc::from(id), budget: Duration::from_millis(movetime_ms) };
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        self.pool.run(ticket, stop, move |e| snapshot.analyse(e, &limits, flag)).await.map_err(Refusal::from)
    }
}
