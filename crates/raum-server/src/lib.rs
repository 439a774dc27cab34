//! `raum serve`: Raum's web app. A JSON API (docs/api.md) over the rules core
//! and the engine, games kept in SQLite or PostgreSQL, each game's state pushed over a
//! WebSocket, and the front end (plain ES modules and a vendored three.js,
//! under `web/`) embedded in the binary.
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! let config = raum_server::Config { port: 0, ..raum_server::Config::default() };
//! raum_server::serve(config, |url, db| println!("Raum is at {url} (games in {db})")).await
//! # }
//! ```

pub mod api;
pub mod engine_pool;
pub mod games;
pub mod limits;
mod listen;
pub mod live_game;
pub mod metrics;
pub mod proxies;
pub mod store;
pub mod variant_files;
pub mod variants;

/// The name the multi-player games' replay had before every game was one
/// [`live_game::LiveGame`].
pub mod any_multi_game {
    pub use crate::live_game::replay_multi;
}

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// How long an unfinished game is kept after its last change, unless told otherwise.
pub const KEEP_UNFINISHED: Duration = Duration::from_secs(30 * 24 * 3600);

/// How to serve.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on.
    pub host: String,
    /// Port; 0 picks a free one.
    pub port: u16,
    /// Where the games are kept: a SQLite file, or a PostgreSQL database.
    pub db: store::Database,
    /// Engine threads shared by every game.
    pub engine_workers: usize,
    /// What one client may take of the server.
    pub policy: limits::Policy,
    /// How long an unfinished game is kept after its last change before it
    /// is deleted (swept at start, then every hour or every quarter of the
    /// age if shorter); `None` (or zero): kept forever. Finished games are
    /// always kept.
    pub keep_unfinished: Option<Duration>,
}

impl Default for Config {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Config {
            host: "127.0.0.1".into(),
            port: 8080,
            db: store::Database::Sqlite("raum-games.db".into()),
            engine_workers: cores.saturating_sub(1).max(1),
            policy: limits::Policy::default(),
            keep_unfinished: Some(KEEP_UNFINISHED),
        }
    }
}

/// Opens the store, starts the sweep of abandoned games (if
/// [`Config::keep_unfinished`] gives an age), binds, calls `ready` with the
/// app's URL and where the games are ([`store::Database::describe`]), and
/// serves until SIGTERM or Ctrl-C ([`serve_until`]).
pub async fn serve(config: Config, ready: impl FnOnce(&str, &str)) -> std::io::Result<()> {
    serve_until(config, ready, terminated()).await
}

/// SIGTERM (what a service manager or an orchestrator sends) or Ctrl-C.
async fn terminated() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(_) => drop(tokio::signal::ctrl_c().await),
        }
    }
    #[cfg(not(unix))]
    drop(tokio::signal::ctrl_c().await);
}

/// How long a stopping server waits for its requests and sockets to finish.
pub const DRAIN: Duration = Duration::from_secs(10);

/// [`serve`], until `stop` completes; then a graceful stop: nothing more is
/// accepted, the requests under way finish (a move is stored and answered),
/// the games' engine searches and clocks' flags stop here (their leases
/// lapse at once, for another server), every WebSocket is closed with code 1012 ("service restart": the page
/// connects again, to another server behind a balancer), and this returns
/// once all are done, or after [`DRAIN`].
pub async fn serve_until(
    config: Config,
    ready: impl FnOnce(&str, &str),
    stop: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let db = config.db.describe();
    let store =
        config.db.open().map_err(|e| std::io::Error::other(format!("cannot open the game database {db}: {e}")))?;
    let games = games::registry::Games::with_policy(store, config.engine_workers, config.policy.clone());
    // PostgreSQL: what other servers on the database change reaches this one's rooms.
    games.watch_store().map_err(|e| std::io::Error::other(format!("cannot follow the game database {db}: {e}")))?;
    if let Some(age) = config.keep_unfinished.filter(|age| !age.is_zero()) {
        tokio::spawn(Arc::clone(&games).keep_sweeping(age));
    }
    let listener = tokio::net::TcpListener::bind((config.host.as_str(), config.port))
        .await
        .map_err(|e| std::io::Error::new(e.kind(), format!("cannot listen on {}:{}: {e}", config.host, config.port)))?;
    let addr: SocketAddr = listener.local_addr()?;
    let url = format!("http://{addr}/");
    ready(&url, &db);
    tracing::info!(%url, %db, engine_workers = config.engine_workers, "serving");
    let stop = async {
        stop.await;
        tracing::info!(drain_seconds = DRAIN.as_secs(), "stopping: requests under way finish, sockets are closed");
    };
    listen::serve(listener, api::router(Arc::clone(&games)), config.policy, stop, DRAIN).await?;
    // No engine move or fallen flag is played here any more: with other
    // servers on the database, one of them takes this one's games at once.
    games.stop_work(true).await;
    games.stop_sockets();
    let deadline = tokio::time::Instant::now() + DRAIN;
    while games.sockets_open() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    match games.sockets_open() {
        0 => tracing::info!("stopped"),
        left => tracing::warn!(sockets_open = left, "stopped with sockets still open after the drain"),
    }
    Ok(())
}
