//! The JSON API against the router, with games kept in a temporary SQLite
//! file, or, where `RAUM_TEST_POSTGRES` names a PostgreSQL database (as
//! `scripts/test.sh` runs these tests a second time), in a schema of its own
//! there: what is played, what is refused (and that nothing refused is
//! stored), and that a new server on the same database finds every game.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use raum_notation::parse_records;
use raum_rules::multi::MultiId;
use raum_rules::{GameRules, VariantId};
use raum_server::games::Games;
use raum_server::store::Database;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceExt;

#[path = "api/analysis_board.rs"]
mod analysis_board;
#[path = "api/headers.rs"]
mod headers;
#[path = "api/instances.rs"]
mod instances;
#[path = "api/limits.rs"]
mod limits;
#[path = "api/metrics.rs"]
mod metrics;
#[path = "api/multi_features.rs"]
mod multi_features;
#[path = "api/operations.rs"]
mod operations;
#[path = "api/rematch.rs"]
mod rematch;
#[path = "api/retention.rs"]
mod retention;
#[path = "api/seat_tokens.rs"]
mod seat_tokens;
#[path = "api/takeback_requests.rs"]
mod takeback_requests;
#[path = "api/variant_files.rs"]
mod variant_files;

/// An empty database for test `name`: a schema of its own in the PostgreSQL
/// database `RAUM_TEST_POSTGRES` names, or else a new SQLite file.
fn test_database(name: &str) -> Database {
    match std::env::var("RAUM_TEST_POSTGRES") {
        Ok(base) => Database::Postgres(
            raum_server::store::fresh_schema(&base, &format!("api_{name}_{}", std::process::id())).expect("a schema"),
        ),
        Err(_) => {
            let db = std::env::temp_dir().join(format!("raum-api-{name}-{}.db", std::process::id()));
            for ext in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
            }
            Database::Sqlite(db)
        }
    }
}

/// `raum serve` itself on a port of its own, over a database of its own,
/// for what needs real connections (sockets closing, a server stopping).
struct Served {
    addr: String,
    /// Sent (or dropped): the server stops gracefully.
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Served {
    async fn start(name: &str) -> Served {
        Served::start_with(name, raum_server::limits::Policy::default()).await
    }

    /// [`Served::start`] with its limits as `policy` says.
    async fn start_with(name: &str, policy: raum_server::limits::Policy) -> Served {
        let config = raum_server::Config {
            port: 0,
            db: test_database(name),
            engine_workers: 1,
            policy,
            ..raum_server::Config::default()
        };
        let (url_tx, url_rx) = tokio::sync::oneshot::channel();
        let (stop, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let mut url_tx = Some(url_tx);
            let ready = move |url: &str, _: &str| {
                if let Some(tx) = url_tx.take() {
                    let _ = tx.send(url.to_string());
                }
            };
            raum_server::serve_until(config, ready, async move { drop(stop_rx.await) }).await
        });
        let url = url_rx.await.expect("the server's URL");
        Served { addr: url.trim_start_matches("http://").trim_end_matches('/').to_string(), stop: Some(stop), task }
    }

    /// Creates an online game over `conn`, which stays open (an idle keep-alive connection); its id.
    async fn create_game(conn: &mut tokio::net::TcpStream) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let body = json!({"variant": "five-up", "mode": "online"}).to_string();
        let request = format!(
            "POST /api/games HTTP/1.1\r\nhost: raum\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        );
        conn.write_all(request.as_bytes()).await.expect("sends");
        let mut answer = vec![0u8; 8192];
        let n = conn.read(&mut answer).await.expect("an answer");
        let created = String::from_utf8_lossy(&answer[..n]).into_owned();
        assert!(created.starts_with("HTTP/1.1 201"), "{created}");
        let body = &created[created.find("\r\n\r\n").expect("a body") + 4..];
        serde_json::from_str::<Value>(body).expect("JSON")["id"].as_str().expect("an id").to_string()
    }

    /// `POST path` with `body` and the extra header lines `headers` (each
    /// ending in CRLF) on a connection of its own: the status.
    async fn post(&self, path: &str, headers: &str, body: &Value) -> u16 {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut conn = tokio::net::TcpStream::connect(&self.addr).await.expect("connects");
        let body = body.to_string();
        let request = format!(
            "POST {path} HTTP/1.1\r\nhost: raum\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n{headers}\r\n{body}",
            body.len()
        );
        conn.write_all(request.as_bytes()).await.expect("sends");
        let mut answer = Vec::new();
        conn.read_to_end(&mut answer).await.expect("an answer");
        let head = String::from_utf8_lossy(&answer);
        head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("no status: {head}"))
    }

    /// Stops it (unless stopped already) and waits, at most 5 s, for a clean stop.
    async fn finish(mut self) {
        drop(self.stop.take());
        let served = tokio::time::timeout(Duration::from_secs(5), self.task).await.expect("stopped within 5 s");
        served.expect("the server's task").expect("a clean stop");
    }
}

/// A server over a database of its own.
struct Server {
    db: Database,
    app: axum::Router,
    /// The games behind `app`, for what no API call does (the sweep of abandoned games).
    games: Arc<Games>,
}

impl Server {
    fn new(name: &str) -> Server {
        let db = test_database(name);
        let (app, games) = Server::open(&db);
        Server { db, app, games }
    }

    fn open(db: &Database) -> (axum::Router, Arc<Games>) {
        let games = Games::new(db.open().expect("open the database"), 1);
        games.watch_store().expect("the store's feed of changes, where it has one");
        (raum_server::api::router(Arc::clone(&games)), games)
    }

    /// Another server on the same database, beside this one.
    fn beside(&self) -> Server {
        let (app, games) = Server::open(&self.db);
        Server { db: self.db.clone(), app, games }
    }

    /// A new server process on the same file, as after a restart.
    fn restart(&mut self) {
        (self.app, self.games) = Server::open(&self.db);
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
        // (On PostgreSQL, each test's schema is left for the scratch cluster to go with.)
        if let Database::Sqlite(path) = &self.db {
            for ext in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
            }
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
    let game = record.replay().expect("and replays");
    assert_eq!(game.id(), raum_rules::GameId::Two(VariantId::FiveUp));
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
    assert_eq!(parse_records(text).expect("the record reads back")[0].result_text(), "3/5-2/5");
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
        json!({"variant": "five-up", "mode": "engine", "engine": {"color": "white", "level": 99}}),
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

/// A record pasted where the variant is already chosen (the lobby) need not
/// name it; an empty one is refused in words.
#[tokio::test]
async fn a_record_without_a_variant_tag_is_a_game_of_the_variant_given() {
    let s = Server::new("untagged-record");
    let (id, _) = s.create(json!({"variant": "five-up", "mode": "local", "pgn": "1. Cc2 Cc4 2. B-Ca1 *"})).await;
    let st = s.state(&id).await;
    assert_eq!(st["variant"], "five-up");
    assert_eq!(sans(&st), ["Cc2", "Cc4", "B-Ca1"]);
    // with other tags, and for more sides
    let (id, _) =
        s.create(json!({"variant": "wing-table-4p", "mode": "local", "pgn": "[Event \"x\"]\n\n1. 1e3-1e4 *"})).await;
    assert_eq!(
        (s.state(&id).await["variant"].as_str(), s.state(&id).await["ply"].as_u64()),
        (Some("wing-table-4p"), Some(1))
    );
    // the record's own tag still says which game it is
    let tagged = "[Variant \"raumschach\"]\n\n*";
    let (status, v) = s.post("/api/games", json!({"variant": "five-up", "mode": "local", "pgn": tagged})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    // no tag and no variant; no game at all
    for (body, says) in [
        (json!({"mode": "local", "pgn": "1. Cc2 *"}), "no [Variant"),
        (json!({"variant": "five-up", "mode": "local", "pgn": ""}), "the record is empty"),
        (json!({"variant": "five-up", "mode": "local", "pgn": " \n {a comment} \n"}), "the record is empty"),
    ] {
        let (status, v) = s.post("/api/games", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert!(v["error"].as_str().is_some_and(|e| e.contains(says)), "{body}: {v}");
    }
    let (_, list) = s.get("/api/games").await;
    assert_eq!(list.as_array().map(Vec::len), Some(2), "nothing refused was stored");
}

/// `POST .../analysis` with `ply` analyses the position after that many
/// moves; without it, the position now; past the game's moves it is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_of_an_earlier_position() {
    let s = Server::new("analysis-ply");
    let (id, t) = s.create(json!({"variant": "five-up", "mode": "local"})).await;
    for (ply, text) in ["P-Cc2", "P-Cc4", "B-Ca1"].into_iter().enumerate() {
        assert_eq!(s.play(&id, &t["white"], ply, text).await.0, StatusCode::OK);
    }
    let analysis = format!("/api/games/{id}/analysis");
    // now (no ply, or ply 3): Black mates at once
    for body in [json!({"movetime": 200}), json!({"movetime": 200, "ply": 3})] {
        let (status, a) = s.post(&analysis, body.clone()).await;
        assert_eq!(status, StatusCode::OK, "{body}: {a}");
        assert_eq!((a["score"].as_str(), a["best"]["coord"].as_str()), (Some("#-1"), Some("Bb5-Eb2")), "{body}: {a}");
    }
    // the start: a White move of the start position
    let (status, a) = s.post(&analysis, json!({"movetime": 50, "ply": 0})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    let (start, _) = s.create(json!({"variant": "five-up", "mode": "local"})).await;
    let st = s.state(&start).await;
    let legal: Vec<&str> = st["legal"].as_array().expect("legal").iter().filter_map(|m| m["coord"].as_str()).collect();
    assert!(a["best"]["coord"].as_str().is_some_and(|c| legal.contains(&c)), "{a}");
    assert_ne!(a["score"], "#-1");
    // past the game's moves: refused, and the game is as it was
    let (status, v) = s.post(&analysis, json!({"movetime": 50, "ply": 4})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().is_some_and(|e| e.contains("ply 4: expected 0 to 3")), "{v}");
    assert_eq!(s.post(&analysis, json!({"ply": -1})).await.0, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(s.post(&analysis, json!({"ply": "one"})).await.0, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(s.state(&id).await["ply"], 3, "the game is untouched");
    // after mate, an earlier position still analyses as itself
    assert_eq!(s.play(&id, &t["white"], 3, "BxEb2").await.0, StatusCode::OK);
    let (status, a) = s.post(&analysis, json!({"movetime": 100, "ply": 3})).await;
    assert_eq!((status, a["best"]["coord"].as_str()), (StatusCode::OK, Some("Bb5-Eb2")), "{a}");
    assert_eq!(s.state(&id).await["result"]["reason"], "checkmate");
    // an online game in progress gets no help, at any ply
    let (online, _) = s.create(json!({"variant": "five-up", "mode": "online"})).await;
    let (status, _) = s.post(&format!("/api/games/{online}/analysis"), json!({"ply": 0})).await;
    assert_eq!(status, StatusCode::CONFLICT);
}

/// A move that does not read says how to write one, never sending a web
/// user to the command-line tool.
#[tokio::test]
async fn a_move_that_does_not_read_says_how_to_write_one() {
    let s = Server::new("move-syntax");
    let (id, t) = s.create(json!({"variant": "five-up", "mode": "local"})).await;
    let (status, v) = s.play(&id, &t["white"], 0, "hello").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let e = v["error"].as_str().unwrap_or_default();
    assert!(e.contains("'hello' is not a move") && e.contains("Dc2-Cc2") && e.contains("P-Cc2"), "{e}");
    assert!(!e.contains("raum ") && !e.contains('`'), "{e}");
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
    // Every two-player game, then the multi-player games.
    let offered: Vec<VariantId> = VariantId::ALL.into_iter().collect();
    assert_eq!(list.as_array().map(Vec::len), Some(offered.len() + MultiId::ALL.len()));
    assert!(list[0].get("sides").is_none(), "two-player entries are as before: {}", list[0]);
    // Each two-player game lists Raum's levels, with the Elo measured in it (Five Up's ladder
    // first); a game without a ladder of its own shows none.
    let skill = |id: &str| list.as_array().unwrap().iter().find(|v| v["id"] == id).unwrap()["skill_levels"].clone();
    let five = skill("five-up");
    assert_eq!(five.as_array().map(Vec::len), Some(raum_engine::LEVELS as usize), "{five}");
    assert_eq!((five[0]["level"].as_u64(), five[0]["full"].as_bool()), (Some(1), Some(false)), "{five}");
    assert!(
        five[0]["elo"].as_i64().is_some_and(|e| e > 0) && five[raum_engine::LEVELS as usize - 1]["full"] == true,
        "{five}"
    );
    assert!(skill("octahedral").as_array().unwrap().iter().all(|l| l.get("elo").is_none()));
    assert!(skill("triquetral-3p").is_null());
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

// ---- multi-player games -------------------------------------------------------

/// The events' move texts.
fn coords(state: &Value) -> Vec<String> {
    state["moves"].as_array().expect("moves").iter().map(|m| m["san"].as_str().unwrap_or("?").to_string()).collect()
}

/// A triquetral-3p position: the three kings where they start and a Blue knight that White's
/// king can take, leaving only kings (a draw at once, 1/3 to each side). Its position string
/// and that capture.
fn kings_and_a_knight() -> (String, String) {
    use raum_notation::{format_multi_move, format_multi_position};
    use raum_rules::multi::{MultiPosition, MultiVariant};
    use raum_rules::{MultiFn, Width};
    struct Find;
    impl MultiFn for Find {
        type Output = (String, String);
        fn call<S: Width>(self, v: &'static MultiVariant<S>) -> (String, String) {
            let b = v.board();
            let knight = b.kind_of('N').expect("a knight");
            let kings: Vec<_> = v.start_men().iter().copied().filter(|&(_, _, k)| k == b.king()).collect();
            let white_king = kings.iter().find(|m| m.1 == 0).expect("White's king").0;
            for cell in 0..v.cells() {
                let mut men = kings.clone();
                if men.iter().any(|m| m.0 == cell) {
                    continue;
                }
                men.push((cell, 1, knight));
                let Ok(pos) = MultiPosition::from_men(v, &men, 0, 0, 1) else { continue };
                if let Some(&m) = pos.legal_moves().iter().find(|m| m.from() == white_king && m.to() == cell) {
                    return (format_multi_position(&pos), format_multi_move(v, m));
                }
            }
            panic!("no cell next to White's king takes a Blue knight");
        }
    }
    MultiId::Triquetral3p.dispatch(Find)
}

#[tokio::test]
async fn multi_player_games_seat_each_side_and_survive_a_restart() {
    let mut s = Server::new("multi");
    let seats = json!({"white": {"name": "Ann"}, "b": {"name": "Bob"}, "green": {"player": "human"}});
    let (status, created) =
        s.post("/api/games", json!({"variant": "triquetral-3p", "mode": "online", "seats": seats})).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let t = created["tokens"].clone();
    let (white, blue, green) = (&t["white"], &t["blue"], &t["green"]);
    assert!(white.is_string() && blue.is_string() && green.is_string(), "{t}");
    assert!(white != blue && blue != green && white != green, "a token per seat");
    let link = created["links"]["blue"].as_str().expect("Blue's link");
    assert!(link.starts_with(&format!("/g/{id}#t=")) && link.ends_with("&c=blue"), "{link}");
    assert_eq!(created["links"]["spectate"], format!("/g/{id}"));

    let st = s.state(&id).await;
    assert_eq!(
        (&st["kind"], &st["mode"], &st["side"], &st["teams"]),
        (&json!("multi"), &json!("online"), &json!("white"), &json!(false))
    );
    let sides: Vec<&str> = st["sides"].as_array().expect("sides").iter().filter_map(|x| x["key"].as_str()).collect();
    assert_eq!(sides, ["white", "blue", "green"], "turn order");
    assert_eq!(
        (&st["sides"][0]["player"], &st["sides"][1]["player"], &st["sides"][2]["player"]),
        (&json!("Ann"), &json!("Bob"), &json!("Green"))
    );
    assert_eq!(st["legal"].as_array().map(Vec::len), Some(22), "RULES.md: 22 legal first moves");
    assert!(st["start_pieces"].as_array().expect("men").iter().all(|m| m[1].as_str().is_some_and(|t| t.len() == 2)));
    assert!(st["fen"].as_str().is_some_and(|f| f.ends_with(" w - - 0 1")), "{}", st["fen"]);

    let first = st["legal"][0]["coord"].as_str().expect("a move").to_string();
    assert_eq!(s.play(&id, blue, 0, &first).await.0, StatusCode::FORBIDDEN, "Blue's seat at White's turn");
    assert_eq!(s.play(&id, &json!("0123456789abcdef"), 0, &first).await.0, StatusCode::FORBIDDEN);
    assert_eq!(s.play(&id, white, 0, "1z1-1z2").await.0, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(s.play(&id, white, 0, "P-Cc2").await.0, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, st) = s.play(&id, white, 0, &first).await;
    assert_eq!(status, StatusCode::OK, "{st}");
    assert_eq!((&st["ply"], &st["side"]), (&json!(1), &json!("blue")));
    assert_eq!(st["moves"][0]["color"], "white");
    assert_eq!(st["moves"][0]["changes"].as_array().map(Vec::len), Some(2));
    assert_eq!(s.play(&id, white, 0, &first).await.0, StatusCode::CONFLICT, "a ply is played once");
    let reply = st["legal"][0]["coord"].as_str().expect("Blue's move").to_string();
    assert_eq!(s.play(&id, white, 1, &reply).await.0, StatusCode::FORBIDDEN, "White's seat at Blue's turn");
    assert_eq!(s.play(&id, blue, 1, &reply).await.0, StatusCode::OK);
    // No draw offers, analysis or take-backs online in multi-player games.
    for (path, body) in [
        ("draw", json!({"token": green, "action": "offer"})),
        ("analysis", json!({"movetime": 50})),
        ("undo", json!({"token": green})),
    ] {
        let (status, v) = s.post(&format!("/api/games/{id}/{path}"), body).await;
        assert_eq!(status, StatusCode::CONFLICT, "{path}: {v}");
        assert!(v["error"].is_string(), "{path}: {v}");
    }
    let before = s.state(&id).await;

    s.restart();
    let after = s.state(&id).await;
    for field in ["moves", "fen", "side", "ply", "sides", "legal", "start"] {
        assert_eq!(after[field], before[field], "{field} after a restart");
    }
    assert_eq!(s.play(&id, green, 2, after["legal"][0]["coord"].as_str().expect("move")).await.0, StatusCode::OK);

    let (status, pgn) = s.get(&format!("/api/games/{id}/pgn")).await;
    assert_eq!(status, StatusCode::OK);
    let text = pgn.as_str().expect("text");
    for tag in
        ["[White \"Ann\"]", "[Blue \"Bob\"]", "[Green \"Green\"]", "[Variant \"triquetral-3p\"]", "[Result \"*\"]"]
    {
        assert!(text.contains(tag), "{tag} in {text}");
    }
    let record = &raum_notation::parse_records(text).expect("the record reads back")[0];
    let replayed = raum_server::any_multi_game::replay_multi(record).expect("and replays");
    assert_eq!(replayed.ply(), 3);
    assert_eq!(replayed.fen(), s.state(&id).await["fen"].as_str().expect("fen"));

    let (_, list) = s.get("/api/games").await;
    assert_eq!(list[0]["players"], json!(["Ann", "Bob", "Green"]));
    assert!(!list.to_string().contains(white.as_str().expect("token")), "the list shows no token");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_seats_answer_in_turn() {
    let s = Server::new("multi-engine");
    let seats = json!({"blue": {"player": "engine", "movetime": 40}, "green": {"player": "engine", "movetime": 40}});
    let (status, created) =
        s.post("/api/games", json!({"variant": "triquetral-3p", "mode": "online", "seats": seats})).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let t = &created["tokens"];
    assert!(t.get("blue").is_none() && t.get("green").is_none(), "engine seats have no token: {t}");
    let st = s.state(&id).await;
    assert_eq!(
        (&st["sides"][1]["human"], &st["sides"][1]["movetime"], &st["sides"][1]["player"]),
        (&json!(false), &json!(40), &json!("Raum (40 ms)"))
    );
    for round in 0..2 {
        let st = s.state(&id).await;
        let ply = st["ply"].as_u64().expect("ply");
        assert_eq!((ply, &st["side"]), (3 * round, &json!("white")));
        let mv = st["legal"][0]["coord"].as_str().expect("a move").to_string();
        let (status, v) = s.play(&id, &t["white"], ply as usize, &mv).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        // Blue's seat is the engine's: a person cannot move for it.
        let blue = v["legal"][0]["coord"].as_str().expect("Blue's move").to_string();
        assert_eq!(s.play(&id, &t["white"], ply as usize + 1, &blue).await.0, StatusCode::FORBIDDEN);
        let mut answered = Value::Null;
        for _ in 0..400 {
            let st = s.state(&id).await;
            if st["ply"] == ply + 3 && st["engine"]["thinking"] == false {
                answered = st;
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        assert_eq!(answered["side"], "white", "both engines answered: {answered}");
        let colors: Vec<&str> =
            answered["moves"].as_array().expect("moves").iter().filter_map(|m| m["color"].as_str()).collect();
        assert_eq!(&colors[colors.len() - 3..], ["white", "blue", "green"]);
    }
    // Raum's seats do not resign.
    let (status, v) = s.post(&format!("/api/games/{id}/resign"), json!({"token": t["white"], "side": "blue"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "an online seat resigns only its own side: {v}");
}

#[tokio::test]
async fn resignations_end_a_team_game_and_take_a_free_for_all_side_out() {
    let mut s = Server::new("multi-resign");
    // Four at one screen: Red resigns for its team.
    let (id, t) = s.create(json!({"variant": "wing-table-4p", "mode": "local"})).await;
    let token = &t["white"];
    assert!(["red", "black", "blue"].iter().all(|k| t[k] == *token), "one token at one screen: {t}");
    let (status, st) = s.post(&format!("/api/games/{id}/resign"), json!({"token": token, "side": "red"})).await;
    assert_eq!(status, StatusCode::OK, "{st}");
    let want = json!({
        "score": "1-0-1-0",
        "points": ["1", "0", "1", "0"],
        "winners": ["white", "black"],
        "reason": "resignation",
        "text": "1-0-1-0, Red resigns",
    });
    assert_eq!(st["result"], want);
    assert_eq!(st["legal"].as_array().map(Vec::len), Some(0));
    s.restart();
    assert_eq!(s.state(&id).await["result"], want);
    let (_, pgn) = s.get(&format!("/api/games/{id}/pgn")).await;
    let text = pgn.as_str().expect("text");
    assert!(text.contains("[Result \"1-0-1-0\"]") && text.contains("[Termination \"resignation\"]"), "{text}");
    let record = &raum_notation::parse_records(text).expect("reads back")[0];
    assert_eq!(raum_notation::format_result(record.result.as_deref()), "1-0-1-0");

    // Every side for itself: Blue resigns out of turn and is out; the others play on.
    let (id, t) = s.create(json!({"variant": "triquetral-3p", "mode": "online"})).await;
    let resign = format!("/api/games/{id}/resign");
    assert_eq!(s.post(&resign, json!({})).await.0, StatusCode::FORBIDDEN, "a spectator cannot resign");
    assert_eq!(s.post(&resign, json!({"token": t["blue"], "side": "purple"})).await.0, StatusCode::BAD_REQUEST);
    let (status, st) = s.post(&resign, json!({"token": t["blue"]})).await;
    assert_eq!(status, StatusCode::OK, "{st}");
    assert_eq!(st["result"], Value::Null, "the game goes on");
    assert_eq!(
        (&st["sides"][1]["in"], &st["sides"][1]["out"]),
        (&json!(false), &json!({"ply": 1, "reason": "resignation"}))
    );
    assert_eq!(st["moves"][0]["san"], "Blue resigns");
    assert!(
        st["moves"][0]["changes"].as_array().is_some_and(|c| !c.is_empty() && c.iter().all(|x| x[1].is_null())),
        "Blue's men leave the board"
    );
    assert!(!st["fen"].as_str().expect("fen").contains('b'), "{}", st["fen"]);
    assert_eq!(s.post(&resign, json!({"token": t["blue"]})).await.0, StatusCode::CONFLICT, "Blue is out already");
    let mv = st["legal"][0]["coord"].as_str().expect("a move").to_string();
    let (_, st) = s.play(&id, &t["white"], 1, &mv).await;
    assert_eq!(st["side"], "green", "the turn passes over Blue");
    let (_, st) = s.post(&resign, json!({"token": t["green"]})).await;
    assert_eq!(st["result"]["text"], "1-0-0, Green resigns; White is the last side in");
    assert_eq!(st["sides"][0]["score"], "1");
    s.restart();
    let st = s.state(&id).await;
    assert_eq!((st["result"]["score"].clone(), st["ply"].clone()), (json!("1-0-0"), json!(3)));
    assert_eq!(coords(&st), ["Blue resigns", mv.as_str(), "Green resigns"]);
    let (_, pgn) = s.get(&format!("/api/games/{id}/pgn")).await;
    let text = pgn.as_str().expect("text");
    assert!(text.contains(" Blue-resigns ") && text.contains(" Green-resigns 1-0-0"), "{text}");
    assert!(text.contains("[Termination \"resignation\"]"), "{text}");
    let record = &raum_notation::parse_records(text).expect("reads back")[0];
    assert_eq!(
        raum_server::any_multi_game::replay_multi(record).expect("replays").outcome().map(|o| o.scores.len()),
        Some(3)
    );
}

#[tokio::test]
async fn a_record_with_a_resignation_mid_game_replays() {
    use raum_notation::{Record, format_multi_position, parse_records};
    use raum_rules::Action;
    use raum_rules::multi::MultiGame;
    let mut s = Server::new("multi-resign-record");
    let (id, t) = s.create(json!({"variant": "triquetral-3p", "mode": "local"})).await;
    let token = &t["white"];
    let play_first = |ply: usize| {
        let s = &s;
        let id = id.clone();
        async move {
            let st = s.state(&id).await;
            let mv = st["legal"][0]["coord"].as_str().expect("a move").to_string();
            let (status, st) = s.play(&id, token, ply, &mv).await;
            assert_eq!(status, StatusCode::OK, "{st}");
            st
        }
    };
    // Two rounds and White's move of the third; Blue resigns on its turn;
    // Green and White play on.
    for ply in 0..7 {
        play_first(ply).await;
    }
    let (status, st) = s.post(&format!("/api/games/{id}/resign"), json!({"token": token, "side": "blue"})).await;
    assert_eq!(status, StatusCode::OK, "{st}");
    assert_eq!((&st["result"], &st["side"]), (&Value::Null, &json!("green")));
    play_first(8).await;
    let st = play_first(9).await;
    assert_eq!((&st["ply"], &st["side"]), (&json!(10), &json!("green")));

    let (_, pgn) = s.get(&format!("/api/games/{id}/pgn")).await;
    let text = pgn.as_str().expect("text");
    let sans = coords(&st);
    let round3 = format!("3. {} Blue-resigns {} 4. {} ", sans[6], sans[8], sans[9]);
    assert!(text.split_whitespace().collect::<Vec<_>>().join(" ").contains(&round3), "{round3} in {text}");
    assert!(text.contains("[Result \"*\"]"), "{text}");

    // raum_notation replays it to the game's position...
    let record = &parse_records(text).expect("reads back")[0];
    let game: MultiGame<raum_bitboard::Wide<4>> =
        record.replay().expect("replays").try_into().expect("a triquetral-3p game");
    assert_eq!(format_multi_position(game.position()), st["fen"].as_str().expect("fen"));
    assert_eq!(game.actions()[7], Action::Resign(1));
    assert_eq!((game.actions().len(), game.position().sides_in()), (10, vec![0, 2]));
    assert_eq!(
        Record::from_game(&game).to_string().split_once("\n\n").map(|x| x.1),
        text.split_once("\n\n").map(|x| x.1)
    );
    // ...and so does the web app's reader, event for event.
    let live = raum_server::any_multi_game::replay_multi(record).expect("replays");
    assert_eq!((live.fen().as_str(), live.ply()), (st["fen"].as_str().expect("fen"), 10));
    assert_eq!(serde_json::to_value(live.events()).expect("events"), st["moves"]);
    // A game continued from the record, and the stored game after a restart, are the same game.
    let (status, created) = s.post("/api/games", json!({"mode": "local", "pgn": text})).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!((&created["state"]["fen"], &created["state"]["moves"]), (&st["fen"], &st["moves"]));
    s.restart();
    let after = s.state(&id).await;
    for field in ["moves", "fen", "side", "ply", "sides", "legal"] {
        assert_eq!(after[field], st[field], "{field} after a restart");
    }
}

#[tokio::test]
async fn the_rules_end_a_multi_player_game_with_a_score_per_side() {
    let mut s = Server::new("multi-rules");
    let (fen, capture) = kings_and_a_knight();
    let (id, t) = s.create(json!({"variant": "triquetral-3p", "mode": "local", "fen": fen})).await;
    let (status, st) = s.play(&id, &t["white"], 0, &capture).await;
    assert_eq!(status, StatusCode::OK, "{st}");
    let want = json!({
        "score": "1/3-1/3-1/3",
        "points": ["1/3", "1/3", "1/3"],
        "winners": [],
        "reason": "bare-kings",
        "text": "1/3-1/3-1/3, only kings are left",
    });
    assert_eq!(st["result"], want);
    assert_eq!(s.play(&id, &t["white"], 1, &capture).await.0, StatusCode::CONFLICT, "the game is over");
    s.restart();
    assert_eq!(s.state(&id).await["result"], want);
    let (_, pgn) = s.get(&format!("/api/games/{id}/pgn")).await;
    let text = pgn.as_str().expect("text");
    assert!(text.contains("[SetUp \"1\"]") && text.contains("[Termination \"bare-kings\"]"), "{text}");
    let record = &raum_notation::parse_records(text).expect("reads back")[0];
    assert!(raum_server::any_multi_game::replay_multi(record).is_ok(), "and replays with its result");

    // Take-backs at one screen; a record continues.
    let (id, t) = s.create(json!({"variant": "wing-table-4p", "mode": "local"})).await;
    let token = &t["white"];
    for ply in 0..3 {
        let st = s.state(&id).await;
        let mv = st["legal"][0]["coord"].as_str().expect("a move").to_string();
        assert_eq!(s.play(&id, token, ply, &mv).await.0, StatusCode::OK);
    }
    let undo = format!("/api/games/{id}/undo");
    assert_eq!(s.post(&undo, json!({"token": token, "ply": 2})).await.0, StatusCode::CONFLICT, "a stale take-back");
    let (status, st) = s.post(&undo, json!({"token": token, "ply": 3})).await;
    assert_eq!((status, &st["ply"], &st["side"]), (StatusCode::OK, &json!(2), &json!("black")));
    let (_, pgn) = s.get(&format!("/api/games/{id}/pgn")).await;
    let (status, created) = s.post("/api/games", json!({"mode": "online", "pgn": pgn})).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!((&created["state"]["variant"], &created["state"]["ply"]), (&json!("wing-table-4p"), &json!(2)));
}

#[tokio::test]
async fn bad_multi_player_requests_say_why() {
    let s = Server::new("multi-refusals");
    for (bad, status) in [
        (json!({"variant": "triquetral-9p", "mode": "local"}), StatusCode::NOT_FOUND),
        (json!({"variant": "triquetral-3p", "mode": "engine"}), StatusCode::BAD_REQUEST),
        (json!({"variant": "triquetral-3p", "mode": "online", "seats": {"purple": {}}}), StatusCode::BAD_REQUEST),
        (
            json!({"variant": "triquetral-3p", "mode": "online", "seats": {"blue": {"player": "robot"}}}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "triquetral-3p", "mode": "online", "seats": {"blue": {"player": "engine", "movetime": 0}}}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "triquetral-3p", "mode": "online", "seats": {"blue": {"movetime": 100}}}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "triquetral-3p", "mode": "online", "seats": {"blue": {"colour": "blue"}}}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"variant": "triquetral-3p", "mode": "online", "seats": {"b": {}, "blue": {}}}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "triquetral-3p", "mode": "online", "seats": {"w": {"player": "engine"}, "b": {"player": "engine"}, "g": {"player": "engine"}}}),
            StatusCode::BAD_REQUEST,
        ),
        (json!({"variant": "wing-table-4p", "mode": "local", "clock": {"initial_ms": 60000}}), StatusCode::BAD_REQUEST),
        (json!({"variant": "wing-table-4p", "mode": "local", "names": {"white": "Ann"}}), StatusCode::BAD_REQUEST),
        (json!({"variant": "wing-table-4p", "mode": "local", "fen": "wK w - -"}), StatusCode::BAD_REQUEST),
        (json!({"variant": "five-up", "mode": "local", "seats": {"white": {}}}), StatusCode::BAD_REQUEST),
        (json!({"mode": "local", "pgn": "[Variant \"wing-table-4p\"]\n\n1. 2e3-2e5 *\n"}), StatusCode::BAD_REQUEST),
    ] {
        let (got, v) = s.post("/api/games", bad.clone()).await;
        assert_eq!(got, status, "{bad}: {v}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{bad}: {v}");
    }
    let (_, list) = s.get("/api/games").await;
    assert_eq!(list.as_array().map(Vec::len), Some(0), "nothing refused was stored");

    // The board and rules of each game, described from the rules core.
    let (_, list) = s.get("/api/variants").await;
    for id in MultiId::ALL {
        let entry = list.as_array().and_then(|l| l.iter().find(|v| v["id"] == id.name())).expect("listed");
        assert_eq!(entry["cells"], id.cells());
        let (status, v) = s.get(&format!("/api/variants/{id}")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(v["cells"].as_array().map(Vec::len), Some(id.cells()));
        assert_eq!(v["sides"], entry["sides"]);
        assert!(v["start"].as_str().is_some_and(|f| f.contains("wK")), "{}", v["start"]);
        let (status, r) = s.get(&format!("/api/variants/{id}/rules")).await;
        assert_eq!(status, StatusCode::OK);
        assert!(
            r["rules"]
                .as_array()
                .is_some_and(|t| t.iter().any(|x| x.as_str().is_some_and(|x| x.contains("turn order")))),
            "{r}"
        );
    }
}
