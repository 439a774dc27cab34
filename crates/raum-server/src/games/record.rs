//! The game as a record (RULES.md's PGN-style text): a tag per side's
//! player, the clocks, the result and how it ended.

use super::refusal::Refusal;
use super::registry::Games;
use raum_notation::record_date;
use std::sync::Arc;

impl Games {
    /// The game as a record.
    pub async fn record(self: &Arc<Self>, id: &str) -> Result<String, Refusal> {
        let room_arc = self.room(id).await?;
        let room = room_arc.lock().await;
        let mut r = room.game.record();
        r.set_tag("Event", &format!("Raum {} game", room.mode.name()));
        r.set_tag("Site", "Raum web app");
        r.set_tag("Date", &record_date(room.meta.created));
        for (side, seat) in room.game.sides().iter().zip(&room.seats) {
            r.set_tag(side.name, &seat.name);
        }
        if let Some(c) = &room.clock {
            r.set_tag(
                "TimeControl",
                &format!("{}+{}", seconds(c.settings.initial_ms), seconds(c.settings.increment_ms)),
            );
        }
        if let Some(res) = &room.result {
            r.set_result(Some(res.scores.clone()));
            if res.reason != "agreement" && res.reason != "recorded" {
                r.set_tag("Termination", &res.reason);
            }
        }
        Ok(r.to_string())
    }
}

/// Milliseconds as PGN's `TimeControl` writes seconds: `300`, `0.5`.
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) { (ms / 1000).to_string() } else { format!("{}", ms as f64 / 1000.0) }
}
