//! Who plays each side of a new game: [`SeatRequest`] (a multi-player
//! game's `"seats"`), and the seats a request makes for either kind.

use super::refusal::Refusal;
use super::request::{EngineSeat, MAX_MOVETIME_MS, Mode, Names, clean_name};
use super::seat::StoredSeat;
use super::tokens::new_token;
use crate::live_game::side_key;
use raum_rules::SideDef;
use serde::Deserialize;
use std::collections::HashMap;

/// The engine's time per move when a multi-player seat gives none.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// A seat asked for in `POST /api/games` (`"seats": {"blue": {...}}`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    /// `human` (the default) or `engine`.
    #[serde(default)]
    pub player: Option<String>,
    /// A person's name.
    #[serde(default)]
    pub name: Option<String>,
    /// The engine's time per move, in milliseconds.
    #[serde(default)]
    pub movetime: Option<u64>,
}

/// The side `text` names in `sides`: its key (`blue`), name or letter.
pub(super) fn side_index(sides: &[SideDef], text: &str) -> Option<usize> {
    sides.iter().position(|s| {
        side_key(s) == text || s.name.eq_ignore_ascii_case(text) || (text.len() == 1 && text.starts_with(s.letter))
    })
}

/// `white (w), red (r), black (k), blue (b)`.
pub(super) fn side_list(sides: &[SideDef]) -> String {
    sides.iter().map(|s| format!("{} ({})", side_key(s), s.letter)).collect::<Vec<_>>().join(", ")
}

/// A two-player game's seats: from its mode, the engine's seat and the names.
pub(super) fn two_player_seats(mode: Mode, engine: Option<(usize, &EngineSeat)>, names: Names) -> Vec<StoredSeat> {
    let shared = (mode == Mode::Local).then(new_token);
    [(names.white, "White"), (names.black, "Black")]
        .into_iter()
        .enumerate()
        .map(|(side, (given, default))| match engine {
            Some((c, seat)) if c == side => StoredSeat {
                name: match (seat.level, seat.movetime) {
                    (Some(l), _) => format!("Raum (level {l})"),
                    (None, Some(ms)) => format!("Raum ({ms} ms)"),
                    _ => "Raum".into(),
                },
                token: None,
                movetime: seat.movetime,
                level: seat.level,
            },
            _ => StoredSeat {
                name: given.as_deref().map(clean_name).filter(|n| !n.is_empty()).unwrap_or_else(|| default.into()),
                token: Some(shared.clone().unwrap_or_else(new_token)),
                movetime: None,
                level: None,
            },
        })
        .collect()
}

/// A multi-player game's seats from its request: who plays each side, in turn order.
pub(super) fn multi_seats(
    sides: &'static [SideDef],
    asked: Option<HashMap<String, SeatRequest>>,
    local: bool,
) -> Result<Vec<StoredSeat>, Refusal> {
    let mut chosen: Vec<Option<SeatRequest>> = vec![None; sides.len()];
    for (key, seat) in asked.unwrap_or_default() {
        let side = side_index(sides, &key).ok_or_else(|| {
            Refusal::new(400, format!("seats: '{key}' is not a side of this game: {}", side_list(sides)))
        })?;
        if chosen[side].replace(seat).is_some() {
            return Err(Refusal::new(400, format!("seats: {} is given twice", sides[side].name)));
        }
    }
    let shared = local.then(new_token);
    let mut seats = Vec::with_capacity(sides.len());
    for (def, seat) in sides.iter().zip(chosen) {
        let seat = seat.unwrap_or_default();
        let name = seat.name.as_deref().map(clean_name).filter(|n| !n.is_empty());
        let refuse = |why: String| Err(Refusal::new(400, format!("seats: {} {why}", def.name)));
        match seat.player.as_deref().unwrap_or("human") {
            "human" if seat.movetime.is_some() => return refuse("is a person's: movetime is for the engine".into()),
            "human" => seats.push(StoredSeat {
                name: name.unwrap_or_else(|| def.name.into()),
                token: Some(shared.clone().unwrap_or_else(new_token)),
                movetime: None,
                level: None,
            }),
            "engine" => {
                let ms = seat.movetime.unwrap_or(DEFAULT_MOVETIME_MS);
                if ms == 0 || ms > MAX_MOVETIME_MS {
                    return refuse(format!("movetime {ms}: expected 1 to {MAX_MOVETIME_MS} ms"));
                }
                if name.is_some() {
                    return refuse("is Raum's: a name is for a person's seat".into());
                }
                seats.push(StoredSeat {
                    name: format!("Raum ({ms} ms)"),
                    token: None,
                    movetime: Some(ms),
                    level: None,
                });
            }
            other => return refuse(format!("player '{other}': expected human or engine")),
        }
    }
    if seats.iter().all(StoredSeat::engine) {
        return Err(Refusal::new(
            400,
            "seats: a game needs at least one person's seat (Raum does not play itself here)",
        ));
    }
    Ok(seats)
}
