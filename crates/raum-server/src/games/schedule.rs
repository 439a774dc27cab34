//! Scheduling: after each change, the engine's search when the side to
//! move is its seat, and a timer that acts when the side to move's flag
//! falls. Both run as tasks that take the room's lock.

use super::refusal::Refusal;
use super::registry::Games;
use super::room::{Room, Thinking};
use crate::engine_pool::{Kind, Ticket};
use crate::live_game::Analysis;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A room as the tasks hold it.
pub type RoomArc = Arc<tokio::sync::Mutex<Room>>;

impl Games {
    /// After any change: start the engine if it is its turn, and watch the
    /// clock. Only spawns tasks, which take the room's lock when they run.
    pub(super) fn schedule(self: &Arc<Self>, room: &mut Room, room_arc: &RoomArc) {
        if room.result.is_some() || !self.may_work(room, room_arc) {
            return;
        }
        let side = room.game.side();
        if let Some(c) = &room.clock
            && c.since.is_some()
        {
            let wait = Duration::from_millis(c.left(side, side).max(0) as u64 + 20);
            let (games, arc) = (Arc::clone(self), Arc::clone(room_arc));
            let timer = tokio::spawn(async move {
                tokio::time::sleep(wait).await;
                let mut room = arc.lock().await;
                // The clock as it stands decides, whatever changed meanwhile.
                let side = room.game.side();
                if room.result.is_none() && room.clock.as_ref().is_some_and(|c| c.fallen(side)) {
                    // Flag tasks are aborted when replaced, never this one: no handle to drop.
                    room.flag_timer = None;
                    if games.flag(&mut room).await.is_ok() {
                        games.schedule(&mut room, &arc);
                    }
                }
            });
            if let Some(old) = room.flag_timer.replace(timer.abort_handle()) {
                old.abort();
            }
        }
        // The engine plays only while a person is still in the game (a
        // game's clock may still end it).
        if !room.engine_to_move() || room.thinking.is_some() {
            return;
        }
        let thinking =
            Arc::new(Thinking { cancelled: AtomicBool::new(false), search: Arc::new(AtomicBool::new(false)) });
        room.thinking = Some(Arc::clone(&thinking));
        let (limits, skill) = (room.engine_limits(side), room.engine_skill(side));
        let snapshot = room.game.clone();
        let ticket = Ticket {
            kind: Kind::Move,
            client: Arc::clone(&room.client),
            game: Arc::from(room.meta.id.as_str()),
            budget: limits.movetime.unwrap_or(Duration::MAX),
        };
        room.rebuild();
        let (games, arc) = (Arc::clone(self), Arc::clone(room_arc));
        tokio::spawn(async move {
            let flag = Arc::clone(&thinking.search);
            let answer = games
                .pool
                .run(ticket, Arc::clone(&flag), move |e| {
                    // The pool's engines are shared: the level is this search's only.
                    e.two().set_skill(skill);
                    let a = snapshot.analyse(e, &limits, flag);
                    e.two().set_skill(None);
                    a
                })
                .await;
            let mut room = arc.lock().await;
            let ours = matches!(&room.thinking, Some(t) if Arc::ptr_eq(t, &thinking));
            if !ours || thinking.cancelled.load(Ordering::Relaxed) {
                return;
            }
            room.thinking = None;
            let ply = room.game.ply();
            let played = match answer {
                Ok(Analysis { best: Some(best), .. }) => games.apply(&mut room, &best.coord).await,
                Ok(_) => Err(Refusal::new(500, "the engine found no move")),
                Err(e) => Err(Refusal::new(503, e.to_string())),
            };
            match played {
                // (a refusal that changed the game: the mover's flag fell first)
                Ok(()) => games.schedule(&mut room, &arc),
                Err(_) if room.game.ply() != ply => games.schedule(&mut room, &arc),
                // Not tried again at once (a failure on this position would
                // repeat): the next change to the game starts a new search.
                Err(e) => {
                    tracing::warn!(game = %room.meta.id, error = %e.message, "the engine's move failed");
                    room.rebuild();
                }
            }
        });
    }
}
