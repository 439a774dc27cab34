//! The JSON view of a [`Room`]: the state as sent to clients, one shape
//! for every game (docs/api.md; what only games for more than two fill in
//! is empty or the same for two).

use super::game_result::GameResult;
use super::room::Room;
use crate::live_game::{Event, MoveView, side_key};
use crate::store::Rematch;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// The state as sent to clients.
#[derive(Serialize)]
struct StateView<'a> {
    id: &'a str,
    variant: &'a str,
    /// `two` or `multi`.
    kind: &'static str,
    mode: &'static str,
    version: u64,
    teams: bool,
    names: HashMap<&'static str, &'a str>,
    sides: Vec<SideView<'a>>,
    start: String,
    fen: String,
    side: &'static str,
    ply: usize,
    moves: &'a [Event],
    start_pieces: &'a [(usize, String)],
    legal: Vec<MoveView>,
    check: Vec<usize>,
    in_check: bool,
    result: Option<&'a GameResult>,
    draw_offer: Option<&'static str>,
    draw_agreed: Vec<&'static str>,
    takeback: Option<TakebackView>,
    rematch: Option<&'a Rematch>,
    clock: Option<ClockView>,
    engine: Option<EngineView>,
    seats: HashMap<&'static str, SeatView>,
}

#[derive(Serialize)]
struct SideView<'a> {
    key: &'static str,
    letter: char,
    name: &'static str,
    team: u8,
    player: &'a str,
    human: bool,
    movetime: Option<u64>,
    #[serde(rename = "in")]
    in_game: bool,
    out: Option<OutView>,
    /// A page of this seat is open now (an online game's player is here).
    present: bool,
    score: Option<&'a str>,
    thinking: bool,
}

#[derive(Serialize)]
struct OutView {
    /// The event that took the side out (1-based: the state after it).
    ply: usize,
    /// `resignation`, `time`, or `no-move` (no legal move on its turn).
    reason: &'static str,
}

#[derive(Serialize)]
struct ClockView {
    /// `white_ms`, `black_ms`, `red_ms`, ...: each side's time left.
    #[serde(flatten)]
    left: BTreeMap<String, i64>,
    running: Option<&'static str>,
    increment_ms: u64,
    initial_ms: u64,
}

#[derive(Serialize)]
struct EngineView {
    /// The (first) side Raum plays.
    color: &'static str,
    level: Option<u32>,
    movetime: Option<u64>,
    thinking: bool,
}

#[derive(Serialize)]
struct TakebackView {
    /// The side that asks to take back its last move.
    by: &'static str,
    /// The events the game had when it asked.
    ply: usize,
}

#[derive(Serialize)]
struct SeatView {
    human: bool,
}

impl Room {
    pub(super) fn serialize(&self) -> Arc<str> {
        let sides = self.game.sides();
        let key = |s: usize| side_key(&sides[s]);
        let side = self.game.side();
        let events = self.game.events();
        let sides_in = self.game.sides_in();
        let thinking = self.thinking.is_some() || self.searched_elsewhere;
        let out = |k: &str| {
            events.iter().enumerate().rev().find(|(_, e)| e.out.contains(&k)).map(|(i, e)| OutView {
                ply: i + 1,
                reason: match e.kind {
                    _ if e.color != k => "no-move",
                    "time" => "time",
                    _ => "resignation",
                },
            })
        };
        let engine = self.seats.iter().position(|s| s.engine());
        let view = StateView {
            id: &self.meta.id,
            variant: &self.meta.variant,
            kind: if self.game.two() { "two" } else { "multi" },
            mode: self.mode.name(),
            version: self.version,
            teams: self.game.teams(),
            names: self.seats.iter().enumerate().map(|(i, s)| (key(i), s.name.as_str())).collect(),
            sides: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, seat)| SideView {
                    key: key(i),
                    letter: sides[i].letter,
                    name: sides[i].name,
                    team: sides[i].team,
                    player: &seat.name,
                    human: !seat.engine(),
                    movetime: seat.movetime,
                    in_game: sides_in.contains(&i),
                    out: out(key(i)),
                    present: self.present.get(i).is_some_and(|&n| n > 0)
                        || self.present_elsewhere.get(i).copied().unwrap_or(false),
                    score: self.result.as_ref().and_then(|r| r.points.get(i)).map(String::as_str),
                    thinking: thinking && i == side,
                })
                .collect(),
            start: self.game.start_fen(),
            fen: self.game.fen(),
            side: key(side),
            ply: self.game.ply(),
            moves: events,
            start_pieces: self.game.start_pieces(),
            legal: if self.result.is_some() { Vec::new() } else { self.game.legal() },
            check: self.game.check(),
            in_check: self.result.is_none() && self.game.in_check(),
            result: self.result.as_ref(),
            draw_offer: self.draw.first().map(|&s| key(s)),
            draw_agreed: self.draw.iter().map(|&s| key(s)).collect(),
            takeback: self.takeback.map(|t| TakebackView { by: key(t.by), ply: t.ply }),
            rematch: self.meta.rematch.as_ref(),
            clock: self.clock.as_ref().map(|c| ClockView {
                left: (0..sides.len()).map(|s| (format!("{}_ms", key(s)), c.left(s, side).max(0))).collect(),
                running: c.since.map(|_| key(side)),
                increment_ms: c.settings.increment_ms,
                initial_ms: c.settings.initial_ms,
            }),
            engine: engine.map(|e| EngineView {
                color: key(e),
                level: self.seats[e].level,
                movetime: self.seats[e].movetime,
                thinking,
            }),
            seats: self.seats.iter().enumerate().map(|(i, s)| (key(i), SeatView { human: !s.engine() })).collect(),
        };
        serde_json::to_string(&view).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}")).into()
    }
}
