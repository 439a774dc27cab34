//! A multi-player game in progress: moves, sides leaving, and how it ends
//! (RULES.md "Savard's multi-player forms": no legal move, draws, scores).

use super::position::MultiPosition;
use crate::moves::Move;
use crate::outcome::{DrawReason, IllegalMove, Points};
use raum_bitboard::CellSet;

/// Why a multi-player game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultiEnd {
    /// With teams: this side had no legal move and was in check; its team loses.
    Checkmate {
        /// The side mated.
        side: usize,
    },
    /// With teams: this side had no legal move and was not in check; its team
    /// scores 2/5 and the other 3/5.
    Stalemate {
        /// The side stalemated.
        side: usize,
    },
    /// Every side for itself: the others are out and this side wins.
    LastSide {
        /// The winner.
        side: usize,
    },
    /// A draw: only royals left, threefold repetition, or 50 rounds without a
    /// capture or a pawn move.
    Draw(DrawReason),
}

/// A finished game: why, and each side's score in turn order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiOutcome {
    /// Why it ended.
    pub end: MultiEnd,
    /// Each side's score, in turn order.
    pub scores: Vec<Points>,
}

/// A game from a start position: the moves, the sides taken out on the
/// way, and the position reached.
///
/// Every side for itself, a side that has no legal move on its turn is out
/// at once ([`MultiPosition::remove_side`]), and the turn passes on, before
/// the game asks anything else.
#[derive(Clone, Debug)]
pub struct MultiGame<S: CellSet> {
    start: MultiPosition<S>,
    position: MultiPosition<S>,
    moves: Vec<Move>,
    /// Hash of every position reached (the start first), for repetition.
    hashes: Vec<u64>,
    /// (moves played before it, side) for each side taken out.
    removed: Vec<(usize, usize)>,
}

impl<S: CellSet> MultiGame<S> {
    /// A game from `start` (sides with no legal move there leave at once).
    pub fn new(start: MultiPosition<S>) -> Self {
        let mut game = MultiGame {
            start: start.clone(),
            position: start,
            moves: Vec::new(),
            hashes: Vec::new(),
            removed: Vec::new(),
        };
        game.settle();
        game.hashes.push(game.position.hash());
        game
    }

    /// The position now.
    pub fn position(&self) -> &MultiPosition<S> {
        &self.position
    }

    /// Where the game began.
    pub fn start(&self) -> &MultiPosition<S> {
        &self.start
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Each side taken out: (how many moves had been played, the side).
    pub fn removed(&self) -> &[(usize, usize)] {
        &self.removed
    }

    /// Plays a legal move of the side to move; refused when the game is over.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if self.outcome().is_some() || !self.position.legal_moves().contains(&m) {
            return Err(IllegalMove);
        }
        self.position.play(m);
        self.moves.push(m);
        self.settle();
        self.hashes.push(self.position.hash());
        Ok(())
    }

    /// Takes the last move back (and any side it put out back in).
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        let moves = core::mem::take(&mut self.moves);
        *self = MultiGame::new(self.start.clone());
        for m in moves {
            // Replaying moves that were legal when played.
            let _ = self.play(m);
        }
        true
    }

    /// Every side for itself: takes out each side to move that has no legal
    /// move, while two or more sides are in.
    fn settle(&mut self) {
        let p = &mut self.position;
        while !p.variant().teams() && p.sides_in().len() > 1 && !p.has_legal_move() {
            self.removed.push((self.moves.len(), p.side_to_move()));
            p.remove_side();
        }
    }

    /// How often the position now has occurred.
    pub fn repetitions(&self) -> usize {
        let h = self.position.hash();
        self.hashes.iter().filter(|&&x| x == h).count()
    }

    /// How the game ended, or `None` while it goes on. In RULES.md's order: a
    /// side with no legal move first, then only royals left, repetition, and
    /// the 50 rounds.
    pub fn outcome(&self) -> Option<MultiOutcome> {
        let p = &self.position;
        let v = p.variant();
        let sides = v.sides().len();
        let in_game = p.sides_in();
        let team_of = |s: usize| v.sides()[s].team;
        let team_scores = |side: usize, theirs: Points, others: Points| {
            (0..sides).map(|s| if team_of(s) == team_of(side) { theirs } else { others }).collect()
        };
        if v.teams() {
            if !p.has_legal_move() {
                let side = p.side_to_move();
                return Some(if p.is_check() {
                    MultiOutcome {
                        end: MultiEnd::Checkmate { side },
                        scores: team_scores(side, Points::ZERO, Points::ONE),
                    }
                } else {
                    MultiOutcome {
                        end: MultiEnd::Stalemate { side },
                        scores: team_scores(side, Points::TWO_FIFTHS, Points::THREE_FIFTHS),
                    }
                });
            }
        } else if let [side] = in_game[..] {
            let scores = (0..sides).map(|s| if s == side { Points::ONE } else { Points::ZERO }).collect();
            return Some(MultiOutcome { end: MultiEnd::LastSide { side }, scores });
        }
        let reason = if p.only_royals() {
            DrawReason::BareKings
        } else if self.repetitions() >= 3 {
            DrawReason::Repetition
        } else if p.halfmove_clock() >= 50 * in_game.len() as u32 {
            DrawReason::FiftyMoves
        } else {
            return None;
        };
        let scores = if v.teams() {
            vec![Points::HALF; sides]
        } else {
            let share = Points(Points::ONE.0 / in_game.len() as u8);
            (0..sides).map(|s| if in_game.contains(&s) { share } else { Points::ZERO }).collect()
        };
        Some(MultiOutcome { end: MultiEnd::Draw(reason), scores })
    }
}
