//! Leases: with several servers on one database, exactly one plays a game's
//! engine moves and flags its clocks, the one holding the game's lease in
//! the store ([`Store::claim`](crate::store::Store::claim)). A server claims
//! a game's lease when the game has such work (the engine to move, or a
//! clock running), gives it up when the game has none left, and renews its
//! leases every [`RENEW_EVERY`] while it lives. A server that dies stops
//! renewing: after [`LEASE`] its leases lapse, and the next server to renew
//! takes them over, loads those games and goes on with their work (an engine
//! move searched again, a flag that fell meanwhile). On SQLite (one server)
//! every lease is this server's and none of this runs.

use super::registry::Games;
use super::room::Room;
use super::schedule::RoomArc;
use crate::store::Renewed;
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// How long a lease lasts unless renewed: how soon another server takes
/// over the games of one that died.
pub const LEASE: Duration = Duration::from_secs(5);
/// How often a server renews its leases (and looks for lapsed ones).
pub const RENEW_EVERY: Duration = Duration::from_secs(1);

impl Games {
    /// Whether this server may start `room`'s timed work now. With other
    /// servers: only while it holds the game's lease; when it does not, a
    /// task claims it and schedules the room again if it got it. A lease no
    /// longer needed is given up. Both tasks act under the room's lock, and
    /// look again at the room first: a claim and a release of one game are
    /// never in flight at once.
    pub(super) fn may_work(self: &Arc<Self>, room: &mut Room, arc: &RoomArc) -> bool {
        if self.stopped.load(Ordering::Relaxed) {
            return false;
        }
        if !self.shared.load(Ordering::Relaxed) {
            return true;
        }
        let (work, leased) = (room.has_timed_work(), room.leased);
        if work != leased {
            let (games, arc) = (Arc::clone(self), Arc::clone(arc));
            tokio::spawn(async move {
                let mut room = arc.lock().await;
                match (room.has_timed_work(), room.leased) {
                    (true, false) => games.claim(&mut room, &arc).await,
                    (false, true) => games.release(&mut room).await,
                    _ => {}
                }
            });
        }
        !work || leased
    }

    /// With several servers: a move about to be stored (not ending the game) that starts timed work
    /// (the engine's reply, a clock) takes the game's lease first, so that a
    /// server dying right after storing the move leaves a lease for another
    /// to take over, rather than a game nobody holds. (If the move is then
    /// refused, the lease is given up at the room's next schedule, or lapses
    /// into a takeover that finds no work.)
    pub(super) async fn claim_before_storing(&self, room: &mut Room) {
        let shared = self.shared.load(Ordering::Relaxed) && !self.stopped.load(Ordering::Relaxed);
        if !shared || room.leased || !room.has_timed_work() {
            return;
        }
        let (holder, id) = (self.holder.clone(), room.meta.id.clone());
        match self.blocking(move |s| s.claim(&id, &holder, LEASE)).await {
            Ok(got) => room.leased = got,
            Err(e) => tracing::warn!(game = %room.meta.id, error = %e.message, "a game's lease could not be claimed"),
        }
    }

    /// Claims `room`'s lease (its lock held): its work starts here if this
    /// server got it; if another server has it, the room says whether the
    /// engine is searching there.
    async fn claim(self: &Arc<Self>, room: &mut Room, arc: &RoomArc) {
        let (holder, id) = (self.holder.clone(), room.meta.id.clone());
        match self.blocking(move |s| s.claim(&id, &holder, LEASE)).await {
            Ok(true) => {
                room.leased = true;
                room.searched_elsewhere = false;
                self.schedule(room, arc);
            }
            Ok(false) => {
                let elsewhere = room.engine_to_move();
                if room.searched_elsewhere != elsewhere {
                    room.searched_elsewhere = elsewhere;
                    room.rebuild();
                }
            }
            Err(e) => tracing::warn!(game = %room.meta.id, error = %e.message, "a game's lease could not be claimed"),
        }
    }

    /// Gives `room`'s lease up (its lock held): the game has no timed work left.
    async fn release(&self, room: &mut Room) {
        let (holder, id) = (self.holder.clone(), room.meta.id.clone());
        match self.blocking(move |s| s.release(Some(&id), &holder)).await {
            Ok(()) => room.leased = false,
            Err(e) => tracing::warn!(game = %room.meta.id, error = %e.message, "a game's lease could not be given up"),
        }
    }

    /// Renews this server's leases every [`RENEW_EVERY`], for as long as these
    /// games live and go on: a room whose lease was lost stops its work, and
    /// the games whose leases this server took over are loaded and go on here.
    pub(super) fn keep_leases(self: &Arc<Self>) {
        let games = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(RENEW_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                let Some(games) = games.upgrade() else { return };
                if games.stopped.load(Ordering::Relaxed) {
                    return;
                }
                let holder = games.holder.clone();
                match games.blocking(move |s| s.renew(&holder, LEASE)).await {
                    Ok(renewed) => games.renewed(renewed).await,
                    Err(e) => tracing::warn!(error = %e.message, "the leases could not be renewed"),
                }
                games.keep_presence(false).await;
            }
        });
    }

    async fn renewed(self: &Arc<Self>, Renewed { held, taken_over }: Renewed) {
        let held: HashSet<String> = held.into_iter().collect();
        let rooms: Vec<RoomArc> = self.rooms.lock().unwrap_or_else(|e| e.into_inner()).values().cloned().collect();
        for arc in rooms {
            // A room in use now is looked at on the next round.
            let Ok(mut room) = arc.try_lock() else { continue };
            if room.leased && !held.contains(&room.meta.id) {
                // Lapsed (this server stalled) and taken over elsewhere.
                room.leased = false;
                room.stop_work();
            }
        }
        if !taken_over.is_empty() {
            tracing::info!(
                games = taken_over.len(),
                "took over the leases of games whose server stopped renewing them"
            );
        }
        for id in taken_over {
            let games = Arc::clone(self);
            tokio::spawn(async move {
                match games.room(&id).await {
                    Ok(arc) => {
                        let mut room = arc.lock().await;
                        room.leased = true;
                        room.searched_elsewhere = false;
                        games.schedule(&mut room, &arc);
                    }
                    Err(e) => tracing::warn!(game = %id, error = %e.message, "a game taken over could not be loaded"),
                }
            });
        }
    }

    /// Stops every game's timed work on this server: no engine search or
    /// flag timer runs or starts again. With `release`, its leases lapse at
    /// once (a graceful stop: another server takes them over within a
    /// second); without, after [`LEASE`] (as when a server dies).
    pub async fn stop_work(&self, release: bool) {
        self.stopped.store(true, Ordering::Relaxed);
        let rooms: Vec<RoomArc> = self.rooms.lock().unwrap_or_else(|e| e.into_inner()).values().cloned().collect();
        for arc in rooms {
            arc.lock().await.stop_work();
        }
        if release {
            // Its sockets are about to close: its seats are present no more.
            self.keep_presence(true).await;
            let holder = self.holder.clone();
            if let Err(e) = self.blocking(move |s| s.release(None, &holder)).await {
                tracing::warn!(error = %e.message, "the leases could not be given up");
            }
        }
    }
}
