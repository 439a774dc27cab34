//! Presence across servers: with several servers on one database, a player's
//! socket may be on one server and the opponent's on another. Each server
//! stores which seats have a socket open on it ([`Store::set_presence`]:
//! written when a seat's first socket opens there and when its last closes),
//! and a room shows a seat as present when it has a socket here or on any
//! other live server ([`Room::present_elsewhere`], read from the store when
//! the feed announces a change, and when the room is loaded). Every second,
//! with its leases, a server also makes its rows in the store what its
//! memory says ([`Games::seats_here`]; [`Store::keep_presence`]), so a row
//! lost while it stalled, or one a failed write left, is right again within a
//! second. A server that dies leaves rows that lapse with its leases. One
//! server on SQLite keeps it all in memory, as before.
//!
//! [`Store::set_presence`]: crate::store::Store::set_presence
//! [`Store::keep_presence`]: crate::store::Store::keep_presence
//! [`Games::seats_here`]: super::registry::Games

use super::lease::LEASE;
use super::refusal::Refusal;
use super::registry::Games;
use super::room::Room;
use super::schedule::RoomArc;
use std::sync::Arc;
use std::sync::atomic::Ordering;

impl Games {
    /// Notes that seat `side` of game `id` has a socket on this server now, or no longer.
    pub(super) fn seat_here(&self, id: &str, side: usize, here: bool) {
        let mut seats = self.seats_here.lock().unwrap_or_else(|e| e.into_inner());
        if here {
            seats.insert((id.to_string(), side));
        } else {
            seats.remove(&(id.to_string(), side));
        }
    }

    /// Makes this server's rows in the store what its memory says (every
    /// second, with its leases; none when it stops). The seats are read on
    /// the blocking thread, just before the statements.
    pub(super) async fn keep_presence(&self, stopping: bool) {
        let (seats, holder) = (Arc::clone(&self.seats_here), self.holder.clone());
        let kept = self
            .blocking(move |s| {
                let here: Vec<(String, usize)> = if stopping {
                    Vec::new()
                } else {
                    seats.lock().unwrap_or_else(|e| e.into_inner()).iter().cloned().collect()
                };
                s.keep_presence(&holder, LEASE, &here)
            })
            .await;
        if let Err(e) = kept {
            tracing::warn!(error = %e.message, "the seats' presence could not be kept");
        }
    }

    /// Stores whether seat `side` of `arc`'s game has a socket on this
    /// server now (with a feed: several servers), on a task of its own.
    pub(super) fn share_presence(self: &Arc<Self>, arc: &RoomArc, side: usize) {
        if !self.shared.load(Ordering::Relaxed) {
            return;
        }
        let (games, arc) = (Arc::clone(self), Arc::clone(arc));
        tokio::spawn(async move {
            // Under the room's lock, what stands then: of writes racing for one seat, the
            // last stores how it stands last.
            let room = arc.lock().await;
            let Some(&sockets) = room.present.get(side) else { return };
            let (id, holder) = (room.meta.id.clone(), games.holder.clone());
            let stored = games.blocking(move |s| s.set_presence(&id, side, &holder, sockets > 0, LEASE)).await;
            if let Err(e) = stored {
                tracing::warn!(game = %room.meta.id, error = %e.message, "a seat's presence could not be stored");
            }
        });
    }

    /// Another server's sockets on `arc`'s game changed: the seats present
    /// elsewhere read again, and the listeners told if that changed.
    pub(super) async fn presence_changed(self: &Arc<Self>, arc: &RoomArc) -> Result<(), Refusal> {
        if !self.shared.load(Ordering::Relaxed) {
            return Ok(());
        }
        let mut room = arc.lock().await;
        let (id, holder) = (room.meta.id.clone(), self.holder.clone());
        let sides = self.blocking(move |s| s.present_elsewhere(&id, &holder)).await?;
        if room.set_present_elsewhere(&sides) {
            room.rebuild();
        }
        Ok(())
    }
}

impl Room {
    /// Marks `sides` (and only those) as present on other servers; whether that changed anything.
    pub(super) fn set_present_elsewhere(&mut self, sides: &[usize]) -> bool {
        let now: Vec<bool> = (0..self.present_elsewhere.len()).map(|s| sides.contains(&s)).collect();
        let changed = now != self.present_elsewhere;
        self.present_elsewhere = now;
        changed
    }
}
