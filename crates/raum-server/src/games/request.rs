//! `POST /api/games`: the request ([`NewGame`]: [`Mode`], [`EngineSeat`],
//! [`ClockSettings`], [`Names`]), its checks, and the answer ([`Created`]).

use super::refusal::Refusal;
use super::seating::SeatRequest;
use raum_engine::{LEVELS, level_limits};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Who sits in a game's seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Two people at one screen: one token moves both sides.
    Local,
    /// A person against the engine.
    Engine,
    /// Two people, each with a seat token, and spectators.
    Online,
}

impl Mode {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Mode::Local => "local",
            Mode::Engine => "engine",
            Mode::Online => "online",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<Mode> {
        [Mode::Local, Mode::Engine, Mode::Online].into_iter().find(|m| m.name() == s)
    }
}

/// The engine's seat in an engine game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineSeat {
    /// The side the engine plays: `white` or `black`.
    pub color: String,
    /// Level 1..=[`LEVELS`].
    #[serde(default)]
    pub level: Option<u32>,
    /// Or a fixed time per move, in milliseconds.
    #[serde(default)]
    pub movetime: Option<u64>,
}

/// Clock settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSettings {
    /// Each side's time at the start, in milliseconds.
    pub initial_ms: u64,
    /// Added after each move, in milliseconds.
    #[serde(default)]
    pub increment_ms: u64,
}

/// Player names.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Names {
    /// White's name.
    #[serde(default)]
    pub white: Option<String>,
    /// Black's name.
    #[serde(default)]
    pub black: Option<String>,
}

/// `POST /api/games`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Variant id (optional with `pgn`, whose `[Variant]` tag names it).
    #[serde(default)]
    pub variant: Option<String>,
    /// `local`, `engine` or `online`.
    pub mode: String,
    /// Start from this position string.
    #[serde(default)]
    pub fen: Option<String>,
    /// Continue this game record.
    #[serde(default)]
    pub pgn: Option<String>,
    /// The engine's seat (mode `engine`).
    #[serde(default)]
    pub engine: Option<EngineSeat>,
    /// Player names.
    #[serde(default)]
    pub names: Option<Names>,
    /// Clocks.
    #[serde(default)]
    pub clock: Option<ClockSettings>,
    /// A multi-player game's seats, by side (`white`, `red`, ... or the
    /// side's letter): a person (the default) or the engine.
    #[serde(default)]
    pub seats: Option<HashMap<String, SeatRequest>>,
}

/// What `POST /api/games` answers.
#[derive(Serialize)]
pub struct Created {
    /// The game's id.
    pub id: String,
    /// Seat tokens.
    pub tokens: HashMap<&'static str, String>,
    /// Links: each seat's, and the spectators'.
    pub links: HashMap<&'static str, String>,
    /// The state.
    pub state: serde_json::Value,
}

/// A player's name as given: control characters, the bidirectional
/// controls (which could turn the text shown around) and the invisible
/// zero-width characters dropped; at most 40 characters.
pub(crate) fn clean_name(s: &str) -> String {
    let hidden = |c: &char| {
        c.is_control()
            || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{061C}' | '\u{FEFF}')
    };
    s.chars().filter(|c| !hidden(c)).collect::<String>().trim().chars().take(40).collect()
}

/// Whether a name is the engine's (`Raum`, `Raum (level 3)`): a person may
/// not take it.
fn is_engine_name(name: &str) -> bool {
    let lower = clean_name(name).to_lowercase();
    lower == "raum" || lower.starts_with("raum ") || lower.starts_with("raum(")
}

/// Refuses a request whose player names pass for the engine's.
pub(super) fn check_names(req: &NewGame) -> Result<(), Refusal> {
    let names = req.names.iter().flat_map(|n| [&n.white, &n.black]).flatten();
    let seats = req.seats.iter().flat_map(|s| s.values()).filter_map(|s| s.name.as_ref());
    match names.chain(seats).find(|n| is_engine_name(n)) {
        Some(n) => Err(Refusal::new(400, format!("the name '{}' is the engine's: choose another", clean_name(n)))),
        None => Ok(()),
    }
}

/// The longest the engine thinks on a move in a game without accounts (all
/// games today): the engine is shared (docs/api.md, "Engine time").
pub(crate) const MAX_MOVETIME_MS: u64 = 10_000;

/// A two-player side by its key: 0 for `white`, 1 for `black`.
pub(super) fn parse_color(s: &str) -> Option<usize> {
    ["white", "black"].iter().position(|&c| c == s)
}

/// RULES.md's `Termination` words.
pub(super) const TERMINATIONS: [&str; 9] = [
    "checkmate",
    "stalemate",
    "fifty-move",
    "repetition",
    "bare-kings",
    "time",
    "resignation",
    "adjudication",
    "illegal-move",
];

const MAX_CLOCK_MS: u64 = 24 * 3600 * 1000;

/// The engine's seat asked for, checked against the mode: its colour, and
/// a level or a time per move in range.
pub(super) fn engine_seat(mode: Mode, engine: Option<EngineSeat>) -> Result<Option<(usize, EngineSeat)>, Refusal> {
    Ok(match (mode, engine) {
        (Mode::Engine, Some(seat)) => {
            let color = parse_color(&seat.color)
                .ok_or_else(|| Refusal::new(400, format!("engine color '{}': expected white or black", seat.color)))?;
            match (seat.level, seat.movetime) {
                (Some(_), Some(_)) => {
                    return Err(Refusal::new(400, "give the engine a level or a movetime, not both"));
                }
                (Some(l), None) if level_limits(l).is_none() => {
                    return Err(Refusal::new(400, format!("engine level {l}: expected 1 to {LEVELS}")));
                }
                (None, Some(ms)) if ms == 0 || ms > MAX_MOVETIME_MS => {
                    return Err(Refusal::new(400, format!("engine movetime {ms}: expected 1 to {MAX_MOVETIME_MS} ms")));
                }
                _ => {}
            }
            Some((color, seat))
        }
        (Mode::Engine, None) => return Err(Refusal::new(400, "an engine game needs \"engine\": {\"color\": ...}")),
        (_, Some(_)) => return Err(Refusal::new(400, "\"engine\" is only for mode engine")),
        (_, None) => None,
    })
}

/// The clocks asked for, checked: 1 ms to 24 hours, an increment of at most 24 hours.
pub(super) fn check_clock(clock: Option<ClockSettings>) -> Result<(), Refusal> {
    if let Some(c) = clock
        && (c.initial_ms == 0 || c.initial_ms > MAX_CLOCK_MS || c.increment_ms > MAX_CLOCK_MS)
    {
        return Err(Refusal::new(400, "clock: initial_ms must be 1 ms to 24 hours, increment_ms at most 24 hours"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_control_characters_and_length() {
        assert_eq!(clean_name("  Ann\u{7}\n "), "Ann");
        assert_eq!(clean_name(&"x".repeat(100)).len(), 40);
        // Bidirectional overrides and zero-width characters are dropped.
        assert_eq!(clean_name("\u{202E}nnA\u{202C} B\u{200B}ob\u{FEFF}"), "nnA Bob");
        // The engine's names are the engine's.
        for n in ["Raum", "raum (level 3)", "RAUM(50 ms)", " Raum\u{200B} "] {
            assert!(is_engine_name(n), "{n}");
        }
        for n in ["Raumund", "Ann", "Mr Raum"] {
            assert!(!is_engine_name(n), "{n}");
        }
    }
}
