//! `raum serve` as a process: it prints its URL and database, serves the app,
//! and a server killed with SIGKILL in the middle of a game restarts with
//! every move it acknowledged.
#![cfg(feature = "serve")]

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

struct Server {
    child: Child,
    client: Client,
}

/// Talks HTTP/1.1 to the server, a connection a request (also to a balancer, `cluster.rs`).
#[derive(Clone)]
pub(super) struct Client {
    pub(super) addr: String,
}

impl Server {
    fn start(db: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_raum"))
            .args(["serve", "--port", "0", "--engine-workers", "1", "--db"])
            .arg(db)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("raum serve starts");
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let first = lines.next().and_then(Result::ok).unwrap_or_default();
        let url = first.strip_prefix("Raum is at ").unwrap_or_else(|| panic!("first line: {first:?}"));
        let addr = url.trim_start_matches("http://").trim_end_matches('/').to_string();
        let second = lines.next().and_then(Result::ok).unwrap_or_default();
        assert!(second.starts_with("Games are kept in ") && second.contains("raum-serve-"), "{second:?}");
        // Keep reading so the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        Server { child, client: Client { addr } }
    }
}

impl Client {
    /// One request on its own connection: status and body.
    pub(super) fn call(&self, method: &str, path: &str, body: Option<&Value>) -> std::io::Result<(u16, String)> {
        let mut s = TcpStream::connect(&self.addr)?;
        s.set_read_timeout(Some(Duration::from_secs(30)))?;
        let body = body.map(Value::to_string).unwrap_or_default();
        // One write: a request in pieces waits on the peer's delayed acknowledgement (40 ms) of
        // the first before the last goes (Nagle's algorithm), as a balancer reads it.
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        s.write_all(request.as_bytes())?;
        let mut answer = String::new();
        s.read_to_string(&mut answer)?;
        let status = answer.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
        let body = answer.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
        Ok((status, body))
    }

    pub(super) fn json(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        let (status, text) = self.call(method, path, body).expect("the server answers");
        (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
    }
}

impl std::ops::Deref for Server {
    type Target = Client;
    fn deref(&self) -> &Client {
        &self.client
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn temp_db(name: &str) -> PathBuf {
    let db = std::env::temp_dir().join(format!("raum-serve-{name}-{}.db", std::process::id()));
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
    }
    db
}

#[test]
fn serves_the_app_and_its_api() {
    let db = temp_db("pages");
    let server = Server::start(&db);
    let (status, created) = server.json("POST", "/api/games", Some(&json!({"variant": "five-up", "mode": "local"})));
    assert_eq!(status, 201, "{created}");
    let game = format!("/g/{}", created["id"].as_str().expect("id"));
    // A game the server does not have is a 404 page that says so.
    for (path, want, needle) in [
        ("/", 200, "<html"),
        ("/rules/five-up", 200, "<html"),
        (game.as_str(), 200, "<html"),
        ("/g/abc", 404, "no such game"),
    ] {
        let (status, body) = server.call("GET", path, None).expect("answer");
        assert_eq!(status, want, "{path}");
        assert!(body.to_lowercase().contains(needle), "{path}: {body:.200}");
    }
    let (status, v) = server.json("GET", "/api/variants/five-up", None);
    assert_eq!((status, v["cells"].as_array().map(Vec::len)), (200, Some(125)));
}

#[test]
fn a_killed_server_keeps_every_acknowledged_move() {
    let db = temp_db("kill");
    let server = Server::start(&db);
    let (status, created) = server.json("POST", "/api/games", Some(&json!({"variant": "raumschach", "mode": "local"})));
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let token = created["tokens"]["white"].clone();

    // Moves go in as fast as the server takes them, each acknowledged move
    // noted, until the server dies under them.
    let acknowledged = Arc::new(Mutex::new(Vec::<String>::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let player = {
        let (acknowledged, stop, probe, id) =
            (Arc::clone(&acknowledged), Arc::clone(&stop), server.client.clone(), id.clone());
        std::thread::spawn(move || {
            let mut state = probe.json("GET", &format!("/api/games/{id}"), None).1;
            while !stop.load(Ordering::Relaxed) {
                let legal = state["legal"].as_array().cloned().unwrap_or_default();
                let Some(m) = legal.get(state["ply"].as_u64().unwrap_or(0) as usize % legal.len().max(1)) else {
                    break;
                };
                let coord = m["coord"].as_str().unwrap_or_default().to_string();
                let body = json!({"token": token, "ply": state["ply"], "move": coord});
                match probe.call("POST", &format!("/api/games/{id}/moves"), Some(&body)) {
                    Ok((200, text)) => {
                        acknowledged.lock().expect("lock").push(coord);
                        state = serde_json::from_str(&text).unwrap_or(Value::Null);
                    }
                    _ => break,
                }
            }
        })
    };
    std::thread::sleep(Duration::from_millis(700));
    drop(server); // SIGKILL
    stop.store(true, Ordering::Relaxed);
    let _ = player.join();
    let acknowledged = acknowledged.lock().expect("lock").clone();
    assert!(acknowledged.len() >= 5, "moves were played before the kill ({})", acknowledged.len());

    let server = Server::start(&db);
    let (status, state) = server.json("GET", &format!("/api/games/{id}"), None);
    assert_eq!(status, 200, "{state}");
    let stored: Vec<&str> =
        state["moves"].as_array().expect("moves").iter().filter_map(|m| m["coord"].as_str()).collect();
    // At most the one move in flight at the kill may be there unacknowledged.
    assert!(
        stored.len() == acknowledged.len() || stored.len() == acknowledged.len() + 1,
        "{stored:?} vs {acknowledged:?}"
    );
    assert_eq!(stored[..acknowledged.len()], acknowledged.iter().map(String::as_str).collect::<Vec<_>>()[..]);
    drop(server);
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
    }
}

#[test]
fn a_variant_file_s_game_outlives_the_server() {
    let db = temp_db("variant-file");
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/variants/cubelet.toml"))
        .expect("the example");
    let server = Server::start(&db);
    let (status, v) = server.json("POST", "/api/variants", Some(&json!({"text": text, "name": "cubelet.toml"})));
    assert_eq!((status, &v["id"]), (201, &json!("cubelet")), "{v}");
    let (status, created) = server.json("POST", "/api/games", Some(&json!({"variant": "cubelet", "mode": "local"})));
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let body = json!({"token": created["tokens"]["white"], "ply": 0, "move": "Ab2-Ab3"});
    let (status, state) = server.json("POST", &format!("/api/games/{id}/moves"), Some(&body));
    assert_eq!(status, 200, "{state}");
    drop(server); // SIGKILL

    // A new process knows the game only from the database: the file is kept there.
    let server = Server::start(&db);
    let (status, state) = server.json("GET", &format!("/api/games/{id}"), None);
    assert_eq!((status, &state["ply"], &state["variant"]), (200, &json!(1), &json!("cubelet")), "{state}");
    let (status, v) = server.json("GET", "/api/variants/cubelet", None);
    assert_eq!((status, v["cells"].as_array().map(Vec::len)), (200, Some(64)), "{v}");
    let (status, pgn) = server.call("GET", &format!("/api/games/{id}/pgn"), None).expect("answer");
    assert_eq!(status, 200);
    assert!(pgn.contains("[Variant \"cubelet\"]") && pgn.contains("[VariantHash \""), "{pgn}");
    drop(server);
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
    }
}

/// `--log-format json`: the banner on stdout as ever, and the log on stderr
/// one JSON object per line, its fields beside its level and message.
#[test]
fn logs_json_lines_on_stderr_beside_the_banner() {
    let db = temp_db("json-log");
    let mut child = Command::new(env!("CARGO_BIN_EXE_raum"))
        .args(["serve", "--port", "0", "--engine-workers", "1", "--log-format", "json", "--db"])
        .arg(&db)
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("raum serve starts");
    // The reader stays open until the end: the server writes more after the URL line.
    let mut banner = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let first = banner.next().and_then(Result::ok);
    let mut log = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let line = log.next().and_then(Result::ok).unwrap_or_default();
    let _ = child.kill();
    let _ = child.wait();
    drop(banner);
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
    }
    let url = first.as_deref().and_then(|l| l.strip_prefix("Raum is at ")).expect("the banner's first line");
    let event: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line:?}"));
    assert_eq!((&event["level"], &event["message"]), (&json!("INFO"), &json!("serving")), "{event}");
    assert_eq!(event["url"], url, "{event}");
    assert!(event["timestamp"].is_string() && event["engine_workers"] == 1, "{event}");
}

#[test]
fn a_log_format_it_does_not_know_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_raum"))
        .args(["serve", "--port", "0", "--log-format", "xml"])
        .output()
        .expect("raum runs");
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("'xml'") && said.contains("[possible values: text, json]"), "{said}");
}

#[test]
fn a_cap_on_connections_of_none_or_past_a_million_is_refused() {
    for bad in ["0", "1000001", "many"] {
        let out = Command::new(env!("CARGO_BIN_EXE_raum"))
            .args(["serve", "--port", "0", "--max-connections", bad])
            .output()
            .expect("raum runs");
        assert!(!out.status.success(), "{bad}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains("--max-connections") && said.contains(&format!("'{bad}'")), "{said}");
    }
}
