//! The server under abuse (issue 37): seat tokens are kept only as their
//! SHA-256, in the database and in memory; the clear token is given once,
//! in the creation's answer, and still moves, after a restart too. A
//! database from before, with tokens in clear, has them hashed when it
//! opens, and its old links still seat their players.

use super::Server;
use axum::http::StatusCode;
use raum_server::store::Database;
use serde_json::{Value, json};

/// What the database keeps, as bytes: a SQLite file and its write-ahead
/// log, or every row of PostgreSQL's games table as text.
fn file_bytes(db: &Database) -> Vec<u8> {
    match db {
        Database::Sqlite(path) => {
            let mut bytes = std::fs::read(path).expect("the database file");
            bytes.extend(std::fs::read(format!("{}-wal", path.display())).unwrap_or_default());
            bytes
        }
        Database::Postgres(url) => {
            let rows: String = postgres_query(url, "SELECT COALESCE(string_agg(g::text, ' '), '') FROM games g", &[])
                .pop()
                .and_then(|mut r| r.pop())
                .flatten()
                .unwrap_or_default();
            rows.into_bytes()
        }
    }
}

/// A query's rows of text columns, on a thread of its own (the synchronous
/// client may not block inside the test's runtime).
pub(super) fn postgres_query(url: &str, sql: &str, params: &[&str]) -> Vec<Vec<Option<String>>> {
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut c = postgres::Client::connect(url, postgres::NoTls).expect("connects");
            let params: Vec<&(dyn postgres::types::ToSql + Sync)> =
                params.iter().map(|p| p as &(dyn postgres::types::ToSql + Sync)).collect();
            let rows = c.query(sql, &params).expect("the query");
            rows.iter().map(|r| (0..r.len()).map(|i| r.get(i)).collect()).collect()
        })
        .join()
        .expect("the query's thread")
    })
}

/// Runs `sql` (statements without parameters) on the PostgreSQL database at `url`.
pub(super) fn postgres_batch(url: &str, sql: &str) {
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut c = postgres::Client::connect(url, postgres::NoTls).expect("connects");
            c.batch_execute(sql).expect("the statements");
        })
        .join()
        .expect("the statements' thread");
    });
}

fn holds(bytes: &[u8], text: &str) -> bool {
    bytes.windows(text.len()).any(|w| w == text.as_bytes())
}

/// A game's stored token columns: white, black and seats.
fn stored_tokens(db: &Database, id: &str) -> (Option<String>, Option<String>, Option<String>) {
    match db {
        Database::Sqlite(path) => {
            let conn = rusqlite::Connection::open(path).expect("the database");
            conn.query_row("SELECT white_token, black_token, seats FROM games WHERE id = ?1", [id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .expect("the game's row")
        }
        Database::Postgres(url) => {
            let mut rows =
                postgres_query(url, "SELECT white_token, black_token, seats FROM games WHERE id = $1", &[id]);
            let mut row = rows.pop().expect("the game's row").into_iter();
            (row.next().flatten(), row.next().flatten(), row.next().flatten())
        }
    }
}

fn is_hash(stored: &str) -> bool {
    stored.strip_prefix("sha256:").is_some_and(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn first_legal(state: &Value) -> String {
    state["legal"][0]["coord"].as_str().expect("a legal move").to_string()
}

#[tokio::test]
async fn seat_tokens_are_kept_only_as_hashes() {
    let mut s = Server::new("hashed-tokens");
    let (id, t) = s.create(json!({"variant": "five-up", "mode": "online"})).await;
    let (white, black) = (t["white"].as_str().expect("White's token"), t["black"].as_str().expect("Black's"));
    assert_eq!(s.play(&id, &t["white"], 0, "P-Cc2").await.0, StatusCode::OK, "the token moves");
    // A multi-player game at one screen: one token for every seat, in the seats column.
    let (multi, mt) = s.create(json!({"variant": "triquetral-3p", "mode": "local"})).await;
    let shared = mt["white"].as_str().expect("the shared token");
    assert_eq!((&mt["blue"], &mt["green"]), (&mt["white"], &mt["white"]));
    let first = first_legal(&s.state(&multi).await);
    assert_eq!(s.play(&multi, &mt["white"], 0, &first).await.0, StatusCode::OK);

    let bytes = file_bytes(&s.db);
    for token in [white, black, shared] {
        assert!(!holds(&bytes, token), "the token {token} is in the database file");
    }
    let (white_h, black_h, seats) = stored_tokens(&s.db, &id);
    let (white_h, black_h) = (white_h.expect("White's hash"), black_h.expect("Black's hash"));
    assert!(is_hash(&white_h) && is_hash(&black_h) && white_h != black_h, "{white_h} {black_h}");
    assert_eq!(seats, None);
    let (_, _, seats) = stored_tokens(&s.db, &multi);
    let seats: Vec<Value> = serde_json::from_str(&seats.expect("seats")).expect("a list of seats");
    assert!(seats.iter().all(|x| x["token"].as_str().is_some_and(is_hash)), "{seats:?}");

    // A wrong token, or the stored hash itself, holds no seat.
    let wrong = json!("0123456789abcdef0123456789abcdef");
    assert_eq!(s.play(&id, &wrong, 1, "P-Cc4").await.0, StatusCode::FORBIDDEN);
    assert_eq!(s.play(&id, &json!(black_h), 1, "P-Cc4").await.0, StatusCode::FORBIDDEN);
    assert_eq!(s.play(&id, &t["black"], 1, "P-Cc4").await.0, StatusCode::OK);

    // After a restart the tokens seat their players as before.
    s.restart();
    assert_eq!(s.play(&id, &wrong, 2, "B-Ca1").await.0, StatusCode::FORBIDDEN);
    assert_eq!(s.play(&id, &t["white"], 2, "B-Ca1").await.0, StatusCode::OK);
    let next = first_legal(&s.state(&multi).await);
    assert_eq!(s.play(&multi, &mt["blue"], 1, &next).await.0, StatusCode::OK);
    assert!(!holds(&file_bytes(&s.db), white));
}

#[tokio::test]
async fn clear_tokens_of_an_old_database_are_hashed_and_still_move() {
    let mut s = Server::new("clear-tokens");
    let Database::Sqlite(path) = s.db.clone() else {
        // Raum never kept clear tokens in PostgreSQL: nothing to bring up to date.
        return;
    };
    let (id, _) = s.create(json!({"variant": "five-up", "mode": "online"})).await;
    let (multi, _) = s.create(json!({"variant": "triquetral-3p", "mode": "online"})).await;
    // The tokens as a server from before tokens were hashed kept them.
    let (white, black) = ("00112233445566778899aabbccddeeff", "ffeeddccbbaa99887766554433221100");
    let multi_tokens = ["0f1e2d3c4b5a69788796a5b4c3d2e1f0", "1f1e2d3c4b5a69788796a5b4c3d2e1f0", "2f1e2d3c4b5a6978"];
    {
        let conn = rusqlite::Connection::open(&path).expect("the database");
        conn.execute("UPDATE games SET white_token = ?2, black_token = ?3 WHERE id = ?1", [&id, white, black])
            .expect("clear tokens");
        let seats = json!([
            {"name": "White", "token": multi_tokens[0]},
            {"name": "Blue", "token": multi_tokens[1]},
            {"name": "Green", "token": multi_tokens[2]},
        ]);
        conn.execute("UPDATE games SET seats = ?2 WHERE id = ?1", [&multi, &seats.to_string()]).expect("clear seats");
    }
    s.restart();
    let bytes = file_bytes(&s.db);
    for token in [white, black].into_iter().chain(multi_tokens) {
        assert!(!holds(&bytes, token), "the old token {token} is still in the database file");
    }
    let (white_h, black_h, _) = stored_tokens(&s.db, &id);
    assert!(white_h.as_deref().is_some_and(is_hash) && black_h.as_deref().is_some_and(is_hash));
    let (_, _, seats) = stored_tokens(&s.db, &multi);
    let seats: Vec<Value> = serde_json::from_str(&seats.expect("seats")).expect("a list of seats");
    assert_eq!(seats.iter().filter(|x| x["token"].as_str().is_some_and(is_hash)).count(), 3, "{seats:?}");
    assert_eq!(seats[1]["name"], "Blue");

    // The old links still seat their players, and only theirs.
    assert_eq!(s.play(&id, &json!(black), 0, "P-Cc2").await.0, StatusCode::FORBIDDEN);
    assert_eq!(s.play(&id, &json!(white), 0, "P-Cc2").await.0, StatusCode::OK);
    assert_eq!(s.play(&id, &json!(black), 1, "P-Cc4").await.0, StatusCode::OK);
    let first = first_legal(&s.state(&multi).await);
    assert_eq!(s.play(&multi, &json!(multi_tokens[1]), 0, &first).await.0, StatusCode::FORBIDDEN);
    assert_eq!(s.play(&multi, &json!(multi_tokens[0]), 0, &first).await.0, StatusCode::OK);
    let (status, st) = s.post(&format!("/api/games/{multi}/resign"), json!({"token": multi_tokens[2]})).await;
    assert_eq!((status, &st["sides"][2]["in"]), (StatusCode::OK, &json!(false)), "Green's old token resigns: {st}");
}
