//! Seats: who plays each side ([`StoredSeat`]: the hash of a person's
//! token, or the engine's level or time per move), and [`Seat`]: the sides
//! a token holds.

use super::tokens::TokenHash;
use crate::live_game::side_key;
use raum_rules::SideDef;
use serde::{Deserialize, Serialize};

/// Who plays a side, as a multi-player game stores it (JSON in the games
/// table's `seats` column); a two-player game keeps the same in its own
/// columns (names, tokens, the engine's seat).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StoredSeat {
    /// The player's name as shown.
    pub(crate) name: String,
    /// The hash of a person's seat token (the same token for every
    /// person's seat at one screen); `None`: the engine's seat. A token
    /// stored in clear (before tokens were hashed) is hashed as it is read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) token: Option<TokenHash>,
    /// The engine's time per move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) movetime: Option<u64>,
    /// The engine's level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) level: Option<u32>,
}

impl StoredSeat {
    /// Whether Raum plays this side.
    pub(crate) fn engine(&self) -> bool {
        self.token.is_none()
    }
}

/// The sides a seat token holds (a bit per side in turn order), and
/// whether it is a game at one screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seat {
    sides: u8,
    local: bool,
}

impl Seat {
    /// The seat of `token` among `seats`: the token is hashed, and its hash
    /// compared with each seat's in constant time.
    pub(super) fn of(seats: &[StoredSeat], token: &str, local: bool) -> Option<Seat> {
        let presented = TokenHash::of(token);
        let sides = seats.iter().enumerate().fold(0u8, |mask, (i, s)| {
            let held = s.token.as_ref().is_some_and(|t| t.matches(&presented));
            mask | (u8::from(held) << i)
        });
        (sides != 0).then_some(Seat { sides, local })
    }

    /// Whether the seat plays `side`.
    pub(super) fn plays(self, side: usize) -> bool {
        self.sides & (1 << side) != 0
    }

    /// Its one side (online, or a person against the engine); `None` at one screen.
    pub(super) fn own(self) -> Option<usize> {
        (!self.local && self.sides.count_ones() == 1).then(|| self.sides.trailing_zeros() as usize)
    }

    /// The seat as the WebSocket names it: a side (`white`, `blue`), or at
    /// one screen `both` (two sides) or `all` (more).
    pub fn name(self, sides: &[SideDef]) -> &'static str {
        match self.own() {
            Some(s) => side_key(&sides[s]),
            None if sides.len() == 2 => "both",
            None => "all",
        }
    }
}
