//! A bounded load on a running `raum serve`: many online games at once, each
//! with both players connected by WebSocket, moves sent by `POST`. It
//! measures each move's round trip: from sending the move until the
//! opponent's socket delivers the new position.
//!
//! ```text
//! cargo run --release -p raum-server --example load -- --url http://127.0.0.1:8080/ \
//!     [--games 200] [--plies 20] [--think-ms 0] [--max-p99-ms 50]
//! ```
//!
//! With `--think-ms T` each player waits a random time, uniform in 0..2T,
//! before each move; with 0 every game moves as fast as the server answers,
//! which measures throughput (the round trip is then mostly queueing).
//!
//! The games are set up 64 at a time, then start together; each player's
//! thinking times come from its own well-mixed seed, so the first moves are
//! spread over the whole 0..2T, not bunched.
//!
//! Besides the round trip it prints the `POST`'s answer time alone and,
//! behind a balancer that names its servers (`X-Raum-Server`, as
//! `scripts/lib/haproxy.cfg` sets), the round trips of moves whose `POST` and
//! opponent's socket were on one server apart from those carried from one
//! server to another.
//!
//! `scripts/load.sh` starts a server and runs this against it. Exits non-zero
//! if any request fails or the 99th percentile is above `--max-p99-ms`.

use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

struct Options {
    addr: String,
    games: usize,
    plies: usize,
    variant: String,
    max_p99_ms: f64,
    think_ms: u64,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        addr: String::new(),
        games: 200,
        plies: 20,
        variant: "five-up".into(),
        max_p99_ms: 50.0,
        think_ms: 0,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--url" => o.addr = value()?.trim_start_matches("http://").trim_end_matches('/').to_string(),
            "--games" => o.games = value()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--plies" => o.plies = value()?.parse().map_err(|e| format!("--plies: {e}"))?,
            "--variant" => o.variant = value()?,
            "--think-ms" => o.think_ms = value()?.parse().map_err(|e| format!("--think-ms: {e}"))?,
            "--max-p99-ms" => o.max_p99_ms = value()?.parse().map_err(|e| format!("--max-p99-ms: {e}"))?,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if o.addr.is_empty() {
        return Err("give --url http://HOST:PORT/ of a running raum serve".into());
    }
    Ok(o)
}

/// One HTTP/1.1 request on a fresh connection: status and JSON body.
async fn request(addr: &str, method: &str, path: &str, body: &Value) -> Result<(u16, Vec<u8>), String> {
    request_via(addr, method, path, body).await.map(|(status, body, _)| (status, body))
}

/// [`request`], and the server that answered behind a balancer (its
/// `X-Raum-Server` header: `scripts/lib/haproxy.cfg` sets it), if named.
async fn request_via(addr: &str, method: &str, path: &str, body: &Value) -> Result<(u16, Vec<u8>, Server), String> {
    let mut s = TcpStream::connect(addr).await.map_err(|e| format!("connect: {e}"))?;
    let body = body.to_string();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    // One write, sent at once, as a browser sends a request.
    let _ = s.set_nodelay(true);
    s.write_all(format!("{head}{body}").as_bytes()).await.map_err(|e| e.to_string())?;
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).await.map_err(|e| e.to_string())?;
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").map_or(answer.len(), |i| i + 4);
    let head = String::from_utf8_lossy(&answer[..split]);
    let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let server = head.lines().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        name.eq_ignore_ascii_case("x-raum-server").then(|| value.trim().to_string())
    });
    Ok((status, answer[split..].to_vec(), server))
}

/// What a player reads of a state: the rest is skipped unparsed, so that the
/// load's own clients cost little beside the server they measure.
#[derive(Deserialize, Default)]
struct Lite {
    ply: u64,
    #[serde(default)]
    legal: Vec<LegalLite>,
    #[serde(default)]
    result: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
struct LegalLite {
    coord: String,
}

#[derive(Deserialize)]
struct Pushed {
    state: Lite,
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// The instance behind a balancer that answered, if it says.
type Server = Option<String>;

/// A game's socket for `token`, and the server it reached.
async fn connect(addr: &str, id: &str, token: &str) -> Result<(Socket, Server), String> {
    let url = format!("ws://{addr}/api/games/{id}/ws?token={token}");
    let (socket, answer) = tokio_tungstenite::connect_async(url).await.map_err(|e| format!("websocket: {e}"))?;
    let server = answer.headers().get("x-raum-server").and_then(|v| v.to_str().ok()).map(str::to_string);
    Ok((socket, server))
}

/// One move's times: the `POST`'s answer, and the opponent's socket
/// delivering it; whether the two went through one server.
struct Timed {
    answered: Duration,
    delivered: Duration,
    one_server: Option<bool>,
}

/// Reads states from `socket` until one has `ply` moves; that state.
async fn state_at(socket: &mut Socket, ply: u64) -> Result<Lite, String> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(30), socket.next())
            .await
            .map_err(|_| format!("no state with ply {ply} within 30 s"))?
            .ok_or("the socket closed")?
            .map_err(|e| e.to_string())?;
        if let Message::Text(text) = msg {
            let v: Pushed = serde_json::from_str(&text).map_err(|e| e.to_string())?;
            if v.state.ply == ply {
                return Ok(v.state);
            }
        }
    }
}

/// Plays one game; the round trip of each move.
/// Games set up at once: a thousand games opening 3,000 connections in one
/// instant overflow a listening socket's backlog, which no player does.
const SETTING_UP: usize = 64;

/// What the games share: the start, and the right to set up.
struct Start {
    all_set: tokio::sync::Barrier,
    setting_up: tokio::sync::Semaphore,
    /// When the games started (after every set-up): moves per second count from then.
    started: std::sync::OnceLock<Instant>,
}

async fn game(o: Arc<Options>, seed: u64, start: Arc<Start>) -> Result<Vec<Timed>, String> {
    let set_up = async {
        let _turn = start.setting_up.acquire().await.map_err(|e| e.to_string())?;
        let (status, created) =
            request(&o.addr, "POST", "/api/games", &json!({"variant": o.variant, "mode": "online"})).await?;
        let created: Value = serde_json::from_slice(&created).map_err(|e| format!("create: {status}: {e}"))?;
        if status != 201 {
            return Err(format!("create: {status} {created}"));
        }
        let id = created["id"].as_str().ok_or("no id")?.to_string();
        let token = |side: &str| created["tokens"][side].as_str().unwrap_or("").to_string();
        let tokens = [token("white"), token("black")];
        let ((white, on_white), (black, on_black)) =
            (connect(&o.addr, &id, &tokens[0]).await?, connect(&o.addr, &id, &tokens[1]).await?);
        let mut sockets = [white, black];
        let state = state_at(&mut sockets[0], 0).await?;
        state_at(&mut sockets[1], 0).await?;
        Ok::<_, String>((id, tokens, sockets, [on_white, on_black], state))
    }
    .await;
    // Every game waits for all to be set up, a game that failed too (the others would wait for ever).
    start.all_set.wait().await;
    start.started.get_or_init(Instant::now);
    let (id, tokens, mut sockets, servers, mut state) = set_up?;
    // The seed mixed (splitmix64's finaliser) before its first use: games' seeds are consecutive
    // numbers, and their first thinking times would otherwise fall in one 2 * think_ms / 5 window.
    let mut rng = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    rng = (rng ^ (rng >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    rng = (rng ^ (rng >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    rng = (rng ^ (rng >> 31)) | 1;
    let mut times = Vec::new();
    for ply in 0..o.plies {
        if state.legal.is_empty() || state.result.is_some() {
            break;
        }
        if o.think_ms > 0 {
            // A player's thinking time: uniform in 0..2 * think_ms.
            let wait = rng % (2 * o.think_ms + 1);
            tokio::time::sleep(Duration::from_millis(wait)).await;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let mv = state.legal[(rng % state.legal.len() as u64) as usize].coord.clone();
        let (mover, other) = (ply % 2, 1 - ply % 2);
        let sent = Instant::now();
        let body = json!({"token": tokens[mover], "ply": ply, "move": mv});
        let (status, answer, server) = request_via(&o.addr, "POST", &format!("/api/games/{id}/moves"), &body).await?;
        let answered = sent.elapsed();
        if status != 200 {
            return Err(format!("move {mv}: {status} {}", String::from_utf8_lossy(&answer)));
        }
        state = state_at(&mut sockets[other], ply as u64 + 1).await?;
        let one_server = server.zip(servers[other].as_ref()).map(|(a, b)| a == *b);
        times.push(Timed { answered, delivered: sent.elapsed(), one_server });
        state_at(&mut sockets[mover], ply as u64 + 1).await?;
    }
    Ok(times)
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[i.min(sorted.len() - 1)].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() {
    let o = match options() {
        Ok(o) => Arc::new(o),
        Err(e) => {
            eprintln!("load: {e}");
            std::process::exit(2);
        }
    };
    let start = Arc::new(Start {
        all_set: tokio::sync::Barrier::new(o.games),
        setting_up: tokio::sync::Semaphore::new(SETTING_UP),
        started: std::sync::OnceLock::new(),
    });
    let tasks: Vec<_> =
        (0..o.games).map(|i| tokio::spawn(game(Arc::clone(&o), 0x9E37_79B9 + i as u64, Arc::clone(&start)))).collect();
    let mut times = Vec::new();
    let mut failures = 0;
    for t in tasks {
        match t.await {
            Ok(Ok(ts)) => times.extend(ts),
            Ok(Err(e)) => {
                failures += 1;
                eprintln!("load: a game failed: {e}");
            }
            Err(e) => {
                failures += 1;
                eprintln!("load: a game panicked: {e}");
            }
        }
    }
    // From the games' start, after their set-up.
    let elapsed = start.started.get().map_or(Duration::ZERO, Instant::elapsed);
    let sorted = |pick: &dyn Fn(&Timed) -> Option<Duration>| {
        let mut d: Vec<Duration> = times.iter().filter_map(pick).collect();
        d.sort();
        d
    };
    let delivered = sorted(&|t| Some(t.delivered));
    let p99 = percentile(&delivered, 99.0);
    let line = |d: &[Duration]| {
        format!(
            "p50 {:.1}, p90 {:.1}, p99 {:.1}, max {:.1}",
            percentile(d, 50.0),
            percentile(d, 90.0),
            percentile(d, 99.0),
            percentile(d, 100.0)
        )
    };
    println!(
        "{} games, {} moves in {:.1} s after their set-up ({:.0} moves/s); move round trip (POST to the opponent's socket) ms: \
         {}; failed games: {failures}",
        o.games,
        delivered.len(),
        elapsed.as_secs_f64(),
        delivered.len() as f64 / elapsed.as_secs_f64(),
        line(&delivered),
    );
    println!("  the POST's answer alone, ms: {}", line(&sorted(&|t| Some(t.answered))));
    // Behind a balancer that names its servers: the move and the opponent's socket on one
    // server, or the move carried from one to the other by the database's feed.
    for (one, what) in [(true, "the move and the opponent's socket on one server"), (false, "on two servers")] {
        let d = sorted(&|t| (t.one_server == Some(one)).then_some(t.delivered));
        if !d.is_empty() {
            println!("  {what} ({} moves), ms: {}", d.len(), line(&d));
        }
    }
    if failures > 0 || p99 > o.max_p99_ms {
        eprintln!("load: FAILED (p99 {p99:.1} ms, bound {} ms; {failures} failed games)", o.max_p99_ms);
        std::process::exit(1);
    }
}
