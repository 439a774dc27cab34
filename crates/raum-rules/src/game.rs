//! A game: a start position, the moves played, take-backs, and repetition.

use crate::moves::Move;
use crate::outcome::{DrawReason, Outcome};
use crate::piece::Color;
use crate::position::{Position, Undo};
use crate::width::Width;
use raum_bitboard::CellSet;

/// A game: a start position, the moves played, and what is needed to detect
/// repetition and take moves back.
#[derive(Clone, Debug)]
pub struct Game<S: CellSet> {
    start: Position<S>,
    position: Position<S>,
    moves: Vec<Move>,
    undos: Vec<Undo<S>>,
    hashes: Vec<u64>,
    /// The side that resigned, which ends the game.
    resigned: Option<Color>,
}

/// A move that is not legal in the game's current position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal move")]
pub struct IllegalMove;

impl<S: Width> Game<S> {
    /// A game from `start`.
    pub fn new(start: Position<S>) -> Self {
        Game {
            start,
            position: start,
            moves: Vec::new(),
            undos: Vec::new(),
            hashes: vec![start.hash()],
            resigned: None,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position<S> {
        &self.position
    }

    /// The start position.
    pub fn start(&self) -> &Position<S> {
        &self.start
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Hashes of every position of the game, the start first and the current last.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// Plays a move if it is legal (and no side has resigned).
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if self.resigned.is_some() || !self.position.is_legal(m) {
            return Err(IllegalMove);
        }
        self.undos.push(self.position.play(m));
        self.moves.push(m);
        self.hashes.push(self.position.hash());
        Ok(())
    }

    /// `side` resigns, which ends the game (the board's
    /// [`Game::outcome`] does not know it: [`GameRules::result`](crate::GameRules::result)
    /// does). A second resignation changes nothing.
    pub fn resign(&mut self, side: Color) {
        self.resigned.get_or_insert(side);
    }

    /// The side that resigned, if one did.
    pub fn resigned(&self) -> Option<Color> {
        self.resigned
    }

    /// Takes the last move back, or the resignation if there is one; `false`
    /// if there is neither.
    pub fn undo(&mut self) -> bool {
        if self.resigned.take().is_some() {
            return true;
        }
        match (self.moves.pop(), self.undos.pop()) {
            (Some(m), Some(u)) => {
                self.position.unplay(m, u);
                self.hashes.pop();
                true
            }
            _ => false,
        }
    }

    /// How many times the current position has occurred (within the reversible
    /// stretch since the last capture or pawn move).
    pub fn repetitions(&self) -> usize {
        let h = self.position.hash();
        let window = (self.position.halfmove_clock() as usize + 1).min(self.hashes.len());
        self.hashes[self.hashes.len() - window..].iter().rev().step_by(2).filter(|&&x| x == h).count()
    }

    /// The result, if the game is over, repetition included.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.position.outcome() {
            return Some(o);
        }
        let limit = self.position.variant().repetition_limit()?;
        (self.repetitions() >= limit).then_some(Outcome::Draw(DrawReason::Repetition))
    }
}
