//! Accepting connections: hyper's HTTP/1 server with a timer, so that a
//! request head must arrive within the policy's time (a slowloris client, a
//! bare connect and an idle keep-alive connection are all closed), and caps
//! on the connections open at once, from everyone and from one address. A
//! connection past a cap is answered 503 and closed.

use crate::limits::{Policy, client_of, release};
use crate::proxies;
use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

/// Connections open now, from everyone and per address.
#[derive(Default)]
struct Open {
    all: usize,
    per_address: HashMap<Arc<str>, usize>,
}

/// A connection, counted until dropped.
struct Slot {
    open: Arc<Mutex<Open>>,
    client: Arc<str>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut o = self.open.lock().unwrap_or_else(|e| e.into_inner());
        o.all -= 1;
        release(&mut o.per_address, &self.client);
    }
}

/// Takes a place for a connection from `client`, or says why there is none.
fn take(open: &Arc<Mutex<Open>>, client: Arc<str>, proxy: bool, policy: &Policy) -> Result<Slot, &'static str> {
    let mut o = open.lock().unwrap_or_else(|e| e.into_inner());
    if o.all >= policy.max_connections {
        return Err("the server has as many connections as it takes; try again shortly");
    }
    let mine = o.per_address.get(&client).copied().unwrap_or(0);
    // A balancer's connections carry many clients: only the cap on all counts them.
    if policy.per_address && mine >= policy.connections_per_address && !proxy {
        return Err("your address has as many connections open as it may; close some");
    }
    o.all += 1;
    *o.per_address.entry(Arc::clone(&client)).or_insert(0) += 1;
    Ok(Slot { open: Arc::clone(open), client })
}

/// Answers a connection past a cap with 503 and closes it.
async fn turn_away(mut stream: TcpStream, why: &'static str) {
    let body = format!("{{\"error\":\"{why}\"}}");
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         retry-after: 5\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(2), stream.write_all(answer.as_bytes())).await;
}

/// Serves `app` on `listener` under `policy`'s connection limits until
/// `stop` completes; then accepts nothing more, lets each connection finish
/// the request it is in (a move under way is stored and answered) and closes
/// it, and returns once every connection is closed, or after `drain` at most.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    policy: Policy,
    stop: impl std::future::Future<Output = ()>,
    drain: Duration,
) -> std::io::Result<()> {
    let open = Arc::new(Mutex::new(Open::default()));
    let trusted: Arc<[proxies::Network]> = Arc::from(policy.trusted_proxies.as_slice());
    let (stopping, stopped) = tokio::sync::watch::channel(false);
    tokio::pin!(stop);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stop => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            // Out of file descriptors, or a connection reset before it was
            // taken: wait a moment rather than spin, and carry on.
            Err(e) => {
                tracing::warn!(error = %e, "accepting a connection failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let proxy = proxies::is_proxy(peer.ip(), &policy.trusted_proxies);
        let slot = match take(&open, client_of(peer), proxy, &policy) {
            Ok(slot) => slot,
            Err(why) => {
                tokio::spawn(turn_away(stream, why));
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let trusted = proxy.then(|| Arc::clone(&trusted));
        let app = app.clone().map_request(move |req: axum::http::Request<Incoming>| {
            let mut req = req.map(Body::new);
            req.extensions_mut().insert(ConnectInfo(peer));
            if let Some(trusted) = &trusted {
                let client = proxies::client(peer, req.headers(), trusted);
                req.extensions_mut().insert(proxies::Forwarded(client));
            }
            req
        });
        let header_timeout = policy.header_timeout;
        let mut stopped = stopped.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new()).header_read_timeout(header_timeout);
            let conn = http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app)).with_upgrades();
            tokio::pin!(conn);
            // A connection's errors (a client gone, a head too slow) are its own.
            tokio::select! {
                _ = conn.as_mut() => {}
                // (the value only ever turns true; a dropped sender means stopped too)
                _ = stopped.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
        });
    }
    drop(listener);
    stopping.send_replace(true);
    let deadline = tokio::time::Instant::now() + drain;
    while open.lock().unwrap_or_else(|e| e.into_inner()).all > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_on_connections() {
        let policy = Policy { max_connections: 6, connections_per_address: 2, ..Policy::default() };
        let open = Arc::new(Mutex::new(Open::default()));
        let a = || Arc::from("a");
        let first = take(&open, a(), false, &policy).expect("first");
        let _second = take(&open, a(), false, &policy).expect("second");
        assert!(take(&open, a(), false, &policy).is_err(), "two per address");
        let _third = take(&open, Arc::from("b"), false, &policy).expect("another address");
        // A trusted proxy's connections carry many clients: past two, only the cap on all counts them.
        let proxy = |n| take(&open, Arc::from("p"), true, &policy).unwrap_or_else(|e| panic!("proxy {n}: {e}"));
        let _proxied = [proxy(1), proxy(2), proxy(3)];
        assert!(take(&open, Arc::from("p"), true, &policy).is_err(), "six in all");
        assert!(take(&open, Arc::from("c"), false, &policy).is_err(), "six in all");
        drop(first);
        take(&open, Arc::from("p"), true, &policy).expect("a closed connection frees its place");
    }
}
