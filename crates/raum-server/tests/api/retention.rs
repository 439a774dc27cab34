//! Retention (issue 37): an unfinished game left alone past the configured
//! age is deleted, from memory as from the store, and answers `404`; a
//! finished game as old is kept. The sweep is called directly, with a
//! clock set a month ahead, rather than waited for.

use super::Server;
use axum::http::StatusCode;
use serde_json::json;
use std::time::Duration;

const DAY: u64 = 86_400;

#[tokio::test]
async fn games_abandoned_past_the_age_are_deleted_and_finished_ones_kept() {
    let mut s = Server::new("retention");
    let age = Duration::from_secs(30 * DAY);
    let (left, t) = s.create(json!({"variant": "five-up", "mode": "online"})).await;
    assert_eq!(s.play(&left, &t["white"], 0, "P-Cc2").await.0, StatusCode::OK);
    let (done, d) = s.create(json!({"variant": "five-up", "mode": "online"})).await;
    let (status, st) = s.post(&format!("/api/games/{done}/resign"), json!({"token": d["white"]})).await;
    assert_eq!((status, &st["result"]["reason"]), (StatusCode::OK, &json!("resignation")), "{st}");

    // Today nothing is old enough.
    let now = raum_server::store::now();
    assert_eq!(s.games.sweep_abandoned(now, age).await.expect("sweeps"), Vec::<String>::new());
    assert_eq!(s.state(&left).await["ply"], 1);

    // A month and a day later the unfinished game is gone, though its room was in memory.
    let later = now + 31 * DAY as i64;
    assert_eq!(s.games.sweep_abandoned(later, age).await.expect("sweeps"), vec![left.clone()]);
    assert_eq!(s.get(&format!("/api/games/{left}")).await.0, StatusCode::NOT_FOUND);
    assert_eq!(s.play(&left, &t["black"], 1, "P-Cc4").await.0, StatusCode::NOT_FOUND, "nothing is stored again");
    assert_eq!(s.get(&format!("/api/games/{left}/pgn")).await.0, StatusCode::NOT_FOUND);
    let (_, list) = s.get("/api/games").await;
    let ids: Vec<&str> = list.as_array().expect("a list").iter().filter_map(|g| g["id"].as_str()).collect();
    assert_eq!(ids, [done.as_str()], "the list keeps the finished game only");
    assert_eq!(s.state(&done).await["result"]["reason"], "resignation");

    // The finished game is kept for good, after a restart too.
    assert_eq!(s.games.sweep_abandoned(later + 3650 * DAY as i64, age).await.expect("sweeps"), Vec::<String>::new());
    s.restart();
    assert_eq!(s.get(&format!("/api/games/{left}")).await.0, StatusCode::NOT_FOUND);
    assert_eq!(s.state(&done).await["result"]["reason"], "resignation");
}
