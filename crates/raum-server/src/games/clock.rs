//! [`Clock`]: a two-player game's clocks, kept by the server.

use super::request::ClockSettings;
use raum_rules::Color;
use std::time::Instant;

/// The clocks, kept by the server.
#[derive(Clone, Debug)]
pub(super) struct Clock {
    pub(super) settings: ClockSettings,
    /// Remaining time, White and Black, as of `since`.
    pub(super) left_ms: [i64; 2],
    /// When the side to move's clock started; `None` while stopped.
    pub(super) since: Option<Instant>,
}

impl Clock {
    /// Time left for `c` now.
    pub(super) fn left(&self, c: Color, to_move: Color) -> i64 {
        let base = self.left_ms[c.index()];
        match self.since {
            Some(t) if c == to_move => base - t.elapsed().as_millis() as i64,
            _ => base,
        }
    }
}
