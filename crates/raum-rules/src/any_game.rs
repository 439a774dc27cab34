//! Every game Raum plays under one id ([`GameId`]) and one type
//! ([`AnyGame`]): a two-player or multi-player game at any width. This is
//! where the width dispatch and the one game interface ([`GameRules`]) meet:
//! an interface builds an [`AnyGame`] once and calls [`GameRules`] on it,
//! whatever the number of sides; code that needs the position's own type
//! (the engine's search, position strings) matches on its arms.

use crate::UnknownVariant;
use crate::game::{Game, IllegalMove};
use crate::game_rules::{Action, GameRules, SideDef};
use crate::moves::{Move, MoveList};
use crate::multi::{MultiGame, MultiId, MultiPosition, MultiVariant, ResignError};
use crate::outcome::GameResult;
use crate::piece::Kind;
use crate::piece_def::PieceDef;
use crate::position::Position;
use crate::spec::VariantId;
use crate::variant::Variant;
use crate::width::{CellWidth, MultiFn, VariantFn, Width};
use raum_bitboard::Wide;

/// A game's id (RULES.md "Variant ids"): two sides or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameId {
    /// A game for two.
    Two(VariantId),
    /// A game for three to six, or four in teams.
    Multi(MultiId),
}

impl GameId {
    /// Every game, in RULES.md's order: the two-player games, then the others.
    pub const ALL: [GameId; VariantId::ALL.len() + MultiId::ALL.len()] = {
        let mut all = [GameId::Two(VariantId::FiveUp); VariantId::ALL.len() + MultiId::ALL.len()];
        let mut i = 0;
        while i < VariantId::ALL.len() {
            all[i] = GameId::Two(VariantId::ALL[i]);
            i += 1;
        }
        while i < all.len() {
            all[i] = GameId::Multi(MultiId::ALL[i - VariantId::ALL.len()]);
            i += 1;
        }
        all
    };

    /// The id on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            GameId::Two(v) => v.name(),
            GameId::Multi(m) => m.name(),
        }
    }

    /// Looks a game up by id, any number of sides.
    ///
    /// ```
    /// use raum_rules::{GameId, VariantId};
    /// use raum_rules::multi::MultiId;
    /// assert_eq!(GameId::from_name("raumschach"), Ok(GameId::Two(VariantId::Raumschach)));
    /// assert_eq!(GameId::from_name("triquetral-6p"), Ok(GameId::Multi(MultiId::Triquetral6p)));
    /// assert!(GameId::from_name("chess").unwrap_err().to_string().starts_with("unknown variant 'chess'"));
    /// ```
    pub fn from_name(name: &str) -> Result<GameId, UnknownVariant> {
        match MultiId::from_name(name) {
            Some(m) => Ok(GameId::Multi(m)),
            None => VariantId::from_name(name).map(GameId::Two),
        }
    }

    /// How many sides play it.
    pub fn side_count(self) -> usize {
        match self {
            GameId::Two(_) => 2,
            GameId::Multi(m) => crate::variants::multi_spec(m).sides.len(),
        }
    }

    /// Its sides, in turn order.
    pub fn sides(self) -> &'static [SideDef] {
        struct Two;
        impl VariantFn for Two {
            type Output = &'static [SideDef];
            fn call<S: Width>(self, v: &'static Variant<S>) -> Self::Output {
                v.sides()
            }
        }
        struct Multi;
        impl MultiFn for Multi {
            type Output = &'static [SideDef];
            fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Self::Output {
                v.sides()
            }
        }
        match self {
            GameId::Two(v) => v.dispatch(Two),
            GameId::Multi(m) => m.dispatch(Multi),
        }
    }

    /// The width its sets are compiled at.
    pub fn width(self) -> CellWidth {
        match self {
            GameId::Two(v) => v.width(),
            GameId::Multi(m) => m.width(),
        }
    }
}

impl From<VariantId> for GameId {
    fn from(id: VariantId) -> GameId {
        GameId::Two(id)
    }
}

impl From<MultiId> for GameId {
    fn from(id: MultiId) -> GameId {
        GameId::Multi(id)
    }
}

impl core::fmt::Display for GameId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for GameId {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameId::from_name(s)
    }
}

/// A game of any number of sides at any width: what an interface holds. It
/// implements [`GameRules`] by passing each call to the game inside.
///
/// The arms differ in size (a 512-cell position is some kilobytes): an
/// interface holds one per game and moves it rarely, so they are not boxed.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum AnyGame {
    /// Two sides, up to 128 cells.
    Two128(Game<u128>),
    /// Two sides, up to 256 cells.
    Two256(Game<Wide<4>>),
    /// Two sides, up to 512 cells.
    Two512(Game<Wide<8>>),
    /// More sides, up to 128 cells.
    Multi128(MultiGame<u128>),
    /// More sides, up to 256 cells.
    Multi256(MultiGame<Wide<4>>),
    /// More sides, up to 512 cells.
    Multi512(MultiGame<Wide<8>>),
}

/// Runs a body on the game inside an [`AnyGame`], whatever its kind and
/// width: `on_game!(game, g => body)` for one body, or
/// `on_game!(game, two => body, multi => body)` for one per kind (the first
/// sees a `Game<S>`, the second a `MultiGame<S>`). The one place outside
/// [`Width`] that lists the six arms.
///
/// ```
/// use raum_rules::{AnyGame, GameId, on_game};
/// let game = AnyGame::start(GameId::from_name("triquetral-3p").unwrap());
/// let cells = on_game!(&game, g => g.position().variant().cells(), m => m.position().variant().cells());
/// assert_eq!(cells, 197);
/// ```
#[macro_export]
macro_rules! on_game {
    ($game:expr, $g:ident => $body:expr) => {
        $crate::on_game!($game, $g => $body, $g => $body)
    };
    ($game:expr, $two:ident => $t:expr, $multi:ident => $m:expr) => {
        match $game {
            $crate::AnyGame::Two128($two) => $t,
            $crate::AnyGame::Two256($two) => $t,
            $crate::AnyGame::Two512($two) => $t,
            $crate::AnyGame::Multi128($multi) => $m,
            $crate::AnyGame::Multi256($multi) => $m,
            $crate::AnyGame::Multi512($multi) => $m,
        }
    };
}

use on_game as each;

struct StartTwo;

impl VariantFn for StartTwo {
    type Output = AnyGame;
    fn call<S: Width>(self, v: &'static Variant<S>) -> AnyGame {
        AnyGame::from(Game::new(Position::start(v)))
    }
}

struct StartMulti;

impl MultiFn for StartMulti {
    type Output = AnyGame;
    fn call<S: Width>(self, v: &'static MultiVariant<S>) -> AnyGame {
        AnyGame::from(MultiGame::new(MultiPosition::start(v)))
    }
}

impl AnyGame {
    /// A game of `id` from its start position.
    pub fn start(id: GameId) -> AnyGame {
        match id {
            GameId::Two(v) => v.dispatch(StartTwo),
            GameId::Multi(m) => m.dispatch(StartMulti),
        }
    }

    /// Its id.
    pub fn id(&self) -> GameId {
        each!(self, g => GameId::Two(g.position().variant().id()), g => GameId::Multi(g.position().variant().id()))
    }
}

impl AnyGame {
    /// The leaves of the legal move tree `depth` plies deep from the position
    /// now, counted by the position's own generator.
    pub fn perft(&self, depth: u32) -> u64 {
        each!(self, g => g.position().perft(depth))
    }

    /// [`AnyGame::perft`] after `m` (a legal move): `depth` plies in all,
    /// `m` the first. One row of a divide.
    pub fn perft_after(&self, m: Move, depth: u32) -> u64 {
        if depth <= 1 {
            return u64::from(depth);
        }
        each!(self, g => g.position().play_copy(m).perft(depth - 1))
    }
}

impl<S: Width> From<Game<S>> for AnyGame {
    fn from(game: Game<S>) -> AnyGame {
        S::two_game(game)
    }
}

impl<S: Width> From<MultiGame<S>> for AnyGame {
    fn from(game: MultiGame<S>) -> AnyGame {
        S::multi_game(game)
    }
}

/// A game of another kind or width than the one asked for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0} is not held at the width or with the number of sides asked for")]
pub struct OtherGame(pub GameId);

impl<S: Width> TryFrom<AnyGame> for Game<S> {
    type Error = OtherGame;
    /// The two-player game inside, if it is one at width `S`.
    fn try_from(game: AnyGame) -> Result<Game<S>, OtherGame> {
        let id = game.id();
        S::two_of(game).ok_or(OtherGame(id))
    }
}

impl<S: Width> TryFrom<AnyGame> for MultiGame<S> {
    type Error = OtherGame;
    /// The multi-player game inside, if it is one at width `S`.
    fn try_from(game: AnyGame) -> Result<MultiGame<S>, OtherGame> {
        let id = game.id();
        S::multi_of(game).ok_or(OtherGame(id))
    }
}

impl GameRules for AnyGame {
    fn sides(&self) -> &'static [SideDef] {
        each!(self, g => g.sides())
    }
    fn teams(&self) -> bool {
        each!(self, g => GameRules::teams(g))
    }
    fn side_to_move(&self) -> usize {
        each!(self, g => GameRules::side_to_move(g))
    }
    fn is_in(&self, side: usize) -> bool {
        each!(self, g => GameRules::is_in(g, side))
    }
    fn pieces(&self) -> &'static [PieceDef] {
        each!(self, g => GameRules::pieces(g))
    }
    fn cells(&self) -> usize {
        each!(self, g => GameRules::cells(g))
    }
    fn cell_name(&self, cell: usize) -> String {
        each!(self, g => GameRules::cell_name(g, cell))
    }
    fn man_at(&self, cell: usize) -> Option<(usize, Kind)> {
        each!(self, g => GameRules::man_at(g, cell))
    }
    fn royals_in_check(&self) -> Vec<usize> {
        each!(self, g => GameRules::royals_in_check(g))
    }
    fn legal_moves(&self) -> MoveList {
        each!(self, g => GameRules::legal_moves(g))
    }
    fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        each!(self, g => GameRules::play(g, m))
    }
    fn resign(&mut self, side: usize) -> Result<(), ResignError> {
        each!(self, g => GameRules::resign(g, side))
    }
    fn undo(&mut self) -> bool {
        each!(self, g => GameRules::undo(g))
    }
    fn result(&self) -> Option<GameResult> {
        each!(self, g => GameRules::result(g))
    }
    fn moves(&self) -> &[Move] {
        each!(self, g => GameRules::moves(g))
    }
    fn actions(&self) -> Vec<Action> {
        each!(self, g => GameRules::actions(g))
    }
    fn history(&self) -> &[u64] {
        each!(self, g => GameRules::history(g))
    }
    fn halfmove_clock(&self) -> u32 {
        each!(self, g => GameRules::halfmove_clock(g))
    }
    fn fullmove_number(&self) -> u32 {
        each!(self, g => GameRules::fullmove_number(g))
    }
}
