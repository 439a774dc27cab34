//! The JSON API against the router, with games kept in a temporary SQLite
//! file: what is played, what is refused (and that nothing refused is
//! stored), and that a new server on the same file finds every game.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use raum_notation::parse_records;
use raum_rules::VariantId;
use raum_server::games::Games;
use raum_server::store::SqliteStore;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceExt;

/// A server over a database file of its own, removed when dropped.
struct Server {
    db: PathBuf,
    app: axum::Router,
}

impl Server {
    fn new(name: &str) -> Server {
        let db = std::env::temp_dir().join(format!("raum-api-{name}-{}.db", std::process::id()));
        for ext in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
        }
        let app = Server::open(&db);
        Server { db, app }
    }

    fn open(db: &std::path::Path) -> axum::Router {
        let store = SqliteStore::open(db).expect("open the database");
        raum_server::api::router(Games::new(Arc::new(store), 1))
    }

    /// A new server process on the same file, as after a restart.
    fn restart(&mut self) {
        self.app = Server::open(&self.db);
    }

    async fn call(&self, method: &str, uri: &str, body: Option<String>) -> (StatusCode, Value) {
        let req = Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", "application/json")
            .body(body.map_or_else(Body::empty, Body::from))
            .expect("request");
        let resp = self.app.clone().oneshot(req).await.expect("answer");
        let status = resp.status();
        let bytes = resp.into_body().collect().await.expect("body").to_bytes();
        let value =
            serde_json::from_slice(&bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
        (status, value)
    }

    async fn get(&self, uri: &str) -> (StatusCode, Value) {
        self.call("GET", uri, None).await
    }

    async fn post(&self, uri: &str, body: Value) -> (StatusCode, Value) {
        self.call("POST", uri, Some(body.to_string())).await
    }

    /// Creates a game; its id and tokens.
    async fn create(&self, body: Value) -> (String, Value) {
        let (status, v) = self.post("/api/games", body).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        (v["id"].as_str().expect("id").to_string(), v["tokens"].clone())
    }

    async fn play(&self, id: &str, token: &Value, ply: usize, text: &str) -> (StatusCode, Value) {
        self.post(&format!("/api/games/{id}/moves"), json!({"token": token, "ply": ply, "move": text})).await
    }

    async fn state(&self, id: &str) -> Value {
        let (status, v) = self.get(&format!("/api/games/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        v
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        for ext in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{ext}", self.db.display()));
        }
    }
}

fn sans(state: &Value) -> Vec<String> {
    state["moves"].as_array().expect("moves").iter().map(|m| m["san"].as_str().unwrap_or("?").to_string()).collect()
}

#[tokio::test]
async fn the_seed_line_mates_and_survives_a_restart() {
    let mut s = Server::new("seed");
    let (id, tokens) = s.create(json!({"variant": "five-up", "mode": "local"})).await;
    let t = &tokens["white"];
    assert_eq!(tokens["white"], tokens["black"], "a local game has one token");
    for (ply, text) in ["P-Cc2", "P-Cc4", "B-Ca1", "BxEb2"].into_iter().enumerate() {
        let (status, v) = s.play(&id, t, ply, text).await;
        assert_eq!(status, StatusCode::OK, "{text}: {v}");
    }
    let st = s.state(&id).await;
    assert_eq!(st["result"]["text"], "0-1, checkmate");
    assert_eq!(sans(&st), ["Cc2", "Cc4", "B-Ca1", "BxEb2#"]);
    assert_eq!(st["start_pieces"].as_array().map(Vec::len), Some(40));
    assert_eq!(st["moves"][3]["changes"], json!([[46, null], [106, "b"]]), "BxEb2: Bb5 empties, Eb2 taken");
    assert_eq!(st["legal"].as_array().map(Vec::len), Some(0));
    assert_eq!(st["check"].as_array().map(Vec::len), Some(1));

    s.restart();
    let again = s.state(&id).await;
    assert_eq!((&again["moves"], &again["fen"], &again["result"]), (&st["moves"], &st["fen"], &st["result"]));

    let (status, pgn) = s.get(&format!("/api/games/{id}/pgn")).await;
    assert_eq!(status, StatusCode::OK);
    let text = pgn.as_str().expect("text");
    assert!(text.contains("[Termination \"checkmate\"]") && text.contains("0-1"), "{text}");
    let record = &parse_records(text).expect("the record reads back")[0];
    let game = record.replay(raum_rules::Variant::get(VariantId::FiveUp)).expect("and replays");
    assert_eq!(game.moves().len(), 4);

    let (_, list) = s.get("/api/games").await;
    assert_eq!(list[0]["id"], id.as_str());
    assert_eq!(list[0]["result"], "0-1");
}

#[tokio::test]
async fn a_savard_stalemate_is_scored_three_fifths() {
    let mut s = Server::new("stalemate");
    // Wing Table: White (king and rook) takes Black's queen, which stalemates Black.
    let fen = "k3|4|4|6|6|6|2R3|6|6|4|1q2|4/4|K3|6|6|6|6|6|6|4|4/4|6|6|6|6|6|6|4 w - - 0 1";
    let (id, t) = s.create(json!({"variant": "wing-table", "mode": "local", "fen": fen})).await;
    let (status, v) = s.play(&id, &t["white"], 0, "1c6-1c2").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let st = s.state(&id).await;
    let want = json!({
        "score": "3/5-2/5",
        "points": ["3/5", "2/5"],
        "winner": "white",
        "reason": "stalemate",
        "text": "3/5-2/5, White stalemates",
    });
    assert_eq!(st["result"], want, "{st}");
    assert_eq!(st["legal"].as_array().map(Vec::len), Some(0));
    s.restart();
    assert_eq!(s.state(&id).await["result"], want);
    let (_, pgn) = s.get(&format!("/api/games/{id}/pgn")).await;
    let text = pgn.as_str().expect("text");
    assert!(text.contains("[Result \"3/5-2/5\"]") && text.contains("[Termination \"stalemate\"]"), "{text}");
    assert_eq!(parse_records(text).expect("the record reads back")[0].result.as_str(), "3/5-2/5");
    let (_, list) = s.get("/api/games").await;
    assert_eq!(list[0]["result"], "3/5-2/5");
    // A draw has no winner, and a win is a whole point.
    let (id, t) = s.create(json!({"variant": "five-up", "mode": "online"})).await;
    for (who, action) in [("white", "offer"), ("black", "accept")] {
        let (status, v) = s.post(&format!("/api/games/{id}/draw"), json!({"token": t[who], "action": action})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let result = &s.state(&id).await["result"];
    assert_eq!((&result["points"], &result["winner"]), (&json!(["1/2", "1/2"]), &Value::Null), "{result}");
}

#[tokio::test]
async fn refused_requests_say_why_and_store_nothing() {
    let mut s = Server::new("refusals");
    let (id, tokens) = s.create(json!({"variant": "five-up", "mode": "online"})).await;
    let (white, black) = (&tokens["white"], &tokens["black"]);
    assert_ne!(white, black);
    assert_eq!(s.play(&id, white, 0, "P-Cc2").await.0, StatusCode::OK);
    let moves = format!("/api/games/{id}/moves");

    let cases: Vec<(&str, StatusCode, Option<String>)> = vec![
        (
            "illegal",
            StatusCode::UNPROCESSABLE_ENTITY,
            Some(json!({"token": black, "ply": 1, "move": "Ec2-Ec4"}).to_string()),
        ),
        (
            "unreadable",
            StatusCode::UNPROCESSABLE_ENTITY,
            Some(json!({"token": black, "ply": 1, "move": "hello"}).to_string()),
        ),
        ("malformed", StatusCode::BAD_REQUEST, Some("{\"token\": ".into())),
        (
            "wrong shape",
            StatusCode::UNPROCESSABLE_ENTITY,
            Some(json!({"token": black, "ply": "one", "move": "P-Cc4"}).to_string()),
        ),
        (
            "unknown field",
            StatusCode::UNPROCESSABLE_ENTITY,
            Some(json!({"token": black, "ply": 1, "move": "P-Cc4", "x": 1}).to_string()),
        ),
        (
            "too big",
            StatusCode::PAYLOAD_TOO_LARGE,
            Some(json!({"token": black, "ply": 1, "move": "x".repeat(70_000)}).to_string()),
        ),
        ("not your move", StatusCode::FORBIDDEN, Some(json!({"token": white, "ply": 1, "move": "P-Cc4"}).to_string())),
        ("replayed ply", StatusCode::CONFLICT, Some(json!({"token": white, "ply": 0, "move": "P-Cc2"}).to_string())),
        ("ply ahead", StatusCode::CONFLICT, Some(json!({"token": black, "ply": 2, "move": "P-Cc4"}).to_string())),
        ("no token", StatusCode::FORBIDDEN, Some(json!({"ply": 1, "move": "P-Cc4"}).to_string())),
        (
            "wrong token",
            StatusCode::FORBIDDEN,
            Some(json!({"token": "0123456789abcdef", "ply": 1, "move": "P-Cc4"}).to_string()),
        ),
    ];
    for (what, status, body) in cases {
        let (got, v) = s.call("POST", &moves, body).await;
        assert_eq!(got, status, "{what}: {v}");
        let error = v["error"].as_str().unwrap_or_else(|| panic!("{what}: no error message in {v}"));
        assert!(!error.is_empty(), "{what}");
    }
    let (got, v) = s.play("nope", black, 1, "P-Cc4").await;
    assert_eq!(got, StatusCode::NOT_FOUND, "{v}");
    assert!(v["error"].as_str().unwrap_or_default().contains("no game"), "{v}");
    let (got, v) = s.get("/api/games/nope").await;
    assert_eq!((got, v["error"].is_string()), (StatusCode::NOT_FOUND, true));
    let (got, v) = s.get("/api/nothing-here").await;
    assert_eq!((got, v["error"].is_string()), (StatusCode::NOT_FOUND, true));
    let (got, v) = s.get(&moves).await;
    assert_eq!((got, v["error"].is_string()), (StatusCode::METHOD_NOT_ALLOWED, true), "{v}");
    let (got, v) = s.get(&format!("/api/games/{id}/ws")).await;
    assert!(got.is_client_error() && v["error"].is_string(), "a socket address asked without an upgrade: {got} {v}");
    for bad in [
        json!({"variant": "nine-up", "mode": "local"}),
        json!({"variant": "five-up", "mode": "solo"}),
        json!({"variant": "five-up", "mode": "engine"}),
        json!({"variant": "five-up", "mode": "engine", "engine": {"color": "green"}}),
        json!({"variant": "five-up", "mode": "engine", "engine": {"color": "white", "level": 11}}),
        json!({"variant": "five-up", "mode": "local", "fen": "not a position"}),
        json!({"mode": "local", "pgn": "[Variant \"five-up\"]\n1. BxEb3 *"}),
        json!({"variant": "five-up", "mode": "local", "clock": {"initial_ms": 0}}),
    ] {
        let (got, v) = s.post("/api/games", bad.clone()).await;
        assert!(got.is_client_error(), "{bad}: {got} {v}");
        assert!(v["error"].is_string(), "{bad}: {v}");
    }
    // Undo, resign and draws need a seat; spectators cannot change the game.
    for action in ["undo", "resign"] {
        let (got, _) = s.post(&format!("/api/games/{id}/{action}"), json!({})).await;
        assert_eq!(got, StatusCode::FORBIDDEN, "{action}");
    }
    assert_eq!(s.post(&format!("/api/games/{id}/undo"), json!({"token": white})).await.0, StatusCode::CONFLICT);

    s.restart();
    let st = s.state(&id).await;
    assert_eq!(sans(&st), ["Cc2"], "nothing refused was stored");
    assert_eq!(st["result"], Value::Null);
    let (_, list) = s.get("/api/games").await;
    assert_eq!(list.as_array().map(Vec::len), Some(1), "no refused game was stored");
}

#[tokio::test]
async fn names_are_kept_as_given_and_escaped_in_records() {
    let s = Server::new("names");
    let name = "Ann \"the <b>Bold</b>\" \\ O'Neil";
    let (id, _) = s
        .create(json!({"variant": "raumschach", "mode": "online", "names": {"white": name, "black": "\u{7}Bob\n"}}))
        .await;
    let st = s.state(&id).await;
    assert_eq!(st["names"]["white"], name);
    assert_eq!(st["names"]["black"], "Bob", "control characters are dropped");
    let (_, pgn) = s.get(&format!("/api/games/{id}/pgn")).await;
    let record = &parse_records(pgn.as_str().expect("text")).expect("reads back")[0];
    assert_eq!(record.tag("White"), Some(name));
}

#[tokio::test]
async fn online_seats_resign_and_agree_draws() {
    let s = Server::new("online");
    let (id, t) = s.create(json!({"variant": "five-up", "mode": "online"})).await;
    let draw = format!("/api/games/{id}/draw");
    assert_eq!(s.post(&draw, json!({"token": t["white"], "action": "accept"})).await.0, StatusCode::CONFLICT);
    let (_, st) = s.post(&draw, json!({"token": t["white"], "action": "offer"})).await;
    assert_eq!(st["draw_offer"], "white");
    assert_eq!(
        s.post(&draw, json!({"token": t["white"], "action": "accept"})).await.0,
        StatusCode::CONFLICT,
        "not one's own offer"
    );
    let (_, st) = s.post(&draw, json!({"token": t["black"], "action": "decline"})).await;
    assert_eq!(st["draw_offer"], Value::Null);
    let (_, st) = s.post(&draw, json!({"token": t["white"], "action": "offer"})).await;
    assert_eq!(st["draw_offer"], "white");
    // Offering back while the other's offer stands agrees to it.
    let (_, st) = s.post(&draw, json!({"token": t["black"], "action": "offer"})).await;
    assert_eq!(st["result"]["text"], "1/2-1/2, draw agreed");
    assert_eq!(s.play(&id, &t["white"], 0, "P-Cc2").await.0, StatusCode::CONFLICT, "the game is over");

    let (id, t) = s.create(json!({"variant": "octahedral", "mode": "online"})).await;
    let (_, st) = s.post(&format!("/api/games/{id}/resign"), json!({"token": t["black"]})).await;
    assert_eq!(st["result"]["text"], "1-0, Black resigns");
    let (_, pgn) = s.get(&format!("/api/games/{id}/pgn")).await;
    assert!(pgn.as_str().unwrap_or_default().contains("[Termination \"resignation\"]"));
}

async fn wait_for_ply(s: &Server, id: &str, ply: u64) -> Value {
    for _ in 0..600 {
        let st = s.state(id).await;
        if st["ply"].as_u64() == Some(ply) && st["engine"]["thinking"] == false {
            return st;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the engine did not reach ply {ply}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_answers_and_take_backs_return_to_the_persons_turn() {
    let s = Server::new("engine");
    let (id, t) =
        s.create(json!({"variant": "five-up", "mode": "engine", "engine": {"color": "white", "level": 1}})).await;
    assert!(t.get("white").is_none(), "the engine's seat has no token");
    let st = wait_for_ply(&s, &id, 1).await;
    let reply = st["legal"][0]["coord"].as_str().expect("a legal move").to_string();
    assert_eq!(s.play(&id, &t["black"], 1, &reply).await.0, StatusCode::OK);
    let st = wait_for_ply(&s, &id, 3).await;
    assert_eq!(st["moves"].as_array().map(Vec::len), Some(3));
    let undo = format!("/api/games/{id}/undo");
    assert_eq!(
        s.post(&undo, json!({"token": t["black"], "ply": 2})).await.0,
        StatusCode::CONFLICT,
        "a stale take-back"
    );
    let (status, st) = s.post(&undo, json!({"token": t["black"], "ply": 3})).await;
    assert_eq!(status, StatusCode::OK, "{st}");
    assert_eq!(st["ply"], 1, "back to Black's turn: the engine's move and the person's");
    let (status, a) = s.post(&format!("/api/games/{id}/analysis"), json!({"movetime": 100})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert!(a["best"]["coord"].is_string() && a["line"].as_array().is_some_and(|l| !l.is_empty()), "{a}");
    assert_eq!(
        s.post(&format!("/api/games/{id}/draw"), json!({"token": t["black"], "action": "offer"})).await.0,
        StatusCode::CONFLICT
    );
}

#[tokio::test]
async fn games_start_from_a_position_string_or_a_record() {
    let s = Server::new("imports");
    let record = "[Variant \"five-up\"]\n[White \"A\"]\n\n1. Cc2 Cc4 2. B-Ca1 *\n";
    let (id, t) = s.create(json!({"mode": "local", "pgn": record})).await;
    let st = s.state(&id).await;
    assert_eq!(sans(&st), ["Cc2", "Cc4", "B-Ca1"]);
    assert_eq!(s.play(&id, &t["white"], 3, "BxEb2").await.1["result"]["reason"], "checkmate");

    let (id, _) = s.create(json!({"variant": "five-up", "mode": "local", "fen": st["fen"]})).await;
    let from_fen = s.state(&id).await;
    assert_eq!((from_fen["start"].clone(), from_fen["ply"].clone()), (st["fen"].clone(), json!(0)));
    let (_, pgn) = s.get(&format!("/api/games/{id}/pgn")).await;
    assert!(pgn.as_str().unwrap_or_default().contains("[SetUp \"1\"]"));

    let (status, v) = s.post("/api/games", json!({"variant": "raumschach", "mode": "local", "pgn": record})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
}

#[tokio::test]
async fn a_fallen_flag_ends_the_game() {
    let s = Server::new("clock");
    let (id, t) = s
        .create(json!({"variant": "five-up", "mode": "online", "clock": {"initial_ms": 400, "increment_ms": 0}}))
        .await;
    let st = s.state(&id).await;
    assert_eq!(st["clock"]["running"], Value::Null, "clocks start with the first move");
    assert_eq!(s.play(&id, &t["white"], 0, "P-Cc2").await.0, StatusCode::OK);
    // Changes that are not moves leave the clock running.
    let (_, st) = s.post(&format!("/api/games/{id}/draw"), json!({"token": t["white"], "action": "offer"})).await;
    assert_eq!(st["draw_offer"], "white");
    tokio::time::sleep(Duration::from_millis(700)).await;
    let st = s.state(&id).await;
    assert_eq!(st["result"]["text"], "1-0, Black's time is up", "{st}");
    assert_eq!(st["clock"]["black_ms"], 0);
}

#[tokio::test]
async fn every_variant_is_described_from_its_geometry() {
    let s = Server::new("variants");
    let (_, list) = s.get("/api/variants").await;
    // Every variant but the unicorn's, whose shared cells the boards do not draw yet.
    let offered: Vec<VariantId> = VariantId::ALL.into_iter().filter(|&v| v != VariantId::FiveUpUnicorn).collect();
    assert_eq!(list.as_array().map(Vec::len), Some(offered.len()));
    let (status, _) = s.get("/api/variants/five-up-unicorn").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, st) = s.post("/api/games", json!({"variant": "five-up-unicorn", "mode": "local"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{st}");
    for id in offered {
        let (status, v) = s.get(&format!("/api/variants/{id}")).await;
        assert_eq!(status, StatusCode::OK);
        let cells = v["cells"].as_array().expect("cells");
        let names: std::collections::HashSet<&str> = cells.iter().filter_map(|c| c["name"].as_str()).collect();
        assert_eq!(names.len(), cells.len(), "{id}: cell names are distinct");
        assert_eq!(v["levels"].as_array().map(Vec::len), v["dims"][2].as_u64().map(|n| n as usize), "{id}");
        let (status, r) = s.get(&format!("/api/variants/{id}/rules")).await;
        assert_eq!(status, StatusCode::OK);
        for p in r["pieces"].as_array().expect("pieces") {
            assert!(!p["moves"].as_array().expect("moves").is_empty(), "{id}: {} has moves", p["name"]);
            assert!(!p["captures"].as_array().expect("captures").is_empty(), "{id}: {} captures", p["name"]);
        }
        let (status, st) = s.post("/api/games", json!({"variant": id.name(), "mode": "local"})).await;
        assert_eq!(status, StatusCode::CREATED, "{id}");
        assert!(!st["state"]["legal"].as_array().expect("legal").is_empty(), "{id}");
    }
    let (_, knight) = s.get("/api/variants/five-up/rules").await;
    let n = knight["pieces"].as_array().and_then(|ps| ps.iter().find(|p| p["letter"] == "N")).cloned().expect("knight");
    assert_eq!(n["moves"].as_array().map(Vec::len), Some(24), "the knight's (0,1,2) leaps from the centre");
}

#[tokio::test]
async fn take_backs_restore_the_clocks() {
    let s = Server::new("undo-clock");
    let (id, t) = s
        .create(json!({"variant": "five-up", "mode": "local", "clock": {"initial_ms": 60_000, "increment_ms": 5_000}}))
        .await;
    let t = &t["white"];
    assert_eq!(s.play(&id, t, 0, "P-Cc2").await.0, StatusCode::OK);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let (_, st) = s.play(&id, t, 1, "P-Cc4").await;
    assert!(st["clock"]["black_ms"].as_i64().is_some_and(|ms| ms > 60_000), "the increment: {st}");
    let (_, st) = s.post(&format!("/api/games/{id}/undo"), json!({"token": t})).await;
    assert_eq!(st["ply"], 1);
    assert_eq!(st["clock"]["black_ms"], 60_000, "Black's clock as it stood before the taken-back move");
    assert_eq!(st["clock"]["running"], "black");
    let (_, st) = s.post(&format!("/api/games/{id}/undo"), json!({"token": t})).await;
    assert_eq!(
        (st["ply"].clone(), st["clock"]["running"].clone()),
        (json!(0), Value::Null),
        "back at the start, clocks stopped"
    );
}
