//! `GET /metrics`: the server's numbers in Prometheus' text format (0.0.4),
//! for a scraper to poll (docs/api.md, "Metrics"). Counters and histograms
//! are atomics bumped where things happen; gauges are read when asked for.
//! Written by hand: a counter, a histogram of fixed buckets and a few lines
//! of text are less than a crate would bring.
//!
//! Nothing here names a game, a player or an address: each metric is one
//! series, whatever the server holds.

use crate::games::Games;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The content type of the text format.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// A count that only goes up.
#[derive(Debug, Default)]
pub struct Counter(AtomicU64);

impl Counter {
    /// One more.
    pub fn inc(&self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }

    /// The count now.
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// Buckets for a move's round trip in the server: from 1 ms (a move stored
/// on SQLite) to 1 s (a store under load), in seconds.
pub const MOVE_BUCKETS: &[f64] = &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5];

/// Buckets for a search's wait for an engine thread: none at all on an idle
/// server, up to a few engine moves' time (each yields after a second when
/// another waits), in seconds.
pub const WAIT_BUCKETS: &[f64] = &[0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0];

/// Durations counted into fixed buckets, with their count and sum.
#[derive(Debug)]
pub struct Histogram {
    /// Each bucket's upper bound, in seconds, increasing.
    bounds: &'static [f64],
    /// The observations in each bucket alone (not cumulative), and one more
    /// for those past the last bound.
    buckets: Vec<AtomicU64>,
    /// The sum of every observation, in nanoseconds (a u64 holds 584 years).
    sum_nanos: AtomicU64,
}

impl Histogram {
    /// A histogram with these bucket bounds (seconds, increasing).
    pub fn new(bounds: &'static [f64]) -> Self {
        Histogram { bounds, buckets: (0..=bounds.len()).map(|_| AtomicU64::new(0)).collect(), sum_nanos: 0.into() }
    }

    /// Counts one observation.
    pub fn observe(&self, d: Duration) {
        let secs = d.as_secs_f64();
        let i = self.bounds.iter().position(|&b| secs <= b).unwrap_or(self.bounds.len());
        self.buckets[i].fetch_add(1, Ordering::Relaxed);
        let nanos = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        self.sum_nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    /// The observations so far.
    pub fn count(&self) -> u64 {
        self.buckets.iter().map(|b| b.load(Ordering::Relaxed)).sum()
    }
}

/// The counters and histograms of one server's games (the gauges are read
/// from where they are kept when `/metrics` is asked for).
#[derive(Debug)]
pub struct Metrics {
    /// Moves stored by this server: its players' and its engine's.
    pub moves: Counter,
    /// How long each move request took, from its arrival to its answer.
    pub move_seconds: Histogram,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics { moves: Counter::default(), move_seconds: Histogram::new(MOVE_BUCKETS) }
    }
}

/// The text format's lines, metric by metric.
struct Exposition(String);

impl Exposition {
    fn head(&mut self, name: &str, kind: &str, help: &str) {
        let _ = writeln!(self.0, "# HELP {name} {help}\n# TYPE {name} {kind}");
    }

    fn counter(&mut self, name: &str, help: &str, value: u64) {
        self.head(name, "counter", help);
        let _ = writeln!(self.0, "{name} {value}");
    }

    fn gauge(&mut self, name: &str, help: &str, value: usize) {
        self.head(name, "gauge", help);
        let _ = writeln!(self.0, "{name} {value}");
    }

    fn histogram(&mut self, name: &str, help: &str, h: &Histogram) {
        self.head(name, "histogram", help);
        // Read once: the buckets, the count and `+Inf` agree with each other
        // (the sum may hold an observation more or less, read a moment apart).
        let counts: Vec<u64> = h.buckets.iter().map(|b| b.load(Ordering::Relaxed)).collect();
        let mut below = 0;
        for (bound, n) in h.bounds.iter().zip(&counts) {
            below += n;
            let _ = writeln!(self.0, "{name}_bucket{{le=\"{bound}\"}} {below}");
        }
        below += counts.last().copied().unwrap_or(0);
        let sum = h.sum_nanos.load(Ordering::Relaxed) as f64 / 1e9;
        let _ = writeln!(self.0, "{name}_bucket{{le=\"+Inf\"}} {below}\n{name}_sum {sum}\n{name}_count {below}");
    }
}

/// Every metric of `games`' server, in the text format.
pub fn render(games: &Games) -> String {
    let mut out = Exposition(String::with_capacity(4096));
    let m = &games.metrics;
    out.counter("raum_moves_total", "Moves stored by this server, the engine's included.", m.moves.get());
    out.histogram(
        "raum_move_seconds",
        "Time from a move request's arrival to its answer, refused moves included.",
        &m.move_seconds,
    );
    out.gauge("raum_sockets_open", "Game WebSockets open now.", games.sockets_open());
    let rooms = games.rooms.lock().unwrap_or_else(|e| e.into_inner()).len();
    out.gauge("raum_rooms_loaded", "Games held in memory now.", rooms);
    let (waiting, running) = games.pool.load();
    out.gauge("raum_engine_queue_length", "Searches waiting for an engine thread.", waiting);
    out.gauge("raum_engine_searches_running", "Searches running on the engine threads.", running);
    out.gauge("raum_engine_workers", "Engine threads.", games.pool.workers());
    out.histogram(
        "raum_engine_wait_seconds",
        "Time a search waited before an engine thread took it.",
        games.pool.waited(),
    );
    let c = games.store.connections();
    out.gauge("raum_db_connections_in_use", "Database connections in use now.", c.in_use);
    out.gauge("raum_db_connections_max", "Database connections the store may open.", c.max);
    out.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_histogram_is_cumulative_with_its_count_and_sum() {
        let h = Histogram::new(&[0.001, 0.01, 0.1]);
        for ms in [0, 1, 5, 50, 2000] {
            h.observe(Duration::from_millis(ms));
        }
        let mut out = Exposition(String::new());
        out.histogram("x_seconds", "What x took.", &h);
        let want = "# HELP x_seconds What x took.\n# TYPE x_seconds histogram\n\
                    x_seconds_bucket{le=\"0.001\"} 2\nx_seconds_bucket{le=\"0.01\"} 3\n\
                    x_seconds_bucket{le=\"0.1\"} 4\nx_seconds_bucket{le=\"+Inf\"} 5\n\
                    x_seconds_sum 2.056\nx_seconds_count 5\n";
        assert_eq!(out.0, want);
        assert_eq!(h.count(), 5);
    }
}
