//! The analysis board's calls and the game review (issue 38): a position
//! after any line, refusals that name the move, the engine's MultiPV lines,
//! and a finished game's review made once, kept across a restart, and gone
//! with a take-back.

use super::Server;
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;

#[tokio::test]
async fn a_position_after_a_line_is_described_and_bad_lines_are_refused_by_move() {
    let s = Server::new("board-positions");
    let (status, v) = s.post("/api/positions", json!({"variant": "five-up", "moves": ["P-Cc2", "P-Cc4"]})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!((v["kind"].as_str(), v["side"].as_str(), v["ply"].as_u64()), (Some("two"), Some("white"), Some(2)));
    assert_eq!(v["moves"][0]["san"], "Cc2");
    assert_eq!(v["moves"][1]["san"], "Cc4");
    let coords = [v["moves"][0]["coord"].clone(), v["moves"][1]["coord"].clone()];
    let (_, again) = s.post("/api/positions", json!({"variant": "five-up", "moves": coords})).await;
    assert_eq!(again["fen"], v["fen"], "coordinates reach the same position");
    assert_eq!(v["start_pieces"].as_array().map(Vec::len), Some(40));
    assert!(v["legal"].as_array().is_some_and(|l| !l.is_empty()));
    assert_eq!(v["result"], Value::Null);

    // The seed's mate: the rules' result, no legal move.
    let mate = json!({"variant": "five-up", "moves": ["P-Cc2", "P-Cc4", "B-Ca1", "BxEb2"]});
    let (_, v) = s.post("/api/positions", mate).await;
    assert_eq!(v["result"]["text"], "0-1, checkmate", "{v}");
    assert_eq!(v["legal"], json!([]));
    let (status, lines) =
        s.post("/api/lines", json!({"variant": "five-up", "moves": ["P-Cc2", "P-Cc4", "B-Ca1", "BxEb2"]})).await;
    assert_eq!((status, &lines["lines"]), (StatusCode::OK, &json!([])), "no line where the game is over");

    // From a position string; a multi-player game.
    let start = v["fen"].as_str().expect("fen").to_string();
    let (status, v) = s.post("/api/positions", json!({"variant": "five-up", "start": start})).await;
    assert_eq!((status, &v["result"]["reason"]), (StatusCode::OK, &json!("checkmate")), "{v}");
    let (status, v) = s.post("/api/positions", json!({"variant": "triquetral-3p"})).await;
    assert_eq!(
        (status, v["kind"].as_str(), v["sides"].as_array().map(Vec::len)),
        (StatusCode::OK, Some("multi"), Some(3))
    );

    for (body, want) in [
        (json!({"variant": "five-up", "moves": ["P-Cc2", "Dc4-Cc9"]}), "move 2 (Dc4-Cc9)"),
        (json!({"variant": "five-up", "moves": ["P-Cc2", "P-Cc2"]}), "move 2 (P-Cc2)"),
        (json!({"variant": "no-such-game"}), "unknown variant"),
        (json!({"variant": "five-up", "start": "not a position"}), "position string"),
        (json!({"variant": "five-up", "moves": vec!["P-Cc2"; 601]}), "at most 600"),
        (json!({"variant": "five-up", "move": []}), "unknown field"),
    ] {
        let (status, v) = s.post("/api/positions", body.clone()).await;
        assert!(status.is_client_error(), "{body}: {status} {v}");
        assert!(v["error"].as_str().is_some_and(|e| e.contains(want)), "{body}: {v}");
    }
}

#[tokio::test]
async fn the_engine_gives_the_lines_asked_for_best_first() {
    let s = Server::new("board-lines");
    let body = json!({"variant": "raumschach", "moves": ["Bb2-Bb3"], "movetime": 300, "multipv": 3});
    let (status, v) = s.post("/api/lines", body).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["view"], "white");
    let lines = v["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 3);
    // Black to move: White's score rises line by line.
    let cps: Vec<i64> = lines.iter().map(|l| l["cp"].as_i64().expect("a centipawn score")).collect();
    assert!(cps.windows(2).all(|w| w[0] <= w[1]), "{cps:?}");
    let firsts: std::collections::HashSet<&str> =
        lines.iter().map(|l| l["moves"][0].as_str().expect("a move")).collect();
    assert_eq!(firsts.len(), 3, "three different first moves");
    for l in lines {
        assert_eq!(l["best"]["coord"], l["moves"][0]);
        assert_eq!(l["line"].as_array().map(Vec::len), l["moves"].as_array().map(Vec::len));
    }
    // A game for three: one line, from the mover's side.
    let (status, v) = s.post("/api/lines", json!({"variant": "triquetral-3p", "movetime": 100, "multipv": 3})).await;
    assert_eq!((status, v["lines"].as_array().map(Vec::len)), (StatusCode::OK, Some(1)), "{v}");
    for (body, want) in [
        (json!({"variant": "five-up", "multipv": 6}), "multipv 6"),
        (json!({"variant": "five-up", "movetime": 0}), "movetime 0"),
        (json!({"variant": "five-up", "multiPV": 2}), "unknown field"),
    ] {
        let (status, v) = s.post("/api/lines", body.clone()).await;
        assert!(status.is_client_error(), "{body}: {status} {v}");
        assert!(v["error"].as_str().is_some_and(|e| e.contains(want)), "{body}: {v}");
    }
}

/// Asks for the review until it is made.
async fn reviewed(s: &Server, id: &str) -> Value {
    let (status, v) = s.post(&format!("/api/games/{id}/review"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    for _ in 0..600 {
        let (_, v) = s.get(&format!("/api/games/{id}/review")).await;
        if v["status"] == "done" {
            return v;
        }
        assert!(["queued", "running"].contains(&v["status"].as_str().unwrap_or("?")), "{v}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the review took over 30 s");
}

#[tokio::test]
async fn a_finished_game_is_reviewed_once_and_a_take_back_drops_the_review() {
    let mut s = Server::new("review");
    let (id, t) = s.create(json!({"variant": "five-up", "mode": "local"})).await;
    let t = &t["white"];
    for (ply, text) in ["P-Cc2", "P-Cc4", "B-Ca1"].into_iter().enumerate() {
        assert_eq!(s.play(&id, t, ply, text).await.0, StatusCode::OK);
    }
    let (status, v) = s.post(&format!("/api/games/{id}/review"), json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT, "not while the game goes on: {v}");
    assert_eq!(s.play(&id, t, 3, "BxEb2").await.0, StatusCode::OK);
    let (_, v) = s.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(v, json!({"status": "none", "done": 0, "total": 5}), "a GET starts nothing");

    let v = reviewed(&s, &id).await;
    let r = &v["review"];
    assert_eq!(r["positions"].as_array().map(Vec::len), Some(5));
    assert_eq!(r["positions"][4]["white"], 0.0, "the mate is Black's win");
    assert_eq!(r["positions"][4]["best"], Value::Null);
    let blunder = &r["moves"][2];
    assert_eq!((&blunder["san"], &blunder["class"]), (&json!("B-Ca1"), &json!("blunder")), "{r}");
    assert!(blunder["best"]["coord"].is_string(), "the engine's move is named: {blunder}");
    assert_eq!(r["moves"][3]["class"], "best", "the mate is the engine's move");
    assert_eq!(r["sides"]["white"]["blunders"], 1);
    assert_eq!(r["sides"]["black"]["blunders"], 0);

    // Kept: a new server answers it from the store.
    s.restart();
    let (_, again) = s.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(again, v);

    // A take-back drops it; the game ends otherwise and is reviewed anew.
    let (status, st) = s.post(&format!("/api/games/{id}/undo"), json!({"token": t, "ply": 4})).await;
    assert_eq!(status, StatusCode::OK, "{st}");
    let (status, _) = s.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let ply = st["ply"].as_u64().expect("ply") as usize;
    let (status, _) = s.post(&format!("/api/games/{id}/resign"), json!({"token": t})).await;
    assert_eq!(status, StatusCode::OK);
    let (_, fresh) = s.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(fresh["status"], "none");
    let fresh = reviewed(&s, &id).await;
    assert_eq!(fresh["review"]["positions"].as_array().map(Vec::len), Some(ply + 1));

    // A finished game for more than two sides is not reviewed.
    let record = "[Variant \"triquetral-3p\"]\n[Result \"1-0-0\"]\n\n1-0-0\n";
    let (multi, _) = s.create(json!({"mode": "local", "pgn": record})).await;
    let (status, v) = s.post(&format!("/api/games/{multi}/review"), json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].as_str().is_some_and(|e| e.contains("two-player")), "{v}");
}

#[tokio::test]
async fn a_review_being_made_when_the_game_is_taken_back_keeps_nothing() {
    let s = Server::new("review-takeback");
    let (id, t) = s.create(json!({"variant": "betza-upright", "mode": "local"})).await;
    let t = &t["white"];
    for ply in 0..8 {
        let st = s.state(&id).await;
        let first = st["legal"][0]["coord"].as_str().expect("a legal move").to_string();
        assert_eq!(s.play(&id, t, ply, &first).await.0, StatusCode::OK);
    }
    assert_eq!(s.post(&format!("/api/games/{id}/resign"), json!({"token": t})).await.0, StatusCode::OK);
    let (status, v) = s.post(&format!("/api/games/{id}/review"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Taken back at once: the review stops.
    let (status, st) = s.post(&format!("/api/games/{id}/undo"), json!({"token": t, "ply": 8})).await;
    assert_eq!(status, StatusCode::OK, "{st}");
    let ply = st["ply"].as_u64().expect("ply") as usize;
    assert!(ply < 8);
    assert_eq!(s.post(&format!("/api/games/{id}/resign"), json!({"token": t})).await.0, StatusCode::OK);
    let fresh = reviewed(&s, &id).await;
    assert_eq!(fresh["review"]["positions"].as_array().map(Vec::len), Some(ply + 1));
    // Whatever the stopped review did meanwhile, it kept nothing over the new one.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (_, again) = s.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(again, fresh);
}

#[tokio::test]
async fn two_boards_of_one_client_search_side_by_side() {
    let s = Server::new("board-two");
    let body = |board: &str| json!({"variant": "five-up", "movetime": 800, "multipv": 1, "board": board});
    let (a, b) = tokio::join!(s.post("/api/lines", body("one")), s.post("/api/lines", body("two")));
    for (status, v) in [a, b] {
        assert_eq!(status, StatusCode::OK, "{v}");
        assert!(v["lines"].as_array().is_some_and(|l| l.len() == 1), "{v}");
    }
    let (status, v) = s.post("/api/lines", json!({"variant": "five-up", "board": "x".repeat(65)})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
}
