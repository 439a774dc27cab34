//! Who plays each side of a new game: [`SeatRequest`] (a multi-player
//! game's `"seats"`), and the seats a request makes for either kind
//! ([`NewSeats`]: as kept, with each person's token hashed, and the tokens
//! in clear for the creator).

use super::refusal::Refusal;
use super::request::{EngineSeat, MAX_MOVETIME_MS, Mode, Names, clean_name};
use super::seat::StoredSeat;
use super::tokens::{TokenHash, new_token};
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

/// A new game's seats in turn order: as kept (a person's token hashed),
/// and each person's token in clear, which the creator is given once and
/// the server never keeps.
#[derive(Debug)]
pub(super) struct NewSeats {
    /// The seats as the game keeps them.
    pub(super) seats: Vec<StoredSeat>,
    /// Each seat's token in clear (`None`: the engine's seat).
    pub(super) tokens: Vec<Option<String>>,
    /// The one token of every person's seat at one screen.
    shared: Option<String>,
}

impl NewSeats {
    /// No seat yet; at one screen (`local`) every person's seat will share a token.
    fn new(local: bool) -> NewSeats {
        NewSeats { seats: Vec::new(), tokens: Vec::new(), shared: local.then(new_token) }
    }

    /// Seats a person: a new token, or at one screen the shared one.
    fn person(&mut self, name: String) {
        let token = self.shared.clone().unwrap_or_else(new_token);
        self.seats.push(StoredSeat { name, token: Some(TokenHash::of(&token)), movetime: None, level: None });
        self.tokens.push(Some(token));
    }

    /// Seats the engine.
    fn engine(&mut self, seat: StoredSeat) {
        self.seats.push(seat);
        self.tokens.push(None);
    }
}

/// A two-player game's seats: from its mode, the engine's seat and the names.
pub(super) fn two_player_seats(mode: Mode, engine: Option<(usize, &EngineSeat)>, names: Names) -> NewSeats {
    let mut new = NewSeats::new(mode == Mode::Local);
    for (side, (given, default)) in [(names.white, "White"), (names.black, "Black")].into_iter().enumerate() {
        match engine {
            Some((c, seat)) if c == side => new.engine(StoredSeat {
                name: match (seat.level, seat.movetime) {
                    (Some(l), _) => format!("Raum (level {l})"),
                    (None, Some(ms)) => format!("Raum ({ms} ms)"),
                    _ => "Raum".into(),
                },
                token: None,
                movetime: seat.movetime,
                level: seat.level,
            }),
            _ => {
                new.person(given.as_deref().map(clean_name).filter(|n| !n.is_empty()).unwrap_or_else(|| default.into()))
            }
        }
    }
    new
}

/// A multi-player game's seats from its request: who plays each side, in turn order.
pub(super) fn multi_seats(
    sides: &'static [SideDef],
    asked: Option<HashMap<String, SeatRequest>>,
    local: bool,
) -> Result<NewSeats, Refusal> {
    let mut chosen: Vec<Option<SeatRequest>> = vec![None; sides.len()];
    for (key, seat) in asked.unwrap_or_default() {
        let side = side_index(sides, &key).ok_or_else(|| {
            Refusal::new(400, format!("seats: '{key}' is not a side of this game: {}", side_list(sides)))
        })?;
        if chosen[side].replace(seat).is_some() {
            return Err(Refusal::new(400, format!("seats: {} is given twice", sides[side].name)));
        }
    }
    let mut new = NewSeats::new(local);
    for (def, seat) in sides.iter().zip(chosen) {
        let seat = seat.unwrap_or_default();
        let name = seat.name.as_deref().map(clean_name).filter(|n| !n.is_empty());
        let refuse = |why: String| Err(Refusal::new(400, format!("seats: {} {why}", def.name)));
        match seat.player.as_deref().unwrap_or("human") {
            "human" if seat.movetime.is_some() => return refuse("is a person's: movetime is for the engine".into()),
            "human" => new.person(name.unwrap_or_else(|| def.name.into())),
            "engine" => {
                let ms = seat.movetime.unwrap_or(DEFAULT_MOVETIME_MS);
                if ms == 0 || ms > MAX_MOVETIME_MS {
                    return refuse(format!("movetime {ms}: expected 1 to {MAX_MOVETIME_MS} ms"));
                }
                if name.is_some() {
                    return refuse("is Raum's: a name is for a person's seat".into());
                }
                new.engine(StoredSeat {
                    name: format!("Raum ({ms} ms)"),
                    token: None,
                    movetime: Some(ms),
                    level: None,
                });
            }
            other => return refuse(format!("player '{other}': expected human or engine")),
        }
    }
    if new.seats.iter().all(StoredSeat::engine) {
        return Err(Refusal::new(
            400,
            "seats: a game needs at least one person's seat (Raum does not play itself here)",
        ));
    }
    Ok(new)
}
