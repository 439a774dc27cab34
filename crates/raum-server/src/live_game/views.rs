//! What the app shows of a game: moves, events and the engine's analysis,
//! as the JSON writes them (docs/api.md).

use raum_rules::SideDef;
use serde::Serialize;

/// The word a side goes by in the API, links and seats: its name in lower
/// case (`white`, `black`, `red`, `blue`, `green`, `yellow`).
pub fn side_key(side: &SideDef) -> &'static str {
    key_of(side.name)
}

/// [`side_key`] of a side's name.
pub fn key_of(name: &str) -> &str {
    match name {
        "White" => "white",
        "Black" => "black",
        "Red" => "red",
        "Blue" => "blue",
        "Green" => "green",
        "Yellow" => "yellow",
        other => other,
    }
}

/// A legal move as the app shows it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MoveView {
    /// Coordinates, `Ec2-Ec4`, `2f8-2f9=Q`.
    pub coord: String,
    /// What the move list shows: descriptive notation (`P-Cc2`) for two
    /// sides, the coordinates for more.
    pub san: String,
    /// Origin cell.
    pub from: usize,
    /// Destination cell (the rook's cell for castling, as coordinates write it).
    pub to: usize,
    /// The letter promoted to.
    pub promotion: Option<char>,
}

/// Something that happened in the game: a move, a resignation or a fallen
/// flag (these two only in games for more than two, where the game may go on).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Event {
    /// `move`, `resign` or `time`.
    pub kind: &'static str,
    /// A move's coordinates (`None` for the others).
    pub coord: Option<String>,
    /// What the move list shows: `P-Cc2`, `2e3-2e4+`, `Blue resigns`.
    pub san: String,
    /// A move's origin cell.
    pub from: Option<usize>,
    /// A move's destination cell.
    pub to: Option<usize>,
    /// The letter a move promotes to.
    pub promotion: Option<char>,
    /// Whether a move gives check (attacks an opposed royal).
    pub check: bool,
    /// The royal cells attacked afterwards (as the state's `check`).
    pub checks: Vec<usize>,
    /// Its move number (two sides) or round (more).
    pub number: u32,
    /// The side that moved, resigned or lost on time ([`side_key`]).
    pub color: &'static str,
    /// The sides that left the game with it.
    pub out: Vec<&'static str>,
    /// Each cell it changed and what the cell holds after it (`P`, `wK`;
    /// `None`: empty), so that any earlier position is the start's men with
    /// the changes up to it applied.
    pub changes: Vec<(usize, Option<String>)>,
}

impl Event {
    pub(super) fn new(
        kind: &'static str,
        san: String,
        m: Option<MoveView>,
        color: &'static str,
        number: u32,
        check: bool,
        checks: Vec<usize>,
    ) -> Event {
        Event {
            kind,
            coord: m.as_ref().map(|m| m.coord.clone()),
            san,
            from: m.as_ref().map(|m| m.from),
            to: m.as_ref().map(|m| m.to),
            promotion: m.and_then(|m| m.promotion),
            check,
            checks,
            number,
            color,
            out: Vec::new(),
            changes: Vec::new(),
        }
    }
}

/// The engine's view of a position.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Analysis {
    /// `+0.35`, or `#3` / `#-2` for a mate (positive: the `view` side mates).
    pub score: String,
    /// The last completed depth.
    pub depth: u32,
    /// The move it would play.
    pub best: Option<MoveView>,
    /// The principal variation as the move list writes it.
    pub line: Vec<String>,
    /// Whose side the score is from: `white` in two-player games, the side
    /// to move (its team) in the others.
    pub view: &'static str,
}
