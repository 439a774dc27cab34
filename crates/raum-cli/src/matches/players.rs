//! The players of a match, ready to move in any game ([`Player`]): Raum's
//! engine ([`AnyEngine`]) on one thread with its own 16 MB table, cleared
//! before each game; an external engine over the protocol; the random mover;
//! and the greedy player, which plays a move that wins the game when it has
//! one, else takes the most valuable piece it can (P 1, N 3, B 3, U 3, R 5, G
//! 6, W 7, Q 9, by letter; anything else 0), breaking ties and choosing among
//! non-captures at random. Taking the mate is what makes it an anchor:
//! without it a greedy player wins its material and then wanders into the
//! 50-move rule.

use super::specs::Spec;
use crate::clock::{Clocks, TimeControl};
use crate::rng::Rng;
use crate::uci_client::{Said, UciEngine};
use anyhow::Result;
use raum_engine::{AnyEngine, EvalParams, Level, Limits, Skill};
use raum_rules::{AnyGame, GameId, GameRules, Move, MoveKind, Outcome, Points, Variant, VariantFn, Width, on_game};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The value of a captured piece, by letter.
fn piece_value(letter: char) -> u32 {
    match letter {
        'P' => 1,
        'N' | 'B' | 'U' => 3,
        'R' => 5,
        'G' => 6,
        'W' => 7,
        'Q' => 9,
        _ => 0,
    }
}

/// The value of what `m` captures, if it is a capture.
pub(super) fn captured_value(game: &AnyGame, m: Move) -> Option<u32> {
    let mover = game.side_to_move();
    match m.kind() {
        MoveKind::Castle => None,
        MoveKind::EnPassant => Some(piece_value('P')),
        _ => game
            .man_at(m.to())
            .filter(|&(side, _)| side != mover)
            .map(|(_, kind)| piece_value(game.pieces()[usize::from(kind.0)].letter)),
    }
}

/// Whether the legal move `m` ends the game as a win for the side that
/// plays it: a mate (two sides: the position alone says), or every side for
/// itself taking the last other side out (the game says).
pub(super) fn wins(game: &AnyGame, m: Move) -> bool {
    let mover = game.side_to_move();
    on_game!(game,
    g => matches!(g.position().play_copy(m).outcome(), Some(Outcome::Checkmate { .. })),
    g => {
        let mut next = g.clone();
        next.play(m).is_ok() && next.outcome().is_some_and(|r| r.scores[mover] == Points::ONE)
    })
}

/// A player ready to move in any game.
pub(crate) enum Player {
    Engine(Box<AnyEngine>, Limits, Option<TimeControl>),
    Uci(Box<UciEngine>, Limits, Option<TimeControl>),
    Random,
    Greedy,
}

/// Sets evaluation terms on the two-player engine at the variant's width.
struct SetEval<'a>(&'a mut raum_engine::Engine, &'a EvalParams);

impl VariantFn for SetEval<'_> {
    type Output = ();
    fn call<S: Width>(self, v: &'static Variant<S>) {
        self.0.set_eval_params(v, self.1.clone());
    }
}

impl Player {
    pub(crate) fn new(spec: &Spec, id: GameId) -> Result<Player> {
        Ok(match spec {
            Spec::Engine { limits, tc, features, params, eval, level, choice, search } => {
                let mut e = AnyEngine::new(16, 1);
                match id {
                    GameId::Two(v) => {
                        let two = e.two();
                        two.set_features(*features);
                        two.set_params(*params);
                        // The same seed for every game: a game differs from the next by its opening.
                        two.set_skill(level.map(|l| Skill::with_strength(l, 0x5EED)));
                        if let Some((lines, spread, grab)) = *choice {
                            let nodes = limits.nodes.unwrap_or(u64::MAX);
                            let own = Level { depth: limits.depth, nodes, lines, spread, grab };
                            two.set_skill(Some(Skill::custom(own, 0x5EED)));
                        }
                        if let Some(params) = eval {
                            v.dispatch(SetEval(two, params));
                        }
                    }
                    GameId::Multi(_) => e.multi().set_multi_search(*search),
                }
                Player::Engine(Box::new(e), limits.clone(), *tc)
            }
            Spec::Uci { limits, tc, options, command } => {
                Player::Uci(Box::new(UciEngine::new(command.clone(), options.clone(), id.name())?), limits.clone(), *tc)
            }
            Spec::Random => Player::Random,
            Spec::Greedy => Player::Greedy,
        })
    }

    pub(super) fn new_game(&mut self) {
        match self {
            Player::Engine(e, ..) => e.new_game(),
            // A failure here shows again, as the reason for a lost game, when a move is asked for.
            Player::Uci(e, ..) => {
                let _ = e.new_game();
            }
            Player::Random | Player::Greedy => {}
        }
    }

    /// The player's time control, if it plays on a clock.
    pub(super) fn time_control(&self) -> Option<TimeControl> {
        match self {
            Player::Engine(_, _, tc) | Player::Uci(_, _, tc) => *tc,
            Player::Random | Player::Greedy => None,
        }
    }

    /// The player's move with its score from its own side and the depth (if
    /// it reports one: engines do), or why it gives none; engines are told the clocks.
    pub(super) fn choose(
        &mut self,
        game: &AnyGame,
        rng: &mut Rng,
        clocks: &Clocks,
    ) -> Result<(Move, Option<Said>), String> {
        let none = || "gave no move".to_string();
        match self {
            Player::Engine(e, limits, _) => {
                let limits = clocks.apply(limits, game.side_to_move());
                let r = e.search(game, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
                let m = r.best.ok_or_else(none)?;
                Ok((m, Some(Said { score: r.info.score, depth: Some(r.info.depth) })))
            }
            Player::Uci(e, limits, _) => {
                let limits = clocks.apply(limits, game.side_to_move());
                e.choose(game, &limits)
            }
            Player::Random => {
                let list: Vec<Move> = game.legal_moves().iter().copied().collect();
                (!list.is_empty()).then(|| (list[rng.below(list.len())], None)).ok_or_else(none)
            }
            Player::Greedy => {
                let list: Vec<Move> = game.legal_moves().iter().copied().collect();
                if list.is_empty() {
                    return Err(none());
                }
                if let Some(&m) = list.iter().find(|&&m| wins(game, m)) {
                    return Ok((m, None));
                }
                let best = list.iter().filter_map(|&m| captured_value(game, m)).max();
                let pool: Vec<Move> = match best {
                    Some(b) => list.into_iter().filter(|&m| captured_value(game, m) == Some(b)).collect(),
                    None => list,
                };
                Ok((pool[rng.below(pool.len())], None))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use raum_notation::{format_game_move, parse_game};
    use raum_rules::VariantId;

    #[test]
    fn greedy_mates_when_it_can() {
        // Random games until one reaches a position with a mate in one; the greedy
        // player must play a mate there, even where a capture is on offer.
        let mut rng = Rng::new(7);
        let clocks = Clocks::new(vec![None, None]);
        for _ in 0..400 {
            let mut game = AnyGame::start(GameId::Two(VariantId::FiveUp));
            while game.result().is_none() && game.moves().len() < 400 {
                let list: Vec<Move> = game.legal_moves().iter().copied().collect();
                if list.iter().any(|&m| wins(&game, m)) {
                    let (m, _) = Player::Greedy.choose(&game, &mut rng, &clocks).unwrap();
                    assert!(wins(&game, m), "{}", format_game_move(&game, m));
                    return;
                }
                game.play(list[rng.below(list.len())]).unwrap();
            }
        }
        panic!("no random game reached a mate in one");
    }

    #[test]
    fn greedy_takes_the_queen() {
        // White: Ab1 king, Ea1 rook; Black: Ae5 king, Ea5 pawn, Ee1 queen.
        let fen = "4k|5|5|5|1K3/5|5|5|5|5/5|5|5|5|5/5|5|5|5|5/p4|5|5|5|R3q w - -";
        let game = parse_game(GameId::Two(VariantId::FiveUp), fen).unwrap();
        let mut rng = Rng::new(1);
        let (m, score) = Player::Greedy.choose(&game, &mut rng, &Clocks::new(vec![None, None])).unwrap();
        assert_eq!(score, None, "the greedy player reports no score");
        assert_eq!(captured_value(&game, m), Some(9), "{}", format_game_move(&game, m));
    }

    #[test]
    fn greedy_captures_in_games_of_more_sides() {
        // Random games of three sides until a capture is on offer: the greedy player takes one.
        let mut rng = Rng::new(5);
        let clocks = Clocks::new(vec![None; 3]);
        let mut game = AnyGame::start(GameId::from_name("triquetral-3p").unwrap());
        while game.result().is_none() {
            let list: Vec<Move> = game.legal_moves().iter().copied().collect();
            if list.iter().any(|&m| captured_value(&game, m).is_some_and(|v| v > 0)) {
                let (m, _) = Player::Greedy.choose(&game, &mut rng, &clocks).unwrap();
                assert!(captured_value(&game, m).is_some_and(|v| v > 0), "{}", format_game_move(&game, m));
                return;
            }
            game.play(list[rng.below(list.len())]).unwrap();
        }
        panic!("no capture was ever on offer");
    }
}
