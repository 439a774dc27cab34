//! A fixed number of engine threads shared by every game, so that searches
//! never run on the server's async workers: a busy engine delays only the
//! searches queued behind it, never a request.

use raum_engine::Engine;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

type Job = Box<dyn FnOnce(&mut Engine) + Send>;

/// Hash table size of each worker's engine, in MB.
const HASH_MB: usize = 16;

/// The search could not be run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// Too many searches are waiting.
    #[error("the engine is busy: {0} searches are waiting; try again shortly")]
    Busy(usize),
    /// The search failed (a bug; the worker survives it).
    #[error("the engine failed on this position")]
    Failed,
}

/// The engine threads and their queue.
pub struct EnginePool {
    tx: Mutex<mpsc::Sender<Job>>,
    waiting: Arc<AtomicUsize>,
    /// Most searches that may wait for an optional request (analysis).
    max_waiting: usize,
}

impl EnginePool {
    /// `workers` engine threads (one search thread each).
    pub fn new(workers: usize) -> Self {
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        let waiting = Arc::new(AtomicUsize::new(0));
        for i in 0..workers.max(1) {
            let rx = Arc::clone(&rx);
            let waiting = Arc::clone(&waiting);
            let spawned = std::thread::Builder::new().name(format!("raum-engine-{i}")).spawn(move || {
                let mut engine = Engine::new(HASH_MB, 1);
                loop {
                    let job = {
                        let rx = rx.lock().unwrap_or_else(|e| e.into_inner());
                        match rx.recv() {
                            Ok(job) => job,
                            Err(_) => return,
                        }
                    };
                    waiting.fetch_sub(1, Ordering::Relaxed);
                    if std::panic::catch_unwind(AssertUnwindSafe(|| job(&mut engine))).is_err() {
                        // The job's answer channel is dropped, so its caller
                        // hears of the failure; a fresh engine carries on.
                        engine = Engine::new(HASH_MB, 1);
                    }
                }
            });
            if let Err(e) = spawned {
                eprintln!("raum serve: cannot start engine thread {i}: {e}");
            }
        }
        EnginePool { tx: Mutex::new(tx), waiting, max_waiting: 4 * workers.max(1) }
    }

    /// Runs `f` on an engine thread and waits for its answer. `optional`
    /// requests (analysis) are refused when the queue is long; a game's
    /// own engine move always waits its turn.
    pub async fn run<T, F>(&self, optional: bool, f: F) -> Result<T, PoolError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Engine) -> T + Send + 'static,
    {
        let queued = self.waiting.load(Ordering::Relaxed);
        if optional && queued >= self.max_waiting {
            return Err(PoolError::Busy(queued));
        }
        let (answer, wait) = tokio::sync::oneshot::channel();
        self.waiting.fetch_add(1, Ordering::Relaxed);
        let job: Job = Box::new(move |engine| {
            let _ = answer.send(f(engine));
        });
        let sent = self.tx.lock().unwrap_or_else(|e| e.into_inner()).send(job);
        if sent.is_err() {
            self.waiting.fetch_sub(1, Ordering::Relaxed);
            return Err(PoolError::Failed);
        }
        wait.await.map_err(|_| PoolError::Failed)
    }
}
