//! A stored game, replayed into a [`Room`]: its seats (a multi-player
//! game's `seats` column, or a two-player game's names, token hashes and engine),
//! its events (a move's coordinates, `resign <letter>`, `time <letter>`),
//! its clocks and its result.

use super::clock::Clock;
use super::request::{ClockSettings, EngineSeat, Mode, parse_color};
use super::room::Room;
use super::seat::StoredSeat;
use super::seating::side_index;
use super::tokens::TokenHash;
use crate::live_game::LiveGame;
use crate::store::{GameMeta, Stamp, StoredMove, StoredResult};
use raum_notation::parse_result;
use raum_rules::GameId;
use std::time::{Duration, Instant};

/// Now, in milliseconds since 1970 (as a move's `at_ms` is stored).
pub(super) fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// A two-player game's seats, from its own columns.
fn two_player_seats(meta: &GameMeta) -> Result<Vec<StoredSeat>, String> {
    let engine: Option<EngineSeat> = match &meta.engine {
        Some(text) => Some(serde_json::from_str(text).map_err(|e| format!("engine: {e}"))?),
        None => None,
    };
    let engine_side = match &engine {
        Some(seat) => Some(parse_color(&seat.color).ok_or("engine colour")?),
        None => None,
    };
    let seat = |side: usize, name: &str, token: &Option<String>| match (&engine, engine_side) {
        (Some(e), Some(s)) if s == side => {
            StoredSeat { name: name.into(), token: None, movetime: e.movetime, level: e.level }
        }
        _ => StoredSeat {
            name: name.into(),
            token: token.as_deref().map(TokenHash::stored),
            movetime: None,
            level: None,
        },
    };
    Ok(vec![seat(0, &meta.white, &meta.white_token), seat(1, &meta.black, &meta.black_token)])
}

impl Room {
    /// A stored game, replayed. A running clock counts from now (one server:
    /// while it was down, nobody could move), or with `since_last_move` from
    /// the time its last move was stored (several servers: the game went on
    /// while this one had not loaded it; every server counts alike).
    pub(super) fn restore(
        meta: GameMeta,
        moves: &[StoredMove],
        result: Option<StoredResult>,
        since_last_move: bool,
    ) -> Result<Room, String> {
        let damaged = |why: String| format!("stored game {} is damaged: {why}", meta.id);
        let id = GameId::from_name(&meta.variant).map_err(|e| damaged(e.to_string()))?;
        let mode = Mode::parse(&meta.mode).ok_or_else(|| damaged(format!("mode '{}'", meta.mode)))?;
        let seats: Vec<StoredSeat> = match &meta.seats {
            Some(text) => serde_json::from_str(text).map_err(|e| damaged(format!("seats: {e}")))?,
            None => two_player_seats(&meta).map_err(damaged)?,
        };
        let clock: Option<ClockSettings> = match &meta.clock {
            Some(text) => Some(serde_json::from_str(text).map_err(|e| damaged(format!("clock: {e}")))?),
            None => None,
        };
        let mut game = LiveGame::new(id, Some(&meta.start)).map_err(damaged)?;
        if seats.len() != game.sides().len() {
            return Err(damaged(format!("{} seats for {} sides", seats.len(), game.sides().len())));
        }
        let mut clocks = clock.map(|c| Clock::new(c, seats.len()).left_ms);
        let mut clock_after = Vec::new();
        for m in moves {
            replay(&mut game, &mut clocks, m).map_err(damaged)?;
            clock_after.extend(clocks.clone());
        }
        let offers = meta.offers.clone();
        let mut room = Room::open(meta, mode, game, seats, clock);
        // The room keeps its offers in `draw` and `takeback`, not in its meta.
        room.meta.offers = None;
        if room.result.is_none()
            && let Some(text) = offers
        {
            room.read_offers(&text);
        }
        if let (Some(c), Some(last)) = (&mut room.clock, clocks) {
            c.left_ms = last;
            room.clock_after = clock_after;
        }
        if room.result.is_none()
            && let Some(r) = result
        {
            let scores = parse_result(&r.score)
                .ok()
                .flatten()
                .filter(|s| s.len() == room.game.sides().len())
                .ok_or_else(|| format!("stored game {} is damaged: result '{}'", room.meta.id, r.score))?;
            room.result = Some(room.kept_result(scores, &r.reason));
        }
        room.start_clock();
        if since_last_move {
            room.count_clock_from(moves.last().and_then(|m| m.at_ms));
        }
        room.rebuild();
        Ok(room)
    }
}

/// Replays one stored event on `game` (a move's coordinates, `resign
/// <letter>`, `time <letter>`), and its clocks on `clocks`.
fn replay(game: &mut LiveGame, clocks: &mut Option<Vec<i64>>, m: &StoredMove) -> Result<(), String> {
    let (mover, number) = (game.side(), game.ply() + 1);
    match m.coord.split_once(' ') {
        Some((kind @ ("resign" | "time"), letter)) => {
            let side = side_index(game.sides(), letter).ok_or_else(|| format!("event {number}: no side '{letter}'"))?;
            let kind = if kind == "time" { "time" } else { "resign" };
            game.resign(side, kind).map_err(|e| format!("event {number}: {e}"))?;
        }
        _ => {
            game.play(&m.coord).map_err(|e| format!("move {number} {}: {e}", m.coord))?;
            // Moves imported from a record carry no clocks: those before stand.
            if let Some(c) = clocks {
                *c = Clock::restored(c, mover, (m.white_ms, m.black_ms));
            }
        }
    }
    Ok(())
}

impl Room {
    /// A running clock counted from `at_ms` (when the last move was stored),
    /// not from now.
    fn count_clock_from(&mut self, at_ms: Option<i64>) {
        if let (Some(c), Some(at)) = (&mut self.clock, at_ms)
            && c.since.is_some()
        {
            let elapsed = Duration::from_millis(now_ms().saturating_sub(at).max(0) as u64);
            c.since = Instant::now().checked_sub(elapsed).or(c.since);
        }
    }

    /// Follows a move another server stored (the store's feed carried it):
    /// the room takes it as [`Room::restore`] would have replayed it, with
    /// `offers` as they stand after it; whether the game now stands at
    /// `stamp` (if not, the room must be loaded whole).
    pub(super) fn follow(&mut self, m: &StoredMove, stamp: &Stamp) -> bool {
        let mut clocks = self.clock.as_ref().map(|c| c.left_ms.clone());
        if replay(&mut self.game, &mut clocks, m).is_err() {
            return false;
        }
        // Whatever ran for the position before (this server's search, its flag timer) is moot.
        self.stop_work();
        if let (Some(c), Some(left)) = (&mut self.clock, clocks) {
            c.left_ms = left.clone();
            self.clock_after.push(left);
        }
        (self.draw, self.takeback) = (Vec::new(), None);
        if let Some(text) = &stamp.offers {
            self.read_offers(text);
        }
        self.result = self.rules_result();
        self.start_clock();
        self.count_clock_from(m.at_ms);
        self.searched_elsewhere = false;
        self.stamp() == *stamp
    }
}
