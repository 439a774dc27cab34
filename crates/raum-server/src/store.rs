//! Where games are kept: one interface ([`Store`]) and its SQLite backend.
//!
//! A move is acknowledged only after its row is committed, so a server killed
//! at any moment restarts with every acknowledged move. The interface speaks
//! of games and moves only, so that another backend (PostgreSQL, for several
//! server instances) can stand in for SQLite.
//!
//! Seat tokens are kept only as hashes (`sha256:<64 hex>`); a database from
//! before has its clear tokens hashed when it opens (`hashed_tokens`).
//! Unfinished games left alone long enough are deleted on request
//! ([`Store::delete_abandoned`], `retention`). A finished game's rematch is
//! made and linked from it in one transaction (`rematch`).

mod hashed_tokens;
mod rematch;
mod retention;

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Mutex;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed.
    #[error("database: {0}")]
    Db(#[from] rusqlite::Error),
    /// A stored value could not be read back.
    #[error("stored game {0} is damaged: {1}")]
    Damaged(String, String),
    /// A move for a ply other than the game's next.
    #[error("game {0} has no ply {1} to follow")]
    OutOfOrder(String, usize),
    /// The database file could not be made.
    #[error("database file: {0}")]
    File(#[from] std::io::Error),
}

/// Everything about a game but its moves, as created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameMeta {
    /// Its id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// `local`, `engine` or `online`.
    pub mode: String,
    /// The start position string.
    pub start: String,
    /// Player names.
    pub white: String,
    /// Player names.
    pub black: String,
    /// The hash of White's seat token, `sha256:<64 hex>` (`None`: the
    /// engine's seat). The token itself is never stored.
    pub white_token: Option<String>,
    /// The hash of Black's seat token.
    pub black_token: Option<String>,
    /// Engine settings (JSON), for engine games.
    pub engine: Option<String>,
    /// Clock settings (JSON), if the game has clocks.
    pub clock: Option<String>,
    /// A multi-player game's seats in turn order (JSON: each side's player
    /// name, seat token's hash or engine settings); `None` for two-player games.
    pub seats: Option<String>,
    /// Seconds since 1970 when created.
    pub created: i64,
    /// The rematch of this game, once a player asked for one (`None` until then).
    #[serde(default)]
    pub rematch: Option<Rematch>,
}

/// A game's rematch: the next game, made by a player of this one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rematch {
    /// The side (key: `white`, `blue`) whose player asked for it, in this game.
    pub by: String,
    /// The next game's id.
    pub game: String,
}

/// A move as stored: its coordinate text and the clocks after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMove {
    /// Coordinate notation; in a multi-player game a resignation is
    /// `resign <side letter>`.
    pub coord: String,
    /// White's remaining time after the move, if the game has clocks.
    pub white_ms: Option<i64>,
    /// Black's remaining time after the move.
    pub black_ms: Option<i64>,
}

/// A result not decided by the rules alone (resignation, agreement, time),
/// or one the rules decided, as stored for the list of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredResult {
    /// `1-0`, `0-1`, `1/2-1/2` (a multi-player game: each side's score, `1-0-1-0`).
    pub score: String,
    /// `checkmate`, `resignation`, `time`, ...
    pub reason: String,
}

/// A line of the list of games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameSummary {
    /// Its id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// Mode.
    pub mode: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// Moves played.
    pub plies: i64,
    /// The result, `None` while the game goes on.
    pub result: Option<String>,
    /// Why it ended.
    pub reason: Option<String>,
    /// Seconds since 1970 of the last change.
    pub updated: i64,
    /// A multi-player game's player names in turn order (absent for two-player games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<Vec<String>>,
}

/// A stored game: what it was created with, its moves and its result.
pub type StoredGame = (GameMeta, Vec<StoredMove>, Option<StoredResult>);

/// Keeps games. Every method commits before it returns.
pub trait Store: Send + Sync {
    /// Records a new game with its first moves (a game imported from a record).
    fn create(&self, meta: &GameMeta, moves: &[StoredMove], result: Option<&StoredResult>) -> Result<(), StoreError>;
    /// Appends the move for ply `ply` (0-based); refused if that ply is stored.
    fn append_move(
        &self,
        id: &str,
        ply: usize,
        mv: &StoredMove,
        result: Option<&StoredResult>,
    ) -> Result<(), StoreError>;
    /// Keeps only the first `plies` moves (a take-back) and clears the result.
    fn truncate(&self, id: &str, plies: usize) -> Result<(), StoreError>;
    /// Sets or clears the result.
    fn set_result(&self, id: &str, result: Option<&StoredResult>) -> Result<(), StoreError>;
    /// A game, if stored.
    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError>;
    /// The most recently changed games, newest first.
    fn list(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError>;
    /// Keeps a variant file under its game's id, unless one is kept there
    /// already (an id names one game on a server: the first file's).
    fn save_variant_file(&self, id: &str, text: &str) -> Result<(), StoreError>;
    /// The variant file kept under `id`, if any.
    fn variant_file(&self, id: &str) -> Result<Option<String>, StoreError>;
    /// Records `next`, the rematch of the finished game `previous` asked for by
    /// the side `by`, and links it from `previous`, in one transaction; unless
    /// `previous` has a rematch already, which is then answered and nothing
    /// is stored. `Ok(None)`: `next` was stored.
    fn create_rematch(&self, previous: &str, by: &str, next: &GameMeta) -> Result<Option<Rematch>, StoreError>;
    /// Deletes, with their moves, the unfinished games (no result) whose
    /// last change was before `changed_before` (seconds since 1970), and
    /// returns their ids. Finished games are kept forever.
    fn delete_abandoned(&self, changed_before: i64) -> Result<Vec<String>, StoreError>;
    /// A game's review, if one is kept: the key of the game it was made for
    /// (its moves and result) and its JSON.
    fn review(&self, id: &str) -> Result<Option<(String, String)>, StoreError>;
    /// Keeps a game's review, replacing an older one.
    fn save_review(&self, id: &str, key: &str, body: &str) -> Result<(), StoreError>;
}

/// Seconds since 1970.
pub fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

/// [`Store`] in one SQLite file.
pub struct SqliteStore {
    conn: Mutex<Connection>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    mode TEXT NOT NULL,
    start TEXT NOT NULL,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    white_token TEXT,
    black_token TEXT,
    engine TEXT,
    clock TEXT,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    plies INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    reason TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    coord TEXT NOT NULL,
    white_ms INTEGER,
    black_ms INTEGER,
    PRIMARY KEY (game, ply)
);
CREATE INDEX IF NOT EXISTS games_updated ON games(updated);
CREATE TABLE IF NOT EXISTS reviews (
    game TEXT PRIMARY KEY REFERENCES games(id),
    key TEXT NOT NULL,
    body TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS variant_files (
    id TEXT PRIMARY KEY,
    text TEXT NOT NULL,
    created INTEGER NOT NULL
);
";

/// The player names of a multi-player game's seats column, for the list of
/// games (never its tokens).
fn player_names(seats: Option<String>) -> Option<Vec<String>> {
    #[derive(Deserialize)]
    struct Named {
        name: String,
    }
    let seats: Vec<Named> = serde_json::from_str(&seats?).ok()?;
    Some(seats.into_iter().map(|s| s.name).collect())
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
        conn.execute_batch(SCHEMA)?;
        // Databases from before multi-player games lack the seats column,
        // those from before rematches the rematch's two.
        for column in ["seats", "rematch", "rematch_by"] {
            let has: i64 =
                conn.query_row("SELECT COUNT(*) FROM pragma_table_info('games') WHERE name = ?1", [column], |r| {
                    r.get(0)
                })?;
            if has == 0 {
                conn.execute_batch(&format!("ALTER TABLE games ADD COLUMN {column} TEXT"))?;
            }
        }
        hashed_tokens::hash_clear_tokens(&mut conn)?;
        Ok(SqliteStore { conn: Mutex::new(conn) })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves no half-done transaction (each
        // is committed or rolled back by SQLite), so the connection is usable.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn insert_move(tx: &rusqlite::Transaction<'_>, id: &str, ply: usize, mv: &StoredMove) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO moves (game, ply, coord, white_ms, black_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![id, ply as i64, mv.coord, mv.white_ms, mv.black_ms],
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

fn result_parts(r: Option<&StoredResult>) -> (Option<&str>, Option<&str>) {
    (r.map(|r| r.score.as_str()), r.map(|r| r.reason.as_str()))
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
        insert_move(&tx, id, ply, mv)?;
        let (score, reason) = result_parts(result);
        // Only the next ply: the transaction rolls back otherwise.
        let changed = tx.execute(
            "UPDATE games SET plies = ?2, updated = ?3, result = ?4, reason = ?5 WHERE id = ?1 AND plies = ?6",
            params![id, ply as i64 + 1, now(), score, reason, ply as i64],
        )?;
        if changed != 1 {
            return Err(StoreError::OutOfOrder(id.into(), ply));
        }
        tx.commit()?;
        Ok(())
    }

    fn truncate(&self, id: &str, plies: usize) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute("DELETE FROM moves WHERE game = ?1 AND ply >= ?2", params![id, plies as i64])?;
        // A review is of a finished game: a take-back leaves none.
        tx.execute("DELETE FROM reviews WHERE game = ?1", params![id])?;
        tx.execute(
            "UPDATE games SET plies = ?2, updated = ?3, result = NULL, reason = NULL WHERE id = ?1",
            params![id, plies as i64, now()],
        )?;
        tx.commit()?;
        Ok(())
    }

    fn set_result(&self, id: &str, result: Option<&StoredResult>) -> Result<(), StoreError> {
        let (score, reason) = result_parts(result);
        self.conn().execute(
            "UPDATE games SET result = ?2, reason = ?3, updated = ?4 WHERE id = ?1",
            params![id, score, reason, now()],
        )?;
        Ok(())
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

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let conn = self.conn();
        let row = conn
            .query_row(
                "SELECT id, variant, mode, start, white, black, white_token, black_token, engine, clock, created,
                        result, reason, seats, rematch, rematch_by
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
                    };
                    let score: Option<String> = r.get(11)?;
                    let reason: Option<String> = r.get(12)?;
                    Ok((meta, score.map(|score| StoredResult { score, reason: reason.unwrap_or_default() })))
                },
            )
            .optional()?;
        let Some((meta, result)) = row else { return Ok(None) };
        let mut stmt = conn.prepare("SELECT ply, coord, white_ms, black_ms FROM moves WHERE game = ?1 ORDER BY ply")?;
        let rows = stmt.query_map(params![id], |r| {
            Ok((r.get::<_, i64>(0)?, StoredMove { coord: r.get(1)?, white_ms: r.get(2)?, black_ms: r.get(3)? }))
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

/// The stores' tests' games: one game's metadata, and a move.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::{GameMeta, StoredMove};

    /// A two-player game `id` of `mode`, created at `created`, seated with `token`.
    pub fn game(id: &str, mode: &str, created: i64, token: Option<&str>) -> GameMeta {
        GameMeta {
            id: id.into(),
            variant: "five-up".into(),
            mode: mode.into(),
            start: "x".into(),
            white: "Ann".into(),
            black: "Bob".into(),
            white_token: token.map(Into::into),
            black_token: token.map(Into::into),
            engine: None,
            clock: None,
            seats: None,
            created,
            rematch: None,
        }
    }

    /// A move without clocks.
    pub fn mv(s: &str) -> StoredMove {
        StoredMove { coord: s.into(), white_ms: None, black_ms: None }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::mv;
    use super::*;

    fn meta(id: &str) -> GameMeta {
        fixtures::game(id, "local", 1, Some("t"))
    }

    #[test]
    fn moves_are_kept_in_order_and_a_ply_is_stored_once() {
        let dir = std::env::temp_dir().join(format!("raum-store-{}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        let s = SqliteStore::open(&dir).unwrap();
        s.create(&meta("g1"), &[mv("a")], None).unwrap();
        s.append_move("g1", 1, &mv("b"), None).unwrap();
        assert!(s.append_move("g1", 1, &mv("c"), None).is_err(), "a ply is stored once");
        assert!(s.append_move("g1", 3, &mv("c"), None).is_err(), "and in order");
        let win = StoredResult { score: "1-0".into(), reason: "resignation".into() };
        s.append_move("g1", 2, &mv("c"), Some(&win)).unwrap();
        let (m, moves, result) = s.load("g1").unwrap().unwrap();
        assert_eq!(m, meta("g1"));
        assert_eq!(moves, vec![mv("a"), mv("b"), mv("c")]);
        assert_eq!(result, Some(win));
        s.truncate("g1", 1).unwrap();
        let (_, moves, result) = s.load("g1").unwrap().unwrap();
        assert_eq!((moves.len(), result), (1, None));
        assert!(s.load("nope").unwrap().is_none());
        assert_eq!(s.list(10).unwrap()[0].plies, 1);
        drop(s);
        let _ = std::fs::remove_file(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_new_database_is_its_owner_s_alone() {
        use std::os::unix::fs::PermissionsExt;
        let path = std::env::temp_dir().join(format!("raum-store-mode-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let s = SqliteStore::open(&path).unwrap();
        s.create(&meta("g"), &[], None).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        drop(s);
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_variant_file_is_kept_once_under_its_id() {
        let path = std::env::temp_dir().join(format!("raum-store-files-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let s = SqliteStore::open(&path).unwrap();
        assert_eq!(s.variant_file("cubelet").unwrap(), None);
        s.save_variant_file("cubelet", "first").unwrap();
        s.save_variant_file("cubelet", "second").unwrap();
        assert_eq!(s.variant_file("cubelet").unwrap().as_deref(), Some("first"));
        drop(s);
        // It outlives the process.
        let s = SqliteStore::open(&path).unwrap();
        assert_eq!(s.variant_file("cubelet").unwrap().as_deref(), Some("first"));
        drop(s);
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_database_from_before_multi_player_games_gains_the_seats_column() {
        let path = std::env::temp_dir().join(format!("raum-store-old-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(SCHEMA).unwrap();
            conn.execute_batch(
                "INSERT INTO games (id, variant, mode, start, white, black, created, updated)
                 VALUES ('old', 'five-up', 'local', 'x', 'Ann', 'Bob', 1, 1)",
            )
            .unwrap();
        }
        let s = SqliteStore::open(&path).unwrap();
        let (m, _, _) = s.load("old").unwrap().unwrap();
        assert_eq!((m.white.as_str(), m.seats), ("Ann", None));
        let mut multi = meta("new");
        multi.seats = Some(r#"[{"name":"Ann","token":"t"},{"name":"Raum (50 ms)","movetime":50}]"#.into());
        s.create(&multi, &[], None).unwrap();
        assert_eq!(s.load("new").unwrap().unwrap().0, multi);
        let list = s.list(10).unwrap();
        assert_eq!(
            list.iter().find(|g| g.id == "new").unwrap().players,
            Some(vec!["Ann".into(), "Raum (50 ms)".into()])
        );
        assert_eq!(list.iter().find(|g| g.id == "old").unwrap().players, None);
        drop(s);
        // Opening again changes nothing.
        SqliteStore::open(&path).unwrap();
        let _ = std::fs::remove_file(&path);
    }
}
