//! The stores' schema, as numbered migrations kept in the repository
//! (`crates/raum-server/migrations/<backend>/NNNN_name.sql`), one list per
//! backend with the same numbers and names. Each store applies, when it
//! opens, in one transaction, the migrations its database has not had, and
//! records each in its `schema_migrations` table; a database that has them
//! all is left as it is, and one from a newer Raum is refused. Migrations
//! only add (tables, columns, indexes): a server that opened a database goes
//! on with it while newer servers migrate it further (a rolling upgrade).

use super::StoreError;

/// One step of the schema.
#[derive(Clone, Copy, Debug)]
pub struct Migration {
    /// Its number: migrations apply in this order, each once.
    pub version: i64,
    /// What it does, as its file is named.
    pub name: &'static str,
    /// Its statements.
    pub sql: &'static str,
}

/// SQLite's migrations.
pub const SQLITE: &[Migration] = &[
    Migration { version: 1, name: "games", sql: include_str!("../../migrations/sqlite/0001_games.sql") },
    Migration {
        version: 2,
        name: "several_servers",
        sql: include_str!("../../migrations/sqlite/0002_several_servers.sql"),
    },
    Migration { version: 3, name: "presence", sql: include_str!("../../migrations/sqlite/0003_presence.sql") },
];

/// PostgreSQL's migrations.
pub const POSTGRES: &[Migration] = &[
    Migration { version: 1, name: "games", sql: include_str!("../../migrations/postgres/0001_games.sql") },
    Migration {
        version: 2,
        name: "several_servers",
        sql: include_str!("../../migrations/postgres/0002_several_servers.sql"),
    },
    Migration { version: 3, name: "presence", sql: include_str!("../../migrations/postgres/0003_presence.sql") },
];

/// The table each database records its migrations in.
pub const TABLE: &str = "schema_migrations";

/// The migrations of `all` a database that has had those up to `done` lacks;
/// refused if `done` is beyond them (a database a newer Raum wrote).
pub fn pending(all: &'static [Migration], done: i64) -> Result<&'static [Migration], StoreError> {
    let known = all.last().map_or(0, |m| m.version);
    if done > known {
        return Err(StoreError::Schema(format!(
            "the database is at schema version {done}, and this Raum knows versions up to {known}: use a newer Raum"
        )));
    }
    Ok(&all[all.partition_point(|m| m.version <= done)..])
}

/// The schema version this Raum writes.
pub fn latest(all: &[Migration]) -> i64 {
    all.last().map_or(0, |m| m.version)
}

/// Whether a database whose latest recorded migration is `done` has every
/// one of `all` (for `/readyz`). A database a newer Raum migrated since this
/// server opened it still has them: migrations only add (tables, columns,
/// indexes), so a server goes on serving while newer ones roll out (a server
/// refuses only to open a database newer than it knows).
pub fn require_all(all: &[Migration], done: Option<i64>) -> Result<(), StoreError> {
    let latest = latest(all);
    match done.is_some_and(|d| d >= latest) {
        true => Ok(()),
        false => Err(StoreError::Schema(format!("at version {}, not {latest}", done.unwrap_or(0)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_backends_have_the_same_steps_in_order_and_every_file_is_listed() {
        let names = |all: &[Migration]| all.iter().map(|m| (m.version, m.name)).collect::<Vec<_>>();
        assert_eq!(names(SQLITE), names(POSTGRES));
        for (i, m) in SQLITE.iter().enumerate() {
            assert_eq!(m.version, i as i64 + 1, "numbered from 1 without gaps");
        }
        for (backend, all) in [("sqlite", SQLITE), ("postgres", POSTGRES)] {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations").join(backend);
            let mut files: Vec<String> = std::fs::read_dir(&dir)
                .expect("the migrations folder")
                .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
                .collect();
            files.sort();
            let listed: Vec<String> = all.iter().map(|m| format!("{:04}_{}.sql", m.version, m.name)).collect();
            assert_eq!(files, listed, "{backend}: every file in {} is listed, in order", dir.display());
        }
    }

    #[test]
    fn pending_is_what_a_database_lacks_and_a_newer_database_is_refused() {
        assert_eq!(pending(SQLITE, 0).expect("a new database").len(), SQLITE.len());
        assert!(pending(SQLITE, latest(SQLITE)).expect("an up-to-date database").is_empty());
        let err = pending(SQLITE, latest(SQLITE) + 1).expect_err("from a newer Raum");
        assert!(err.to_string().contains("newer Raum"), "{err}");
    }

    #[test]
    fn a_server_stays_ready_while_newer_servers_migrate_its_database_further() {
        let now = latest(POSTGRES);
        assert!(require_all(POSTGRES, Some(now)).is_ok());
        assert!(require_all(POSTGRES, Some(now + 1)).is_ok(), "migrated further by a newer Raum (a rolling upgrade)");
        assert!(require_all(POSTGRES, Some(now - 1)).is_err(), "a migration missing");
        assert!(require_all(POSTGRES, None).is_err(), "no schema at all");
    }
}
