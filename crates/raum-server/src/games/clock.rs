//! [`Clock`]: the clocks of a game, one per side, kept by the server.

use super::request::ClockSettings;
use std::time::Instant;

/// The clocks, kept by the server.
#[derive(Clone, Debug)]
pub(super) struct Clock {
    pub(super) settings: ClockSettings,
    /// Each side's remaining time, in turn order, as of `since`.
    pub(super) left_ms: Vec<i64>,
    /// When the side to move's clock started; `None` while stopped.
    pub(super) since: Option<Instant>,
}

impl Clock {
    pub(super) fn new(settings: ClockSettings, sides: usize) -> Clock {
        Clock { settings, left_ms: vec![settings.initial_ms as i64; sides], since: None }
    }

    /// Time left for `side` now.
    pub(super) fn left(&self, side: usize, to_move: usize) -> i64 {
        let base = self.left_ms[side];
        match self.since {
            Some(t) if side == to_move => base - t.elapsed().as_millis() as i64,
            _ => base,
        }
    }

    /// Whether the side to move's flag has fallen.
    pub(super) fn fallen(&self, to_move: usize) -> bool {
        self.since.is_some() && self.left(to_move, to_move) <= 0
    }

    /// The times a move stores: White's and Black's (two sides), or the
    /// mover's alone in the first column (more sides: the others' do not
    /// change with its move).
    pub(super) fn stored(&self, mover: usize) -> (Option<i64>, Option<i64>) {
        match self.left_ms[..] {
            [w, b] => (Some(w), Some(b)),
            _ => (Some(self.left_ms[mover]), None),
        }
    }

    /// The clocks after a stored move, from those before it.
    pub(super) fn restored(before: &[i64], mover: usize, stored: (Option<i64>, Option<i64>)) -> Vec<i64> {
        let mut after = before.to_vec();
        match (&mut after[..], stored) {
            ([w, b], (sw, sb)) => (*w, *b) = (sw.unwrap_or(*w), sb.unwrap_or(*b)),
            (all, (Some(ms), _)) => all[mover] = ms,
            _ => {}
        }
        after
    }
}
