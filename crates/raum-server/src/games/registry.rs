//! [`Games`]: every game, the rooms in memory ([`AnyRoom`]: a two-player
//! [`Room`] or a [`MultiRoom`]), the store and the engine threads; loading
//! a room from the store, and dropping idle rooms from memory.

use super::refusal::{Refusal, stored};
use super::room::Room;
use super::seat::Seat;
use crate::engine_pool::EnginePool;
use crate::multi_room::MultiRoom;
use crate::store::{GameSummary, Store, StoreError};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// A game in memory: two players' [`Room`] or a [`MultiRoom`]. What every
/// game offers (its state, its listeners, who a token seats) is here; the
/// requests that differ go to each kind's own code.
#[derive(Clone)]
pub enum AnyRoom {
    /// A two-player game.
    Two(Arc<tokio::sync::Mutex<Room>>),
    /// A game of three, four or six sides.
    Multi(Arc<tokio::sync::Mutex<MultiRoom>>),
}

impl AnyRoom {
    /// The state for a client arriving now.
    pub async fn current_state(&self) -> Arc<str> {
        match self {
            AnyRoom::Two(r) => r.lock().await.current_state(),
            AnyRoom::Multi(r) => r.lock().await.state(),
        }
    }

    /// The state now, a listener for every later state, and the seat of
    /// `token` (`white`, `black`, `both`; a multi-player side, or `all`).
    pub async fn listen(&self, token: Option<&str>) -> (Arc<str>, broadcast::Receiver<Arc<str>>, Option<&'static str>) {
        match self {
            AnyRoom::Two(r) => {
                let mut r = r.lock().await;
                (r.current_state(), r.subscribe(), r.seat(token).map(Seat::name))
            }
            AnyRoom::Multi(r) => {
                let r = r.lock().await;
                (r.state(), r.subscribe(), r.seat_name(token))
            }
        }
    }

    /// Whether nothing uses the room: no request holds it, no socket
    /// listens, no search or clock runs, and nothing changed for [`IDLE`].
    fn idle(&self) -> bool {
        match self {
            AnyRoom::Two(room) => {
                if Arc::strong_count(room) > 1 {
                    return false;
                }
                let Ok(r) = room.try_lock() else { return false };
                r.listeners.receiver_count() == 0
                    && r.thinking.is_none()
                    && r.clock.as_ref().is_none_or(|c| c.since.is_none())
                    && r.touched.elapsed() >= IDLE
            }
            AnyRoom::Multi(room) => {
                if Arc::strong_count(room) > 1 {
                    return false;
                }
                room.try_lock().is_ok_and(|r| r.idle(IDLE))
            }
        }
    }
}

/// Every game: the rooms in memory, the store, the engine threads.
pub struct Games {
    pub(crate) rooms: Mutex<HashMap<String, AnyRoom>>,
    last_sweep: Mutex<Instant>,
    pub(crate) store: Arc<dyn Store>,
    pub(crate) pool: EnginePool,
}

/// How long an unused room stays in memory.
const IDLE: Duration = Duration::from_secs(600);
/// How often idle rooms are looked for.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

impl Games {
    /// Games kept in `store`, searched by `engine_workers` threads.
    pub fn new(store: Arc<dyn Store>, engine_workers: usize) -> Arc<Self> {
        Arc::new(Games {
            rooms: Mutex::new(HashMap::new()),
            last_sweep: Mutex::new(Instant::now()),
            store,
            pool: EnginePool::new(engine_workers),
        })
    }

    pub(crate) async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, Refusal> {
        let store = Arc::clone(&self.store);
        tokio::task::spawn_blocking(move || f(store.as_ref()))
            .await
            .map_err(|e| Refusal::new(500, format!("storage task failed: {e}")))?
            .map_err(stored)
    }

    /// The games in progress and finished, newest first.
    pub async fn list(&self) -> Result<Vec<GameSummary>, Refusal> {
        self.blocking(|s| s.list(500)).await
    }

    /// Drops from memory the rooms nobody uses: no request holds them, no
    /// socket listens, no search or clock runs, and nothing changed for
    /// [`IDLE`]. They are in the store and load again when asked for.
    pub(super) fn evict_idle(&self) {
        let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        let mut last = self.last_sweep.lock().unwrap_or_else(|e| e.into_inner());
        if last.elapsed() < SWEEP_EVERY {
            return;
        }
        *last = Instant::now();
        rooms.retain(|_, room| !room.idle());
    }

    /// The room of game `id`, loaded from the store if not in memory.
    pub async fn room(self: &Arc<Self>, id: &str) -> Result<AnyRoom, Refusal> {
        if let Some(r) = self.rooms.lock().unwrap_or_else(|e| e.into_inner()).get(id) {
            return Ok(r.clone());
        }
        let unknown = || Refusal::new(404, format!("no game '{id}'"));
        if id.is_empty() || id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(unknown());
        }
        self.evict_idle();
        let key = id.to_string();
        // Replaying a long game is work for a blocking thread, like the load.
        let restored = self
            .blocking(move |s| {
                Ok(s.load(&key)?.map(|(meta, moves, result)| {
                    if MultiRoom::holds(&meta) {
                        MultiRoom::restore(meta, &moves, result)
                            .map(|r| AnyRoom::Multi(Arc::new(tokio::sync::Mutex::new(r))))
                    } else {
                        Room::restore(meta, &moves, result).map(|r| AnyRoom::Two(Arc::new(tokio::sync::Mutex::new(r))))
                    }
                }))
            })
            .await?;
        let room = match restored {
            None => return Err(unknown()),
            Some(r) => r.map_err(|e| Refusal::new(500, e))?,
        };
        let room = {
            let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
            // Another request may have loaded it meanwhile: keep the first.
            rooms.entry(id.to_string()).or_insert(room).clone()
        };
        match &room {
            AnyRoom::Two(arc) => {
                let mut locked = arc.lock().await;
                self.schedule(&mut locked, arc);
            }
            AnyRoom::Multi(arc) => {
                let mut locked = arc.lock().await;
                self.schedule_multi(&mut locked, arc);
            }
        }
        Ok(room)
    }

    /// The two-player room of game `id`; a multi-player game is refused
    /// with `multi` (what it does not offer).
    pub(super) async fn two_room(
        self: &Arc<Self>,
        id: &str,
        multi: &str,
    ) -> Result<Arc<tokio::sync::Mutex<Room>>, Refusal> {
        match self.room(id).await? {
            AnyRoom::Two(r) => Ok(r),
            AnyRoom::Multi(_) => Err(Refusal::new(409, format!("{multi} in multi-player games"))),
        }
    }
}
