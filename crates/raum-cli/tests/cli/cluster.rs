//! Several `raum serve` processes on one PostgreSQL database behind haproxy
//! (issue 39), with the balancer's configuration `scripts/cluster.sh` runs
//! (`scripts/lib/haproxy.cfg`): an instance killed with SIGKILL in the middle
//! of a game loses no move it acknowledged, the sockets it held close, a new
//! socket through the balancer (as the page reconnects) gets the game as
//! stored, and play goes on through the balancer.
//!
//! Runs where `RAUM_TEST_POSTGRES` names a PostgreSQL database (the cluster
//! gets a schema of its own there) and haproxy is found (`RAUM_TEST_HAPROXY`,
//! else `haproxy` on the `PATH` or in `/usr/sbin`), as `scripts/test.sh` runs
//! it; elsewhere it says why it is skipped. An instance killed while it holds
//! the leases of an engine game and of a game with clocks leaves them to the
//! other, which plays the engine's move and flags the clock.
#![cfg(feature = "serve")]

use super::serve::Client;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The balancer's configuration, with `@PORT@`, `@MAXCONN@`, `@USER@` and `@SERVERS@` to fill in.
const HAPROXY_CFG: &str = include_str!("../../../../scripts/lib/haproxy.cfg");

/// How long a socket waits for what a test expects of it.
const WAIT: Duration = Duration::from_secs(5);

/// One `raum serve` process.
struct Instance {
    /// Its server's name at the balancer (`raum-1`, ...), which the balancer's
    /// answers carry in `X-Raum-Server`.
    name: String,
    child: Child,
    /// Its own address, past the balancer.
    direct: Client,
}

/// `raum serve` instances on one fresh schema, and haproxy before them.
struct Cluster {
    instances: Vec<Instance>,
    haproxy: Child,
    balancer: Balancer,
    /// The configuration and the logs.
    dir: PathBuf,
    /// The database's URL (its schema the test's own).
    db: String,
}

/// Talks to the instances through the balancer.
#[derive(Clone)]
struct Balancer(Client);

/// haproxy, if there is one to use: `RAUM_TEST_HAPROXY` (which must then work), or on the PATH.
fn haproxy() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("RAUM_TEST_HAPROXY") {
        return Some(path.into());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/usr/local/sbin")])
        .map(|d| d.join("haproxy"))
        .find(|p| p.is_file())
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

/// Polls `GET path` until it answers 200; whether it did within `within`.
fn ready(client: &Client, path: &str, within: Duration) -> bool {
    let until = Instant::now() + within;
    while Instant::now() < until {
        if matches!(client.call("GET", path, None), Ok((200, _))) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

impl Cluster {
    /// `n` instances on a fresh schema for test `name`, and haproxy before
    /// them; `None`, said on stderr, where PostgreSQL or haproxy is missing.
    fn start(name: &str, n: usize) -> Option<Cluster> {
        let Ok(base) = std::env::var("RAUM_TEST_POSTGRES") else {
            eprintln!("cluster::{name}: skipped, RAUM_TEST_POSTGRES names no PostgreSQL (scripts/test.sh sets it)");
            return None;
        };
        let Some(haproxy) = haproxy() else {
            eprintln!("cluster::{name}: skipped, no haproxy (RAUM_TEST_HAPROXY, or on the PATH)");
            return None;
        };
        let db = raum_server::store::fresh_schema(&base, &format!("cli_{name}_{}", std::process::id()))
            .expect("a schema of the test's own");
        let dir = std::env::temp_dir().join(format!("raum-cluster-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the test's folder");

        let mut instances = Vec::new();
        let mut servers = Vec::new();
        for i in 1..=n {
            let (instance, addr) = Instance::start(&format!("raum-{i}"), &db, &dir);
            servers.push(format!("    server {} {addr}", instance.name));
            instances.push(instance);
        }
        let port = free_port();
        let config = HAPROXY_CFG
            .replace("@PORT@", &port.to_string())
            .replace("@MAXCONN@", "1000")
            .replace("@USER@\n", "")
            .replace("@SERVERS@", &servers.join("\n"));
        let cfg = dir.join("haproxy.cfg");
        std::fs::write(&cfg, config).expect("the balancer's configuration");
        let log = std::fs::File::create(dir.join("haproxy.log")).expect("the balancer's log");
        let haproxy = Command::new(&haproxy)
            .arg("-db")
            .arg("-f")
            .arg(&cfg)
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("the log"))
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("{} starts: {e}", haproxy.display()));
        let cluster =
            Cluster { instances, haproxy, balancer: Balancer(Client { addr: format!("127.0.0.1:{port}") }), dir, db };
        assert!(ready(&cluster.balancer.0, "/readyz", Duration::from_secs(10)), "the balancer answers /readyz");
        Some(cluster)
    }

    /// The process id of the instance holding game `id`'s lease, once one does (within [`WAIT`]).
    fn lease_holder(&self, id: &str) -> u32 {
        let mut db = postgres::Client::connect(&self.db, postgres::NoTls).expect("the database");
        let until = Instant::now() + WAIT;
        loop {
            let row = db.query_opt("SELECT holder FROM leases WHERE game = $1", &[&id]).expect("the leases");
            // A holder is `<process id>-<random part>`.
            if let Some(pid) = row.and_then(|r| r.get::<_, String>(0).split('-').next()?.parse().ok()) {
                return pid;
            }
            assert!(Instant::now() < until, "no instance claimed game {id}'s lease");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Kills the instance the balancer names `name` with SIGKILL.
    fn kill(&mut self, name: &str) {
        let instance = self.instances.iter_mut().find(|i| i.name == name).expect("an instance of that name");
        instance.child.kill().expect("SIGKILL");
        instance.child.wait().expect("it ends");
    }
}

impl Balancer {
    /// A WebSocket on game `id` through the balancer, with a seat's token or none.
    fn socket(&self, id: &str, token: Option<&Value>) -> Socket {
        let query = token.and_then(Value::as_str).map(|t| format!("?token={t}")).unwrap_or_default();
        let stream = TcpStream::connect(&self.0.addr).expect("the balancer takes a connection");
        stream.set_read_timeout(Some(WAIT)).expect("a timeout");
        let url = format!("ws://{}/api/games/{id}/ws{query}", self.0.addr);
        let (ws, response) = tungstenite::client::client(url.as_str(), stream).expect("a WebSocket");
        let server = response
            .headers()
            .get("x-raum-server")
            .and_then(|v| v.to_str().ok())
            .expect("the balancer names the instance")
            .to_string();
        Socket { ws, server }
    }

    /// What the balancer's GET of game `id` answers (retried while it answers otherwise, as
    /// a request under way on a killed instance is answered `502`).
    fn state(&self, id: &str) -> Value {
        let until = Instant::now() + WAIT;
        loop {
            let (status, state) = self.0.json("GET", &format!("/api/games/{id}"), None);
            if status == 200 {
                return state;
            }
            assert!(Instant::now() < until, "GET of the game through the balancer: {status} {state}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Posts the move `pick` chooses in `state`, with the token of the side to move.
    fn play(&self, id: &str, tokens: &Value, state: &Value) -> (u16, String, Value) {
        let (ply, coord) = pick(state);
        let token = &tokens[if ply % 2 == 0 { "white" } else { "black" }];
        let body = json!({"token": token, "ply": ply, "move": coord});
        match self.0.call("POST", &format!("/api/games/{id}/moves"), Some(&body)) {
            Ok((status, text)) => (status, coord, serde_json::from_str(&text).unwrap_or(Value::String(text))),
            Err(e) => (0, coord, Value::String(e.to_string())),
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self.haproxy.kill();
        let _ = self.haproxy.wait();
        for i in &mut self.instances {
            let _ = i.child.kill();
            let _ = i.child.wait();
        }
        if std::thread::panicking() {
            let logs = self.instances.iter().map(|i| format!("{}.log", i.name));
            for log in std::iter::once("haproxy.log".to_string()).chain(logs) {
                let text = std::fs::read_to_string(self.dir.join(&log)).unwrap_or_default();
                eprintln!("== {log}:\n{}", text.lines().rev().take(30).collect::<Vec<_>>().join("\n"));
            }
        }
        // (The schema is left for the scratch PostgreSQL to go with, as the server's tests leave theirs.)
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Instance {
    /// `raum serve` on a free port of its own, on database `db`, its stderr in `dir`; its address.
    fn start(name: &str, db: &str, dir: &Path) -> (Instance, String) {
        let log = std::fs::File::create(dir.join(format!("{name}.log"))).expect("a log");
        let mut child = Command::new(env!("CARGO_BIN_EXE_raum"))
            .args(["serve", "--port", "0", "--engine-workers", "1", "--no-address-limits", "--db", db])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .expect("raum serve starts");
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let first = lines.next().and_then(Result::ok).unwrap_or_default();
        let url = first.strip_prefix("Raum is at ").unwrap_or_else(|| panic!("{name}'s first line: {first:?}"));
        let addr = url.trim_start_matches("http://").trim_end_matches('/').to_string();
        // Keep reading so the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        let client = Client { addr: addr.clone() };
        assert!(ready(&client, "/readyz", Duration::from_secs(10)), "{name} answers /readyz");
        (Instance { name: name.to_string(), child, direct: Client { addr: addr.clone() } }, addr)
    }
}

/// A WebSocket through the balancer, and the instance it reached.
struct Socket {
    ws: tungstenite::WebSocket<TcpStream>,
    server: String,
}

impl Socket {
    /// The next state the socket brings; why not, if it closed or brought none within [`WAIT`].
    fn next_state(&mut self) -> Result<Value, String> {
        loop {
            match self.ws.read() {
                Ok(tungstenite::Message::Text(text)) => {
                    let msg: Value = serde_json::from_str(text.as_str()).map_err(|e| e.to_string())?;
                    return Ok(msg["state"].clone());
                }
                Ok(tungstenite::Message::Close(frame)) => return Err(format!("closed: {frame:?}")),
                Ok(_) => {}
                Err(e) => return Err(e.to_string()),
            }
        }
    }

    /// The first state of ply `ply` the socket brings.
    fn state_at(&mut self, ply: u64) -> Value {
        loop {
            let state =
                self.next_state().unwrap_or_else(|e| panic!("a socket on {} waiting for ply {ply}: {e}", self.server));
            if state["ply"] == ply {
                return state;
            }
        }
    }

    /// Whether the socket closes within [`WAIT`] (states it brings before are passed over).
    fn closes(&mut self) -> bool {
        let until = Instant::now() + WAIT;
        while Instant::now() < until {
            match self.ws.read() {
                Ok(tungstenite::Message::Close(_)) => return true,
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) =>
                {
                    return false;
                }
                Err(_) => return true,
            }
        }
        false
    }
}

/// A legal move of `state` (a fixed choice, so that a game runs the same way each time): its
/// ply and coordinate move.
fn pick(state: &Value) -> (u64, String) {
    let ply = state["ply"].as_u64().expect("a ply");
    let legal = state["legal"].as_array().expect("legal moves");
    assert!(!legal.is_empty(), "the game goes on: {}", state["result"]);
    let coord = legal[(ply as usize * 7) % legal.len()]["coord"].as_str().expect("a coordinate");
    (ply, coord.to_string())
}

/// The coordinate moves a state holds.
fn coords(state: &Value) -> Vec<String> {
    state["moves"].as_array().expect("moves").iter().map(|m| m["coord"].as_str().unwrap_or("?").to_string()).collect()
}

#[test]
fn a_killed_instance_loses_no_acknowledged_move_and_its_sockets_reconnect() {
    let Some(mut cluster) = Cluster::start("kill", 2) else { return };
    let lb = cluster.balancer.clone();
    let (status, created) = lb.0.json("POST", "/api/games", Some(&json!({"variant": "raumschach", "mode": "online"})));
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let tokens = created["tokens"].clone();

    // Sockets through the balancer (round robin) until each instance holds one: the players'
    // first, then spectators'. raum-1's is to die with it, raum-2's to live on.
    let mut sockets = vec![lb.socket(&id, Some(&tokens["white"])), lb.socket(&id, Some(&tokens["black"]))];
    while !(sockets.iter().any(|s| s.server == "raum-1") && sockets.iter().any(|s| s.server == "raum-2")) {
        assert!(sockets.len() < 8, "round robin reaches both instances");
        sockets.push(lb.socket(&id, None));
    }
    let mut on_victim = sockets.iter().position(|s| s.server == "raum-1").map(|i| sockets.swap_remove(i)).expect("one");
    let mut on_survivor =
        sockets.iter().position(|s| s.server == "raum-2").map(|i| sockets.swap_remove(i)).expect("one");
    drop(sockets);
    on_victim.state_at(0);
    on_survivor.state_at(0);

    // A few moves through the balancer (so through both instances): each socket hears each.
    let mut state = lb.state(&id);
    for _ in 0..4 {
        let (status, coord, after) = lb.play(&id, &tokens, &state);
        assert_eq!(status, 200, "{coord}: {after}");
        let ply = after["ply"].as_u64().expect("a ply");
        assert_eq!(on_victim.state_at(ply)["moves"], after["moves"]);
        assert_eq!(on_survivor.state_at(ply)["moves"], after["moves"]);
        state = after;
    }

    // Moves go in as fast as the balancer takes them, each acknowledged move noted with its
    // ply; raum-1 is killed under them once 20 are in, and play goes on for 20 more (counted,
    // not timed: the game, by `pick`'s moves, ends at ply 567 by the 50-move rule).
    let stop = Arc::new(AtomicBool::new(false));
    let count = Arc::new(AtomicUsize::new(0));
    let player = {
        let (stop, count, lb, id, tokens) =
            (Arc::clone(&stop), Arc::clone(&count), lb.clone(), id.clone(), tokens.clone());
        std::thread::spawn(move || {
            let (mut acknowledged, mut refused) = (Vec::new(), Vec::new());
            while !stop.load(Ordering::Relaxed) {
                let (status, coord, after) = lb.play(&id, &tokens, &state);
                if status == 200 {
                    acknowledged.push((state["ply"].as_u64().expect("a ply"), coord, Instant::now()));
                    count.fetch_add(1, Ordering::Relaxed);
                    state = after;
                } else {
                    refused.push(format!("{status} {after}"));
                    state = lb.state(&id);
                }
            }
            (acknowledged, refused)
        })
    };
    let moves_reach = |n: usize| {
        let until = Instant::now() + Duration::from_secs(20);
        while count.load(Ordering::Relaxed) < n && Instant::now() < until && !player.is_finished() {
            std::thread::sleep(Duration::from_millis(1));
        }
    };
    moves_reach(20);
    let killed = Instant::now();
    cluster.kill("raum-1");
    moves_reach(count.load(Ordering::Relaxed) + 20);
    stop.store(true, Ordering::Relaxed);
    let (acknowledged, refused) = player.join().expect("the player");
    let before = acknowledged.iter().filter(|(_, _, at)| *at < killed).count();
    eprintln!(
        "{before} moves acknowledged before the kill, {} after; refused: {refused:?}",
        acknowledged.len() - before
    );
    assert!(before >= 20, "moves went in before the kill ({before})");
    assert!(acknowledged.len() >= before + 20, "moves went in after the kill, through raum-2");
    // Only a request under way on raum-1 as it died may fail (the balancer answers 502): a new
    // one sent there is refused, and the balancer sends it to raum-2 at once.
    assert!(refused.len() <= 3, "{refused:?}");

    // Every acknowledged move is stored, at its ply.
    let state = lb.state(&id);
    let stored = coords(&state);
    for (ply, coord, _) in &acknowledged {
        assert_eq!(stored.get(*ply as usize), Some(coord), "ply {ply}: {stored:?}");
    }
    let ply = state["ply"].as_u64().expect("a ply");

    // raum-1's socket closed; raum-2's heard every move.
    assert!(on_victim.closes(), "the killed instance's socket closes");
    assert_eq!(on_survivor.state_at(ply)["moves"], state["moves"]);

    // A new socket through the balancer (as the page reconnects) gets the game as stored.
    let mut again = lb.socket(&id, Some(&tokens["white"]));
    assert_eq!(again.server, "raum-2");
    let first = again.next_state().expect("the whole state first");
    assert_eq!((&first["ply"], &first["moves"]), (&state["ply"], &state["moves"]));

    // And play goes on through the balancer; both sockets hear it.
    let mut state = state;
    for _ in 0..4 {
        let (status, coord, after) = lb.play(&id, &tokens, &state);
        assert_eq!(status, 200, "{coord}: {after}");
        let ply = after["ply"].as_u64().expect("a ply");
        assert_eq!(again.state_at(ply)["moves"], after["moves"]);
        assert_eq!(on_survivor.state_at(ply)["moves"], after["moves"]);
        state = after;
    }
}

#[test]
fn a_killed_instances_engine_games_and_clocks_go_on_from_the_other() {
    let Some(mut cluster) = Cluster::start("takeover", 2) else { return };
    let lb = cluster.balancer.clone();
    // Both games made and begun on raum-1 alone, which then holds their leases: it searches
    // the engine's reply (3 s) and runs Black's clock (2 s), until it is killed.
    let raum_1 = cluster.instances[0].direct.clone();
    let begin = |body: Value| {
        let (status, created) = raum_1.json("POST", "/api/games", Some(&body));
        assert_eq!(status, 201, "{created}");
        let id = created["id"].as_str().expect("id").to_string();
        let (_, state) = raum_1.json("GET", &format!("/api/games/{id}"), None);
        let (ply, coord) = pick(&state);
        let body = json!({"token": created["tokens"]["white"], "ply": ply, "move": coord});
        let (status, after) = raum_1.json("POST", &format!("/api/games/{id}/moves"), Some(&body));
        assert_eq!(status, 200, "{after}");
        id
    };
    let engine = begin(json!({"variant": "five-up", "mode": "engine", "engine": {"color": "black", "movetime": 3000}}));
    let clock =
        begin(json!({"variant": "five-up", "mode": "online", "clock": {"initial_ms": 2000, "increment_ms": 0}}));
    let pid = cluster.instances[0].child.id();
    assert_eq!(cluster.lease_holder(&engine), pid, "raum-1 searches the engine's move");
    assert_eq!(cluster.lease_holder(&clock), pid, "and runs the clock");
    let killed = Instant::now();
    cluster.kill("raum-1");

    // raum-2 takes both over once raum-1's leases lapse (5 s): the engine's move is played
    // and Black's flag falls.
    let until = killed + Duration::from_secs(20);
    let mut state = lb.state(&engine);
    while state["ply"] != 2 {
        assert!(Instant::now() < until, "no engine move within 20 s of the kill: {state}");
        std::thread::sleep(Duration::from_millis(100));
        state = lb.state(&engine);
    }
    eprintln!("the engine's move, from raum-2, {} ms after raum-1 was killed", killed.elapsed().as_millis());
    assert_eq!(state["moves"][1]["color"], "black");
    let mut state = lb.state(&clock);
    while state["result"].is_null() {
        assert!(Instant::now() < until, "no flag within 20 s of the kill: {state}");
        std::thread::sleep(Duration::from_millis(100));
        state = lb.state(&clock);
    }
    eprintln!("Black's flag, on raum-2, {} ms after raum-1 was killed", killed.elapsed().as_millis());
    assert_eq!(state["result"]["text"], "1-0, Black's time is up");
}
