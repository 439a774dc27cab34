//! A multi-player game in progress: moves, resignations, sides leaving, and
//! how it ends (RULES.md "Savard's multi-player forms": no legal move, draws,
//! scores; docs/rules.md for resigning, which RULES.md leaves open).

use super::position::MultiPosition;
use crate::game::IllegalMove;
use crate::game_rules::Action;
use crate::moves::Move;
use crate::outcome::{DrawReason, End, GameResult, Points};
use crate::width::Width;
use raum_bitboard::CellSet;
use thiserror::Error;

/// Why [`MultiGame::resign`] refuses.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ResignError {
    /// The game has no such side.
    #[error("{game} has no side {side}")]
    NoSuchSide {
        /// The game's id.
        game: &'static str,
        /// The index asked for.
        side: usize,
    },
    /// The side is out already (it resigned, or had no legal move).
    #[error("{0} is already out of the game")]
    AlreadyOut(&'static str),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}

/// A game from a start position: the moves and resignations, the sides
/// taken out on the way, and the position reached.
///
/// Every side for itself, a side that has no legal move on its turn is out
/// at once ([`MultiPosition::remove_side`]), and the turn passes on, before
/// the game asks anything else. A side that resigns is out the same way,
/// whether or not it is to move ([`MultiGame::resign`]).
#[derive(Clone, Debug)]
pub struct MultiGame<S: CellSet> {
    start: MultiPosition<S>,
    position: MultiPosition<S>,
    /// Moves and resignations in order: what [`MultiGame::undo`] replays.
    actions: Vec<Action>,
    /// The moves alone, kept beside the actions so that [`MultiGame::moves`]
    /// can lend them as a slice (engines and writers read them that way).
    moves: Vec<Move>,
    /// Hash of every position reached (the start first), for repetition.
    hashes: Vec<u64>,
    /// (moves played before it, side) for each side taken out for having no legal move.
    removed: Vec<(usize, usize)>,
    /// With teams, the side whose resignation ended the game.
    resigned: Option<usize>,
}

impl<S: Width> MultiGame<S> {
    /// A game from `start` (sides with no legal move there leave at once).
    pub fn new(start: MultiPosition<S>) -> Self {
        let mut game = MultiGame {
            start: start.clone(),
            position: start,
            actions: Vec::new(),
            moves: Vec::new(),
            hashes: Vec::new(),
            removed: Vec::new(),
            resigned: None,
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

    /// The moves played (resignations left out: [`MultiGame::actions`] has both).
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The moves and resignations, in order.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// Each side taken out for having no legal move on its turn: (how many
    /// moves had been played, the side). Sides that resigned are in
    /// [`MultiGame::actions`].
    pub fn removed(&self) -> &[(usize, usize)] {
        &self.removed
    }

    /// The hash of every position reached, the start first: one after each
    /// move, and one after each resignation that took men off (every side
    /// for itself). A position before a capture, a pawn move or a side
    /// leaving can never recur, so the whole list is a valid repetition
    /// history, whatever came between.
    pub fn history(&self) -> &[u64] {
        &self.hashes
    }

    /// Plays a legal move of the side to move; refused when the game is over.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if self.outcome().is_some() || !self.position.legal_moves().contains(&m) {
            return Err(IllegalMove);
        }
        self.position.play(m);
        self.actions.push(Action::Move(m));
        self.moves.push(m);
        self.settle();
        self.hashes.push(self.position.hash());
        Ok(())
    }

    /// `side` resigns, on its turn or not (docs/rules.md; RULES.md gives
    /// resigning no rule). With teams its team scores 0 and the game ends
    /// ([`End::Resignation`]). Every side for itself the side is out as a
    /// side with no legal move is: its men leave the board, if it was to move
    /// the turn passes to the next side still in, the halfmove clock runs on,
    /// and the side now to move is taken out in turn if it is left with no
    /// legal move; when one side is left it wins ([`End::LastSide`]).
    pub fn resign(&mut self, side: usize) -> Result<(), ResignError> {
        let v = self.position.variant();
        let Some(def) = v.sides().get(side) else {
            return Err(ResignError::NoSuchSide { game: v.id().name(), side });
        };
        if self.outcome().is_some() {
            return Err(ResignError::GameOver);
        }
        if !self.position.is_in(side) {
            return Err(ResignError::AlreadyOut(def.name));
        }
        self.actions.push(Action::Resign(side));
        if v.teams() {
            // The men stay and no new position is reached: the game is over.
            self.resigned = Some(side);
        } else {
            self.position.take_out(side);
            self.settle();
            self.hashes.push(self.position.hash());
        }
        Ok(())
    }

    /// Takes the last move or resignation back (and any side it put out
    /// back in). The game is replayed from its start, so every side taken
    /// out and every hash comes out as the rules gave them.
    pub fn undo(&mut self) -> bool {
        if self.actions.pop().is_none() {
            return false;
        }
        let actions = core::mem::take(&mut self.actions);
        *self = MultiGame::new(self.start.clone());
        for a in actions {
            // Replaying actions that were accepted when they were taken.
            match a {
                Action::Move(m) => {
                    let _ = self.play(m);
                }
                Action::Resign(side) => {
                    let _ = self.resign(side);
                }
            }
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
    pub fn outcome(&self) -> Option<GameResult> {
        let p = &self.position;
        let v = p.variant();
        let sides = v.sides().len();
        let in_game = p.sides_in();
        let team_of = |s: usize| v.sides()[s].team;
        let team_scores = |side: usize, theirs: Points, others: Points| {
            (0..sides).map(|s| if team_of(s) == team_of(side) { theirs } else { others }).collect()
        };
        if v.teams() {
            if let Some(side) = self.resigned {
                return Some(GameResult {
                    end: End::Resignation { side },
                    scores: team_scores(side, Points::ZERO, Points::ONE),
                });
            }
            if !p.has_legal_move() {
                let side = p.side_to_move();
                return Some(if p.is_check() {
                    GameResult { end: End::Checkmate { side }, scores: team_scores(side, Points::ZERO, Points::ONE) }
                } else {
                    GameResult {
                        end: End::Stalemate { side },
                        scores: team_scores(side, Points::TWO_FIFTHS, Points::THREE_FIFTHS),
                    }
                });
            }
        } else if let [side] = in_game[..] {
            let scores = (0..sides).map(|s| if s == side { Points::ONE } else { Points::ZERO }).collect();
            return Some(GameResult { end: End::LastSide { side }, scores });
        }
        let reason = if p.only_royals() {
            DrawReason::BareKings
        } else if v.board().repetition_limit().is_some_and(|n| self.repetitions() >= n) {
            DrawReason::Repetition
        } else if p.halfmove_clock() >= v.board().halfmove_limit(in_game.len()) {
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
        Some(GameResult { end: End::Draw(reason), scores })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multi::{MultiId, MultiVariant};
    use raum_bitboard::Wide;

    type W = Wide<4>;

    fn three() -> &'static MultiVariant<W> {
        MultiVariant::at_width(MultiId::Triquetral3p)
    }

    fn four() -> &'static MultiVariant<W> {
        MultiVariant::at_width(MultiId::WingTable4p)
    }

    /// Plays `n` moves, each the `k`-th legal move (mod the count) for a
    /// varying `k`, so that games differ without a random generator.
    fn play_some(game: &mut MultiGame<W>, n: usize) {
        for i in 0..n {
            let legal = game.position().legal_moves();
            if game.outcome().is_some() || legal.is_empty() {
                return;
            }
            let m = legal[(i * 7 + game.moves().len() * 3) % legal.len()];
            game.play(m).unwrap();
        }
    }

    /// The position's own consistency: the hash, and the sides in.
    fn check(game: &MultiGame<W>) {
        let p = game.position();
        assert_eq!(p.hash(), p.compute_hash());
        assert_eq!(game.history().last(), Some(&p.hash()));
        assert!(p.is_in(p.side_to_move()));
    }

    #[test]
    fn a_side_resigning_on_its_turn_is_out_and_the_turn_passes() {
        let mut game = MultiGame::new(MultiPosition::start(three()));
        play_some(&mut game, 1);
        let before = game.position().clone();
        assert_eq!((before.side_to_move(), before.fullmove_number()), (1, 1));
        game.resign(1).unwrap();
        check(&game);
        let p = game.position();
        assert_eq!(p.sides_in(), [0, 2]);
        assert!(p.side_cells(1).is_empty());
        assert_eq!((p.side_to_move(), p.fullmove_number()), (2, 1), "Green moves next, in round 1");
        assert_eq!(p.halfmove_clock(), before.halfmove_clock(), "the halfmove clock runs on");
        assert_eq!(p.side_cells(0), before.side_cells(0));
        assert_eq!(p.side_cells(2), before.side_cells(2));
        assert_eq!(game.actions(), [Action::Move(game.moves()[0]), Action::Resign(1)]);
        assert_eq!(game.moves().len(), 1);
        assert!(game.removed().is_empty(), "a resignation is an action, not a side without a move");
        assert_eq!(game.outcome(), None);
        // Green's move ends round 1; White begins round 2.
        play_some(&mut game, 1);
        assert_eq!((game.position().side_to_move(), game.position().fullmove_number()), (0, 2));
    }

    #[test]
    fn a_side_resigning_out_of_turn_is_out_and_the_turn_stays() {
        let mut game = MultiGame::new(MultiPosition::start(three()));
        // Green resigns while White is to move.
        game.resign(2).unwrap();
        check(&game);
        let p = game.position();
        assert_eq!(p.sides_in(), [0, 1]);
        assert_eq!((p.side_to_move(), p.fullmove_number()), (0, 1));
        // The moves after it are White's and Blue's, in turn; Blue's move ends the round.
        for ply in 0..6 {
            let mover = game.position().side_to_move();
            assert_eq!(mover, ply % 2, "ply {ply}");
            assert_eq!(game.position().fullmove_number() as usize, 1 + ply / 2, "ply {ply}");
            let legal = game.position().legal_moves();
            assert!(legal.iter().all(|m| game.position().man_at(m.from()).is_some_and(|(s, _)| s == mover)));
            play_some(&mut game, 1);
            check(&game);
        }
    }

    #[test]
    fn the_last_side_in_turn_order_resigning_on_its_turn_ends_the_round() {
        let mut game = MultiGame::new(MultiPosition::start(three()));
        play_some(&mut game, 2);
        assert_eq!(game.position().side_to_move(), 2);
        game.resign(2).unwrap();
        check(&game);
        // The turn passes back to White, which begins round 2.
        assert_eq!((game.position().side_to_move(), game.position().fullmove_number()), (0, 2));
    }

    #[test]
    fn the_last_side_left_wins() {
        let mut game = MultiGame::new(MultiPosition::start(three()));
        play_some(&mut game, 4);
        game.resign(1).unwrap();
        assert_eq!(game.resign(1), Err(ResignError::AlreadyOut("Blue")));
        assert_eq!(game.resign(1).unwrap_err().to_string(), "Blue is already out of the game");
        assert_eq!(game.resign(3).unwrap_err().to_string(), "triquetral-3p has no side 3");
        play_some(&mut game, 3);
        game.resign(0).unwrap();
        check(&game);
        let o = game.outcome().unwrap();
        assert_eq!(o.end, End::LastSide { side: 2 });
        assert_eq!(o.scores, [Points::ZERO, Points::ZERO, Points::ONE]);
        assert_eq!(game.resign(2), Err(ResignError::GameOver));
        let legal = game.position().legal_moves();
        assert!(legal.iter().all(|&m| game.clone().play(m).is_err()), "no move after the end");
    }

    #[test]
    fn a_team_resignation_ends_the_game_with_the_team_scoring_0() {
        let mut game = MultiGame::new(MultiPosition::start(four()));
        play_some(&mut game, 2);
        let before = game.position().clone();
        // Blue (Red's partner, not to move) resigns.
        game.resign(3).unwrap();
        assert_eq!(game.position(), &before, "with teams the men stay");
        assert_eq!(game.history().len(), 3, "and no position is reached");
        let o = game.outcome().unwrap();
        assert_eq!(o.end, End::Resignation { side: 3 });
        assert_eq!(o.scores, [Points::ONE, Points::ZERO, Points::ONE, Points::ZERO]);
        assert_eq!(game.resign(0), Err(ResignError::GameOver));
        let m = before.legal_moves()[0];
        assert_eq!(game.play(m), Err(IllegalMove));
        assert!(game.undo());
        assert_eq!(game.outcome(), None);
        game.play(m).unwrap();
        // A side on move resigns for its team too.
        game.resign(game.position().side_to_move()).unwrap();
        assert_eq!(game.outcome().map(|o| o.end), Some(End::Resignation { side: 3 }));
    }

    #[test]
    fn undo_takes_a_resignation_back() {
        let mut game = MultiGame::new(MultiPosition::start(three()));
        play_some(&mut game, 5);
        let (before, history) = (game.position().clone(), game.history().to_vec());
        game.resign(0).unwrap();
        play_some(&mut game, 3);
        let (after, later) = (game.position().clone(), game.history().to_vec());
        for _ in 0..3 {
            assert!(game.undo());
        }
        assert!(game.undo(), "the resignation");
        assert_eq!(game.position(), &before);
        assert_eq!(game.position().hash(), before.hash());
        assert_eq!(game.history(), history);
        assert_eq!(game.actions().len(), 5);
        check(&game);
        // Done again, the same game.
        game.resign(0).unwrap();
        play_some(&mut game, 3);
        assert_eq!(game.position(), &after);
        assert_eq!(game.history(), later);
        // Back to the start, one action at a time.
        while game.undo() {}
        assert_eq!(game.position(), &MultiPosition::start(three()));
        assert!(game.actions().is_empty() && game.moves().is_empty());
    }

    #[test]
    fn repetition_counts_positions_after_a_resignation_alone() {
        let mut game = MultiGame::new(MultiPosition::start(three()));
        game.resign(1).unwrap();
        // A leaper out and back for White and Green: the position after the
        // resignation recurs, the start (with Blue's men) never does.
        let hop = |game: &MultiGame<W>| {
            let p = game.position();
            let leaper = |m: &&Move| {
                p.man_at(m.to()).is_none()
                    && !p.play_copy(**m).is_check()
                    && p.man_at(m.from())
                        .is_some_and(|(_, k)| matches!(p.variant().board().piece_def(k).letter, 'N' | 'A'))
            };
            *p.legal_moves().iter().find(leaper).expect("a knight's or airman's move")
        };
        let first = game.position().hash();
        for _ in 0..2 {
            let out_w = hop(&game);
            game.play(out_w).unwrap();
            let out_g = hop(&game);
            game.play(out_g).unwrap();
            let back_w = reverse(out_w);
            game.play(back_w).unwrap();
            let back_g = reverse(out_g);
            game.play(back_g).unwrap();
            check(&game);
            assert_eq!(game.position().hash(), first);
        }
        assert_eq!(game.repetitions(), 3);
        assert_eq!(game.outcome().map(|o| o.end), Some(End::Draw(DrawReason::Repetition)));
        assert_eq!(game.outcome().map(|o| o.scores), Some(vec![Points::HALF, Points::ZERO, Points::HALF]));
    }

    fn reverse(m: Move) -> Move {
        Move::normal(m.to(), m.from())
    }
}
