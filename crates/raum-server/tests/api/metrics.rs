//! `GET /metrics` (issue 39): Prometheus' text format, whose counters follow
//! what the server does: a move stored counts once, in `raum_moves_total`
//! and in `raum_move_seconds`; an engine's move counts its wait for a
//! thread; a WebSocket open shows in `raum_sockets_open` until it closes.

use super::{Server, wait_for_ply};
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::json;
use std::collections::HashMap;
use std::time::Duration;
use tower::ServiceExt;

/// The samples of an exposition in the text format (0.0.4), by name with
/// labels (`raum_move_seconds_bucket{le="+Inf"}`); every line is checked to
/// be a comment (`# HELP`, `# TYPE`) or a sample of a metric whose type was given.
fn samples(text: &str) -> HashMap<String, f64> {
    let mut types = HashMap::new();
    let mut samples = HashMap::new();
    for line in text.lines() {
        if let Some(comment) = line.strip_prefix("# ") {
            let mut words = comment.splitn(3, ' ');
            let (what, name, rest) = (words.next(), words.next(), words.next().unwrap_or_default());
            let name = name.unwrap_or_else(|| panic!("a comment without a metric: {line:?}"));
            match what {
                Some("HELP") => assert!(!rest.is_empty(), "{line:?}"),
                Some("TYPE") => {
                    assert!(["counter", "gauge", "histogram"].contains(&rest), "{line:?}");
                    types.insert(name.to_string(), rest.to_string());
                }
                _ => panic!("not a HELP or TYPE line: {line:?}"),
            }
            continue;
        }
        let (series, value) = line.rsplit_once(' ').unwrap_or_else(|| panic!("not a sample: {line:?}"));
        let value: f64 = value.parse().unwrap_or_else(|_| panic!("not a number: {line:?}"));
        let name = series.split('{').next().unwrap_or_default();
        assert!(
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
                && !name.starts_with(|c: char| c.is_ascii_digit()),
            "a metric's name: {line:?}"
        );
        if let Some(labels) = series.strip_prefix(name).filter(|l| !l.is_empty()) {
            assert!(labels.starts_with('{') && labels.ends_with('}') && labels.contains("=\""), "labels: {line:?}");
        }
        let family = ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|s| name.strip_suffix(s))
            .filter(|f| types.get(*f).is_some_and(|t| t == "histogram"));
        assert!(types.contains_key(family.unwrap_or(name)), "a sample before its TYPE: {line:?}");
        assert!(samples.insert(series.to_string(), value).is_none(), "a series twice: {line:?}");
    }
    samples
}

/// `/metrics` from the router: its content type, and its samples.
async fn scrape(s: &Server) -> HashMap<String, f64> {
    let req = Request::builder().uri("/metrics").body(Body::empty()).expect("request");
    let resp = s.app.clone().oneshot(req).await.expect("answer");
    assert_eq!(resp.status(), StatusCode::OK);
    let kind = resp.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
    assert!(kind.starts_with("text/plain; version=0.0.4"), "{kind}");
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    samples(std::str::from_utf8(&bytes).expect("UTF-8"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_counts_once_in_the_moves_and_their_times() {
    let s = Server::new("metrics");
    let before = scrape(&s).await;
    for name in [
        "raum_moves_total",
        "raum_move_seconds_count",
        "raum_sockets_open",
        "raum_rooms_loaded",
        "raum_engine_queue_length",
        "raum_engine_wait_seconds_count",
        "raum_db_connections_in_use",
        "raum_db_connections_max",
    ] {
        assert!(before.contains_key(name), "{name} missing: {before:?}");
    }
    assert!(before["raum_db_connections_max"] >= 1.0, "{before:?}");
    let (id, t) = s.create(json!({"variant": "five-up", "mode": "local"})).await;
    assert_eq!(s.play(&id, &t["white"], 0, "P-Cc2").await.0, StatusCode::OK);
    let after = scrape(&s).await;
    let grew = |name: &str| after[name] - before[name];
    assert_eq!(grew("raum_moves_total"), 1.0);
    assert_eq!(grew("raum_move_seconds_count"), 1.0);
    assert_eq!(after["raum_move_seconds_bucket{le=\"+Inf\"}"], after["raum_move_seconds_count"]);
    assert!(grew("raum_move_seconds_sum") > 0.0);
    assert!(after["raum_rooms_loaded"] >= 1.0, "{after:?}");
    assert!(after["raum_db_connections_in_use"] <= after["raum_db_connections_max"], "{after:?}");

    // A refused move is timed, not counted as stored.
    assert_eq!(s.play(&id, &t["white"], 0, "P-Cc2").await.0, StatusCode::CONFLICT);
    let refused = scrape(&s).await;
    assert_eq!(refused["raum_moves_total"], after["raum_moves_total"]);
    assert_eq!(refused["raum_move_seconds_count"] - after["raum_move_seconds_count"], 1.0);

    // The engine's move is stored, and its search waited for a thread.
    let (id, _) =
        s.create(json!({"variant": "five-up", "mode": "engine", "engine": {"color": "white", "level": 1}})).await;
    wait_for_ply(&s, &id, 1).await;
    let engine = scrape(&s).await;
    assert_eq!(engine["raum_moves_total"] - refused["raum_moves_total"], 1.0);
    assert_eq!(engine["raum_move_seconds_count"], refused["raum_move_seconds_count"], "no request was made");
    assert!(engine["raum_engine_wait_seconds_count"] >= 1.0, "{engine:?}");
}

/// `GET /metrics` over a connection of its own: its samples.
async fn scrape_over_tcp(addr: &str) -> HashMap<String, f64> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut c = tokio::net::TcpStream::connect(addr).await.expect("connects");
    c.write_all(b"GET /metrics HTTP/1.1\r\nhost: raum\r\nconnection: close\r\n\r\n").await.expect("sends");
    let mut answer = String::new();
    c.read_to_string(&mut answer).await.expect("an answer");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    samples(&answer[answer.find("\r\n\r\n").expect("a body") + 4..])
}

#[tokio::test]
async fn an_open_socket_shows_until_it_closes() {
    use futures_util::StreamExt;
    let served = super::Served::start("metrics_socket").await;
    let addr = served.addr.clone();
    assert_eq!(scrape_over_tcp(&addr).await["raum_sockets_open"], 0.0);

    let id = super::Served::create_game(&mut tokio::net::TcpStream::connect(&addr).await.expect("connects")).await;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws")).await.expect("a socket");
    socket.next().await.expect("a message").expect("the first state");
    assert_eq!(scrape_over_tcp(&addr).await["raum_sockets_open"], 1.0);

    socket.close(None).await.expect("closed");
    drop(socket);
    let mut open = 1.0;
    for _ in 0..100 {
        open = scrape_over_tcp(&addr).await["raum_sockets_open"];
        if open == 0.0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(open, 0.0, "a closed socket is no longer counted");
    served.finish().await;
}

#[test]
fn the_parser_refuses_what_is_not_the_format() {
    let ok = "# HELP x_total X.\n# TYPE x_total counter\nx_total 3\n";
    assert_eq!(samples(ok)["x_total"], 3.0);
    for bad in ["x_total 3\n", "# TYPE x_total counter\nx_total three\n", "# NOTE x\n"] {
        assert!(std::panic::catch_unwind(|| samples(bad)).is_err(), "{bad:?}");
    }
}
