//! Chess clocks for `raum match`: a player given `tc=BASE+INC` (or
//! `tc=MOVES/BASE+INC`, BASE again after every MOVES moves) plays on a clock
//! the referee keeps. Before each move the engine is told both clocks (the
//! protocol's `wtime btime winc binc`, and `movestogo` with a move count; in
//! games of more sides its own, as `wtime winc`), the
//! time it takes is charged to its clock, and a player whose clock runs out
//! loses on time. This is how the engine's time management is tried in real games.

use raum_engine::Limits;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A time control: a base time, an increment per move, and optionally a
/// number of moves after which the base time is given again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period (`None`: the base is for the whole game).
    pub moves: Option<u32>,
    pub base: Duration,
    pub inc: Duration,
}

/// A time control that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{0}' is no time control: write [MOVES/]BASE[+INC] in seconds, e.g. 10+0.1 or 40/60 (base above 0, moves at least 1)"
)]
pub struct BadTimeControl(String);

fn seconds(text: &str) -> Option<Duration> {
    let s: f64 = text.trim().parse().ok()?;
    (s.is_finite() && (0.0..=86_400.0).contains(&s)).then(|| Duration::from_secs_f64(s))
}

impl FromStr for TimeControl {
    type Err = BadTimeControl;

    /// `10+0.1`: ten seconds for the game and 0.1 s more after each move; `60`: a minute, no
    /// increment; `40/60`: a minute for every 40 moves.
    fn from_str(text: &str) -> Result<TimeControl, BadTimeControl> {
        let bad = || BadTimeControl(text.to_string());
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => (Some(m.trim().parse::<u32>().ok().filter(|&m| m > 0).ok_or_else(bad)?), rest),
            None => (None, text),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let base = seconds(base).filter(|b| !b.is_zero()).ok_or_else(bad)?;
        let inc = seconds(inc).ok_or_else(bad)?;
        Ok(TimeControl { moves, base, inc })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}+{}", self.base.as_secs_f64(), self.inc.as_secs_f64())
    }
}

/// Every side's clock in one game (a player without a time control has none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    tc: Vec<Option<TimeControl>>,
    left: Vec<Option<Duration>>,
    /// Moves each side has made.
    made: Vec<u32>,
}

impl Clocks {
    /// Clocks at the start of a game: each side's time control, in turn order.
    pub fn new(tc: Vec<Option<TimeControl>>) -> Clocks {
        let left = tc.iter().map(|tc| tc.map(|t| t.base)).collect();
        Clocks { made: vec![0; tc.len()], tc, left }
    }

    /// `limits` for `side` to move with the clocks added, as `go wtime … btime …
    /// winc … binc … movestogo …` gives them (`movestogo`: `side`'s moves to its
    /// next period). In games of more sides, the mover's clock as `wtime` and `winc`.
    pub fn apply(&self, limits: &Limits, side: usize) -> Limits {
        let mut l = limits.clone();
        let inc = |i: usize| self.tc[i].map(|t| t.inc);
        if self.tc.len() == 2 {
            (l.wtime, l.btime, l.winc, l.binc) = (self.left[0], self.left[1], inc(0), inc(1));
        } else {
            (l.wtime, l.winc) = (self.left[side], inc(side));
        }
        if let Some(m) = self.tc[side].and_then(|t| t.moves) {
            l.movestogo = Some(m - self.made[side] % m);
        }
        l
    }

    /// Charges `spent` to `side`'s clock and adds its increment (and the base
    /// time again when a period's moves are made); `false` if the time ran
    /// out before the move came (the clock then shows zero).
    pub fn charge(&mut self, side: usize, spent: Duration) -> bool {
        let i = side;
        let (Some(left), Some(tc)) = (self.left[i], self.tc[i]) else { return true };
        match left.checked_sub(spent) {
            Some(rest) => {
                self.made[i] += 1;
                let new_period = tc.moves.is_some_and(|m| self.made[i].is_multiple_of(m));
                self.left[i] = Some(rest + tc.inc + if new_period { tc.base } else { Duration::ZERO });
                true
            }
            None => {
                self.left[i] = Some(Duration::ZERO);
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn time_controls_parse() {
        assert_eq!("10+0.1".parse(), Ok(TimeControl { moves: None, base: MS(10_000), inc: MS(100) }));
        assert_eq!("60".parse(), Ok(TimeControl { moves: None, base: MS(60_000), inc: MS(0) }));
        assert_eq!(" 0.5 + 0.01 ".parse(), Ok(TimeControl { moves: None, base: MS(500), inc: MS(10) }));
        assert_eq!("40/60".parse(), Ok(TimeControl { moves: Some(40), base: MS(60_000), inc: MS(0) }));
        for text in ["10+0.1", "40/60+0.5"] {
            assert_eq!(text.parse::<TimeControl>().unwrap().to_string(), text);
        }
        for bad in [
            "", "0", "0+1", "-5", "10+-1", "ten", "10+", "1e9", "NaN", "inf+0", "10+0.1+2", "0/60", "x/60", "40/",
            "/60", "-1/60", "40/60/2",
        ] {
            let e = bad.parse::<TimeControl>().unwrap_err().to_string();
            assert!(e.contains("no time control"), "{bad}: {e}");
        }
    }

    #[test]
    fn clocks_run_and_fall() {
        let tc = TimeControl { moves: None, base: MS(1000), inc: MS(100) };
        let mut c = Clocks::new(vec![Some(tc), None]);
        let white = |c: &Clocks| c.apply(&Limits::default(), 0).wtime;
        let l = c.apply(&Limits { nodes: Some(5), ..Limits::default() }, 0);
        assert_eq!((l.nodes, l.wtime, l.winc, l.btime, l.binc), (Some(5), Some(MS(1000)), Some(MS(100)), None, None));
        assert_eq!(l.movestogo, None);
        assert!(c.charge(0, MS(400)));
        assert_eq!(white(&c), Some(MS(700)));
        assert!(c.charge(1, Duration::from_secs(3600)), "no clock, no flag");
        assert_eq!(c.apply(&Limits::default(), 1).btime, None);
        assert!(c.charge(0, MS(700)), "exactly the time left is in time");
        assert_eq!(white(&c), Some(MS(100)));
        assert!(!c.charge(0, MS(101)));
        assert_eq!(white(&c), Some(MS(0)));
    }

    #[test]
    fn periods_give_the_base_time_again() {
        let tc: TimeControl = "3/1".parse().unwrap();
        let mut c = Clocks::new(vec![Some(tc), Some(tc)]);
        let to_go = |c: &Clocks, side: usize| c.apply(&Limits::default(), side).movestogo;
        assert_eq!(to_go(&c, 0), Some(3));
        for (spent, left, next) in [(100, 900, 2), (200, 700, 1), (300, 1400, 3), (400, 1000, 2)] {
            assert!(c.charge(0, MS(spent)));
            let l = c.apply(&Limits::default(), 0);
            assert_eq!((l.wtime, l.movestogo), (Some(MS(left)), Some(next)));
        }
        assert_eq!(to_go(&c, 1), Some(3), "each side counts its own moves");
        assert_eq!(c.apply(&Limits::default(), 1).btime, Some(MS(1000)));
    }
}
