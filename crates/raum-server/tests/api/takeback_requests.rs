//! Take-back requests between people online (issue 38): asked by the
//! player whose move it takes back, accepted or declined by the opponent,
//! cancelled by a move; refused where they do not apply. Every answer is
//! safe to send twice.

use super::Server;
use axum::http::StatusCode;
use serde_json::{Value, json};

async fn takeback(s: &Server, id: &str, token: &Value, action: &str, ply: Option<u64>) -> (StatusCode, Value) {
    let mut body = json!({"token": token, "action": action});
    if let Some(p) = ply {
        body["ply"] = json!(p);
    }
    s.post(&format!("/api/games/{id}/takeback"), body).await
}

#[tokio::test]
async fn a_take_back_asked_online_is_accepted_or_declined_by_the_opponent() {
    let mut s = Server::new("takeback-requests");
    let clock = json!({"initial_ms": 600_000, "increment_ms": 0});
    let (id, t) = s.create(json!({"variant": "five-up", "mode": "online", "clock": clock})).await;
    let (white, black) = (&t["white"], &t["black"]);
    // Nothing to take back before one's first move.
    assert_eq!(takeback(&s, &id, white, "request", Some(0)).await.0, StatusCode::CONFLICT);
    assert_eq!(s.play(&id, white, 0, "P-Cc2").await.0, StatusCode::OK);
    assert_eq!(takeback(&s, &id, black, "request", None).await.0, StatusCode::CONFLICT, "Black has not moved");

    // White asks to take back the move just made; asking twice changes nothing.
    let (status, st) = takeback(&s, &id, white, "request", Some(1)).await;
    assert_eq!((status, &st["takeback"]), (StatusCode::OK, &json!({"by": "white", "ply": 1})), "{st}");
    let (status, again) = takeback(&s, &id, white, "request", Some(1)).await;
    assert_eq!((status, &again["version"]), (StatusCode::OK, &st["version"]), "a request sent twice is one");
    // Only the opponent accepts: not the asker, a spectator or a stranger.
    assert_eq!(takeback(&s, &id, white, "accept", None).await.0, StatusCode::CONFLICT);
    assert_eq!(takeback(&s, &id, &json!(null), "accept", None).await.0, StatusCode::FORBIDDEN);
    assert_eq!(
        takeback(&s, &id, &json!("0123456789abcdef0123456789abcdef"), "accept", None).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(takeback(&s, &id, black, "accept", Some(0)).await.0, StatusCode::CONFLICT, "meant for another ply");
    assert_eq!(takeback(&s, &id, black, "maybe", None).await.0, StatusCode::BAD_REQUEST);
    let (status, v) =
        s.post(&format!("/api/games/{id}/takeback"), json!({"token": black, "action": "accept", "x": 1})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(s.state(&id).await["ply"], 1, "a refused answer changes nothing");
    // Black accepts: White's move goes, White is to move; accepting again takes back nothing more.
    let (status, st) = takeback(&s, &id, black, "accept", Some(1)).await;
    assert_eq!(status, StatusCode::OK, "{st}");
    assert_eq!((&st["ply"], &st["side"], &st["takeback"]), (&json!(0), &json!("white"), &Value::Null));
    assert_eq!((&st["clock"]["white_ms"], &st["clock"]["running"]), (&json!(600_000), &Value::Null), "{st}");
    assert_eq!(takeback(&s, &id, black, "accept", Some(1)).await.0, StatusCode::CONFLICT);
    assert_eq!(takeback(&s, &id, black, "accept", None).await.0, StatusCode::CONFLICT);
    assert_eq!(s.state(&id).await["ply"], 0);

    // After the opponent's reply a take-back goes back two moves, to the asker's turn.
    for (ply, (token, text)) in [(white, "P-Cc2"), (black, "P-Cc4")].into_iter().enumerate() {
        assert_eq!(s.play(&id, token, ply, text).await.0, StatusCode::OK);
    }
    assert_eq!(takeback(&s, &id, white, "request", Some(2)).await.0, StatusCode::OK);
    // Black declines; declining again finds nothing to decline.
    let (status, st) = takeback(&s, &id, black, "decline", Some(2)).await;
    assert_eq!((status, &st["takeback"], &st["ply"]), (StatusCode::OK, &Value::Null, &json!(2)));
    assert_eq!(takeback(&s, &id, black, "decline", Some(2)).await.0, StatusCode::CONFLICT);
    // The asker may withdraw.
    assert_eq!(takeback(&s, &id, white, "request", Some(2)).await.0, StatusCode::OK);
    let (status, st) = takeback(&s, &id, white, "decline", None).await;
    assert_eq!((status, &st["takeback"]), (StatusCode::OK, &Value::Null));
    // Asked again and accepted: both moves go.
    assert_eq!(takeback(&s, &id, white, "request", Some(2)).await.0, StatusCode::OK);
    let (status, st) = takeback(&s, &id, black, "accept", Some(2)).await;
    assert_eq!((status, &st["ply"], &st["side"]), (StatusCode::OK, &json!(0), &json!("white")), "{st}");

    // A move cancels a request: Black asks, White plays on instead of answering.
    for (ply, (token, text)) in [(white, "P-Cc2"), (black, "P-Cc4")].into_iter().enumerate() {
        assert_eq!(s.play(&id, token, ply, text).await.0, StatusCode::OK);
    }
    let (status, st) = takeback(&s, &id, black, "request", Some(2)).await;
    assert_eq!((status, &st["takeback"]["by"]), (StatusCode::OK, &json!("black")));
    let (status, st) = s.play(&id, white, 2, "Db1-Cc1").await;
    assert_eq!((status, &st["takeback"]), (StatusCode::OK, &Value::Null), "{st}");
    assert_eq!(takeback(&s, &id, white, "accept", None).await.0, StatusCode::CONFLICT);
    // White's own request stands until Black answers, then a restart keeps what was accepted.
    assert_eq!(takeback(&s, &id, white, "request", Some(3)).await.0, StatusCode::OK);
    assert_eq!(takeback(&s, &id, black, "request", Some(3)).await.0, StatusCode::CONFLICT, "answer White's first");
    assert_eq!(takeback(&s, &id, black, "accept", Some(3)).await.0, StatusCode::OK);
    let before = s.state(&id).await;
    assert_eq!((&before["ply"], &before["side"]), (&json!(2), &json!("white")));
    s.restart();
    let after = s.state(&id).await;
    assert_eq!((&after["moves"], &after["fen"]), (&before["moves"], &before["fen"]));

    // Over is over.
    assert_eq!(s.post(&format!("/api/games/{id}/resign"), json!({"token": black})).await.0, StatusCode::OK);
    assert_eq!(takeback(&s, &id, white, "request", None).await.0, StatusCode::CONFLICT);
}

#[tokio::test]
async fn take_back_requests_are_for_online_games_of_two() {
    let s = Server::new("takeback-where");
    // At one screen and against the engine a take-back is /undo's.
    let (local, t) = s.create(json!({"variant": "five-up", "mode": "local"})).await;
    assert_eq!(s.play(&local, &t["white"], 0, "P-Cc2").await.0, StatusCode::OK);
    let (status, v) = takeback(&s, &local, &t["white"], "request", None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    // Online, /undo says where to ask.
    let (online, t) = s.create(json!({"variant": "five-up", "mode": "online"})).await;
    assert_eq!(s.play(&online, &t["white"], 0, "P-Cc2").await.0, StatusCode::OK);
    let (status, v) = s.post(&format!("/api/games/{online}/undo"), json!({"token": t["white"]})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(v["error"].as_str().is_some_and(|e| e.contains("takeback")), "{v}");
    // With more sides: refused, saying so.
    let (multi, t) = s.create(json!({"variant": "triquetral-3p", "mode": "online"})).await;
    let first = s.state(&multi).await["legal"][0]["coord"].as_str().expect("a move").to_string();
    assert_eq!(s.play(&multi, &t["white"], 0, &first).await.0, StatusCode::OK);
    let (status, v) = takeback(&s, &multi, &t["white"], "request", None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(v["error"].as_str().is_some_and(|e| e.contains("two")), "{v}");
    assert!(s.state(&multi).await["takeback"].is_null());
}
