//! What a record needs of a game ([`RecordedGame`]): its id, its start, and
//! its moves and resignations as records write them. The two-player game,
//! the multi-player game and [`AnyGame`] give it, so that one writer
//! ([`Record::from_game`](super::Record::from_game)) writes them all.

use super::RESIGNS;
use crate::descriptive::format_descriptive;
use crate::moves::format_multi_move;
use crate::position::{format_multi_position, format_position};
use raum_rules::multi::{MultiGame, MultiPosition};
use raum_rules::{Action, AnyGame, Game, GameId, GameRules, Position, SideDef, Width, on_game};

/// A game as a record writes it.
pub trait RecordedGame: GameRules {
    /// Its id, for the `Variant` tag.
    fn game_id(&self) -> GameId;
    /// The start's position string, unless the game began at its own start.
    fn set_up(&self) -> Option<String>;
    /// The start's move (two sides) or round (more) number, and the side to move there.
    fn first_turn(&self) -> (u32, usize);
    /// The movetext's words for the moves and resignations: descriptive
    /// notation for two sides (RULES.md "Game records"; a two-player record
    /// tells a resignation by its result and `Termination` tag alone), and
    /// coordinates and `<Side>-resigns` for more.
    fn written(&self) -> Vec<String>;
}

/// A side's resignation as a movetext word: `Blue-resigns`.
///
/// ```
/// use raum_notation::format_resignation;
/// use raum_rules::GameId;
/// let sides = GameId::from_name("triquetral-3p").unwrap().sides();
/// assert_eq!(format_resignation(&sides[1]), "Blue-resigns");
/// ```
pub fn format_resignation(side: &SideDef) -> String {
    format!("{}{RESIGNS}", side.name)
}

impl<S: Width> RecordedGame for Game<S> {
    fn game_id(&self) -> GameId {
        GameId::Two(self.start().variant().id())
    }

    fn set_up(&self) -> Option<String> {
        let start = self.start();
        (*start != Position::start(start.variant())).then(|| format_position(start))
    }

    fn first_turn(&self) -> (u32, usize) {
        (self.start().fullmove_number(), self.start().side_to_move().index())
    }

    fn written(&self) -> Vec<String> {
        let mut pos = *self.start();
        self.moves()
            .iter()
            .map(|&m| {
                let text = format_descriptive(&pos, m);
                pos.play(m);
                text
            })
            .collect()
    }
}

impl<S: Width> RecordedGame for MultiGame<S> {
    fn game_id(&self) -> GameId {
        GameId::Multi(self.start().variant().id())
    }

    fn set_up(&self) -> Option<String> {
        let start = self.start();
        (*start != MultiPosition::start(start.variant())).then(|| format_multi_position(start))
    }

    fn first_turn(&self) -> (u32, usize) {
        (self.start().fullmove_number(), self.start().side_to_move())
    }

    fn written(&self) -> Vec<String> {
        let v = self.start().variant();
        self.actions()
            .iter()
            .map(|&a| match a {
                Action::Move(m) => format_multi_move(v, m),
                Action::Resign(side) => format_resignation(&v.sides()[side]),
            })
            .collect()
    }
}

impl RecordedGame for AnyGame {
    fn game_id(&self) -> GameId {
        self.id()
    }

    fn set_up(&self) -> Option<String> {
        on_game!(self, g => g.set_up())
    }

    fn first_turn(&self) -> (u32, usize) {
        on_game!(self, g => g.first_turn())
    }

    fn written(&self) -> Vec<String> {
        on_game!(self, g => g.written())
    }
}
