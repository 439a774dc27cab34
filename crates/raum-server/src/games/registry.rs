//! [`Games`]: every game, the rooms in memory, the store and the engine
//! threads; loading a room from the store, and dropping idle rooms from
//! memory.

use super::refusal::{Refusal, stored};
use super::room::Room;
pub use super::schedule::RoomArc;
use crate::engine_pool::EnginePool;
use crate::limits::{Gate, Policy};
use crate::store::{GameSummary, Store, StoreError};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// The state now, a listener for every later state, and the seat a token holds.
pub type Listening = (Arc<str>, broadcast::Receiver<Arc<str>>, Option<&'static str>, Presence);

/// A seat's socket, counted as present until dropped (whether or not its
/// WebSocket upgrade ever completed).
pub struct Presence {
    room: RoomArc,
    side: Option<usize>,
    games: std::sync::Weak<Games>,
}

impl Drop for Presence {
    fn drop(&mut self) {
        let Some(s) = self.side else { return };
        let (room, games) = (Arc::clone(&self.room), self.games.clone());
        // The room's lock is async: the count goes down on a task of its own.
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move {
                let mut r = room.lock().await;
                r.present[s] = r.present[s].saturating_sub(1);
                if r.present[s] == 0 {
                    r.rebuild();
                    if let Some(games) = games.upgrade() {
                        games.seat_here(&r.meta.id, s, false);
                        games.share_presence(&room, s);
                    }
                }
            });
        }
    }
}

/// Every game: the rooms in memory, the store, the engine threads.
pub struct Games {
    /// These games themselves, for tasks a request starts (`feed`).
    pub(super) me: std::sync::Weak<Games>,
    /// Whether other servers share the store (it has a feed of changes):
    /// a room in memory is then checked against the store before use.
    pub(super) shared: std::sync::atomic::AtomicBool,
    /// This server's name in the store's leases (`lease`): its process id
    /// and a random part.
    pub(super) holder: String,
    /// Set when the server stops its games' timed work (`Games::stop_work`).
    pub(super) stopped: std::sync::atomic::AtomicBool,
    /// The seats (game, side) with a socket open on this server: what it
    /// keeps in the store for other servers (`presence`).
    pub(super) seats_here: Arc<Mutex<HashSet<(String, usize)>>>,
    pub(crate) rooms: Mutex<HashMap<String, RoomArc>>,
    last_sweep: Mutex<Instant>,
    pub(crate) store: Arc<dyn Store>,
    pub(crate) pool: EnginePool,
    /// The limits in force for each client.
    pub(crate) gate: Arc<Gate>,
    /// The reviews being made.
    pub(crate) reviews: super::review::Reviews,
    /// The analysis boards' searches.
    pub(crate) boards: super::board::Boards,
    /// Set once when the server stops: every socket closes with a reconnect hint.
    pub(crate) stopping: tokio::sync::watch::Sender<bool>,
    /// The counters and histograms `/metrics` shows.
    pub(crate) metrics: crate::metrics::Metrics,
}

/// How long an unused room stays in memory.
const IDLE: Duration = Duration::from_secs(600);
/// How often idle rooms are looked for.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

impl Games {
    /// Games kept in `store`, searched by `engine_workers` threads, under the default [`Policy`].
    pub fn new(store: Arc<dyn Store>, engine_workers: usize) -> Arc<Self> {
        Games::with_policy(store, engine_workers, Policy::default())
    }

    /// Games kept in `store`, searched by `engine_workers` threads, under `policy`.
    pub fn with_policy(store: Arc<dyn Store>, engine_workers: usize, policy: Policy) -> Arc<Self> {
        Arc::new_cyclic(|me| Games {
            me: me.clone(),
            shared: Default::default(),
            holder: format!("{}-{}", std::process::id(), super::tokens::new_id()),
            stopped: Default::default(),
            seats_here: Default::default(),
            rooms: Mutex::new(HashMap::new()),
            last_sweep: Mutex::new(Instant::now()),
            store,
            pool: EnginePool::new(engine_workers),
            gate: Arc::new(Gate::new(policy)),
            reviews: Default::default(),
            boards: Default::default(),
            stopping: tokio::sync::watch::Sender::new(false),
            metrics: Default::default(),
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

    /// Loads the variant file the store keeps under `name`, if it is not loaded yet.
    pub(crate) async fn ensure_variant(&self, name: &str) -> Result<(), Refusal> {
        let name = name.to_string();
        self.blocking(move |s| crate::variant_files::ensure_loaded(s, &name)).await
    }

    /// The server is stopping: every WebSocket is closed with code 1012
    /// ("service restart"), which tells its page to connect again (to
    /// another server, behind a balancer).
    pub fn stop_sockets(&self) {
        self.stopping.send_replace(true);
    }

    /// The WebSockets open now.
    pub fn sockets_open(&self) -> usize {
        self.gate.sockets_open()
    }

    /// Whether the store answers with the schema this Raum writes.
    pub async fn ready(&self) -> Result<(), Refusal> {
        self.blocking(|s| s.check()).await
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
        rooms.retain(|_, room| {
            // A request holding the room, or its lock, keeps it.
            Arc::strong_count(room) > 1 || room.try_lock().map_or(true, |r| !r.idle(IDLE))
        });
    }

    /// The room of game `id` if it is in memory (never loads it).
    pub(super) fn loaded(&self, id: &str) -> Option<RoomArc> {
        self.rooms.lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned()
    }

    /// Drops game `id`'s room from memory (the game is gone from the store),
    /// its engine's search and flag timer stopped: no move or fallen flag is
    /// stored for it again.
    pub(super) async fn forget(&self, id: &str) {
        let room = self.rooms.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
        if let Some(room) = room {
            room.lock().await.stop_work();
        }
    }

    /// The room of game `id`, loaded from the store if not in memory.
    pub async fn room(self: &Arc<Self>, id: &str) -> Result<RoomArc, Refusal> {
        if let Some(r) = self.loaded(id) {
            self.follow_store(&r).await?;
            return Ok(r);
        }
        let unknown = || Refusal::new(404, format!("no game '{id}'"));
        if id.is_empty() || id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(unknown());
        }
        self.evict_idle();
        let key = id.to_string();
        let shared = self.shared.load(std::sync::atomic::Ordering::Relaxed);
        // Replaying a long game is work for a blocking thread, like the load.
        let restored = self
            .blocking(move |s| {
                let stored = s.load(&key)?;
                // A game of a variant file: its file, loaded once.
                if let Some((meta, _, _)) = &stored {
                    crate::variant_files::ensure_loaded(s, &meta.variant)?;
                }
                Ok(stored.map(|(meta, moves, result)| {
                    Room::restore(meta, &moves, result, shared).map(|r| Arc::new(tokio::sync::Mutex::new(r)))
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
        {
            let mut locked = room.lock().await;
            self.schedule(&mut locked, &room);
        }
        // Several servers: the seats with a socket on another, read once the room is in
        // memory (where the feed finds it for any later change).
        self.presence_changed(&room).await?;
        Ok(room)
    }

    /// The state for a client arriving now.
    pub async fn current_state(room: &RoomArc) -> Arc<str> {
        room.lock().await.current_state()
    }

    /// The state now, a listener for every later state, and the seat of
    /// `token` (`white`, `black`, `blue`; `both` or `all` at one screen).
    pub async fn listen(self: &Arc<Self>, room: &RoomArc, token: Option<&str>) -> Listening {
        let mut r = room.lock().await;
        // A seat of one side arriving: the others learn it is here.
        let side = r.seat(token).and_then(|s| s.own());
        if let Some(s) = side {
            r.present[s] += 1;
            if r.present[s] == 1 {
                r.rebuild();
                self.seat_here(&r.meta.id, s, true);
                self.share_presence(room, s);
            }
        }
        let presence = Presence { room: Arc::clone(room), side, games: Arc::downgrade(self) };
        (r.current_state(), r.subscribe(), r.seat_name(token), presence)
    }
}
