//! Changes other servers make: several `raum serve` on one PostgreSQL
//! database each keep the games they serve in memory, and learn from the
//! store's feed ([`Store::watch`](crate::store::Store::watch)) when another
//! changed one. A room one event behind follows it as the feed carries it
//! (a move: no load); any other room whose game changed elsewhere is
//! replayed from the store; its listeners (WebSockets) are told either way.
//! A game deleted elsewhere is dropped from memory. A server's own changes come back on the feed too,
//! and change nothing: the room already stands where the store does.
//!
//! With a feed, a request finds its room as stored: the room is checked
//! against the store's [`Stamp`] first (the feed may not have brought a
//! change made an instant ago). A room is also replayed when its own write
//! lost a race (another server stored that ply first: the request is
//! answered `409`).

use super::refusal::Refusal;
use super::registry::Games;
use super::room::Room;
use super::schedule::RoomArc;
use crate::store::{Change, Stamp, StoreError};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};

impl Games {
    /// Follows the store's feed of changes, if it has one (PostgreSQL), for
    /// as long as these games live; `Ok(false)` if it has none (SQLite).
    pub fn watch_store(self: &Arc<Self>) -> Result<bool, StoreError> {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Change>();
        if !self.store.watch(Box::new(move |change| drop(tx.send(change))))? {
            return Ok(false);
        }
        self.shared.store(true, Ordering::Relaxed);
        self.keep_leases();
        // Weak: the feed alone does not keep the games (and their store) alive.
        let games: Weak<Games> = Arc::downgrade(self);
        tokio::spawn(async move {
            while let Some(change) = rx.recv().await {
                let Some(games) = games.upgrade() else { return };
                tokio::spawn(async move { games.on_change(change).await });
            }
        });
        Ok(true)
    }

    async fn on_change(self: Arc<Self>, change: Change) {
        let reloaded = match change {
            Change::Game { id, stamp, last } => {
                let Some(arc) = self.loaded(&id) else { return };
                let mut room = arc.lock().await;
                if room.stamp() == stamp {
                    return;
                }
                // One event stored on another server, after where this room stands: followed
                // as the feed carries it, without loading the game.
                let next = room.game.ply() + 1 == stamp.plies && room.result.is_none() && !stamp.finished;
                if let Some(m) = last.filter(|_| next && room.meta.rematch.is_some() == stamp.rematched)
                    && room.follow(&m, &stamp)
                {
                    self.schedule(&mut room, &arc);
                    room.rebuild();
                    return;
                }
                drop(room);
                self.reload(&arc).await
            }
            Change::Gone(id) => {
                self.forget(&id).await;
                Ok(())
            }
            Change::Presence(id) => {
                let Some(arc) = self.loaded(&id) else { return };
                self.presence_changed(&arc).await
            }
            Change::Everything => {
                let rooms: Vec<RoomArc> =
                    self.rooms.lock().unwrap_or_else(|e| e.into_inner()).values().cloned().collect();
                let mut result = Ok(());
                for room in rooms {
                    result = result.and(self.reload(&room).await).and(self.presence_changed(&room).await);
                }
                result
            }
        };
        if let Err(e) = reloaded {
            tracing::warn!(error = %e.message, "a game changed by another server could not be loaded");
        }
    }

    /// Replays `room` from the store if the stored game differs from it,
    /// keeping its listeners, and tells them.
    pub(super) async fn reload(self: &Arc<Self>, arc: &RoomArc) -> Result<(), Refusal> {
        // The room's lock is held across the load: no change of this
        // server's can come between the load and the replay.
        let mut room = arc.lock().await;
        let id = room.meta.id.clone();
        let stored = self.blocking(move |s| s.load(&id)).await?;
        let Some((meta, moves, result)) = stored else {
            // Deleted meanwhile (its lock is held here: `forget` would wait on it).
            self.rooms.lock().unwrap_or_else(|e| e.into_inner()).remove(&room.meta.id);
            room.stop_work();
            return Ok(());
        };
        let fresh = Room::restore(meta, &moves, result, true).map_err(|e| Refusal::new(500, e))?;
        if fresh.game.events() == room.game.events()
            && fresh.result == room.result
            && fresh.meta == room.meta
            && (&fresh.draw, fresh.takeback) == (&room.draw, room.takeback)
        {
            return Ok(());
        }
        room.take_over(fresh);
        self.schedule(&mut room, arc);
        room.rebuild();
        Ok(())
    }

    /// With a feed (several servers): `room` as stored, replayed if another
    /// server changed it since.
    pub(super) async fn follow_store(self: &Arc<Self>, arc: &RoomArc) -> Result<(), Refusal> {
        if !self.shared.load(Ordering::Relaxed) {
            return Ok(());
        }
        let id = arc.lock().await.meta.id.clone();
        let stamp = self.blocking(move |s| s.stamp(&id)).await?;
        if stamp != Some(arc.lock().await.stamp()) {
            self.reload(arc).await?;
        }
        Ok(())
    }

    /// After a write this server lost to another (`409`): the room is
    /// replayed from the store once the request lets go of it.
    pub(super) fn reload_later(&self, id: &str) {
        let Some(games) = self.me.upgrade() else { return };
        let id = id.to_string();
        tokio::spawn(async move {
            if let Some(room) = games.loaded(&id)
                && let Err(e) = games.reload(&room).await
            {
                tracing::warn!(game = %id, error = %e.message, "a game could not be loaded again after a write lost to another server");
            }
        });
    }
}

impl Room {
    /// How this game stands, in brief, as the store would say.
    pub(super) fn stamp(&self) -> Stamp {
        Stamp {
            plies: self.game.ply(),
            finished: self.result.is_some(),
            rematched: self.meta.rematch.is_some(),
            offers: self.offers_text(),
        }
    }

    /// Becomes `fresh` (the game as stored), keeping this room's listeners,
    /// presence, version and client; this room's search and flag timer stop.
    fn take_over(&mut self, fresh: Room) {
        self.stop_work();
        let listeners = self.listeners.clone();
        let present = std::mem::take(&mut self.present);
        let elsewhere_seats = std::mem::take(&mut self.present_elsewhere);
        let (version, client, leased) = (self.version, Arc::clone(&self.client), self.leased);
        let elsewhere = self.searched_elsewhere;
        *self = fresh;
        self.leased = leased;
        self.searched_elsewhere = elsewhere && self.engine_to_move();
        self.listeners = listeners;
        if present.len() == self.present.len() {
            self.present = present;
            self.present_elsewhere = elsewhere_seats;
        }
        self.version = self.version.max(version);
        self.client = client;
    }
}
