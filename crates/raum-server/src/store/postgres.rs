//! [`Store`] on PostgreSQL: several server instances on one database.
//!
//! Connections come from a small pool of its own (`Pool`); each call takes
//! one for its transaction and gives it back. A ply is part of its move's
//! primary key, so two instances racing on one ply cannot both store it:
//! the second's insert waits for the first's commit and fails, answered
//! [`StoreError::OutOfOrder`]. The schema is `migrations::POSTGRES`, applied
//! under an advisory lock, so instances starting together apply it once.
//!
//! Every change to a game is announced, on commit, on the channel
//! [`CHANNEL`] (`pg_notify`), which [`Store::watch`] listens to on a
//! connection of its own: how a move one server stored reaches the others.
//!
//! The client (`postgres`, synchronous) runs each connection on a small
//! runtime of its own: it is used from blocking threads (the server's
//! `spawn_blocking`), and opened and closed on a thread of its own when the
//! caller may be inside an async runtime.

use super::migrations;
use super::{
    Change, GameMeta, GameSummary, Rematch, Renewed, Stamp, Store, StoreError, StoredGame, StoredMove, StoredResult,
    now, player_names, result_parts,
};
use ::postgres::IsolationLevel::RepeatableRead;
use ::postgres::error::SqlState;
use ::postgres::fallible_iterator::FallibleIterator;
use ::postgres::types::ToSql;
use ::postgres::{Client, Config, GenericClient, NoTls, Row, Statement};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Connections a store keeps open at most.
const MAX_CONNECTIONS: usize = 16;
/// How long a call waits for a connection to come free.
const WAIT: Duration = Duration::from_secs(30);
/// The advisory lock the migrations are applied under (any fixed number:
/// "Raum" in ASCII).
const MIGRATION_LOCK: i64 = 0x5261_756d;
/// The channel's name, for the statements that announce on it.
macro_rules! channel {
    () => {
        "raum_games"
    };
}
/// The channel every change to a game is announced on ([`Change::parse`]'s text).
pub const CHANNEL: &str = channel!();
/// Now, in milliseconds since 1970, on the database's clock.
macro_rules! now_ms {
    () => {
        "(extract(epoch FROM clock_timestamp()) * 1000)::bigint"
    };
}

// (After the macros, which they use.)
mod leases;
mod presence;
/// How a game stands (a row of `games`), as [`Change::parse`] reads it.
macro_rules! stamp_text {
    () => {
        "id || ' ' || plies || ' ' || (result IS NOT NULL)::int || ' ' || (rematch IS NOT NULL)::int
         || ' ' || COALESCE(offers, '-')"
    };
}
/// What is announced of a game (a row of `games`): [`Change::parse`]'s text.
macro_rules! announced {
    () => {
        concat!("pg_notify('", channel!(), "', ", stamp_text!(), ")")
    };
}
/// Announces game `$1` as it now stands (delivered on commit).
const NOTIFY: &str = concat!("SELECT ", announced!(), " FROM games WHERE id = $1");
/// A move stored and its game brought up to it, in one statement: nothing is
/// stored unless the game has exactly `$2` events (`$2` is the move's ply), and
/// of two writers of one ply the second fails on the key. One row when stored.
const APPEND: &str = concat!(
    "WITH stored AS (
         INSERT INTO moves (game, ply, coord, white_ms, black_ms, at_ms)
         SELECT id, $2, $3, $4, $5, $9 FROM games WHERE id = $1 AND plies = $2
         RETURNING game, coord, white_ms, black_ms, at_ms
     ), game AS (
         UPDATE games SET plies = $2 + 1, updated = $6, result = $7, reason = $8, offers = NULL
         WHERE id = (SELECT game FROM stored)
         RETURNING id, plies, result, rematch, offers
     )
     SELECT pg_notify('",
    channel!(),
    "', ",
    stamp_text!(),
    " || '|' || COALESCE(white_ms::text, '-') || ' ' || COALESCE(black_ms::text, '-')
       || ' ' || COALESCE(at_ms::text, '-') || ' ' || coord)
     FROM game, stored"
);
/// An unfinished game ended, announced, in one statement: one row if ended.
const FINISH: &str = concat!(
    "WITH game AS (
         UPDATE games SET result = $2, reason = $3, updated = $4, offers = NULL WHERE id = $1 AND result IS NULL
         RETURNING id, plies, result, rematch, offers
     )
     SELECT ",
    announced!(),
    " FROM game"
);
/// An unfinished game's offers set at ply `$4`, announced, in one statement: one row if set.
const SET_OFFERS: &str = concat!(
    "WITH game AS (
         UPDATE games SET offers = $2, updated = $3 WHERE id = $1 AND plies = $4 AND result IS NULL
         RETURNING id, plies, result, rematch, offers
     )
     SELECT ",
    announced!(),
    " FROM game"
);
const STAMP: &str = "SELECT plies, result IS NOT NULL, rematch IS NOT NULL, offers FROM games WHERE id = $1";

/// [`Store`] on a PostgreSQL database.
pub struct PostgresStore {
    pool: Pool,
    /// Set when the store is dropped: its feed's thread ends.
    closed: Arc<AtomicBool>,
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        self.closed.store(true, Ordering::Relaxed);
    }
}

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/database`;
    /// libpq's parameters in the query, `?options=-c%20search_path%3Dname` for a schema)
    /// and applies the migrations it lacks.
    pub fn open(url: &str) -> Result<Self, StoreError> {
        let mut config: Config = url.parse()?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        let pool = Pool { config, state: Mutex::new(PoolState::default()), freed: Condvar::new() };
        {
            let mut conn = pool.get()?;
            off_runtime(|| migrate(conn.client()))?;
        }
        Ok(PostgresStore { pool, closed: Arc::new(AtomicBool::new(false)) })
    }
}

/// Announces, on commit, game `id` as it now stands.
fn notify(c: &mut impl GenericClient, id: &str) -> Result<(), StoreError> {
    c.execute(NOTIFY, &[&id])?;
    Ok(())
}

/// A connection listening on [`CHANNEL`].
fn listening(config: &Config) -> Result<Client, StoreError> {
    let mut client = config.connect(NoTls)?;
    client.batch_execute(&format!("LISTEN {CHANNEL}"))?;
    Ok(client)
}

/// The feed's thread: each announcement to `on_change` until the store is
/// closed; after a lost connection, connected again (every second until it
/// is) and [`Change::Everything`] reported.
fn listen(config: Config, mut client: Client, closed: Arc<AtomicBool>, on_change: Box<dyn Fn(Change) + Send>) {
    while !closed.load(Ordering::Relaxed) {
        let next = client.notifications().timeout_iter(Duration::from_millis(500)).next();
        match next {
            Ok(Some(note)) => {
                if let Some(change) = Change::parse(note.payload()) {
                    on_change(change);
                }
                continue;
            }
            Ok(None) if !client.is_closed() => continue,
            _ => {}
        }
        loop {
            std::thread::sleep(Duration::from_secs(1));
            if closed.load(Ordering::Relaxed) {
                return;
            }
            if let Ok(c) = listening(&config) {
                client = c;
                on_change(Change::Everything);
                break;
            }
        }
    }
}

/// Runs `f` on a thread of its own: the synchronous client blocks on a
/// runtime of its own, which a thread already inside an async runtime may
/// not do.
fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    if tokio::runtime::Handle::try_current().is_err() {
        return f();
    }
    std::thread::scope(|s| s.spawn(f).join()).unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Makes an empty schema `name` (dropping one of that name) in the database
/// at `base`, and returns a URL whose connections use it: a database of its
/// own for each test, in one PostgreSQL database.
pub fn fresh_schema(base: &str, name: &str) -> Result<String, StoreError> {
    let name: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    let mut config: Config = base.parse()?;
    config.connect_timeout(Duration::from_secs(10));
    off_runtime(|| -> Result<(), StoreError> {
        let mut client = config.connect(NoTls)?;
        client.batch_execute(&format!("DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}"))?;
        Ok(())
    })?;
    let joint = if base.contains('?') { '&' } else { '?' };
    Ok(format!("{base}{joint}options=-c%20search_path%3D{name}"))
}

/// Applies, in one transaction under [`MIGRATION_LOCK`], the migrations the database lacks.
fn migrate(client: &mut Client) -> Result<(), StoreError> {
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    tx.batch_execute(&format!(
        "CREATE TABLE IF NOT EXISTS {} (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied BIGINT NOT NULL)",
        migrations::TABLE
    ))?;
    let done: i64 = tx.query_one(&format!("SELECT COALESCE(MAX(version), 0) FROM {}", migrations::TABLE), &[])?.get(0);
    for m in migrations::pending(migrations::POSTGRES, done)? {
        tx.batch_execute(m.sql)?;
        tx.execute(
            &format!("INSERT INTO {} (version, name, applied) VALUES ($1, $2, $3)", migrations::TABLE),
            &[&m.version, &m.name, &now()],
        )?;
    }
    tx.commit()?;
    Ok(())
}

/// A new game's row (its moves apart).
fn insert_game(
    c: &mut impl GenericClient,
    m: &GameMeta,
    plies: usize,
    result: Option<&StoredResult>,
) -> Result<(), StoreError> {
    let (score, reason) = result_parts(result);
    c.execute(
        "INSERT INTO games (id, variant, mode, start, white, black, white_token, black_token, engine, clock,
                            created, updated, plies, result, reason, seats)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $13, $14, $15)",
        &[
            &m.id,
            &m.variant,
            &m.mode,
            &m.start,
            &m.white,
            &m.black,
            &m.white_token,
            &m.black_token,
            &m.engine,
            &m.clock,
            &m.created,
            &(plies as i64),
            &score,
            &reason,
            &m.seats,
        ],
    )?;
    Ok(())
}

/// Stores move `ply` of game `id`; a ply stored already is [`StoreError::OutOfOrder`].
fn insert_move(c: &mut impl GenericClient, id: &str, ply: usize, mv: &StoredMove) -> Result<(), StoreError> {
    let inserted = c.execute(
        "INSERT INTO moves (game, ply, coord, white_ms, black_ms, at_ms) VALUES ($1, $2, $3, $4, $5, $6)",
        &[&id, &(ply as i64), &mv.coord, &mv.white_ms, &mv.black_ms, &mv.at_ms],
    );
    match inserted {
        Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => Err(StoreError::OutOfOrder(id.into(), ply)),
        other => other.map(|_| ()).map_err(Into::into),
    }
}

fn meta_of(r: &Row) -> GameMeta {
    GameMeta {
        id: r.get("id"),
        variant: r.get("variant"),
        mode: r.get("mode"),
        start: r.get("start"),
        white: r.get("white"),
        black: r.get("black"),
        white_token: r.get("white_token"),
        black_token: r.get("black_token"),
        engine: r.get("engine"),
        clock: r.get("clock"),
        seats: r.get("seats"),
        created: r.get("created"),
        rematch: match (r.get::<_, Option<String>>("rematch"), r.get::<_, Option<String>>("rematch_by")) {
            (Some(game), Some(by)) => Some(Rematch { by, game }),
            _ => None,
        },
        offers: r.get("offers"),
    }
}

impl Store for PostgresStore {
    fn create(&self, m: &GameMeta, moves: &[StoredMove], result: Option<&StoredResult>) -> Result<(), StoreError> {
        let mut conn = self.pool.get()?;
        let mut tx = conn.client().transaction()?;
        insert_game(&mut tx, m, moves.len(), result)?;
        for (ply, mv) in moves.iter().enumerate() {
            insert_move(&mut tx, &m.id, ply, mv)?;
        }
        notify(&mut tx, &m.id)?;
        tx.commit()?;
        Ok(())
    }

    fn append_move(
        &self,
        id: &str,
        ply: usize,
        mv: &StoredMove,
        result: Option<&StoredResult>,
    ) -> Result<(), StoreError> {
        let (score, reason) = result_parts(result);
        let mut conn = self.pool.get()?;
        let append = conn.prepared(APPEND)?;
        let ply_ = ply as i64;
        let params: [&(dyn ToSql + Sync); 9] =
            [&id, &ply_, &mv.coord, &mv.white_ms, &mv.black_ms, &now(), &score, &reason, &mv.at_ms];
        match conn.client().query(&append, &params) {
            Ok(rows) if rows.len() == 1 => Ok(()),
            // The game is not at this ply (or is not stored).
            Ok(_) => Err(StoreError::OutOfOrder(id.into(), ply)),
            // Another writer stored this ply first.
            Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => Err(StoreError::OutOfOrder(id.into(), ply)),
            Err(e) => Err(e.into()),
        }
    }

    fn truncate(&self, id: &str, from: usize, plies: usize) -> Result<(), StoreError> {
        let mut conn = self.pool.get()?;
        let mut tx = conn.client().transaction()?;
        // The game's row first: a move racing the take-back waits, then finds the game moved back.
        let changed = tx.execute(
            "UPDATE games SET plies = $2, updated = $3, result = NULL, reason = NULL, offers = NULL
             WHERE id = $1 AND plies = $4",
            &[&id, &(plies as i64), &now(), &(from as i64)],
        )?;
        if changed != 1 {
            return Err(StoreError::OutOfOrder(id.into(), from));
        }
        tx.execute("DELETE FROM moves WHERE game = $1 AND ply >= $2", &[&id, &(plies as i64)])?;
        // A review is of a finished game: a take-back leaves none.
        tx.execute("DELETE FROM reviews WHERE game = $1", &[&id])?;
        notify(&mut tx, id)?;
        tx.commit()?;
        Ok(())
    }

    fn finish(&self, id: &str, result: &StoredResult) -> Result<(), StoreError> {
        let mut conn = self.pool.get()?;
        let finish = conn.prepared(FINISH)?;
        match conn.client().query(&finish, &[&id, &result.score, &result.reason, &now()])?.len() {
            1 => Ok(()),
            _ => Err(StoreError::Finished(id.into())),
        }
    }

    fn set_offers(&self, id: &str, plies: usize, offers: Option<&str>) -> Result<(), StoreError> {
        let mut conn = self.pool.get()?;
        let set = conn.prepared(SET_OFFERS)?;
        match conn.client().query(&set, &[&id, &offers, &now(), &(plies as i64)])?.len() {
            1 => Ok(()),
            _ => Err(StoreError::OutOfOrder(id.into(), plies)),
        }
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let mut conn = self.pool.get()?;
        // One snapshot for the game and its moves.
        let mut tx = conn.client().build_transaction().read_only(true).isolation_level(RepeatableRead).start()?;
        let Some(row) = tx.query_opt("SELECT * FROM games WHERE id = $1", &[&id])? else { return Ok(None) };
        let meta = meta_of(&row);
        let result = row
            .get::<_, Option<String>>("result")
            .map(|score| StoredResult { score, reason: row.get::<_, Option<String>>("reason").unwrap_or_default() });
        let mut moves = Vec::new();
        for r in
            tx.query("SELECT ply, coord, white_ms, black_ms, at_ms FROM moves WHERE game = $1 ORDER BY ply", &[&id])?
        {
            let ply: i64 = r.get(0);
            if ply != moves.len() as i64 {
                return Err(StoreError::Damaged(id.into(), format!("move {ply} follows {} moves", moves.len())));
            }
            moves.push(StoredMove { coord: r.get(1), white_ms: r.get(2), black_ms: r.get(3), at_ms: r.get(4) });
        }
        tx.commit()?;
        Ok(Some((meta, moves, result)))
    }

    fn list(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        let rows = self.pool.get()?.client().query(
            "SELECT id, variant, mode, white, black, plies, result, reason, updated, seats
             FROM games ORDER BY updated DESC, created DESC LIMIT $1",
            &[&(limit as i64)],
        )?;
        Ok(rows
            .iter()
            .map(|r| GameSummary {
                id: r.get(0),
                variant: r.get(1),
                mode: r.get(2),
                white: r.get(3),
                black: r.get(4),
                plies: r.get(5),
                result: r.get(6),
                reason: r.get(7),
                updated: r.get(8),
                players: player_names(r.get(9)),
            })
            .collect())
    }

    fn save_variant_file(&self, id: &str, text: &str) -> Result<(), StoreError> {
        self.pool.get()?.client().execute(
            "INSERT INTO variant_files (id, text, created) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING",
            &[&id, &text, &now()],
        )?;
        Ok(())
    }

    fn variant_file(&self, id: &str) -> Result<Option<String>, StoreError> {
        let row = self.pool.get()?.client().query_opt("SELECT text FROM variant_files WHERE id = $1", &[&id])?;
        Ok(row.map(|r| r.get(0)))
    }

    fn create_rematch(&self, previous: &str, by: &str, next: &GameMeta) -> Result<Option<Rematch>, StoreError> {
        let mut conn = self.pool.get()?;
        let mut tx = conn.client().transaction()?;
        // The row stays locked to the commit: a second request waits, then sees the link.
        let linked = tx.query_opt("SELECT rematch, rematch_by FROM games WHERE id = $1 FOR UPDATE", &[&previous])?;
        match linked.map(|r| (r.get::<_, Option<String>>(0), r.get::<_, Option<String>>(1))) {
            None => return Err(StoreError::Damaged(previous.into(), "no such game to rematch".into())),
            Some((Some(game), by)) => return Ok(Some(Rematch { by: by.unwrap_or_default(), game })),
            Some((None, _)) => {}
        }
        insert_game(&mut tx, next, 0, None)?;
        tx.execute("UPDATE games SET rematch = $2, rematch_by = $3 WHERE id = $1", &[&previous, &next.id, &by])?;
        notify(&mut tx, previous)?;
        notify(&mut tx, &next.id)?;
        tx.commit()?;
        Ok(None)
    }

    fn delete_abandoned(&self, changed_before: i64) -> Result<Vec<String>, StoreError> {
        let mut conn = self.pool.get()?;
        let mut tx = conn.client().transaction()?;
        // The games are locked first: a move racing the sweep waits, and then
        // finds its game gone, or keeps it (its change is after the limit).
        let ids: Vec<String> = tx
            .query(
                "SELECT id FROM games WHERE result IS NULL AND updated < $1 ORDER BY id FOR UPDATE",
                &[&changed_before],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect();
        // A rematch never played goes too: the game it was offered from forgets it.
        tx.execute("UPDATE games SET rematch = NULL, rematch_by = NULL WHERE rematch = ANY($1)", &[&ids])?;
        tx.execute("DELETE FROM reviews WHERE game = ANY($1)", &[&ids])?;
        tx.execute("DELETE FROM moves WHERE game = ANY($1)", &[&ids])?;
        tx.execute("DELETE FROM games WHERE id = ANY($1)", &[&ids])?;
        tx.execute(
            &format!("SELECT pg_notify('{CHANNEL}', gone || ' gone') FROM unnest($1::text[]) AS gone"),
            &[&ids],
        )?;
        tx.commit()?;
        Ok(ids)
    }

    fn review(&self, id: &str) -> Result<Option<(String, String)>, StoreError> {
        let row = self.pool.get()?.client().query_opt("SELECT key, body FROM reviews WHERE game = $1", &[&id])?;
        Ok(row.map(|r| (r.get(0), r.get(1))))
    }

    fn save_review(&self, id: &str, key: &str, body: &str) -> Result<(), StoreError> {
        self.pool.get()?.client().execute(
            "INSERT INTO reviews (game, key, body, created) VALUES ($1, $2, $3, $4)
             ON CONFLICT (game) DO UPDATE SET key = EXCLUDED.key, body = EXCLUDED.body, created = EXCLUDED.created",
            &[&id, &key, &body, &now()],
        )?;
        Ok(())
    }

    fn stamp(&self, id: &str) -> Result<Option<Stamp>, StoreError> {
        let mut conn = self.pool.get()?;
        let stamp = conn.prepared(STAMP)?;
        let row = conn.client().query_opt(&stamp, &[&id])?;
        Ok(row.map(|r| Stamp {
            plies: r.get::<_, i64>(0) as usize,
            finished: r.get(1),
            rematched: r.get(2),
            offers: r.get(3),
        }))
    }

    fn watch(&self, on_change: Box<dyn Fn(Change) + Send>) -> Result<bool, StoreError> {
        // Listening before this returns: every change from now on is reported.
        let client = off_runtime(|| listening(&self.pool.config))?;
        let (config, closed) = (self.pool.config.clone(), Arc::clone(&self.closed));
        std::thread::Builder::new()
            .name("raum-postgres-feed".into())
            .spawn(move || listen(config, client, closed, on_change))?;
        Ok(true)
    }

    fn claim(&self, id: &str, holder: &str, ttl: Duration) -> Result<bool, StoreError> {
        leases::claim(&mut self.pool.get()?, id, holder, ttl)
    }

    fn release(&self, id: Option<&str>, holder: &str) -> Result<(), StoreError> {
        leases::release(&mut self.pool.get()?, id, holder)
    }

    fn renew(&self, holder: &str, ttl: Duration) -> Result<Renewed, StoreError> {
        leases::renew(&mut self.pool.get()?, holder, ttl)
    }

    fn set_presence(
        &self,
        id: &str,
        side: usize,
        holder: &str,
        present: bool,
        ttl: Duration,
    ) -> Result<(), StoreError> {
        presence::set(&mut self.pool.get()?, id, side, holder, present, ttl)
    }

    fn keep_presence(&self, holder: &str, ttl: Duration, seats: &[(String, usize)]) -> Result<(), StoreError> {
        presence::keep(&mut self.pool.get()?, holder, ttl, seats)
    }

    fn present_elsewhere(&self, id: &str, holder: &str) -> Result<Vec<usize>, StoreError> {
        presence::elsewhere(&mut self.pool.get()?, id, holder)
    }

    fn check(&self) -> Result<(), StoreError> {
        let done: Option<i64> = self
            .pool
            .get()?
            .client()
            .query_one(&format!("SELECT MAX(version) FROM {}", migrations::TABLE), &[])?
            .get(0);
        migrations::require_all(migrations::POSTGRES, done)
    }

    /// The pool's connections: open and not free (the feed's own is not counted).
    fn connections(&self) -> super::Connections {
        let state = self.pool.lock();
        super::Connections { in_use: state.open - state.free.len(), max: MAX_CONNECTIONS }
    }
}

/// A connection and the statements prepared on it.
struct Session {
    client: Client,
    statements: HashMap<&'static str, Statement>,
}

/// The open connections: those free, and how many there are in all.
#[derive(Default)]
struct PoolState {
    free: Vec<Session>,
    open: usize,
}

/// Up to [`MAX_CONNECTIONS`] connections, opened when first needed and kept;
/// one found closed (the server restarted, the network dropped) is replaced.
struct Pool {
    config: Config,
    state: Mutex<PoolState>,
    freed: Condvar,
}

/// A connection taken from the pool, given back when dropped.
struct Conn<'a> {
    session: Option<Session>,
    pool: &'a Pool,
}

impl Conn<'_> {
    fn session(&mut self) -> &mut Session {
        self.session.as_mut().expect("a connection is held until dropped")
    }

    fn client(&mut self) -> &mut Client {
        &mut self.session().client
    }

    /// `sql` prepared on this connection (once: the statement is kept with it).
    fn prepared(&mut self, sql: &'static str) -> Result<Statement, StoreError> {
        let session = self.session();
        if let Some(statement) = session.statements.get(sql) {
            return Ok(statement.clone());
        }
        let statement = session.client.prepare(sql)?;
        session.statements.insert(sql, statement.clone());
        Ok(statement)
    }
}

impl Drop for Conn<'_> {
    fn drop(&mut self) {
        let Some(session) = self.session.take() else { return };
        let mut state = self.pool.lock();
        if session.client.is_closed() {
            state.open -= 1;
        } else {
            state.free.push(session);
        }
        drop(state);
        self.pool.freed.notify_one();
    }
}

impl Pool {
    fn lock(&self) -> std::sync::MutexGuard<'_, PoolState> {
        // The state is a list and a count, consistent at every step.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A free connection, a new one if fewer than [`MAX_CONNECTIONS`] are
    /// open, or the first one given back within [`WAIT`].
    fn get(&self) -> Result<Conn<'_>, StoreError> {
        let deadline = std::time::Instant::now() + WAIT;
        let mut state = self.lock();
        loop {
            while let Some(session) = state.free.pop() {
                if !session.client.is_closed() {
                    return Ok(Conn { session: Some(session), pool: self });
                }
                state.open -= 1;
            }
            if state.open < MAX_CONNECTIONS {
                state.open += 1;
                drop(state);
                let connected = off_runtime(|| self.config.connect(NoTls));
                return match connected {
                    Ok(client) => {
                        Ok(Conn { session: Some(Session { client, statements: HashMap::new() }), pool: self })
                    }
                    Err(e) => {
                        self.lock().open -= 1;
                        self.freed.notify_one();
                        Err(e.into())
                    }
                };
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Err(StoreError::Busy(WAIT.as_secs()));
            }
            state = self.freed.wait_timeout(state, left).unwrap_or_else(|e| e.into_inner()).0;
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        // Each connection's runtime may not be dropped inside an async runtime.
        let free = std::mem::take(&mut self.lock().free);
        off_runtime(move || drop(free));
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::POSTGRES_VAR;
    use super::*;

    /// The schema's columns and indexes, and the migrations recorded, in schema `name`.
    fn schema(url: &str, name: &str) -> (Vec<String>, Vec<(i64, String)>) {
        let mut c = url.parse::<Config>().unwrap().connect(NoTls).unwrap();
        let mut shape: Vec<String> = c
            .query(
                "SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable
                 FROM information_schema.columns WHERE table_schema = $1",
                &[&name],
            )
            .unwrap()
            .iter()
            .map(|r| r.get(0))
            .collect();
        shape.extend(
            c.query("SELECT indexdef FROM pg_indexes WHERE schemaname = $1", &[&name])
                .unwrap()
                .iter()
                .map(|r| r.get::<_, String>(0)),
        );
        shape.sort();
        let done = c
            .query(&format!("SELECT version, name FROM {name}.schema_migrations ORDER BY version"), &[])
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        (shape, done)
    }

    /// Runs only where [`POSTGRES_VAR`] names a database (`scripts/test.sh` does).
    #[test]
    fn migrations_applied_twice_change_nothing_and_a_newer_database_is_refused() {
        let Ok(base) = std::env::var(POSTGRES_VAR) else { return };
        let name = format!("unit_twice_{}", std::process::id());
        let url = fresh_schema(&base, &name).unwrap();
        drop(PostgresStore::open(&url).unwrap());
        let first = schema(&url, &name);
        assert_eq!(first.1, migrations::POSTGRES.iter().map(|m| (m.version, m.name.to_string())).collect::<Vec<_>>());
        assert!(first.0.iter().any(|c| c == "moves.ply bigint NO"), "{:?}", first.0);
        // Two instances starting at once apply each migration once.
        let again = fresh_schema(&base, &format!("{name}_together")).unwrap();
        std::thread::scope(|s| {
            let opening: Vec<_> = (0..4).map(|_| s.spawn(|| PostgresStore::open(&again).map(drop))).collect();
            opening.into_iter().for_each(|o| o.join().unwrap().unwrap());
        });
        assert_eq!(schema(&again, &format!("{name}_together")).1, first.1);
        drop(PostgresStore::open(&url).unwrap());
        assert_eq!(schema(&url, &name), first);
        base.parse::<Config>()
            .unwrap()
            .connect(NoTls)
            .unwrap()
            .execute(&format!("INSERT INTO {name}.schema_migrations VALUES (999, 'later', 0)"), &[])
            .unwrap();
        let err = PostgresStore::open(&url).err().expect("refused");
        assert!(err.to_string().contains("schema version 999"), "{err}");
    }
}
