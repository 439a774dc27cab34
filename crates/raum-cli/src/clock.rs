//! Chess clocks for `raum match`: a player given `tc=BASE+INC` plays on a
//! clock the referee keeps. Before each move the engine is told both clocks
//! (the protocol's `wtime btime winc binc`), the time it takes is charged to
//! its clock, and a player whose clock runs out loses on time. This is how
//! the engine's time management is tried in real games.

use raum_engine::Limits;
use raum_rules::Color;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A time control: a base time for the game and an increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub inc: Duration,
}

/// A time control that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is no time control: write BASE or BASE+INC in seconds, e.g. 10+0.1 (base above 0)")]
pub struct BadTimeControl(String);

fn seconds(text: &str) -> Option<Duration> {
    let s: f64 = text.trim().parse().ok()?;
    (s.is_finite() && (0.0..=86_400.0).contains(&s)).then(|| Duration::from_secs_f64(s))
}

impl FromStr for TimeControl {
    type Err = BadTimeControl;

    /// `10+0.1`: ten seconds for the game and 0.1 s more after each move; `60`: a minute, no increment.
    fn from_str(text: &str) -> Result<TimeControl, BadTimeControl> {
        let bad = || BadTimeControl(text.to_string());
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let base = seconds(base).filter(|b| !b.is_zero()).ok_or_else(bad)?;
        let inc = seconds(inc).ok_or_else(bad)?;
        Ok(TimeControl { base, inc })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}", self.base.as_secs_f64(), self.inc.as_secs_f64())
    }
}

/// Both players' clocks in one game (a player without a time control has none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    left: [Option<Duration>; 2],
    inc: [Duration; 2],
}

impl Clocks {
    /// Clocks at the start of a game.
    pub fn new(white: Option<TimeControl>, black: Option<TimeControl>) -> Clocks {
        let base = |tc: Option<TimeControl>| tc.map(|t| t.base);
        let inc = |tc: Option<TimeControl>| tc.map_or(Duration::ZERO, |t| t.inc);
        Clocks { left: [base(white), base(black)], inc: [inc(white), inc(black)] }
    }

    /// `limits` with the clocks added, as `go wtime … btime … winc … binc …` gives them.
    pub fn apply(&self, limits: &Limits) -> Limits {
        let mut l = limits.clone();
        let inc = |i: usize| self.left[i].map(|_| self.inc[i]);
        (l.wtime, l.btime, l.winc, l.binc) = (self.left[0], self.left[1], inc(0), inc(1));
        l
    }

    /// Charges `spent` to `side`'s clock and adds its increment; `false` if
    /// the time ran out before the move came (the clock then shows zero).
    pub fn charge(&mut self, side: Color, spent: Duration) -> bool {
        let i = side as usize;
        let Some(left) = self.left[i] else { return true };
        match left.checked_sub(spent) {
            Some(rest) => {
                self.left[i] = Some(rest + self.inc[i]);
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
        assert_eq!("10+0.1".parse(), Ok(TimeControl { base: MS(10_000), inc: MS(100) }));
        assert_eq!("60".parse(), Ok(TimeControl { base: MS(60_000), inc: MS(0) }));
        assert_eq!(" 0.5 + 0.01 ".parse(), Ok(TimeControl { base: MS(500), inc: MS(10) }));
        assert_eq!("10+0.1".parse::<TimeControl>().unwrap().to_string(), "10+0.1");
        for bad in ["", "0", "0+1", "-5", "10+-1", "ten", "10+", "1e9", "NaN", "inf+0", "10+0.1+2"] {
            let e = bad.parse::<TimeControl>().unwrap_err().to_string();
            assert!(e.contains("no time control"), "{bad}: {e}");
        }
    }

    #[test]
    fn clocks_run_and_fall() {
        let tc = TimeControl { base: MS(1000), inc: MS(100) };
        let mut c = Clocks::new(Some(tc), None);
        let white = |c: &Clocks| c.apply(&Limits::default()).wtime;
        let l = c.apply(&Limits { nodes: Some(5), ..Limits::default() });
        assert_eq!((l.nodes, l.wtime, l.winc, l.btime, l.binc), (Some(5), Some(MS(1000)), Some(MS(100)), None, None));
        assert!(c.charge(Color::White, MS(400)));
        assert_eq!(white(&c), Some(MS(700)));
        assert!(c.charge(Color::Black, Duration::from_secs(3600)), "no clock, no flag");
        assert_eq!(c.apply(&Limits::default()).btime, None);
        assert!(c.charge(Color::White, MS(700)), "exactly the time left is in time");
        assert_eq!(white(&c), Some(MS(100)));
        assert!(!c.charge(Color::White, MS(101)));
        assert_eq!(white(&c), Some(MS(0)));
    }
}
