//! What one client may take of the server (docs/api.md, "Limits"): the
//! policy, the rate limits per address, and the count of open WebSockets
//! per game and per address. Connections are capped where they are
//! accepted (`crate::listen`); engine time is shared by the engine pool
//! (`crate::engine_pool`).

use crate::engine_pool::Client;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// So many requests at once, then one more every `every`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// Requests allowed at once.
    pub burst: u32,
    /// One more allowed after each such time.
    pub every: Duration,
}

/// How much of the server one client may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Connections open at once, from everyone.
    pub max_connections: usize,
    /// Connections open at once from one address.
    pub connections_per_address: usize,
    /// WebSockets open at once on one game.
    pub sockets_per_game: usize,
    /// WebSockets open at once from one address.
    pub sockets_per_address: usize,
    /// How long a request's head may take to arrive (and how long a
    /// connection may stay idle between requests).
    pub header_timeout: Duration,
    /// How long a request's whole body may take to arrive.
    pub body_timeout: Duration,
    /// New games per address.
    pub games: Rate,
    /// Moves, take-backs, resignations and draw offers per address.
    pub moves: Rate,
    /// Analyses per address.
    pub analyses: Rate,
    /// Variant files per address.
    pub variant_files: Rate,
    /// The analysis board's positions and engine lines per address.
    pub boards: Rate,
    /// Whether the per-address limits apply at all (off for load tests run
    /// from one machine, or behind a proxy that applies its own).
    pub per_address: bool,
    /// The balancers and proxies before this server: on their connections the
    /// client's address is read from `X-Forwarded-For` ([`crate::proxies`]),
    /// and the cap on one address's connections does not apply to them.
    pub trusted_proxies: Vec<crate::proxies::Network>,
}

impl Default for Policy {
    fn default() -> Self {
        let rate = |burst, ms| Rate { burst, every: Duration::from_millis(ms) };
        Policy {
            max_connections: 2048,
            connections_per_address: 64,
            sockets_per_game: 128,
            sockets_per_address: 32,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            games: rate(20, 6_000),
            moves: rate(60, 100),
            analyses: rate(10, 2_000),
            variant_files: rate(10, 60_000),
            boards: rate(40, 250),
            per_address: true,
            trusted_proxies: Vec::new(),
        }
    }
}

impl Policy {
    /// The rates, in [`Bucket`]'s order.
    fn rates(&self) -> [Rate; 5] {
        [self.games, self.moves, self.analyses, self.variant_files, self.boards]
    }
}

/// The address a limit is kept for: an IPv4 address, or an IPv6 network
/// (a /64: one client usually holds a whole one).
pub fn client_of(addr: SocketAddr) -> Client {
    match addr.ip() {
        IpAddr::V4(v4) => Arc::from(v4.to_string()),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => Arc::from(v4.to_string()),
            None => {
                let s = v6.segments();
                Arc::from(format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3]))
            }
        },
    }
}

/// Which rate limit a request counts against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bucket {
    /// `POST /api/games`.
    Games,
    /// A change to a game.
    Moves,
    /// `POST /api/games/{id}/analysis`.
    Analyses,
    /// `POST /api/variants`.
    VariantFiles,
    /// `POST /api/positions` and `POST /api/lines` (the analysis board).
    Boards,
}

impl Bucket {
    fn what(self) -> &'static str {
        match self {
            Bucket::Games => "new games",
            Bucket::Moves => "moves",
            Bucket::Analyses => "analyses",
            Bucket::VariantFiles => "variant files",
            Bucket::Boards => "analysis board requests",
        }
    }
}

/// A request over a limit: what to say, and after how long to try again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limited {
    /// Why.
    pub message: String,
    /// Seconds to wait (the `Retry-After` header).
    pub retry_after: u64,
}

/// The limits in force: the policy, a rate limiter per bucket, and the open sockets.
pub struct Gate {
    /// The policy.
    pub policy: Policy,
    limiters: [DefaultKeyedRateLimiter<Client>; 5],
    sockets: Mutex<Sockets>,
}

#[derive(Default)]
struct Sockets {
    per_game: HashMap<Arc<str>, usize>,
    per_address: HashMap<Client, usize>,
}

/// An open WebSocket, counted until dropped.
pub struct SocketSlot {
    gate: Arc<Gate>,
    game: Arc<str>,
    client: Option<Client>,
}

impl Drop for SocketSlot {
    fn drop(&mut self) {
        let mut s = self.gate.sockets.lock().unwrap_or_else(|e| e.into_inner());
        let s = &mut *s;
        release(&mut s.per_game, &self.game);
        if let Some(c) = &self.client {
            release(&mut s.per_address, c);
        }
    }
}

/// One less for `key`, forgotten at none.
pub(crate) fn release(counts: &mut HashMap<Arc<str>, usize>, key: &Arc<str>) {
    if let Some(n) = counts.get_mut(key) {
        *n -= 1;
        if *n == 0 {
            counts.remove(key);
        }
    }
}

fn quota(rate: Rate) -> Quota {
    let burst = NonZeroU32::new(rate.burst).unwrap_or(NonZeroU32::MIN);
    Quota::with_period(rate.every.max(Duration::from_nanos(1)))
        .map_or(Quota::per_second(burst), |q| q.allow_burst(burst))
}

impl Gate {
    /// The limits of `policy`.
    pub fn new(policy: Policy) -> Self {
        let limiters = policy.rates().map(|r| DefaultKeyedRateLimiter::keyed(quota(r)));
        Gate { policy, limiters, sockets: Mutex::default() }
    }

    /// Counts a request of `client` against `bucket`. A request without an
    /// address (made in-process) is not limited.
    pub fn check(&self, bucket: Bucket, client: Option<&Client>) -> Result<(), Limited> {
        let Some(client) = client.filter(|_| self.policy.per_address) else { return Ok(()) };
        let limiter = &self.limiters[bucket as usize];
        let Err(not_until) = limiter.check_key(client) else { return Ok(()) };
        // Forget the addresses that have been quiet long enough to be full again.
        if limiter.len() > 10_000 {
            limiter.retain_recent();
        }
        let wait = not_until.wait_time_from(DefaultClock::default().now());
        let rate = self.policy.rates()[bucket as usize];
        Err(Limited {
            message: format!(
                "too many {} from your address (at most {} at once, then one every {:.1} s); try again in {:.1} s",
                bucket.what(),
                rate.burst,
                rate.every.as_secs_f64(),
                wait.as_secs_f64()
            ),
            retry_after: wait.as_secs_f64().ceil().max(1.0) as u64,
        })
    }

    /// A place for one more WebSocket on `game` from `client`, if the caps allow.
    /// The game sockets open now.
    pub fn sockets_open(&self) -> usize {
        self.sockets.lock().unwrap_or_else(|e| e.into_inner()).per_game.values().sum()
    }

    pub fn open_socket(self: &Arc<Self>, game: &str, client: Option<&Client>) -> Result<SocketSlot, Limited> {
        let mut s = self.sockets.lock().unwrap_or_else(|e| e.into_inner());
        let on_game = s.per_game.get(game).copied().unwrap_or(0);
        let client = client.filter(|_| self.policy.per_address);
        let from = client.map_or(0, |c| s.per_address.get(c).copied().unwrap_or(0));
        let full = |message: String| Err(Limited { message, retry_after: 10 });
        if on_game >= self.policy.sockets_per_game {
            return full(format!("this game has {on_game} watchers, as many as it may; try again later"));
        }
        if client.is_some() && from >= self.policy.sockets_per_address {
            return full(format!("your address has {from} game sockets open, as many as it may; close some"));
        }
        let game: Arc<str> = Arc::from(game);
        *s.per_game.entry(Arc::clone(&game)).or_insert(0) += 1;
        if let Some(c) = client {
            *s.per_address.entry(Arc::clone(c)).or_insert(0) += 1;
        }
        Ok(SocketSlot { gate: Arc::clone(self), game, client: client.cloned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_and_networks() {
        assert_eq!(&*client_of("10.1.2.3:80".parse().expect("addr")), "10.1.2.3");
        assert_eq!(&*client_of("[::ffff:10.1.2.3]:80".parse().expect("addr")), "10.1.2.3");
        assert_eq!(&*client_of("[2001:db8:1:2:3:4:5:6]:80".parse().expect("addr")), "2001:db8:1:2::/64");
    }

    #[test]
    fn a_burst_then_refusals_that_say_when() {
        let policy = Policy { games: Rate { burst: 3, every: Duration::from_secs(60) }, ..Policy::default() };
        let gate = Gate::new(policy);
        let (a, b): (Client, Client) = (Arc::from("a"), Arc::from("b"));
        for _ in 0..3 {
            gate.check(Bucket::Games, Some(&a)).expect("within the burst");
        }
        let refused = gate.check(Bucket::Games, Some(&a)).expect_err("past the burst");
        assert!(refused.retry_after > 50 && refused.message.contains("new games"), "{refused:?}");
        gate.check(Bucket::Games, Some(&b)).expect("another address has its own");
        gate.check(Bucket::Moves, Some(&a)).expect("another bucket has its own");
        gate.check(Bucket::Games, None).expect("in-process calls are not limited");
    }

    #[test]
    fn sockets_are_counted_until_closed() {
        let policy = Policy { sockets_per_game: 2, sockets_per_address: 1, ..Policy::default() };
        let gate = Arc::new(Gate::new(policy));
        let (a, b): (Client, Client) = (Arc::from("a"), Arc::from("b"));
        let first = gate.open_socket("g", Some(&a)).expect("first");
        assert!(gate.open_socket("h", Some(&a)).is_err(), "one per address");
        let _second = gate.open_socket("g", Some(&b)).expect("second");
        assert!(gate.open_socket("g", None).is_err(), "two per game");
        drop(first);
        gate.open_socket("h", Some(&a)).expect("a closed socket frees its place");
    }
}
