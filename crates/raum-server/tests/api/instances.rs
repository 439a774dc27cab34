//! Several servers on one PostgreSQL database (issue 39): a game created on
//! one is played through another, a move stored by one reaches the sockets
//! of the other, and of two servers racing on one ply exactly one stores its
//! move (the other answers `409`), after which both stand where the store
//! does. On SQLite (one server per file) there is nothing to test.

use super::Server;
use axum::http::StatusCode;
use raum_server::games::Games;
use raum_server::store::Database;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// The next state a listener hears whose ply is `ply`.
async fn heard(rx: &mut tokio::sync::broadcast::Receiver<std::sync::Arc<str>>, ply: u64) -> Value {
    loop {
        let text = tokio::time::timeout(Duration::from_secs(5), rx.recv())
            .await
            .unwrap_or_else(|_| panic!("no state of ply {ply} within 5 s"))
            .expect("the room's states");
        let state: Value = serde_json::from_str(&text).expect("a state");
        if state["ply"] == ply {
            return state;
        }
    }
}

#[tokio::test]
async fn a_game_is_played_through_either_server_and_each_hears_the_other() {
    let a = Server::new("instances");
    if matches!(a.db, Database::Sqlite(_)) {
        return;
    }
    let b = a.beside();
    let (id, t) = a.create(json!({"variant": "five-up", "mode": "online"})).await;

    // Created on A, played through B.
    assert_eq!(b.play(&id, &t["white"], 0, "P-Cc2").await.0, StatusCode::OK);
    assert_eq!(a.state(&id).await["ply"], 1, "A loads what B stored");

    // A socket on each: a move through one reaches the other's.
    let room_a = a.games.room(&id).await.expect("A's room");
    let room_b = b.games.room(&id).await.expect("B's room");
    let (_, mut on_a, _, _here_a) = Games::listen(&room_a, None).await;
    let (_, mut on_b, _, _here_b) = Games::listen(&room_b, None).await;
    let sent = Instant::now();
    assert_eq!(a.play(&id, &t["black"], 1, "P-Cc4").await.0, StatusCode::OK);
    let acknowledged = sent.elapsed();
    let state = heard(&mut on_b, 2).await;
    eprintln!(
        "a move through A: acknowledged in {} us, on B's socket {} us after it was sent",
        acknowledged.as_micros(),
        sent.elapsed().as_micros()
    );
    assert_eq!(state["moves"][1]["san"], "Cc4", "{state}");
    let sent = Instant::now();
    assert_eq!(b.play(&id, &t["white"], 2, "B-Ca1").await.0, StatusCode::OK);
    heard(&mut on_a, 3).await;
    eprintln!("a move through B: on A's socket {} us after it was sent", sent.elapsed().as_micros());

    // Both at ply 3: the same move sent to each at once is stored once.
    let (to_a, to_b) = tokio::join!(a.play(&id, &t["black"], 3, "P-Cb4"), b.play(&id, &t["black"], 3, "P-Cb4"));
    let mut statuses = [to_a.0, to_b.0];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT], "{to_a:?} {to_b:?}");
    heard(&mut on_a, 4).await;
    heard(&mut on_b, 4).await;
    let (on_a_now, on_b_now) = (a.state(&id).await, b.state(&id).await);
    assert_eq!((&on_a_now["ply"], &on_a_now["moves"][3]["san"]), (&json!(4), &json!("Cb4")), "{on_a_now}");
    assert_eq!(on_a_now["moves"], on_b_now["moves"]);
    // And the next move is taken by either.
    let next = on_a_now["legal"][0]["coord"].as_str().expect("a legal move").to_string();
    assert_eq!(a.play(&id, &t["white"], 4, &next).await.0, StatusCode::OK);
    heard(&mut on_b, 5).await;
    assert_eq!(b.state(&id).await["ply"], 5);
}
