//! What games for more than two gained when every game became one room:
//! clocks kept by the server, draw offers, the engine's analysis and hints
//! (take-backs at one screen and spectators they had).

use super::{Server, wait_for_ply};
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;

/// Waits until the state satisfies `done` (up to 10 s).
async fn wait_for(s: &Server, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..400 {
        let st = s.state(id).await;
        if done(&st) {
            return st;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the game never got there: {}", s.state(id).await);
}

fn first_move(st: &Value) -> String {
    st["legal"][0]["coord"].as_str().expect("a move").to_string()
}

#[tokio::test]
async fn a_fallen_flag_takes_a_side_out_and_with_teams_loses() {
    let mut s = Server::new("multi-clock");
    let clock = json!({"initial_ms": 400, "increment_ms": 0});
    let (id, t) = s.create(json!({"variant": "triquetral-3p", "mode": "online", "clock": clock})).await;
    let st = s.state(&id).await;
    let c = &st["clock"];
    assert_eq!((&c["white_ms"], &c["blue_ms"], &c["green_ms"]), (&json!(400), &json!(400), &json!(400)), "{st}");
    assert_eq!((&c["running"], &c["initial_ms"]), (&Value::Null, &json!(400)), "clocks start with the first move");
    let (status, st) = s.play(&id, &t["white"], 0, &first_move(&st)).await;
    assert_eq!((status, &st["clock"]["running"]), (StatusCode::OK, &json!("blue")));
    // Blue's flag falls: Blue is out as if it resigned, and the others play on.
    let st = wait_for(&s, &id, |st| st["ply"] == 2).await;
    assert_eq!((&st["result"], &st["side"]), (&Value::Null, &json!("green")));
    assert_eq!(st["sides"][1]["out"], json!({"ply": 2, "reason": "time"}));
    assert_eq!((&st["moves"][1]["kind"], &st["moves"][1]["san"]), (&json!("time"), &json!("Blue's time is up")));
    assert_eq!(st["clock"]["blue_ms"], 0);
    // Then Green's: White is the last side in, on time.
    let st = wait_for(&s, &id, |st| !st["result"].is_null()).await;
    assert_eq!(st["result"]["text"], "1-0-0, Green's time is up; White is the last side in");
    assert_eq!(st["result"]["reason"], "time");
    let (_, pgn) = s.get(&format!("/api/games/{id}/pgn")).await;
    let text = pgn.as_str().expect("text");
    for part in [" Blue-resigns ", "Green-resigns 1-0-0", "[Termination \"time\"]", "[TimeControl \"0.4+0\"]"] {
        assert!(text.contains(part), "{part} in {text}");
    }
    s.restart();
    let again = s.state(&id).await;
    assert_eq!((&again["result"], &again["moves"]), (&st["result"], &st["moves"]));

    // With teams the side's team loses.
    let (id, t) = s.create(json!({"variant": "wing-table-4p", "mode": "online", "clock": clock})).await;
    let st = s.state(&id).await;
    assert_eq!(s.play(&id, &t["white"], 0, &first_move(&st)).await.0, StatusCode::OK);
    let st = wait_for(&s, &id, |st| !st["result"].is_null()).await;
    assert_eq!((&st["result"]["score"], &st["result"]["reason"]), (&json!("1-0-1-0"), &json!("time")));
    assert_eq!(st["result"]["text"], "1-0-1-0, Red's time is up");
    assert_eq!(s.play(&id, &t["red"], 1, "1a1-1a2").await.0, StatusCode::CONFLICT, "the game is over");
}

#[tokio::test]
async fn with_teams_a_draw_needs_every_side() {
    let mut s = Server::new("multi-draw");
    let (id, t) = s.create(json!({"variant": "wing-table-4p", "mode": "online"})).await;
    let draw = format!("/api/games/{id}/draw");
    let act = |key: &str, action: &str| json!({"token": t[key], "action": action});
    assert_eq!(s.post(&draw, act("red", "accept")).await.0, StatusCode::CONFLICT, "no offer to accept");
    let (_, st) = s.post(&draw, act("white", "offer")).await;
    assert_eq!((&st["draw_offer"], &st["draw_agreed"]), (&json!("white"), &json!(["white"])));
    assert_eq!(s.post(&draw, act("white", "accept")).await.0, StatusCode::CONFLICT, "not one's own offer");
    let (_, st) = s.post(&draw, act("red", "accept")).await;
    assert_eq!(st["draw_agreed"], json!(["white", "red"]));
    // A move by a side that has not agreed declines it.
    let (status, st) = s.play(&id, &t["white"], 0, &first_move(&st)).await;
    assert_eq!((status, &st["draw_offer"]), (StatusCode::OK, &json!("white")), "White agreed: its move keeps it");
    let (_, st) = s.play(&id, &t["red"], 1, &first_move(&st)).await;
    assert_eq!((&st["draw_offer"], &st["draw_agreed"]), (&json!("white"), &json!(["white", "red"])));
    let (_, st) = s.play(&id, &t["black"], 2, &first_move(&st)).await;
    assert_eq!((&st["draw_offer"], &st["draw_agreed"]), (&Value::Null, &json!([])), "Black moved instead");
    for (key, action) in [("blue", "offer"), ("white", "accept"), ("red", "accept"), ("black", "decline")] {
        assert_eq!(s.post(&draw, act(key, action)).await.0, StatusCode::OK, "{key} {action}");
    }
    assert_eq!(s.state(&id).await["draw_offer"], Value::Null, "Black declined");
    for (key, action) in [("blue", "offer"), ("white", "offer"), ("red", "accept")] {
        assert_eq!(s.post(&draw, act(key, action)).await.0, StatusCode::OK, "{key} {action}");
    }
    let (_, st) = s.post(&draw, act("black", "accept")).await;
    let want = json!({
        "score": "1/2-1/2-1/2-1/2",
        "points": ["1/2", "1/2", "1/2", "1/2"],
        "winners": [],
        "reason": "agreement",
        "text": "1/2-1/2-1/2-1/2, draw agreed",
    });
    assert_eq!(st["result"], want);
    s.restart();
    assert_eq!(s.state(&id).await["result"], want);
    let (_, pgn) = s.get(&format!("/api/games/{id}/pgn")).await;
    let text = pgn.as_str().expect("text");
    assert!(text.contains("[Result \"1/2-1/2-1/2-1/2\"]") && !text.contains("Termination"), "{text}");
}

#[tokio::test]
async fn every_side_for_itself_draws_wait_for_two_sides() {
    let s = Server::new("multi-draw-ffa");
    let (id, t) = s.create(json!({"variant": "triquetral-3p", "mode": "online"})).await;
    let draw = format!("/api/games/{id}/draw");
    let (status, v) = s.post(&draw, json!({"token": t["white"], "action": "offer"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "three sides in: {v}");
    let (status, _) = s.post(&format!("/api/games/{id}/resign"), json!({"token": t["blue"]})).await;
    assert_eq!(status, StatusCode::OK);
    let (_, st) = s.post(&draw, json!({"token": t["green"], "action": "offer"})).await;
    assert_eq!(st["draw_offer"], "green");
    assert_eq!(s.post(&draw, json!({"token": t["blue"], "action": "accept"})).await.0, StatusCode::CONFLICT);
    let (_, st) = s.post(&draw, json!({"token": t["white"], "action": "accept"})).await;
    assert_eq!(
        (&st["result"]["score"], &st["result"]["winners"], &st["result"]["reason"]),
        (&json!("1/2-0-1/2"), &json!(["white", "green"]), &json!("agreement"))
    );

    // Raum takes no offers.
    let seats = json!({"blue": {"player": "engine", "movetime": 20}});
    let (id, t) = s.create(json!({"variant": "wing-table-4p", "mode": "local", "seats": seats})).await;
    let (status, v) = s.post(&format!("/api/games/{id}/draw"), json!({"token": t["white"], "action": "offer"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_hints_and_take_backs_at_one_screen() {
    let s = Server::new("multi-analysis");
    let seats = json!({"green": {"player": "engine", "movetime": 30}});
    let (id, t) = s.create(json!({"variant": "triquetral-3p", "mode": "local", "seats": seats})).await;
    let token = &t["white"];
    let st = s.state(&id).await;
    let (status, a) = s.post(&format!("/api/games/{id}/analysis"), json!({"movetime": 100})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["view"], "white", "the score is the side to move's");
    assert!(st["legal"].as_array().expect("legal").contains(&a["best"]), "a legal move: {a}");
    assert!(a["score"].as_str().is_some_and(|x| x.starts_with(['+', '-', '#'])), "{a}");
    assert_eq!(a["line"][0], a["best"]["san"]);
    // White and Blue move; Green (Raum) answers; a take-back goes back to Blue's turn.
    assert_eq!(s.play(&id, token, 0, &first_move(&st)).await.0, StatusCode::OK);
    let st = s.state(&id).await;
    let (status, v) = s.play(&id, token, 1, &first_move(&st)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let st = wait_for_ply(&s, &id, 3).await;
    assert_eq!(st["side"], "white");
    let (status, st) = s.post(&format!("/api/games/{id}/undo"), json!({"token": token, "ply": 3})).await;
    assert_eq!((status, &st["ply"], &st["side"]), (StatusCode::OK, &json!(1), &json!("blue")), "{st}");
    let (status, a) = s.post(&format!("/api/games/{id}/analysis"), json!({"movetime": 50})).await;
    assert_eq!((status, &a["view"]), (StatusCode::OK, &json!("blue")), "{a}");

    // Spectators watch an online game and may analyse it once it is over.
    let (id, t) = s.create(json!({"variant": "wing-table-4p", "mode": "online"})).await;
    assert_eq!(s.post(&format!("/api/games/{id}/analysis"), json!({})).await.0, StatusCode::CONFLICT);
    s.post(&format!("/api/games/{id}/resign"), json!({"token": t["black"]})).await;
    let (status, a) = s.post(&format!("/api/games/{id}/analysis"), json!({"movetime": 50})).await;
    assert_eq!((status, &a["view"]), (StatusCode::OK, &json!("white")), "{a}");
}
