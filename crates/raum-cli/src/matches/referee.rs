//! The referee: one game played to its end ([`play_game`]), any number of
//! sides. The rules end it first (mate, stalemate, the draw rules; every side
//! for itself, the last side in); then adjudication by the engines' scores
//! where the game is two-sided (`--resign-*`, `--draw-*`, see
//! [`crate::adjudication`]); then `--max-plies`, a draw (every side for
//! itself, the point shared by the sides still in). A player that gives an
//! illegal move or none, or whose clock runs out, forfeits: it resigns, which
//! with teams (two-player games too) loses the game for its team and every
//! side for itself takes the side out while the others play on.

use super::lineup::Lineup;
use super::players::Player;
use crate::adjudication::{self, Judge, Rules, Verdict};
use crate::clock::Clocks;
use crate::records::eval_comment;
use crate::rng::Rng;
use raum_notation::{format_game_move, game_termination};
use raum_rules::{AnyGame, Color, DrawReason, End, GameRules, Points};
use std::time::Instant;

/// How one game ended.
pub(crate) struct GameResult {
    /// The game as played, from its opening.
    pub game: AnyGame,
    /// Each side's score, in turn order.
    pub scores: Vec<Points>,
    pub reason: String,
    /// The record's `Termination` value.
    pub termination: &'static str,
    /// What the mover's engine said of each move (and nothing of a
    /// resignation), as a record's comment.
    pub comments: Vec<Option<String>>,
    /// Set when the game was ended by adjudication.
    pub adjudicated: Option<Verdict>,
}

/// Why the rules ended a game, as a match record says it.
fn reason(end: End) -> &'static str {
    match end {
        End::Checkmate { .. } => "checkmate",
        End::Stalemate { .. } | End::Draw(DrawReason::Stalemate) => "stalemate",
        End::Draw(DrawReason::FiftyMoves) => "50-move rule",
        End::Draw(DrawReason::Repetition) => "repetition",
        End::Draw(DrawReason::BareKings) => "bare kings",
        End::LastSide { .. } => "last side in",
        End::Resignation { .. } => "resignation",
    }
}

/// Plays one game from `start`: `seats[side]` indexes `players`, and the
/// lineup gives the sides' teams.
pub(crate) fn play_game(
    start: AnyGame,
    players: &mut [Player],
    seats: &[usize],
    lineup: &Lineup,
    rng: &mut Rng,
    max_plies: u32,
    rules: Rules,
) -> GameResult {
    let mut game = start;
    for (p, player) in players.iter_mut().enumerate() {
        if seats.contains(&p) {
            player.new_game();
        }
    }
    let sides = game.sides();
    let mut judge = Judge::new(rules);
    let mut verdict = None;
    let mut clocks = Clocks::new(seats.iter().map(|&p| players[p].time_control()).collect());
    let mut comments: Vec<Option<String>> = Vec::new();
    let end = |game: AnyGame, scores, reason: String, termination, comments, adjudicated| GameResult {
        game,
        scores,
        reason,
        termination,
        comments,
        adjudicated,
    };
    loop {
        if let Some(r) = game.result() {
            let termination = game_termination(&game).unwrap_or("?");
            return end(game, r.scores, reason(r.end).to_string(), termination, comments, None);
        }
        // The rules first: a move that mates ends the game by mate, whatever the scores said.
        if let Some(v) = verdict {
            let (scores, why) = match v {
                Verdict::Resigns(c) => {
                    let lost = |s: &usize| lineup.team(*s) == c.index();
                    let team: Vec<&str> = (0..sides.len()).filter(lost).map(|s| sides[s].name).collect();
                    let scores = (0..sides.len()).map(|s| if lost(&s) { Points::ZERO } else { Points::ONE }).collect();
                    (scores, format!("adjudicated: {} resigns", team.join(" and ")))
                }
                Verdict::Draw => (vec![Points::HALF; sides.len()], v.to_string()),
            };
            return end(game, scores, why, "adjudication", comments, Some(v));
        }
        if game.moves().len() >= max_plies as usize {
            let (scores, why) = if game.teams() {
                (vec![Points::HALF; sides.len()], "max plies (adjudicated draw)")
            } else {
                let inn = (0..sides.len()).filter(|&s| game.is_in(s)).count() as u8;
                let share = |s| if game.is_in(s) { Points(Points::ONE.0 / inn) } else { Points::ZERO };
                ((0..sides.len()).map(share).collect(), "max plies (adjudicated: the sides still in share the point)")
            };
            return end(game, scores, why.to_string(), "adjudication", comments, None);
        }
        let side = game.side_to_move();
        let name = sides[side].name;
        let started = Instant::now();
        let choice = players[seats[side]].choose(&game, rng, &clocks);
        let forfeit = if !clocks.charge(side, started.elapsed()) {
            Some((format!("{name} lost on time"), "time"))
        } else {
            match choice {
                Err(why) => Some((format!("{name}: {why}"), "illegal-move")),
                Ok((m, said)) => {
                    let ply = game.moves().len() as u32;
                    if game.play(m).is_err() {
                        let text = format_game_move(&game, m);
                        Some((format!("{name} played an illegal move {text}"), "illegal-move"))
                    } else {
                        if lineup.two_sided() {
                            let cp = said.map(|s| adjudication::centipawns(s.score));
                            verdict = judge.record(Color::ALL[lineup.team(side)], cp, ply);
                        }
                        // Two sides, from White's side; more, from the mover's (its team's).
                        let from = if sides.len() == 2 { Color::ALL[side] } else { Color::White };
                        comments.push(said.map(|s| eval_comment(s.score, from, s.depth.unwrap_or(0))));
                        None
                    }
                }
            }
        };
        if let Some((why, termination)) = forfeit {
            // With more sides the game goes on: the resignation's comment
            // keeps why the side is out (the last one's is the game's reason).
            comments.push((sides.len() > 2).then(|| why.clone()));
            game.resign(side).expect("the side to move is in a game not over");
            if let Some(r) = game.result() {
                return end(game, r.scores, why, termination, comments, None);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{Cli, Command};
    use crate::matches::report::Tally;
    use crate::matches::specs::parse_spec;
    use crate::stats;
    use clap::Parser;
    use raum_notation::{RecordResult, parse_game};
    use raum_rules::GameId;

    /// Wing Table: White (king and rook) takes Black's queen, which stalemates Black.
    const STALEMATING: &str = "k3|4|4|6|6|6|2R3|6|6|4|1q2|4/4|K3|6|6|6|6|6|6|4|4/4|6|6|6|6|6|6|4 w - - 0 1";

    /// The lineup of `raum match` with `args`.
    fn lineup(args: &[&str]) -> Lineup {
        let Command::Match(a) = Cli::parse_from([&["raum", "match"], args].concat()).command else { panic!() };
        Lineup::new(GameId::from_name(&a.variant).unwrap(), &a).unwrap()
    }

    #[test]
    fn a_savard_stalemate_counts_three_fifths() {
        // The engine playing both sides of STALEMATING.
        let id = GameId::from_name("wing-table").unwrap();
        let lineup = lineup(&["--variant", "wing-table", "--a", "engine:depth=2", "--b", "engine:depth=2"]);
        let spec = parse_spec("engine:depth=2", id).unwrap();
        let mut players = [Player::new(&spec, id).unwrap(), Player::new(&spec, id).unwrap()];
        let start = parse_game(id, STALEMATING).unwrap();
        let r = play_game(start, &mut players, &[0, 1], &lineup, &mut Rng::new(1), 400, Rules::default());
        let white = r.scores[0];
        assert_eq!(r.game.moves().len(), 1);
        assert_eq!(
            (RecordResult::of_scores(Some(&r.scores)), white),
            (Some(RecordResult::WhiteStalemates), Points::THREE_FIFTHS)
        );
        assert_eq!((r.reason.as_str(), r.termination, r.adjudicated), ("stalemate", "stalemate", None));
        // A pair of such games, A White in the first: a win and a loss by stalemate, 0.6 + 0.4.
        let mut tally = Tally::default();
        tally.add_pair(&[white, Points(Points::ONE.0 - white.0)]);
        assert_eq!((tally.wins(), tally.draws(), tally.losses(), tally.stalemates()), (1, 0, 1, (1, 1)));
        assert_eq!((tally.scores[36], tally.scores[24], tally.pairs[60]), (1, 1, 1));
        assert_eq!(stats::mean_score(&tally.scores), 0.5);
        // A stalemate win and a mate: a pair total of 1.6.
        tally.add_pair(&[Points::THREE_FIFTHS, Points::ONE]);
        assert_eq!((tally.wins(), tally.stalemates(), tally.pairs[96], tally.games()), (3, (2, 1), 1, 4));
        assert!((stats::mean_score(&tally.scores) - 2.6 / 4.0).abs() < 1e-12);
        // A lone last game counts in the score, not in the pairs.
        tally.add_pair(&[Points::TWO_FIFTHS]);
        assert_eq!((tally.losses(), tally.stalemates(), tally.pairs.iter().sum::<u64>()), (2, (2, 2), 2));
    }

    #[test]
    fn players_rotate_over_sides_and_teams() {
        let three = lineup(&["--variant", "triquetral-3p", "--players", "random,greedy,random"]);
        assert_eq!((three.players(), three.two_sided()), (3, false));
        assert_eq!(
            [three.seats(0), three.seats(1), three.seats(2), three.seats(3)],
            [vec![0, 1, 2], vec![2, 0, 1], vec![1, 2, 0], vec![0, 1, 2]]
        );
        // Wing Table for four: White and Black against Red and Blue; A takes White's team first.
        let four = lineup(&["--variant", "wing-table-4p", "--a", "random", "--b", "greedy"]);
        assert_eq!((four.players(), four.two_sided()), (2, true));
        assert_eq!([four.seats(0), four.seats(1)], [vec![0, 1, 0, 1], vec![1, 0, 1, 0]]);
    }

    #[test]
    fn every_side_for_itself_the_sides_still_in_share_a_long_game() {
        // Blue resigned (as a player that forfeits does): it is out, the
        // others play on, and at the ply limit they share the point.
        let id = GameId::from_name("triquetral-3p").unwrap();
        let lineup = lineup(&["--variant", "triquetral-3p", "--players", "random,random,random"]);
        let mut players = [Player::Random, Player::Random, Player::Random];
        let mut game = AnyGame::start(id);
        game.resign(1).unwrap();
        let r = play_game(game, &mut players, &[0, 1, 2], &lineup, &mut Rng::new(3), 30, Rules::default());
        assert!(!r.game.is_in(1));
        assert_eq!(r.scores[1], Points::ZERO);
        assert_eq!(r.termination, "adjudication", "{}", r.reason);
        assert_eq!(r.scores[0].0 + r.scores[2].0, Points::ONE.0);
    }
}
