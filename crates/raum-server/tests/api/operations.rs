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
    let config = raum_server::Config {
        port: 0,
        db: super::test_database("stopping"),
        engine_workers: 1,
        ..raum_server::Config::default()
    };
    let (url_tx, url_rx) = tokio::sync::oneshot::channel();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        let mut url_tx = Some(url_tx);
        let ready = move |url: &str, _: &str| {
            if let Some(tx) = url_tx.take() {
                let _ = tx.send(url.to_string());
            }
        };
        raum_server::serve_until(config, ready, async move { drop(stop_rx.await) }).await
    });
    let url = url_rx.await.expect("the server's URL");
    let addr = url.trim_start_matches("http://").trim_end_matches('/').to_string();

    // A game, a socket on it, and an idle keep-alive connection.
    let mut idle = tokio::net::TcpStream::connect(&addr).await.expect("connects");
    let created = {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let body = json!({"variant": "five-up", "mode": "online"}).to_string();
        let request = format!(
            "POST /api/games HTTP/1.1\r\nhost: raum\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        );
        idle.write_all(request.as_bytes()).await.expect("sends");
        let mut answer = vec![0u8; 8192];
        let n = idle.read(&mut answer).await.expect("an answer");
        String::from_utf8_lossy(&answer[..n]).into_owned()
    };
    assert!(created.starts_with("HTTP/1.1 201"), "{created}");
    let body = &created[created.find("\r\n\r\n").expect("a body") + 4..];
    let id = serde_json::from_str::<serde_json::Value>(body).expect("JSON")["id"].as_str().expect("an id").to_string();
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws")).await.expect("a socket");
    let first = socket.next().await.expect("a message").expect("the first state");
    assert!(matches!(first, Message::Text(_)), "{first:?}");

    stop_tx.send(()).expect("stop");
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
    let served = tokio::time::timeout(std::time::Duration::from_secs(5), server).await.expect("stopped within 5 s");
    served.expect("the server's task").expect("a clean stop");
    // The idle connection was closed, and nothing more is accepted.
    {
        use tokio::io::AsyncReadExt;
        let mut rest = [0u8; 16];
        assert_eq!(idle.read(&mut rest).await.unwrap_or(0), 0, "the idle connection is closed");
    }
    assert!(tokio::net::TcpStream::connect(&addr).await.is_err(), "the port no longer accepts");
}
