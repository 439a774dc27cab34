//! The JSON view of a two-player [`Room`]: the state as sent to clients.

use super::game_result::GameResult;
use super::room::Room;
use super::seat::color_name;
use raum_rules::Color;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;

/// The state as sent to clients.
#[derive(Serialize)]
struct StateView<'a> {
    id: &'a str,
    variant: &'a str,
    mode: &'static str,
    version: u64,
    names: HashMap<&'static str, &'a str>,
    start: String,
    fen: String,
    side: &'static str,
    ply: usize,
    moves: &'a [crate::any_game::PlayedMove],
    start_pieces: &'a [(usize, char)],
    legal: Vec<crate::any_game::MoveView>,
    check: Vec<usize>,
    result: Option<&'a GameResult>,
    draw_offer: Option<&'static str>,
    clock: Option<ClockView>,
    engine: Option<EngineView>,
    seats: HashMap<&'static str, SeatView>,
}

#[derive(Serialize)]
struct ClockView {
    white_ms: i64,
    black_ms: i64,
    running: Option<&'static str>,
    increment_ms: u64,
}

#[derive(Serialize)]
struct EngineView {
    color: String,
    level: Option<u32>,
    movetime: Option<u64>,
    thinking: bool,
}

#[derive(Serialize)]
struct SeatView {
    human: bool,
}

impl Room {
    pub(super) fn serialize(&self) -> Arc<str> {
        let side = self.game.side();
        let view = StateView {
            id: &self.meta.id,
            variant: &self.meta.variant,
            mode: self.mode.name(),
            version: self.version,
            names: HashMap::from([("white", self.meta.white.as_str()), ("black", self.meta.black.as_str())]),
            start: self.game.start_fen(),
            fen: self.game.fen(),
            side: color_name(side),
            ply: self.game.ply(),
            moves: self.game.moves(),
            start_pieces: self.game.start_pieces(),
            legal: if self.result.is_some() { Vec::new() } else { self.game.legal() },
            check: self.game.check(),
            result: self.result.as_ref(),
            draw_offer: self.draw_offer.map(color_name),
            clock: self.clock.as_ref().map(|c| ClockView {
                white_ms: c.left(Color::White, side).max(0),
                black_ms: c.left(Color::Black, side).max(0),
                running: c.since.map(|_| color_name(side)),
                increment_ms: c.settings.increment_ms,
            }),
            engine: self.engine.as_ref().map(|(c, e)| EngineView {
                color: color_name(*c).into(),
                level: e.level,
                movetime: e.movetime,
                thinking: self.thinking.is_some(),
            }),
            seats: HashMap::from([
                ("white", SeatView { human: self.meta.white_token.is_some() }),
                ("black", SeatView { human: self.meta.black_token.is_some() }),
            ]),
        };
        serde_json::to_string(&view).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}")).into()
    }
}
