//! A fixed number of engine threads shared by every game, so that searches
//! never run on the server's async workers: a busy engine delays only the
//! searches queued behind it, never a request. Games' own moves go before
//! analysis requests, so that no amount of analysis starves a game whose
//! clock is running.

use raum_engine::AnyEngine;
use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Condvar, Mutex};

/// A job on a worker's engine ([`AnyEngine`]: the two-player one, and the
/// multi-player one, made on the worker's first multi-player search).
type Job = Box<dyn FnOnce(&mut AnyEngine) + Send>;

/// Hash table size of each worker's engine, in MB.
const HASH_MB: usize = 16;

/// The search could not be run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// Too many analyses are waiting.
    #[error("the engine is busy: {0} analyses are waiting; try again shortly")]
    Busy(usize),
    /// The search failed (a bug; the worker survives it).
    #[error("the engine failed on this position")]
    Failed,
}

/// What waits for a thread: games' moves first, then analyses.
#[derive(Default)]
struct Queues {
    moves: VecDeque<Job>,
    analyses: VecDeque<Job>,
}

/// The engine threads and their queues.
pub struct EnginePool {
    queues: Arc<(Mutex<Queues>, Condvar)>,
    /// Most analyses that may wait.
    max_waiting: usize,
}

fn lock(m: &Mutex<Queues>) -> std::sync::MutexGuard<'_, Queues> {
    // Jobs run outside the lock, so a poisoned lock holds consistent queues.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl EnginePool {
    /// `workers` engine threads (one search thread each).
    pub fn new(workers: usize) -> Self {
        let queues = Arc::new((Mutex::new(Queues::default()), Condvar::new()));
        for i in 0..workers.max(1) {
            let queues = Arc::clone(&queues);
            let spawned = std::thread::Builder::new().name(format!("raum-engine-{i}")).spawn(move || {
                let mut engines = AnyEngine::new(HASH_MB, 1);
                loop {
                    let job = {
                        let (m, ready) = &*queues;
                        let mut q = lock(m);
                        loop {
                            if let Some(job) = q.moves.pop_front().or_else(|| q.analyses.pop_front()) {
                                break job;
                            }
                            q = ready.wait(q).unwrap_or_else(|e| e.into_inner());
                        }
                    };
                    if std::panic::catch_unwind(AssertUnwindSafe(|| job(&mut engines))).is_err() {
                        // The job's answer channel is dropped, so its caller
                        // hears of the failure; fresh engines carry on.
                        engines = AnyEngine::new(HASH_MB, 1);
                    }
                }
            });
            if let Err(e) = spawned {
                eprintln!("raum serve: cannot start engine thread {i}: {e}");
            }
        }
        EnginePool { queues, max_waiting: 4 * workers.max(1) }
    }

    /// Runs `f` on an engine thread and waits for its answer. An `analysis`
    /// is refused when many are waiting and goes after every game's move.
    pub async fn run<T, F>(&self, analysis: bool, f: F) -> Result<T, PoolError>
    where
        T: Send + 'static,
        F: FnOnce(&mut AnyEngine) -> T + Send + 'static,
    {
        let (answer, wait) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |engines| {
            // Nobody waits for it any more (the client left): skip the search.
            if !answer.is_closed() {
                let _ = answer.send(f(engines));
            }
        });
        {
            let (m, ready) = &*self.queues;
            let mut q = lock(m);
            if analysis {
                if q.analyses.len() >= self.max_waiting {
                    return Err(PoolError::Busy(q.analyses.len()));
                }
                q.analyses.push_back(job);
            } else {
                q.moves.push_back(job);
            }
            ready.notify_one();
        }
        wait.await.map_err(|_| PoolError::Failed)
    }
}
