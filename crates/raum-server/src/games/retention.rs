//! Retention: the unfinished games nobody changed for a configured age are
//! deleted from the store and dropped from memory
//! ([`Games::sweep_abandoned`]), at start and then now and then
//! ([`Games::keep_sweeping`]). Finished games are kept forever.

use super::refusal::Refusal;
use super::registry::Games;
use std::sync::Arc;
use std::time::Duration;

/// How often the sweep runs at most: every hour, or every quarter of the
/// age where that is shorter (so a game is deleted at most a quarter late).
fn sweep_interval(age: Duration) -> Duration {
    (age / 4).clamp(Duration::from_secs(1), Duration::from_secs(3600))
}

impl Games {
    /// Deletes the unfinished games whose last change is more than `age`
    /// before `now` (seconds since 1970), with their moves, and drops their
    /// rooms from memory so that none is served or stored again; their ids.
    ///
    /// A game being played changed lately, so it is never one of them; an
    /// engine's search keeps the time of the move before it, which matters
    /// only for an age shorter than a search.
    pub async fn sweep_abandoned(&self, now: i64, age: Duration) -> Result<Vec<String>, Refusal> {
        let before = now.saturating_sub(i64::try_from(age.as_secs()).unwrap_or(i64::MAX));
        let deleted = self.blocking(move |s| s.delete_abandoned(before)).await?;
        for id in &deleted {
            self.forget(id).await;
        }
        Ok(deleted)
    }

    /// Sweeps the games abandoned for `age` now and then every
    /// [`sweep_interval`], for as long as the server runs. A failed sweep is
    /// reported and tried again at the next.
    pub async fn keep_sweeping(self: Arc<Self>, age: Duration) {
        let mut every = tokio::time::interval(sweep_interval(age));
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            match self.sweep_abandoned(crate::store::now(), age).await {
                Ok(ids) if !ids.is_empty() => {
                    let age = age_text(age);
                    tracing::info!(games = ids.len(), %age, "deleted the unfinished games left for over the age");
                }
                Ok(_) => {}
                Err(e) => tracing::error!(error = %e.message, "the sweep of abandoned games failed"),
            }
        }
    }
}

/// An age as people read it: `30 days`, `2 h`, `90 s`.
fn age_text(age: Duration) -> String {
    let s = age.as_secs();
    match s {
        _ if s >= 86_400 && s.is_multiple_of(86_400) => format!("{} days", s / 86_400),
        _ if s >= 3600 && s.is_multiple_of(3600) => format!("{} h", s / 3600),
        _ => format!("{s} s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sweep_runs_hourly_or_four_times_an_age() {
        let day = Duration::from_secs(86_400);
        assert_eq!(sweep_interval(30 * day), Duration::from_secs(3600));
        assert_eq!(sweep_interval(Duration::from_secs(400)), Duration::from_secs(100));
        assert_eq!(sweep_interval(Duration::from_millis(10)), Duration::from_secs(1));
        assert_eq!(sweep_interval(Duration::MAX), Duration::from_secs(3600));
        assert_eq!(
            (age_text(30 * day), age_text(Duration::from_secs(7200)), age_text(Duration::from_secs(90))),
            ("30 days".into(), "2 h".into(), "90 s".into())
        );
    }
}
