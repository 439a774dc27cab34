//! The server under abuse (issue 37), the limits: games created past the rate
//! limit, the engine shared fairly between clients, and connections that
//! hold the server without sending a request (a real server on a port).

use super::Server;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tower::ServiceExt;

/// A request from `from`, as the server's listener marks it.
async fn post_from(s: &Server, from: &str, uri: &str, body: Value) -> (StatusCode, Value, Option<String>) {
    let addr: SocketAddr = format!("{from}:40000").parse().expect("address");
    let mut req = Request::builder()
        .method("POST")
        .uri(uri)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .expect("request");
    req.extensions_mut().insert(ConnectInfo(addr));
    let resp = s.app.clone().oneshot(req).await.expect("answer");
    let status = resp.status();
    let retry = resp.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(String::from);
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null), retry)
}

#[tokio::test]
async fn creating_games_past_the_rate_limit_answers_429() {
    let s = Server::new("rate-games");
    let local = json!({"variant": "five-up", "mode": "local"});
    for i in 0..20 {
        let (status, v, _) = post_from(&s, "10.0.0.1", "/api/games", local.clone()).await;
        assert_eq!(status, StatusCode::CREATED, "game {i}: {v}");
    }
    let (status, v, retry) = post_from(&s, "10.0.0.1", "/api/games", local.clone()).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert!(v["error"].as_str().is_some_and(|e| e.contains("too many new games")), "{v}");
    assert!(retry.is_some_and(|r| r.parse::<u64>().is_ok_and(|secs| (1..=10).contains(&secs))), "Retry-After");
    let (status, v, _) = post_from(&s, "10.0.0.2", "/api/games", local).await;
    assert_eq!(status, StatusCode::CREATED, "another address has its own limit: {v}");
}

async fn plies(s: &Server, id: &str) -> usize {
    s.state(id).await["moves"].as_array().map_or(0, Vec::len)
}

/// One client fills its share of the engine: as many games as it may create,
/// each with the engine thinking the longest it may, and as many analyses as
/// it may ask for. Another client's engine still answers within 2 s (one
/// engine thread: the first client's search yields after its slice).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_client_s_engine_move_arrives_within_2_s() {
    let s = std::sync::Arc::new(Server::new("fair-engine"));
    let greedy = "10.0.0.1";
    let slow = json!({"variant": "five-up", "mode": "engine", "engine": {"color": "white", "movetime": 10_000}});
    let mut games = Vec::new();
    for _ in 0..17 {
        let (status, v, _) = post_from(&s, greedy, "/api/games", slow.clone()).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        games.push((v["id"].as_str().expect("id").to_string(), v["tokens"]["black"].clone()));
    }
    let mut analyses = Vec::new();
    for _ in 0..2 {
        let (_, v, _) = post_from(&s, greedy, "/api/games", json!({"variant": "raumschach", "mode": "local"})).await;
        let uri = format!("/api/games/{}/analysis", v["id"].as_str().expect("id"));
        let s2 = std::sync::Arc::clone(&s);
        analyses.push(tokio::spawn(async move { post_from(&s2, greedy, &uri, json!({"movetime": 10_000})).await }));
    }
    // The analyses' cap: a third is refused at once, and says why.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (_, v, _) = post_from(&s, greedy, "/api/games", json!({"variant": "five-up", "mode": "local"})).await;
    let third = format!("/api/games/{}/analysis", v["id"].as_str().expect("id"));
    let (status, v, _) = post_from(&s, greedy, &third, json!({"movetime": 10_000})).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert!(v["error"].as_str().is_some_and(|e| e.contains("analyses running")), "{v}");

    let started = Instant::now();
    let quick = json!({"variant": "five-up", "mode": "engine", "engine": {"color": "white", "movetime": 300}});
    let (status, v, _) = post_from(&s, "10.0.0.2", "/api/games", quick).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    while plies(&s, &id).await == 0 {
        assert!(started.elapsed() < Duration::from_secs(2), "the other client's engine move took over 2 s");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The greedy client's searches end with its games.
    for (game, token) in &games {
        post_from(&s, greedy, &format!("/api/games/{game}/resign"), json!({"token": token})).await;
    }
    for a in analyses {
        a.abort();
    }
}

/// A server on a free port with the default policy; its URL's address.
async fn real_server(name: &str) -> SocketAddr {
    let db = super::test_database(&format!("limits-{name}"));
    let config = raum_server::Config { port: 0, db, engine_workers: 1, ..raum_server::Config::default() };
    let (tx, rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let mut tx = Some(tx);
        let served = raum_server::serve(config, move |url, _| {
            if let Some(tx) = tx.take() {
                let _ = tx.send(url.to_string());
            }
        });
        if let Err(e) = served.await {
            eprintln!("serve: {e}");
        }
    });
    let url = rx.await.expect("the server's URL");
    url.trim_start_matches("http://").trim_end_matches('/').parse().expect("address")
}

/// Reads until the server closes the connection; what it said.
async fn until_closed(mut c: TcpStream) -> String {
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        match c.read(&mut buf).await {
            Ok(0) | Err(_) => return String::from_utf8_lossy(&got).into_owned(),
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_and_silent_connections_are_closed_within_30_s() {
    let addr = real_server("slowloris").await;
    let started = Instant::now();
    // A bare connect that sends nothing.
    let bare = TcpStream::connect(addr).await.expect("connect");
    // A head that trickles in, a byte every second, never finished.
    let mut trickle = TcpStream::connect(addr).await.expect("connect");
    trickle.write_all(b"GET / HTTP/1.1\r\nHost: raum\r\n").await.expect("write");
    let trickling = tokio::spawn(async move {
        for _ in 0..60 {
            if trickle.write_all(b"X").await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        trickle
    });
    // A body that never comes.
    let mut no_body = TcpStream::connect(addr).await.expect("connect");
    no_body
        .write_all(
            b"POST /api/games HTTP/1.1\r\nHost: raum\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
        )
        .await
        .expect("write");
    // Ten gigabytes announced, one byte sent: refused at once.
    let mut huge = TcpStream::connect(addr).await.expect("connect");
    huge.write_all(b"POST /api/games HTTP/1.1\r\nHost: raum\r\nContent-Length: 10000000000\r\n\r\n{")
        .await
        .expect("write");
    let limit = Duration::from_secs(30);
    let huge_answer = tokio::time::timeout(limit, until_closed(huge)).await.expect("the 10 GB body is answered");
    assert!(huge_answer.starts_with("HTTP/1.1 413"), "{huge_answer}");
    assert!(started.elapsed() < Duration::from_secs(2), "413 at once, not after a timeout: {:?}", started.elapsed());
    let no_body_answer = tokio::time::timeout(limit, until_closed(no_body)).await.expect("the missing body is closed");
    assert!(no_body_answer.starts_with("HTTP/1.1 408"), "{no_body_answer}");
    tokio::time::timeout(limit, until_closed(bare)).await.expect("the bare connection is closed");
    let trickle = trickling.await.expect("trickle");
    tokio::time::timeout(limit, until_closed(trickle)).await.expect("the trickling head is closed");
    assert!(started.elapsed() < limit, "{:?}", started.elapsed());
}

/// Behind a balancer named with `--trusted-proxy`, each client keeps its own
/// allowance, read from `X-Forwarded-For`; a server that trusts no proxy
/// ignores the header (a client could write anything there), so every request
/// from one connection's address shares one allowance.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_limits() {
    use raum_server::limits::Policy;
    let local = json!({"variant": "five-up", "mode": "local"});
    let trusting = Policy { trusted_proxies: vec!["127.0.0.1".parse().expect("an address")], ..Policy::default() };
    let served = super::Served::start_with("trusted-proxy", trusting).await;
    let from = |client: &str| format!("x-forwarded-for: {client}\r\n");
    for i in 0..20 {
        assert_eq!(served.post("/api/games", &from("198.51.100.1"), &local).await, 201, "game {i}");
    }
    assert_eq!(served.post("/api/games", &from("198.51.100.1"), &local).await, 429, "the 21st of one client");
    // A forged entry left of the balancer's own is not read.
    assert_eq!(served.post("/api/games", &from("203.0.113.5, 198.51.100.1"), &local).await, 429, "forged");
    assert_eq!(served.post("/api/games", &from("198.51.100.2"), &local).await, 201, "another client");
    // Without the header: the balancer's own address, an allowance of its own.
    assert_eq!(served.post("/api/games", "", &local).await, 201, "the balancer's own");
    served.finish().await;

    let plain = super::Served::start("untrusted-proxy").await;
    for i in 0..20 {
        let client = format!("198.51.100.{}", i + 1);
        assert_eq!(plain.post("/api/games", &from(&client), &local).await, 201, "game {i}");
    }
    assert_eq!(plain.post("/api/games", &from("198.51.100.99"), &local).await, 429, "the header is not read");
    plain.finish().await;
}
