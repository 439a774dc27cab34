//! Scheduling in a two-player game: after each change, the engine's search
//! when it is the engine's turn, and a timer that ends the game when the
//! side to move's flag falls. Both run as tasks that take the room's lock.

use super::refusal::Refusal;
use super::registry::Games;
use super::room::Room;
use crate::any_game::Analysis;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

impl Games {
    /// After any change: start the engine if it is its turn, and watch the
    /// clock. Only spawns tasks, which take the room's lock when they run.
    pub(super) fn schedule(self: &Arc<Self>, room: &mut Room, room_arc: &Arc<tokio::sync::Mutex<Room>>) {
        if room.result.is_some() {
            return;
        }
        if let Some(c) = &room.clock
            && c.since.is_some()
        {
            let side = room.game.side();
            let wait = Duration::from_millis(c.left(side, side).max(0) as u64 + 20);
            let (games, arc) = (Arc::clone(self), Arc::clone(room_arc));
            let timer = tokio::spawn(async move {
                tokio::time::sleep(wait).await;
                let mut room = arc.lock().await;
                let side = room.game.side();
                // The clock as it stands decides, whatever changed meanwhile.
                let fallen = room.clock.as_ref().is_some_and(|c| c.since.is_some() && c.left(side, side) <= 0);
                if fallen && room.result.is_none() {
                    let _ = games.flag(&mut room).await;
                }
            });
            if let Some(old) = room.flag_timer.replace(timer.abort_handle()) {
                old.abort();
            }
        }
        let engine_to_move = matches!(&room.engine, Some((c, _)) if *c == room.game.side());
        if !engine_to_move || room.thinking.is_some() {
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        room.thinking = Some(Arc::clone(&stop));
        let limits = room.engine_limits();
        let skill = room.engine_skill();
        let snapshot = room.game.boxed_clone();
        room.rebuild();
        let (games, arc) = (Arc::clone(self), Arc::clone(room_arc));
        tokio::spawn(async move {
            let flag = Arc::clone(&stop);
            let answer = games
                .pool
                .run(false, move |e| {
                    // The pool's engines are shared: the level is this search's only.
                    e.set_skill(skill);
                    let a = snapshot.analyse(e, &limits, flag);
                    e.set_skill(None);
                    a
                })
                .await;
            let mut room = arc.lock().await;
            let ours = matches!(&room.thinking, Some(s) if Arc::ptr_eq(s, &stop));
            if !ours || stop.load(Ordering::Relaxed) {
                return;
            }
            room.thinking = None;
            let played = match answer {
                Ok(Analysis { best: Some(best), .. }) => games.apply(&mut room, &best.coord).await,
                Ok(_) => Err(Refusal::new(500, "the engine found no move")),
                Err(e) => Err(Refusal::new(503, e.to_string())),
            };
            match played {
                Ok(()) => games.schedule(&mut room, &arc),
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
