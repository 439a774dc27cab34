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

/// A stopping server (SIGTERM: here its stand-in) closes each WebSocket with
/// code 1012, "service restart", the page's cue to connect again; it closes
/// its idle connections, accepts no more, and returns.
#[tokio::test]
async fn a_stopping_server_closes_its_sockets_with_a_reconnect_hint() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let mut served = super::Served::start("stopping").await;
    let addr = served.addr.clone();

    // A game, a socket on it, and an idle keep-alive connection.
    let mut idle = tokio::net::TcpStream::connect(&addr).await.expect("connects");
    let id = super::Served::create_game(&mut idle).await;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws")).await.expect("a socket");
    let first = socket.next().await.expect("a message").expect("the first state");
    assert!(matches!(first, Message::Text(_)), "{first:?}");

    served.stop.take().expect("running").send(()).expect("stop");
    let close = tokio::time::timeout(std::time::Duration::from_secs(5), socket.next())
        .await
        .expect("closed within 5 s")
        .expect("a close frame")
        .expect("read");
    match close {
        Message::Close(Some(frame)) => {
            assert_eq!(u16::from(frame.code), 1012, "{frame:?}");
            assert!(frame.reason.contains("connect again"), "{frame:?}");
        }
        other => panic!("not a close frame: {other:?}"),
    }
    served.finish().await;
    // The idle connection was closed, and nothing more is accepted.
    {
        use tokio::io::AsyncReadExt;
        let mut rest = [0u8; 16];
        assert_eq!(idle.read(&mut rest).await.unwrap_or(0), 0, "the idle connection is closed");
    }
    assert!(tokio::net::TcpStream::connect(&addr).await.is_err(), "the port no longer accepts");
}
