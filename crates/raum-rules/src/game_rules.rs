//! One game interface for two to six sides ([`GameRules`]): what every
//! interface (records, the engine protocol, play, matches, the server) asks
//! of a game, whatever its number of sides. The two-player [`Game`] and the
//! multi-player [`MultiGame`] implement it with their own generators (check
//! and pin masks for two sides, make-and-test for more); [`AnyGame`](crate::AnyGame)
//! holds either at any width.

use crate::game::{Game, IllegalMove};
use crate::moves::{Move, MoveList};
use crate::multi::{MultiGame, ResignError};
use crate::outcome::{End, GameResult, Points};
use crate::piece::{Color, Kind};
use crate::piece_def::PieceDef;
use crate::spec::Mirror;
use crate::width::Width;

/// One side of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideDef {
    /// Its letter in position strings (`w`, `b` in two-player games; `w`,
    /// `k`, `r`, `b`, `g`, `y` in multi-player ones).
    pub letter: char,
    /// Its name in records and messages.
    pub name: &'static str,
    /// The board symmetry that carries White's army, and its pawn rules, onto this side's.
    pub map: Mirror,
    /// Its team: sides of one team are partners (they block but never capture
    /// or check each other). Every side for itself: each side its own team.
    pub team: u8,
}

/// One thing a side did in a game: a move of the side to move, or a
/// resignation (on its turn or not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A move of the side to move.
    Move(Move),
    /// This side resigned.
    Resign(usize),
}

/// A game of two to six sides, as every interface sees it: the sides, the
/// side to move, legal moves, play and take back, resignation, the result
/// with each side's points, and the history repetition needs. Sides are
/// numbered in turn order; in a two-player game White is 0 and Black 1.
///
/// ```
/// use raum_rules::{AnyGame, End, GameId, GameRules, Points};
/// let mut game = AnyGame::start(GameId::from_name("five-up").unwrap());
/// assert_eq!(game.sides().len(), 2);
/// assert_eq!(game.legal_moves().len(), 62);
/// game.resign(0).unwrap();
/// let r = game.result().unwrap();
/// assert_eq!((r.end, r.scores), (End::Resignation { side: 0 }, vec![Points::ZERO, Points::ONE]));
/// ```
pub trait GameRules {
    /// The sides in turn order.
    fn sides(&self) -> &'static [SideDef];
    /// Whether the game ends when the first side has no legal move, the
    /// sides scoring by team (two-player games: two teams of one), rather
    /// than each such side leaving the game (every side for itself).
    fn teams(&self) -> bool;
    /// The side to move.
    fn side_to_move(&self) -> usize;
    /// Whether `side` is still in the game.
    fn is_in(&self, side: usize) -> bool;
    /// The piece kinds, indexed by [`Kind`].
    fn pieces(&self) -> &'static [PieceDef];
    /// How many cells the board has.
    fn cells(&self) -> usize;
    /// A cell's name (RULES.md "Cell names").
    fn cell_name(&self, cell: usize) -> String;
    /// The man on `cell`: its side and kind.
    fn man_at(&self, cell: usize) -> Option<(usize, Kind)>;
    /// The cells of the side to move's royals that are attacked now.
    fn royals_in_check(&self) -> Vec<usize>;
    /// The legal moves of the side to move in the position now, by the
    /// position's rules: a game that a draw rule or a resignation ended still
    /// lists them (perft and analysis read them), though [`GameRules::play`]
    /// refuses them.
    fn legal_moves(&self) -> MoveList;
    /// Plays a legal move of the side to move; refused once the game is over.
    fn play(&mut self, m: Move) -> Result<(), IllegalMove>;
    /// `side` resigns, on its turn or not (docs/rules.md).
    fn resign(&mut self, side: usize) -> Result<(), ResignError>;
    /// Takes the last move or resignation back; `false` if there is none.
    fn undo(&mut self) -> bool;
    /// How the game ended, or `None` while it goes on.
    fn result(&self) -> Option<GameResult>;
    /// The moves played (resignations left out).
    fn moves(&self) -> &[Move];
    /// The moves and resignations, in order.
    fn actions(&self) -> Vec<Action>;
    /// The hash of every position reached, the start first and the current last.
    fn history(&self) -> &[u64];
    /// Moves since the last capture or pawn move.
    fn halfmove_clock(&self) -> u32;
    /// The move (two sides) or round (more) number now.
    fn fullmove_number(&self) -> u32;
}

impl<S: Width> GameRules for Game<S> {
    fn sides(&self) -> &'static [SideDef] {
        self.position().variant().sides()
    }

    fn teams(&self) -> bool {
        true
    }

    fn side_to_move(&self) -> usize {
        self.position().side_to_move().index()
    }

    fn is_in(&self, side: usize) -> bool {
        side < 2
    }

    fn pieces(&self) -> &'static [PieceDef] {
        self.position().variant().pieces()
    }

    fn cells(&self) -> usize {
        self.position().variant().cells()
    }

    fn cell_name(&self, cell: usize) -> String {
        self.position().variant().cell_name(cell)
    }

    fn man_at(&self, cell: usize) -> Option<(usize, Kind)> {
        self.position().piece_at(cell).map(|p| (p.color.index(), p.kind))
    }

    fn royals_in_check(&self) -> Vec<usize> {
        let pos = self.position();
        if pos.is_check() { vec![pos.king_cell(pos.side_to_move())] } else { Vec::new() }
    }

    fn legal_moves(&self) -> MoveList {
        self.position().legal_moves()
    }

    fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if GameRules::result(self).is_some() {
            return Err(IllegalMove);
        }
        Game::play(self, m)
    }

    fn resign(&mut self, side: usize) -> Result<(), ResignError> {
        let color = match side {
            0 => Color::White,
            1 => Color::Black,
            _ => return Err(ResignError::NoSuchSide { game: self.position().variant().id().name(), side }),
        };
        if GameRules::result(self).is_some() {
            return Err(ResignError::GameOver);
        }
        Game::resign(self, color);
        Ok(())
    }

    fn undo(&mut self) -> bool {
        Game::undo(self)
    }

    fn result(&self) -> Option<GameResult> {
        if let Some(c) = self.resigned() {
            let scores = Color::ALL.iter().map(|&s| if s == c { Points::ZERO } else { Points::ONE }).collect();
            return Some(GameResult { end: End::Resignation { side: c.index() }, scores });
        }
        self.outcome().map(|o| o.result())
    }

    fn moves(&self) -> &[Move] {
        Game::moves(self)
    }

    fn actions(&self) -> Vec<Action> {
        let mut actions: Vec<Action> = Game::moves(self).iter().map(|&m| Action::Move(m)).collect();
        actions.extend(self.resigned().map(|c| Action::Resign(c.index())));
        actions
    }

    fn history(&self) -> &[u64] {
        self.hashes()
    }

    fn halfmove_clock(&self) -> u32 {
        self.position().halfmove_clock()
    }

    fn fullmove_number(&self) -> u32 {
        self.position().fullmove_number()
    }
}

impl<S: Width> GameRules for MultiGame<S> {
    fn sides(&self) -> &'static [SideDef] {
        self.position().variant().sides()
    }

    fn teams(&self) -> bool {
        self.position().variant().teams()
    }

    fn side_to_move(&self) -> usize {
        self.position().side_to_move()
    }

    fn is_in(&self, side: usize) -> bool {
        side < self.position().variant().sides().len() && self.position().is_in(side)
    }

    fn pieces(&self) -> &'static [PieceDef] {
        self.position().variant().board().pieces()
    }

    fn cells(&self) -> usize {
        self.position().variant().cells()
    }

    fn cell_name(&self, cell: usize) -> String {
        self.position().variant().board().cell_name(cell)
    }

    fn man_at(&self, cell: usize) -> Option<(usize, Kind)> {
        self.position().man_at(cell)
    }

    fn royals_in_check(&self) -> Vec<usize> {
        let pos = self.position();
        if !pos.is_check() {
            return Vec::new();
        }
        let king = pos.variant().board().king();
        (pos.kind_cells(king) & pos.side_cells(pos.side_to_move())).cells().collect()
    }

    fn legal_moves(&self) -> MoveList {
        self.position().legal_moves()
    }

    fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        MultiGame::play(self, m)
    }

    fn resign(&mut self, side: usize) -> Result<(), ResignError> {
        MultiGame::resign(self, side)
    }

    fn undo(&mut self) -> bool {
        MultiGame::undo(self)
    }

    fn result(&self) -> Option<GameResult> {
        self.outcome()
    }

    fn moves(&self) -> &[Move] {
        MultiGame::moves(self)
    }

    fn actions(&self) -> Vec<Action> {
        MultiGame::actions(self).to_vec()
    }

    fn history(&self) -> &[u64] {
        MultiGame::history(self)
    }

    fn halfmove_clock(&self) -> u32 {
        self.position().halfmove_clock()
    }

    fn fullmove_number(&self) -> u32 {
        self.position().fullmove_number()
    }
}
