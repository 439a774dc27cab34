//! Variant files in the web app (docs/api.md): a file is read with its
//! problems by line and column, loaded, kept, played against the engine and
//! exported with the hash that pins it.

use super::{Server, wait_for_ply};
use axum::http::StatusCode;
use serde_json::json;

/// The tutorial's Cubelet under an id of the test's own (every test of this
/// binary shares one process, and an id names one game in it).
fn cubelet(id: &str) -> String {
    include_str!("../../../../examples/variants/cubelet.toml").replace("id = \"cubelet\"", &format!("id = \"{id}\""))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_is_read_kept_and_played_against_the_engine() {
    let mut s = Server::new("variant-file");
    // A broken file: every problem, each with its line, column and key.
    let broken = cubelet("api-cubelet")
        .replace("moves = \"O*\"", "moves = \"O**\"")
        .replace("size = \"4x4x4\"", "size = \"4x4\"");
    let (status, v) = s.post("/api/variants", json!({"text": broken, "name": "cubelet.toml"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let problems = v["problems"].as_array().expect("problems");
    assert!(problems.iter().any(|p| p["line"] == 9 && p["key"] == "board.size"), "{v}");
    assert!(problems.iter().any(|p| p["key"] == "pieces.R.moves" && p["line"] == 15), "{v}");
    assert!(v["error"].as_str().unwrap().contains("cubelet.toml:9:8: board.size"), "{v}");

    // The fixed file: its game, which the variant calls describe.
    let (status, v) = s.post("/api/variants", json!({"text": cubelet("api-cubelet"), "name": "cubelet.toml"})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!((&v["id"], &v["name"], &v["cells"]), (&json!("api-cubelet"), &json!("Cubelet"), &json!(64)));
    let (status, info) = s.get("/api/variants/api-cubelet").await;
    assert_eq!(status, StatusCode::OK, "{info}");
    assert_eq!(info["pieces"].as_array().map(Vec::len), Some(6));
    let (status, rules) = s.get("/api/variants/api-cubelet/rules").await;
    assert_eq!(status, StatusCode::OK, "{rules}");
    // The same file again is the same game; other rules under its id are refused.
    let again = cubelet("api-cubelet").replace("# Cubelet", "# Our Cubelet");
    assert_eq!(s.post("/api/variants", json!({"text": again})).await.0, StatusCode::CREATED);
    let other = cubelet("api-cubelet").replace("promote-to = \"RBUN\"", "promote-to = \"RB\"");
    let (status, v) = s.post("/api/variants", json!({"text": other})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].as_str().unwrap().contains("'api-cubelet' is taken"), "{v}");

    // A game against the engine, which answers; its record pins the file.
    let (id, t) = s
        .create(json!({"variant": "api-cubelet", "mode": "engine", "engine": {"color": "black", "movetime": 50}}))
        .await;
    let st = s.state(&id).await;
    let first = st["legal"][0]["coord"].as_str().expect("a legal move").to_string();
    assert_eq!(s.play(&id, &t["white"], 0, &first).await.0, StatusCode::OK);
    wait_for_ply(&s, &id, 2).await;
    // The engine's analysis of the file's game.
    let (status, a) = s.post(&format!("/api/games/{id}/analysis"), json!({"movetime": 100})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert!(a["best"]["coord"].is_string() && a["line"].as_array().is_some_and(|l| !l.is_empty()), "{a}");
    let (status, pgn) = s.get(&format!("/api/games/{id}/pgn")).await;
    assert_eq!(status, StatusCode::OK);
    let pgn = pgn.as_str().expect("a record").to_string();
    assert!(pgn.contains("[Variant \"api-cubelet\"]") && pgn.contains("[VariantHash \""), "{pgn}");
    // A new server on the same file finds the game (the file is kept with it).
    s.restart();
    let st = s.state(&id).await;
    assert_eq!(st["ply"], 2, "{st}");
    // A record of the game starts a new one.
    let (status, v) = s.post("/api/games", json!({"mode": "local", "pgn": pgn})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
}

#[tokio::test]
async fn files_the_app_cannot_play_are_refused_with_reasons() {
    let s = Server::new("variant-file-refused");
    // Not TOML at all: still a line and a column.
    let (status, v) = s.post("/api/variants", json!({"text": "format = 1\nid = \"x\n"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["problems"][0]["line"], 2, "{v}");
    // Too big.
    let (status, v) = s.post("/api/variants", json!({"text": "#".repeat(50 * 1024)})).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    // A built-in game's id with other rules.
    let five_up = include_str!("../../../../variants/five-up.toml").replace("QRBNWG", "QRBN");
    let (status, v) = s.post("/api/variants", json!({"text": five_up})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    // A riding piece: its shared cells are written with both men, the piece first.
    let rider = include_str!("../../../../variants/five-up-unicorn.toml")
        .replace("id = \"five-up-unicorn\"", "id = \"api-unicorn\"");
    let (status, v) = s.post("/api/variants", json!({"text": rider})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (id, _) = s.create(json!({"variant": "api-unicorn", "mode": "local"})).await;
    let st = s.state(&id).await;
    let shared: Vec<&str> = st["start_pieces"]
        .as_array()
        .expect("men")
        .iter()
        .filter_map(|m| m[1].as_str())
        .filter(|m| m.len() > 1)
        .collect();
    assert_eq!(shared, ["wu", "WU"], "{st}");
    // The examples the lobby offers read.
    let (status, v) = s.get("/api/variant-examples").await;
    assert_eq!(status, StatusCode::OK);
    assert!(v.as_array().is_some_and(|x| x.iter().any(|e| e["title"] == "Cubelet")), "{v}");
}

#[tokio::test]
async fn a_file_for_three_sides_plays_online_with_a_link_per_seat() {
    let s = Server::new("variant-file-three");
    let text = include_str!("../../../../variants/triquetral-3p.toml")
        .replace("id = \"triquetral-3p\"", "id = \"api-three\"")
        .replace("title = \"Triquetral Cube Chess for three\"", "title = \"Three of us\"");
    let (status, v) = s.post("/api/variants", json!({"text": text})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!((&v["name"], v["sides"].as_array().map(Vec::len)), (&json!("Three of us"), Some(3)), "{v}");
    let (status, info) = s.get("/api/variants/api-three").await;
    assert_eq!((status, info["sides"].as_array().map(Vec::len)), (StatusCode::OK, Some(3)), "{info}");
    let (id, t) = s.create(json!({"variant": "api-three", "mode": "online"})).await;
    let st = s.state(&id).await;
    let first = st["legal"][0]["coord"].as_str().expect("a legal move").to_string();
    assert_eq!(s.play(&id, &t["white"], 0, &first).await.0, StatusCode::OK);
    let (status, pgn) = s.get(&format!("/api/games/{id}/pgn")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(pgn.as_str().is_some_and(|p| p.contains("[Variant \"api-three\"]") && p.contains("[VariantHash")), "{pgn}");
}
