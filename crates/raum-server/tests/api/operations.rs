//! Operations (issue 39): `/healthz` answers while the process runs;
//! `/readyz` answers `200` only while the database answers with every
//! migration this Raum knows, and `503` otherwise.

use super::Server;
use axum::http::StatusCode;
use raum_server::store::Database;
use serde_json::json;

#[tokio::test]
async fn ready_while_the_database_has_every_migration() {
    let s = Server::new("readyz");
    assert_eq!(s.get("/healthz").await, (StatusCode::OK, json!({"status": "ok"})));
    assert_eq!(s.get("/readyz").await, (StatusCode::OK, json!({"status": "ready"})));
    // The migrations' record gone (a database another program emptied): not ready, still alive.
    match &s.db {
        Database::Sqlite(path) => {
            rusqlite::Connection::open(path)
                .expect("the database")
                .execute("DELETE FROM schema_migrations", [])
                .expect("emptied");
        }
        Database::Postgres(url) => {
            super::seat_tokens::postgres_query(url, "DELETE FROM schema_migrations RETURNING 'x'", &[]);
        }
    }
    let (status, body) = s.get("/readyz").await;
    assert_eq!((status, &body["status"]), (StatusCode::SERVICE_UNAVAILABLE, &json!("unavailable")), "{body}");
    assert!(body["error"].as_str().is_some_and(|e| e.contains("version")), "{body}");
    assert_eq!(s.get("/healthz").await.0, StatusCode::OK);
}
