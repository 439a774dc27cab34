//! [`Store`] in one SQLite file: the default, for one server.
//!
//! Its schema is `migrations::SQLITE`. A database from before migrations were
//! numbered (no `schema_migrations` table, but games) is brought to the first
//! version when it opens: the columns added since are added, and seat tokens
//! kept in clear are hashed (`hashed_tokens`). Unfinished games left alone
//! long enough are deleted on request (`retention`); a finished game's
//! rematch is made and linked from it in one transaction (`rematch`).

mod hashed_tokens;
mod rematch;
mod retention;

use super::migrations::{self, Migration};
use super::{
    GameMeta, GameSummary, Rematch, Stamp, Store, StoreError, StoredGame, StoredMove, StoredResult, now, player_names,
    result_parts,
};
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use std::sync::Mutex;

/// [`Store`] in one SQLite file.
pub struct SqliteStore {
    conn: Mutex<Connection>,
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path`, and hashes the
    /// seat tokens a database from before tokens were hashed keeps in clear.
    ///
    /// Write-ahead logging with `synchronous = NORMAL`: a commit is in the
    /// log before the call returns, so a killed server loses nothing it
    /// acknowledged; only a power cut may lose the last commits.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        // A new database is readable by its owner alone: it holds seat tokens.
        // (SQLite gives its journal files the database's permissions.)
        #[cfg(unix)]
        if !path.exists() {
            use std::os::unix::fs::OpenOptionsExt;
            match std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path) {
                Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => return Err(e.into()),
                _ => {}
            }
        }
        let mut conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        migrate(&mut conn)?;
        hashed_tokens::hash_clear_tokens(&mut conn)?;
        Ok(SqliteStore { conn: Mutex::new(conn) })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves no half-done transaction (each
        // is committed or rolled back by SQLite), so the connection is usable.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Applies, in one transaction, the migrations the database lacks. A
/// database from before numbered migrations counts as at none, and has the
/// columns added since its games table was made added first (the first
/// migration makes only what is missing).
fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    const ALL: &[Migration] = migrations::SQLITE;
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    tx.execute_batch(&format!(
        "CREATE TABLE IF NOT EXISTS {} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied INTEGER NOT NULL)",
        migrations::TABLE
    ))?;
    let done: i64 =
        tx.query_row(&format!("SELECT COALESCE(MAX(version), 0) FROM {}", migrations::TABLE), [], |r| r.get(0))?;
    if done == 0 {
        // Databases from before multi-player games lack the seats column,
        // those from before rematches the rematch's two.
        let has_games: i64 =
            tx.query_row("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'games'", [], |r| {
                r.get(0)
            })?;
        for column in ["seats", "rematch", "rematch_by"] {
            let has: i64 =
                tx.query_row("SELECT COUNT(*) FROM pragma_table_info('games') WHERE name = ?1", [column], |r| {
                    r.get(0)
                })?;
            if has_games == 1 && has == 0 {
                tx.execute_batch(&format!("ALTER TABLE games ADD COLUMN {column} TEXT"))?;
            }
        }
    }
    for m in migrations::pending(ALL, done)? {
        tx.execute_batch(m.sql)?;
        tx.execute(
            &format!("INSERT INTO {} (version, name, applied) VALUES (?1, ?2, ?3)", migrations::TABLE),
            params![m.version, m.name, now()],
        )?;
    }
    tx.commit()?;
    Ok(())
}

fn insert_move(tx: &rusqlite::Transaction<'_>, id: &str, ply: usize, mv: &StoredMove) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO moves (game, ply, coord, white_ms, black_ms, at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![id, ply as i64, mv.coord, mv.white_ms, mv.black_ms, mv.at_ms],
    )?;
    Ok(())
}

/// A new game's row (its moves apart).
fn insert_game(
    tx: &rusqlite::Transaction<'_>,
    m: &GameMeta,
    plies: usize,
    result: Option<&StoredResult>,
) -> rusqlite::Result<()> {
    let (score, reason) = result_parts(result);
    tx.execute(
        "INSERT INTO games (id, variant, mode, start, white, black, white_token, black_token, engine, clock,
                            created, updated, plies, result, reason, seats)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11, ?12, ?13, ?14, ?15)",
        params![
            m.id,
            m.variant,
            m.mode,
            m.start,
            m.white,
            m.black,
            m.white_token,
            m.black_token,
            m.engine,
            m.clock,
            m.created,
            plies as i64,
            score,
            reason,
            m.seats
        ],
    )?;
    Ok(())
}

impl Store for SqliteStore {
    fn create(&self, m: &GameMeta, moves: &[StoredMove], result: Option<&StoredResult>) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        insert_game(&tx, m, moves.len(), result)?;
        for (ply, mv) in moves.iter().enumerate() {
            insert_move(&tx, &m.id, ply, mv)?;
        }
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
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        match insert_move(&tx, id, ply, mv) {
            // The ply is stored already.
            Err(rusqlite::Error::SqliteFailure(e, _)) if e.code == rusqlite::ErrorCode::ConstraintViolation => {
                return Err(StoreError::OutOfOrder(id.into(), ply));
            }
            other => other?,
        }
        let (score, reason) = result_parts(result);
        // Only the next ply: the transaction rolls back otherwise.
        let changed = tx.execute(
            "UPDATE games SET plies = ?2, updated = ?3, result = ?4, reason = ?5, offers = NULL
             WHERE id = ?1 AND plies = ?6",
            params![id, ply as i64 + 1, now(), score, reason, ply as i64],
        )?;
        if changed != 1 {
            return Err(StoreError::OutOfOrder(id.into(), ply));
        }
        tx.commit()?;
        Ok(())
    }

    fn truncate(&self, id: &str, from: usize, plies: usize) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let changed = tx.execute(
            "UPDATE games SET plies = ?2, updated = ?3, result = NULL, reason = NULL, offers = NULL
             WHERE id = ?1 AND plies = ?4",
            params![id, plies as i64, now(), from as i64],
        )?;
        if changed != 1 {
            return Err(StoreError::OutOfOrder(id.into(), from));
        }
        tx.execute("DELETE FROM moves WHERE game = ?1 AND ply >= ?2", params![id, plies as i64])?;
        // A review is of a finished game: a take-back leaves none.
        tx.execute("DELETE FROM reviews WHERE game = ?1", params![id])?;
        tx.commit()?;
        Ok(())
    }

    fn finish(&self, id: &str, result: &StoredResult) -> Result<(), StoreError> {
        let changed = self.conn().execute(
            "UPDATE games SET result = ?2, reason = ?3, updated = ?4, offers = NULL WHERE id = ?1 AND result IS NULL",
            params![id, result.score, result.reason, now()],
        )?;
        match changed {
            1 => Ok(()),
            _ => Err(StoreError::Finished(id.into())),
        }
    }

    fn set_offers(&self, id: &str, plies: usize, offers: Option<&str>) -> Result<(), StoreError> {
        let changed = self.conn().execute(
            "UPDATE games SET offers = ?2, updated = ?3 WHERE id = ?1 AND plies = ?4 AND result IS NULL",
            params![id, offers, now(), plies as i64],
        )?;
        match changed {
            1 => Ok(()),
            _ => Err(StoreError::OutOfOrder(id.into(), plies)),
        }
    }

    fn save_variant_file(&self, id: &str, text: &str) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT OR IGNORE INTO variant_files (id, text, created) VALUES (?1, ?2, ?3)",
            params![id, text, now()],
        )?;
        Ok(())
    }

    fn variant_file(&self, id: &str) -> Result<Option<String>, StoreError> {
        Ok(self.conn().query_row("SELECT text FROM variant_files WHERE id = ?1", [id], |r| r.get(0)).optional()?)
    }

    fn create_rematch(&self, previous: &str, by: &str, next: &GameMeta) -> Result<Option<Rematch>, StoreError> {
        rematch::create_rematch(&mut self.conn(), previous, by, next)
    }

    fn delete_abandoned(&self, changed_before: i64) -> Result<Vec<String>, StoreError> {
        retention::delete_abandoned(&mut self.conn(), changed_before)
    }

    fn review(&self, id: &str) -> Result<Option<(String, String)>, StoreError> {
        let row = self
            .conn()
            .query_row("SELECT key, body FROM reviews WHERE game = ?1", [id], |r| Ok((r.get(0)?, r.get(1)?)));
        Ok(row.optional()?)
    }

    fn save_review(&self, id: &str, key: &str, body: &str) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT OR REPLACE INTO reviews (game, key, body, created) VALUES (?1, ?2, ?3, ?4)",
            params![id, key, body, now()],
        )?;
        Ok(())
    }

    fn stamp(&self, id: &str) -> Result<Option<Stamp>, StoreError> {
        let row = self.conn().query_row(
            "SELECT plies, result IS NOT NULL, rematch IS NOT NULL, offers FROM games WHERE id = ?1",
            [id],
            |r| {
                Ok(Stamp {
                    plies: r.get::<_, i64>(0)? as usize,
                    finished: r.get(1)?,
                    rematched: r.get(2)?,
                    offers: r.get(3)?,
                })
            },
        );
        Ok(row.optional()?)
    }

    fn check(&self) -> Result<(), StoreError> {
        let done: Option<i64> =
            self.conn().query_row(&format!("SELECT MAX(version) FROM {}", migrations::TABLE), [], |r| r.get(0))?;
        migrations::require_all(migrations::SQLITE, done)
    }

    /// One connection, in use while a call holds its lock.
    fn connections(&self) -> super::Connections {
        let held = matches!(self.conn.try_lock(), Err(std::sync::TryLockError::WouldBlock));
        super::Connections { in_use: usize::from(held), max: 1 }
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let conn = self.conn();
        let row = conn
            .query_row(
                "SELECT id, variant, mode, start, white, black, white_token, black_token, engine, clock, created,
                        result, reason, seats, rematch, rematch_by, offers
                 FROM games WHERE id = ?1",
                params![id],
                |r| {
                    let meta = GameMeta {
                        id: r.get(0)?,
                        variant: r.get(1)?,
                        mode: r.get(2)?,
                        start: r.get(3)?,
                        white: r.get(4)?,
                        black: r.get(5)?,
                        white_token: r.get(6)?,
                        black_token: r.get(7)?,
                        engine: r.get(8)?,
                        clock: r.get(9)?,
                        seats: r.get(13)?,
                        created: r.get(10)?,
                        rematch: match (r.get::<_, Option<String>>(14)?, r.get::<_, Option<String>>(15)?) {
                            (Some(game), Some(by)) => Some(Rematch { by, game }),
                            _ => None,
                        },
                        offers: r.get(16)?,
                    };
                    let score: Option<String> = r.get(11)?;
                    let reason: Option<String> = r.get(12)?;
                    Ok((meta, score.map(|score| StoredResult { score, reason: reason.unwrap_or_default() })))
                },
            )
            .optional()?;
        let Some((meta, result)) = row else { return Ok(None) };
        let mut stmt =
            conn.prepare("SELECT ply, coord, white_ms, black_ms, at_ms FROM moves WHERE game = ?1 ORDER BY ply")?;
        let rows = stmt.query_map(params![id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                StoredMove { coord: r.get(1)?, white_ms: r.get(2)?, black_ms: r.get(3)?, at_ms: r.get(4)? },
            ))
        })?;
        let mut moves = Vec::new();
        for row in rows {
            let (ply, mv) = row?;
            if ply != moves.len() as i64 {
                return Err(StoreError::Damaged(id.into(), format!("move {ply} follows {} moves", moves.len())));
            }
            moves.push(mv);
        }
        Ok(Some((meta, moves, result)))
    }

    fn list(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT id, variant, mode, white, black, plies, result, reason, updated, seats
             FROM games ORDER BY updated DESC, created DESC LIMIT ?1",
        )?;
        let rows = stmt.query_map(params![limit as i64], |r| {
            Ok(GameSummary {
                id: r.get(0)?,
                variant: r.get(1)?,
                mode: r.get(2)?,
                white: r.get(3)?,
                black: r.get(4)?,
                plies: r.get(5)?,
                result: r.get(6)?,
                reason: r.get(7)?,
                updated: r.get(8)?,
                players: player_names(r.get(9)?),
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::fixtures::{self, remove_sqlite};
    use super::*;

    /// The schema of a database from before numbered migrations and
    /// multi-player games (no `seats`, `rematch` or `rematch_by` column).
    pub const BEFORE_MIGRATIONS: &str = "
        CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT NOT NULL, mode TEXT NOT NULL, start TEXT NOT NULL,
            white TEXT NOT NULL, black TEXT NOT NULL, white_token TEXT, black_token TEXT, engine TEXT, clock TEXT,
            created INTEGER NOT NULL, updated INTEGER NOT NULL, plies INTEGER NOT NULL DEFAULT 0, result TEXT,
            reason TEXT);
        CREATE TABLE moves (game TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL, coord TEXT NOT NULL,
            white_ms INTEGER, black_ms INTEGER, PRIMARY KEY (game, ply));
        CREATE INDEX games_updated ON games(updated);
        CREATE TABLE reviews (game TEXT PRIMARY KEY REFERENCES games(id), key TEXT NOT NULL, body TEXT NOT NULL,
            created INTEGER NOT NULL);
        CREATE TABLE variant_files (id TEXT PRIMARY KEY, text TEXT NOT NULL, created INTEGER NOT NULL);";

    fn path(name: &str) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("raum-sqlite-{name}-{}", std::process::id()));
        remove_sqlite(&path);
        path
    }

    /// The schema's statements and the migrations recorded.
    fn schema(path: &Path) -> (Vec<String>, Vec<(i64, String)>) {
        let conn = Connection::open(path).unwrap();
        let mut stmt = conn.prepare("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name").unwrap();
        let sql = stmt.query_map([], |r| r.get(0)).unwrap().collect::<Result<_, _>>().unwrap();
        let mut stmt = conn.prepare("SELECT version, name FROM schema_migrations ORDER BY version").unwrap();
        let done = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().collect::<Result<_, _>>().unwrap();
        (sql, done)
    }

    #[test]
    fn migrations_applied_twice_change_nothing() {
        let path = path("twice");
        drop(SqliteStore::open(&path).unwrap());
        let first = schema(&path);
        assert_eq!(first.1, migrations::SQLITE.iter().map(|m| (m.version, m.name.to_string())).collect::<Vec<_>>());
        drop(SqliteStore::open(&path).unwrap());
        assert_eq!(schema(&path), first);
        remove_sqlite(&path);
    }

    #[test]
    fn a_database_from_a_newer_raum_is_refused() {
        let path = path("newer");
        drop(SqliteStore::open(&path).unwrap());
        Connection::open(&path).unwrap().execute("INSERT INTO schema_migrations VALUES (999, 'later', 0)", []).unwrap();
        let err = SqliteStore::open(&path).err().expect("refused");
        assert!(err.to_string().contains("schema version 999"), "{err}");
        remove_sqlite(&path);
    }

    #[cfg(unix)]
    #[test]
    fn a_new_database_is_its_owner_s_alone() {
        use std::os::unix::fs::PermissionsExt;
        let path = path("mode");
        let s = SqliteStore::open(&path).unwrap();
        s.create(&fixtures::game("g", "local", 1, Some("t")), &[], None).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        drop(s);
        remove_sqlite(&path);
    }

    #[test]
    fn a_database_from_before_migrations_and_multi_player_games_is_brought_up_to_date() {
        let path = path("old");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(BEFORE_MIGRATIONS).unwrap();
            conn.execute_batch(
                "INSERT INTO games (id, variant, mode, start, white, black, created, updated)
                 VALUES ('old', 'five-up', 'local', 'x', 'Ann', 'Bob', 1, 1)",
            )
            .unwrap();
        }
        let s = SqliteStore::open(&path).unwrap();
        s.check().expect("at the latest version");
        let (m, _, _) = s.load("old").unwrap().unwrap();
        assert_eq!((m.white.as_str(), m.seats, m.rematch), ("Ann", None, None));
        let mut multi = fixtures::game("new", "local", 1, Some("t"));
        multi.seats = Some(r#"[{"name":"Ann","token":"t"}]"#.into());
        s.create(&multi, &[], None).unwrap();
        assert_eq!(s.create_rematch("old", "white", &fixtures::game("next", "local", 1, None)).unwrap(), None);
        assert_eq!(s.load("new").unwrap().unwrap().0, multi);
        drop(s);
        // Opening again changes nothing.
        let before = schema(&path);
        drop(SqliteStore::open(&path).unwrap());
        assert_eq!(schema(&path), before);
        remove_sqlite(&path);
    }
}
