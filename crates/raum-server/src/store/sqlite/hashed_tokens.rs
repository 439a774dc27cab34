//! Seat tokens kept in clear by a server from before tokens were hashed,
//! hashed in place when the database opens, so that old games keep their
//! links: a token presented later is hashed and meets its hash.

use super::StoreError;
use crate::games::tokens::{TokenHash, is_hashed};
use rusqlite::{Connection, params};

/// A game whose stored tokens change: its id and its token columns after.
struct Rewritten {
    id: String,
    white_token: Option<String>,
    black_token: Option<String>,
    seats: Option<String>,
}

/// A stored token, hashed if it is still in clear; `None` if it is hashed already.
fn hashed(token: Option<&str>) -> Option<String> {
    token.filter(|t| !is_hashed(t)).map(|t| TokenHash::of(t).as_str().to_string())
}

/// A multi-player game's seats column with every token in it hashed; `None`
/// if none was in clear, or if the column does not read as a list of seats
/// (the game is reported damaged when it is loaded).
fn hashed_seats(seats: &str) -> Option<String> {
    let mut list: Vec<serde_json::Value> = serde_json::from_str(seats).ok()?;
    let mut changed = false;
    for seat in &mut list {
        if let Some(token) = seat.get_mut("token")
            && let Some(h) = hashed(token.as_str())
        {
            *token = serde_json::Value::String(h);
            changed = true;
        }
    }
    if changed { serde_json::to_string(&list).ok() } else { None }
}

/// Hashes, in one transaction, every seat token the database keeps in
/// clear: two-player games' `white_token` and `black_token`, and each token
/// in a multi-player game's `seats`. Returns how many games changed.
///
/// Where some did, the file is then rebuilt (`VACUUM`) and its log emptied
/// into it, so that no copy of a clear token is left in the file's free
/// space or in the write-ahead log. That happens once: a database whose
/// tokens are hashed is left as it is.
pub(super) fn hash_clear_tokens(conn: &mut Connection) -> Result<usize, StoreError> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let mut games = Vec::new();
    {
        let mut stmt = tx.prepare(
            "SELECT id, white_token, black_token, seats FROM games
             WHERE substr(white_token, 1, 7) != 'sha256:' OR substr(black_token, 1, 7) != 'sha256:'
                OR seats IS NOT NULL",
        )?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let (white, black, seats): (Option<String>, Option<String>, Option<String>) =
                (r.get(1)?, r.get(2)?, r.get(3)?);
            let (white_h, black_h) = (hashed(white.as_deref()), hashed(black.as_deref()));
            let seats_h = seats.as_deref().and_then(hashed_seats);
            if white_h.is_some() || black_h.is_some() || seats_h.is_some() {
                games.push(Rewritten {
                    id: r.get(0)?,
                    white_token: white_h.or(white),
                    black_token: black_h.or(black),
                    seats: seats_h.or(seats),
                });
            }
        }
    }
    for g in &games {
        tx.execute(
            "UPDATE games SET white_token = ?2, black_token = ?3, seats = ?4 WHERE id = ?1",
            params![g.id, g.white_token, g.black_token, g.seats],
        )?;
    }
    tx.commit()?;
    if !games.is_empty() {
        conn.execute_batch("VACUUM")?;
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
    }
    Ok(games.len())
}

#[cfg(test)]
mod tests {
    use super::super::tests::BEFORE_MIGRATIONS;
    use super::super::{SqliteStore, Store};
    use crate::games::tokens::TokenHash;
    use rusqlite::Connection;

    const WHITE: &str = "00112233445566778899aabbccddeeff";
    const BLACK: &str = "ffeeddccbbaa99887766554433221100";
    const SHARED: &str = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";

    /// The database file and its log, as bytes.
    fn file_bytes(path: &std::path::Path) -> Vec<u8> {
        let mut bytes = std::fs::read(path).expect("the database file");
        bytes.extend(std::fs::read(format!("{}-wal", path.display())).unwrap_or_default());
        bytes
    }

    fn holds(bytes: &[u8], text: &str) -> bool {
        bytes.windows(text.len()).any(|w| w == text.as_bytes())
    }

    fn remove(path: &std::path::Path) {
        for ext in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
        }
    }

    #[test]
    fn clear_tokens_of_an_old_database_are_hashed_at_open() {
        let path = std::env::temp_dir().join(format!("raum-store-clear-tokens-{}", std::process::id()));
        remove(&path);
        {
            let conn = Connection::open(&path).expect("an old database");
            conn.execute_batch(BEFORE_MIGRATIONS).expect("its schema");
            conn.execute_batch("ALTER TABLE games ADD COLUMN seats TEXT").expect("its seats");
            conn.execute(
                "INSERT INTO games (id, variant, mode, start, white, black, white_token, black_token, created, updated)
                 VALUES ('two', 'five-up', 'online', 'x', 'Ann', 'Bob', ?1, ?2, 1, 1)",
                [WHITE, BLACK],
            )
            .expect("a two-player game");
            let seats = format!(
                r#"[{{"name":"Ann","token":"{SHARED}"}},{{"name":"Raum (50 ms)","movetime":50}},{{"name":"Cy","token":"{SHARED}"}}]"#
            );
            conn.execute(
                "INSERT INTO games (id, variant, mode, start, white, black, created, updated, seats)
                 VALUES ('multi', 'four-up', 'local', 'x', 'Ann', 'Raum', 1, 1, ?1)",
                [seats],
            )
            .expect("a multi-player game");
            conn.execute_batch(
                "INSERT INTO games (id, variant, mode, start, white, black, created, updated)
                 VALUES ('engine', 'five-up', 'engine', 'x', 'Ann', 'Raum', 1, 1)",
            )
            .expect("a game without tokens");
        }
        assert!(holds(&file_bytes(&path), WHITE), "the test's old database keeps its tokens in clear");

        let s = SqliteStore::open(&path).expect("opens");
        let (two, _, _) = s.load("two").expect("loads").expect("kept");
        assert_eq!(two.white_token.as_deref(), Some(TokenHash::of(WHITE).as_str()));
        assert_eq!(two.black_token.as_deref(), Some(TokenHash::of(BLACK).as_str()));
        let (multi, _, _) = s.load("multi").expect("loads").expect("kept");
        let seats: Vec<serde_json::Value> =
            serde_json::from_str(multi.seats.as_deref().expect("seats")).expect("still a list of seats");
        let shared = serde_json::Value::from(TokenHash::of(SHARED).as_str());
        assert_eq!((&seats[0]["name"], &seats[0]["token"]), (&"Ann".into(), &shared));
        assert_eq!((&seats[1]["movetime"], seats[1].get("token")), (&50.into(), None), "the engine's seat as it was");
        assert_eq!(seats[2]["token"], shared);
        let (engine, _, _) = s.load("engine").expect("loads").expect("kept");
        assert_eq!((engine.white_token, engine.black_token), (None, None));
        assert_eq!(
            s.list(10).expect("list").iter().find(|g| g.id == "multi").and_then(|g| g.players.clone()),
            Some(vec!["Ann".into(), "Raum (50 ms)".into(), "Cy".into()])
        );

        // No copy of a clear token is left in the file or its log.
        let bytes = file_bytes(&path);
        for token in [WHITE, BLACK, SHARED] {
            assert!(!holds(&bytes, token), "{token} is still in the file");
        }
        assert!(holds(&bytes, TokenHash::of(WHITE).as_str()));

        // Opening again changes nothing.
        let mut conn = s.conn.into_inner().unwrap_or_else(|e| e.into_inner());
        assert_eq!(super::hash_clear_tokens(&mut conn).expect("migrates"), 0);
        drop(conn);
        let s = SqliteStore::open(&path).expect("opens again");
        assert_eq!(s.load("two").expect("loads").expect("kept").0, two);
        drop(s);
        remove(&path);
    }
}
