//! Time allocation: how long one search may take.

use crate::Limits;
use raum_rules::Color;
use std::time::Duration;

/// Time kept back from the clock for communication and the process itself.
const OVERHEAD: Duration = Duration::from_millis(20);

/// When to stop a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimePlan {
    /// Do not start another iteration once this much time has gone.
    pub soft: Option<Duration>,
    /// Abort the search, even mid-iteration, at this much time.
    pub hard: Option<Duration>,
}

impl TimePlan {
    /// The plan for `limits` when `side` is to move. `infinite` ignores every
    /// clock; otherwise `movetime` and the side's clock both apply, the tighter wins.
    pub fn new(limits: &Limits, side: Color) -> TimePlan {
        if limits.infinite {
            return TimePlan::default();
        }
        let mut plan = TimePlan::default();
        let mut tighten = |soft: Duration, hard: Duration| {
            plan.soft = Some(plan.soft.map_or(soft, |s| s.min(soft)));
            plan.hard = Some(plan.hard.map_or(hard, |h| h.min(hard)));
        };
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(Duration::from_millis(5)).max(Duration::from_millis(1));
            tighten(t, t);
        }
        let (clock, inc) = match side {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        if let Some(clock) = clock {
            let inc = inc.unwrap_or_default();
            let moves = limits.movestogo.unwrap_or(30).clamp(1, 60);
            let avail = clock.saturating_sub(OVERHEAD).max(Duration::from_millis(1));
            let cap = avail * 8 / 10;
            let target = (avail / moves + inc * 3 / 4).min(cap);
            // An iteration costs several times the one before: do not start one
            // after 60% of the target; abort at three targets.
            let hard = (target * 3).min(cap).max(target);
            tighten(target * 6 / 10, hard);
        }
        plan
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans() {
        let ms = Duration::from_millis;
        assert_eq!(TimePlan::new(&Limits::default(), Color::White), TimePlan::default());
        let l = Limits { movetime: Some(ms(1000)), ..Limits::default() };
        assert_eq!(TimePlan::new(&l, Color::Black), TimePlan { soft: Some(ms(995)), hard: Some(ms(995)) });
        let l = Limits { wtime: Some(ms(30_020)), btime: Some(ms(5)), ..Limits::default() };
        let p = TimePlan::new(&l, Color::White);
        assert_eq!(p.soft, Some(ms(600)));
        assert_eq!(p.hard, Some(ms(3000)));
        let p = TimePlan::new(&l, Color::Black);
        assert!(p.hard.unwrap() <= ms(1));
        let l = Limits { wtime: Some(ms(10_020)), movestogo: Some(1), ..Limits::default() };
        assert_eq!(TimePlan::new(&l, Color::White).hard, Some(ms(8000)));
        let l = Limits { wtime: Some(ms(1000)), infinite: true, ..Limits::default() };
        assert_eq!(TimePlan::new(&l, Color::White), TimePlan::default());
    }
}
