//! A fixed number of engine threads shared by every game, so that searches
//! never run on the server's async workers, and shared fairly (docs/api.md,
//! "Engine time"):
//!
//! - every search is charged to a client (an address): games' moves go
//!   before analyses, and among waiting searches of one kind the client that
//!   used the least engine time lately goes first (then the game that did),
//!   so one client's many games wait behind each other, not in front of
//!   everyone else;
//! - when a search waits and no thread is free, an analysis running is
//!   stopped at once (it answers with what it found), a game's move running
//!   past [`SLICE`] is stopped when another game's move waits (it plays the
//!   best move found so far), and so is an analysis past its slice when
//!   another client's analysis waits;
//! - analyses are capped: one per game and [`ANALYSES_PER_CLIENT`] per client
//!   at a time, none for a client past its [`BUDGET`] while anyone else's
//!   search waits or runs (an idle engine serves it), and no more than
//!   [`WAITING_PER_WORKER`] waiting per thread.

use crate::metrics::{Histogram, WAIT_BUCKETS};
use raum_engine::AnyEngine;
use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Who a search is charged to: a client's address (a network for IPv6).
pub type Client = Arc<str>;

/// A job on a worker's engine ([`AnyEngine`]: the two-player one, and the
/// multi-player one, made on the worker's first multi-player search).
type Job = Box<dyn FnOnce(&mut AnyEngine) -> Deliver + Send>;

/// What a finished job hands back: how to send its answer. The worker frees
/// its slot before it sends, so that a client that has its answer may ask
/// again at once (an analysis of the same game is not still "running").
type Deliver = Box<dyn FnOnce() + Send>;

/// Hash table size of each worker's engine, in MB.
const HASH_MB: usize = 16;

/// How long a game's move may search while another client's search waits.
pub const SLICE: Duration = Duration::from_secs(1);
/// Analyses one client may have waiting or running.
pub const ANALYSES_PER_CLIENT: usize = 2;
/// Analyses that may wait, per engine thread.
pub const WAITING_PER_WORKER: usize = 8;
/// Engine time a client may use in about [`HALF_LIFE`] before its analyses
/// are refused (its games' moves still run, after everyone else's).
pub const BUDGET: Duration = Duration::from_secs(300);
/// Engine time used counts half after this long.
pub const HALF_LIFE: Duration = Duration::from_secs(600);
/// How often waiting searches are looked at, to stop the ones in their way.
const REFEREE_EVERY: Duration = Duration::from_millis(20);

/// The search could not be run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// Too many analyses are waiting, of everyone's.
    #[error("the engine is busy: {0} analyses are waiting; try again shortly")]
    Busy(usize),
    /// This client or game has as many analyses as it may.
    #[error("{0}")]
    Limit(String),
    /// The search failed (a bug; the worker survives it).
    #[error("the engine failed on this position")]
    Failed,
}

/// What a search is, for the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A game's move: never refused, goes first.
    Move,
    /// An analysis: capped, yields to moves.
    Analysis,
}

/// A search's place in the queue: what it is, whose, for which game.
#[derive(Clone, Debug)]
pub struct Ticket {
    /// Move or analysis.
    pub kind: Kind,
    /// Who is charged.
    pub client: Client,
    /// The game.
    pub game: Arc<str>,
    /// The longest the search may take (its time per move).
    pub budget: Duration,
}

struct Waiting {
    ticket: Ticket,
    job: Job,
    stop: Arc<AtomicBool>,
    /// When it was queued.
    queued: Instant,
}

struct Running {
    ticket: Ticket,
    stop: Arc<AtomicBool>,
    started: Instant,
}

/// Engine time a client used, halving every [`HALF_LIFE`].
#[derive(Clone, Copy)]
struct Usage {
    secs: f64,
    at: Instant,
}

impl Usage {
    fn now(self, now: Instant) -> f64 {
        let age = now.saturating_duration_since(self.at).as_secs_f64();
        self.secs * 0.5f64.powf(age / HALF_LIFE.as_secs_f64())
    }
}

/// The queue, the searches running on each thread, and each client's use.
#[derive(Default)]
struct State {
    waiting: Vec<Waiting>,
    running: Vec<Option<Running>>,
    /// Each client's use.
    usage: HashMap<Client, Usage>,
    /// Each game's use.
    game_usage: HashMap<Arc<str>, Usage>,
}

impl State {
    /// `client`'s engine time: what it used lately and what runs now.
    fn charge(&self, client: &str, now: Instant) -> f64 {
        self.used(&self.usage, |t| &*t.client == client, client, now)
    }

    /// `game`'s engine time: what it used lately and what runs now.
    fn game_charge(&self, game: &str, now: Instant) -> f64 {
        self.used(&self.game_usage, |t| &*t.game == game, game, now)
    }

    fn used(&self, usage: &HashMap<Arc<str>, Usage>, of: impl Fn(&Ticket) -> bool, key: &str, now: Instant) -> f64 {
        let used = usage.get(key).map_or(0.0, |u| u.now(now));
        let running: f64 = self
            .running
            .iter()
            .flatten()
            .filter(|r| of(&r.ticket))
            .map(|r| now.saturating_duration_since(r.started).as_secs_f64())
            .sum();
        used + running
    }

    /// The waiting search to run next: moves first, then the least charged
    /// client's, then the least charged game's, then the shortest, then the
    /// earliest.
    fn next(&mut self, now: Instant) -> Option<Waiting> {
        let best = (0..self.waiting.len()).min_by(|&a, &b| {
            let (ta, tb) = (&self.waiting[a].ticket, &self.waiting[b].ticket);
            let kind = |t: &Ticket| t.kind == Kind::Analysis;
            kind(ta)
                .cmp(&kind(tb))
                .then(self.charge(&ta.client, now).total_cmp(&self.charge(&tb.client, now)))
                .then(self.game_charge(&ta.game, now).total_cmp(&self.game_charge(&tb.game, now)))
                .then(ta.budget.cmp(&tb.budget))
                .then(a.cmp(&b))
        })?;
        Some(self.waiting.remove(best))
    }

    fn account(&mut self, t: &Ticket, secs: f64, now: Instant) {
        for (usage, key) in [(&mut self.usage, &t.client), (&mut self.game_usage, &t.game)] {
            let u = usage.entry(Arc::clone(key)).or_insert(Usage { secs: 0.0, at: now });
            *u = Usage { secs: u.now(now) + secs, at: now };
            // Forget the ones whose use has faded.
            if usage.len() > 4096 {
                usage.retain(|_, u| u.now(now) > 1.0);
            }
        }
    }

    /// Stops the searches in the way of waiting ones, when no thread is free:
    /// analyses when a game's move waits (or another client's analysis,
    /// past their slice), and a game's move that ran its slice when another
    /// game's move waits.
    fn referee(&mut self, now: Instant) {
        if self.running.iter().any(Option::is_none) {
            return;
        }
        let move_waits = self.waiting.iter().any(|w| w.ticket.kind == Kind::Move);
        let mut to_stop = self.waiting.len();
        for r in self.running.iter().flatten() {
            if to_stop == 0 {
                break;
            }
            if r.stop.load(Ordering::Relaxed) {
                to_stop -= 1;
                continue;
            }
            let yields = match r.ticket.kind {
                Kind::Analysis => {
                    move_waits
                        || (now.saturating_duration_since(r.started) >= SLICE
                            && self.waiting.iter().any(|w| w.ticket.client != r.ticket.client))
                }
                Kind::Move => now.saturating_duration_since(r.started) >= SLICE && move_waits,
            };
            if yields {
                r.stop.store(true, Ordering::Relaxed);
                to_stop -= 1;
            }
        }
    }
}

/// The engine threads and their queue.
pub struct EnginePool {
    state: Arc<(Mutex<State>, Condvar)>,
    workers: usize,
    /// How long each search waited for a thread (`/metrics`).
    waited: Arc<Histogram>,
}

fn lock(m: &Mutex<State>) -> std::sync::MutexGuard<'_, State> {
    // Jobs run outside the lock, so a poisoned lock holds a consistent queue.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn worker(state: Arc<(Mutex<State>, Condvar)>, waited: Arc<Histogram>, slot: usize) {
    let mut engines = AnyEngine::new(HASH_MB, 1);
    loop {
        let Waiting { ticket, job, stop, queued } = {
            let (m, ready) = &*state;
            let mut s = lock(m);
            loop {
                if let Some(w) = s.next(Instant::now()) {
                    break w;
                }
                s = ready.wait(s).unwrap_or_else(|e| e.into_inner());
            }
        };
        let started = Instant::now();
        waited.observe(started.saturating_duration_since(queued));
        lock(&state.0).running[slot] = Some(Running { ticket: ticket.clone(), stop, started });
        // The referee looks at the queue while this search runs.
        state.1.notify_all();
        // Every job starts from one line: an analysis that asked for more set them for itself.
        engines.two().set_multipv(1);
        let deliver = match std::panic::catch_unwind(AssertUnwindSafe(|| job(&mut engines))) {
            Ok(deliver) => Some(deliver),
            Err(_) => {
                // The job's answer channel is dropped, so its caller hears of
                // the failure; fresh engines carry on.
                engines = AnyEngine::new(HASH_MB, 1);
                None
            }
        };
        let now = Instant::now();
        {
            let mut s = lock(&state.0);
            s.running[slot] = None;
            s.account(&ticket, now.saturating_duration_since(started).as_secs_f64(), now);
        }
        if let Some(deliver) = deliver {
            deliver();
        }
    }
}

/// Wakes while searches wait and stops the ones in their way.
fn referee(state: Arc<(Mutex<State>, Condvar)>) {
    let (m, wake) = &*state;
    let mut s = lock(m);
    loop {
        s.referee(Instant::now());
        s = if s.waiting.is_empty() {
            wake.wait(s).unwrap_or_else(|e| e.into_inner())
        } else {
            wake.wait_timeout(s, REFEREE_EVERY).unwrap_or_else(|e| e.into_inner()).0
        };
    }
}

impl EnginePool {
    /// `workers` engine threads (one search thread each).
    pub fn new(workers: usize) -> Self {
        let workers = workers.max(1);
        let state = Arc::new((
            Mutex::new(State { running: (0..workers).map(|_| None).collect(), ..State::default() }),
            Condvar::new(),
        ));
        let waited = Arc::new(Histogram::new(WAIT_BUCKETS));
        for i in 0..workers {
            let (state, waited) = (Arc::clone(&state), Arc::clone(&waited));
            let spawned =
                std::thread::Builder::new().name(format!("raum-engine-{i}")).spawn(move || worker(state, waited, i));
            if let Err(e) = spawned {
                tracing::error!(thread = i, error = %e, "cannot start an engine thread");
            }
        }
        let s = Arc::clone(&state);
        if let Err(e) = std::thread::Builder::new().name("raum-engine-referee".into()).spawn(move || referee(s)) {
            tracing::error!(error = %e, "cannot start the engine's referee");
        }
        EnginePool { state, workers, waited }
    }

    /// Runs `f` on an engine thread and waits for its answer. `stop` is the
    /// search's stop flag: the pool sets it when the search must yield, and
    /// `f` should hand it to the search. An analysis is refused past the caps.
    pub async fn run<T, F>(&self, ticket: Ticket, stop: Arc<AtomicBool>, f: F) -> Result<T, PoolError>
    where
        T: Send + 'static,
        F: FnOnce(&mut AnyEngine) -> T + Send + 'static,
    {
        let (answer, wait) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |engines| {
            // Nobody waits for it any more (the client left): skip the search.
            if answer.is_closed() {
                return Box::new(|| {});
            }
            let value = f(engines);
            Box::new(move || {
                let _ = answer.send(value);
            })
        });
        {
            let (m, wake) = &*self.state;
            let mut s = lock(m);
            if ticket.kind == Kind::Analysis {
                s.admit_analysis(&ticket, self.workers)?;
            }
            s.waiting.push(Waiting { ticket, job, stop, queued: Instant::now() });
            wake.notify_all();
        }
        wait.await.map_err(|_| PoolError::Failed)
    }

    /// Searches waiting and running now.
    pub fn load(&self) -> (usize, usize) {
        let s = lock(&self.state.0);
        (s.waiting.len(), s.running.iter().flatten().count())
    }

    /// The engine threads.
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// How long the searches so far waited for a thread.
    pub fn waited(&self) -> &Histogram {
        &self.waited
    }
}

impl State {
    /// Whether another analysis for `t` may wait.
    fn admit_analysis(&self, t: &Ticket, workers: usize) -> Result<(), PoolError> {
        let analyses = || {
            let waiting = self.waiting.iter().map(|w| &w.ticket);
            waiting.chain(self.running.iter().flatten().map(|r| &r.ticket)).filter(|o| o.kind == Kind::Analysis)
        };
        if analyses().any(|o| o.game == t.game) {
            return Err(PoolError::Limit("an analysis of this game is running; wait for its answer".into()));
        }
        if analyses().filter(|o| o.client == t.client).count() >= ANALYSES_PER_CLIENT {
            return Err(PoolError::Limit(format!(
                "you have {ANALYSES_PER_CLIENT} analyses running; wait for their answers"
            )));
        }
        // Past its budget a client's analysis waits only for an idle engine:
        // it is refused while anyone else's search waits or runs.
        let others = || {
            let waiting = self.waiting.iter().map(|w| &w.ticket);
            waiting.chain(self.running.iter().flatten().map(|r| &r.ticket)).any(|o| o.client != t.client)
        };
        let used = self.charge(&t.client, Instant::now());
        if used > BUDGET.as_secs_f64() && others() {
            return Err(PoolError::Limit(format!(
                "you used {used:.0} s of engine time lately (at most {} s in about {} minutes); \
                 try again in a few minutes",
                BUDGET.as_secs(),
                HALF_LIFE.as_secs() / 60
            )));
        }
        let waiting = self.waiting.iter().filter(|w| w.ticket.kind == Kind::Analysis).count();
        if waiting >= WAITING_PER_WORKER * workers {
            return Err(PoolError::Busy(waiting));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ticket(kind: Kind, client: &str, game: &str) -> Ticket {
        Ticket { kind, client: client.into(), game: game.into(), budget: Duration::from_secs(1) }
    }

    fn waiting(kind: Kind, client: &str, game: &str) -> Waiting {
        Waiting {
            ticket: ticket(kind, client, game),
            job: Box::new(|_| Box::new(|| {})),
            stop: Arc::new(AtomicBool::new(false)),
            queued: Instant::now(),
        }
    }

    #[test]
    fn moves_go_first_then_the_least_charged_client() {
        let now = Instant::now();
        let mut s = State { running: vec![None], ..State::default() };
        s.account(&ticket(Kind::Move, "a", "g0"), 30.0, now);
        s.account(&ticket(Kind::Move, "b", "g9"), 5.0, now);
        s.account(&ticket(Kind::Move, "a", "g2"), 1.0, now);
        s.waiting = vec![
            waiting(Kind::Analysis, "c", "g1"),
            waiting(Kind::Move, "a", "g2"),
            waiting(Kind::Move, "a", "g3"),
            waiting(Kind::Move, "a", "g5"),
            waiting(Kind::Move, "b", "g4"),
        ];
        let order: Vec<_> = std::iter::from_fn(|| s.next(now)).map(|w| w.ticket.game.to_string()).collect();
        // Client b used less; then a's games that used nothing, oldest first.
        assert_eq!(order, ["g4", "g3", "g5", "g2", "g1"]);
        // Among equals, the shortest search first.
        s.waiting = vec![waiting(Kind::Move, "a", "g6"), waiting(Kind::Move, "a", "g7")];
        s.waiting[0].ticket.budget = Duration::from_secs(10);
        assert_eq!(s.next(now).map(|w| w.ticket.game.to_string()).as_deref(), Some("g7"));
    }

    #[test]
    fn searches_in_the_way_are_stopped() {
        let now = Instant::now();
        let run = |kind, client: &str, secs| {
            let stop = Arc::new(AtomicBool::new(false));
            let started = now - Duration::from_millis(secs);
            Some(Running { ticket: ticket(kind, client, "g"), stop, started })
        };
        let stopped =
            |s: &State| s.running.iter().flatten().map(|r| r.stop.load(Ordering::Relaxed)).collect::<Vec<_>>();
        // An analysis yields at once to a move; a move of another client only past its slice.
        let mut s =
            State { running: vec![run(Kind::Analysis, "a", 10), run(Kind::Move, "a", 500)], ..State::default() };
        s.waiting = vec![waiting(Kind::Move, "b", "g2")];
        s.referee(now);
        assert_eq!(stopped(&s), [true, false]);
        let mut s = State { running: vec![run(Kind::Move, "a", 1500), run(Kind::Move, "b", 500)], ..State::default() };
        s.waiting = vec![waiting(Kind::Move, "b", "g2")];
        s.referee(now);
        assert_eq!(stopped(&s), [true, false], "a move yields past its slice, whoever waits");
        let mut s = State { running: vec![run(Kind::Move, "a", 1500), run(Kind::Move, "b", 1500)], ..State::default() };
        s.waiting = vec![waiting(Kind::Move, "a", "g2")];
        s.referee(now);
        assert_eq!(stopped(&s), [true, false], "one search yields for one waiting");
        // A free thread: nothing is stopped.
        let mut s = State { running: vec![run(Kind::Analysis, "a", 10), None], ..State::default() };
        s.waiting = vec![waiting(Kind::Move, "b", "g2")];
        s.referee(now);
        assert_eq!(stopped(&s), [false]);
    }

    #[test]
    fn analyses_are_capped_per_game_client_and_budget() {
        let now = Instant::now();
        let mut s = State { running: vec![None], ..State::default() };
        s.waiting = vec![waiting(Kind::Analysis, "a", "g1")];
        assert!(matches!(s.admit_analysis(&ticket(Kind::Analysis, "b", "g1"), 1), Err(PoolError::Limit(_))));
        s.admit_analysis(&ticket(Kind::Analysis, "a", "g2"), 1).expect("a second analysis");
        s.waiting.push(waiting(Kind::Analysis, "a", "g2"));
        assert!(matches!(s.admit_analysis(&ticket(Kind::Analysis, "a", "g3"), 1), Err(PoolError::Limit(_))));
        s.account(&ticket(Kind::Analysis, "c", "g9"), BUDGET.as_secs_f64() + 1.0, now);
        let e = s.admit_analysis(&ticket(Kind::Analysis, "c", "g4"), 1).expect_err("past the budget");
        assert!(e.to_string().contains("engine time"), "{e}");
        // ... while another client's searches wait; an idle engine serves it.
        s.waiting.clear();
        s.admit_analysis(&ticket(Kind::Analysis, "c", "g4"), 1).expect("nobody else waits");
        // Use fades: half after HALF_LIFE.
        let u = s.usage["c"];
        assert!((u.now(now + HALF_LIFE) - u.secs / 2.0).abs() < 1e-6);
    }
}
