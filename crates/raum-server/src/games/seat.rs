//! [`Seat`]: the seat a token holds in a two-player game, and the sides'
//! names as the JSON writes them.

use raum_rules::Color;

/// A seat's token matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// White's seat.
    White,
    /// Black's seat.
    Black,
    /// Both (a local game's one token).
    Both,
}

impl Seat {
    /// The side this seat speaks for: its own, or for a local game's one
    /// token the side to move.
    pub(super) fn side(self, to_move: Color) -> Color {
        match self {
            Seat::White => Color::White,
            Seat::Black => Color::Black,
            Seat::Both => to_move,
        }
    }

    pub(super) fn plays(self, c: Color) -> bool {
        matches!((self, c), (Seat::Both, _) | (Seat::White, Color::White) | (Seat::Black, Color::Black))
    }

    /// `white`, `black` or `both`.
    pub fn name(self) -> &'static str {
        match self {
            Seat::White => "white",
            Seat::Black => "black",
            Seat::Both => "both",
        }
    }
}

pub(super) fn color_name(c: Color) -> &'static str {
    if c == Color::White { "white" } else { "black" }
}

pub(super) fn parse_color(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}
