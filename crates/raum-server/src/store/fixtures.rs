//! The stores' tests' games and databases.

use super::{Database, GameMeta, Store, StoredMove};
use std::sync::Arc;

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
        offers: None,
    }
}

/// A move without clocks.
pub fn mv(s: &str) -> StoredMove {
    StoredMove { coord: s.into(), white_ms: None, black_ms: None, at_ms: None }
}

/// The environment variable naming the PostgreSQL database the store tests
/// run on (`scripts/test.sh` starts one and runs the server's tests again
/// with it); unset, they run on SQLite files.
pub const POSTGRES_VAR: &str = "RAUM_TEST_POSTGRES";

/// A test's empty database, of the backend the tests run on: a schema of its
/// own in the database [`POSTGRES_VAR`] names, or else a new SQLite file
/// (removed when dropped).
pub struct TestDb {
    pub db: Database,
}

impl TestDb {
    /// An empty database for test `name`.
    pub fn new(name: &str) -> TestDb {
        let db = match std::env::var(POSTGRES_VAR) {
            Ok(base) => Database::Postgres(
                super::fresh_schema(&base, &format!("unit_{name}_{}", std::process::id())).expect("a schema"),
            ),
            Err(_) => {
                let path = std::env::temp_dir().join(format!("raum-store-{name}-{}.db", std::process::id()));
                remove_sqlite(&path);
                Database::Sqlite(path)
            }
        };
        TestDb { db }
    }

    /// The store, opened (again: as after a restart).
    pub fn open(&self) -> Arc<dyn Store> {
        self.db.open().expect("the store opens")
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Database::Sqlite(path) = &self.db {
            remove_sqlite(path);
        }
    }
}

/// Removes a SQLite file and its log.
pub fn remove_sqlite(path: &std::path::Path) {
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
}
