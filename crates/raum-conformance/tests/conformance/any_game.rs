//! The one game interface ([`GameRules`] on [`AnyGame`]) against the games
//! it holds: every game of RULES.md by one id, the same moves and results
//! as the two-player and multi-player games give directly, resignation and
//! take-back for two sides as for more.

use raum_rules::multi::{MultiGame, MultiPosition, MultiVariant};
use raum_rules::{
    Action, AnyGame, Color, DrawReason, End, Game, GameId, GameRules, KNOWN_VARIANTS, MultiFn, Outcome, Points,
    Position, Variant, VariantFn, Width,
};

/// A fixed walk through a game: the `k`-th legal move for a `k` that varies.
fn walk(game: &mut AnyGame, plies: usize) {
    for i in 0..plies {
        let legal = game.legal_moves();
        if legal.is_empty() {
            return;
        }
        let m = legal[(i * 7 + game.moves().len() * 3) % legal.len()];
        game.play(m).unwrap();
    }
}

#[test]
fn every_game_of_rules_md_has_one_id() {
    let names: Vec<&str> = GameId::ALL.iter().map(|id| id.name()).collect();
    let mut known: Vec<&str> = KNOWN_VARIANTS.iter().map(|v| v.0).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    known.sort_unstable();
    assert_eq!(sorted, known);
    for id in GameId::ALL {
        assert_eq!(GameId::from_name(id.name()), Ok(id));
        assert_eq!(id.to_string().parse::<GameId>(), Ok(id));
        let game = AnyGame::start(id);
        assert_eq!(game.id(), id);
        assert_eq!(game.sides().len(), id.side_count(), "{id}");
        assert_eq!(game.side_to_move(), 0);
        assert!((0..id.side_count()).all(|s| game.is_in(s)));
        assert!(!game.is_in(id.side_count()));
        assert_eq!(game.history().len(), 1);
        assert!(game.result().is_none());
        assert!(game.royals_in_check().is_empty());
        assert_eq!(game.fullmove_number(), 1);
        let letters: Vec<char> = game.sides().iter().map(|s| s.letter).collect();
        if id.side_count() == 2 {
            assert_eq!(letters, ['w', 'b']);
        }
    }
    assert!(GameId::from_name("five-up-hyper").is_err());
}

struct TwoWalk(usize);

impl VariantFn for TwoWalk {
    type Output = (Vec<usize>, Option<Outcome>);
    /// The legal-move counts along the walk and the outcome, played on the two-player game itself.
    fn call<S: Width>(self, v: &'static Variant<S>) -> Self::Output {
        let mut game = Game::new(Position::start(v));
        let mut counts = Vec::new();
        for i in 0..self.0 {
            let legal = game.position().legal_moves();
            counts.push(legal.len());
            if legal.is_empty() || game.outcome().is_some() {
                break;
            }
            game.play(legal[(i * 7 + game.moves().len() * 3) % legal.len()]).unwrap();
        }
        (counts, game.outcome())
    }
}

struct MultiWalk(usize);

impl MultiFn for MultiWalk {
    type Output = Vec<usize>;
    fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Vec<usize> {
        let mut game = MultiGame::new(MultiPosition::start(v));
        let mut counts = Vec::new();
        for i in 0..self.0 {
            let legal = game.position().legal_moves();
            counts.push(legal.len());
            if legal.is_empty() || game.outcome().is_some() {
                break;
            }
            game.play(legal[(i * 7 + game.moves().len() * 3) % legal.len()]).unwrap();
        }
        counts
    }
}

#[test]
fn the_interface_plays_what_the_games_play() {
    for id in GameId::ALL {
        let mut game = AnyGame::start(id);
        let mut counts = Vec::new();
        for i in 0..40 {
            let legal = game.legal_moves();
            counts.push(legal.len());
            if legal.is_empty() || game.result().is_some() {
                break;
            }
            game.play(legal[(i * 7 + game.moves().len() * 3) % legal.len()]).unwrap();
            assert_eq!(game.history().len(), game.moves().len() + 1, "{id}");
        }
        match id {
            GameId::Two(v) => {
                let (direct, outcome) = v.dispatch(TwoWalk(40));
                assert_eq!(counts, direct, "{id}");
                assert_eq!(game.result(), outcome.map(Outcome::result), "{id}");
            }
            GameId::Multi(m) => assert_eq!(counts, m.dispatch(MultiWalk(40)), "{id}"),
        }
        // Back to the start, one move at a time.
        let start = AnyGame::start(id);
        while game.undo() {}
        assert_eq!(game.history(), start.history(), "{id}");
        assert_eq!(game.legal_moves().len(), start.legal_moves().len(), "{id}");
    }
}

#[test]
fn two_sides_resign_and_take_it_back_as_more_do() {
    for id in [GameId::from_name("five-up").unwrap(), GameId::from_name("triquetral").unwrap()] {
        let mut game = AnyGame::start(id);
        walk(&mut game, 3);
        let before = game.history().to_vec();
        game.resign(0).unwrap();
        let r = game.result().unwrap();
        assert_eq!(r.end, End::Resignation { side: 0 });
        assert_eq!(r.scores, [Points::ZERO, Points::ONE]);
        let m = game.legal_moves()[0];
        assert!(game.play(m).is_err(), "no move after a resignation");
        assert_eq!(game.actions().last(), Some(&Action::Resign(0)));
        assert_eq!(game.actions().len(), 4);
        assert_eq!(game.resign(1).unwrap_err().to_string(), "the game is over");
        assert!(game.undo(), "the resignation");
        assert!(game.result().is_none());
        assert_eq!(game.history(), before);
        assert_eq!(game.moves().len(), 3);
        assert_eq!(game.resign(2).unwrap_err().to_string(), format!("{id} has no side 2"));
        // Black resigns out of turn too.
        game.resign(1).unwrap();
        assert_eq!(game.result().map(|r| r.scores), Some(vec![Points::ONE, Points::ZERO]));
    }
    // More sides: the same calls (every side for itself, a resigning side is out).
    let mut game = AnyGame::start(GameId::from_name("triquetral-3p").unwrap());
    game.resign(1).unwrap();
    assert!(!game.is_in(1) && game.result().is_none());
    game.resign(0).unwrap();
    let r = game.result().unwrap();
    assert_eq!((r.end, r.scores), (End::LastSide { side: 2 }, vec![Points::ZERO, Points::ZERO, Points::ONE]));
}

#[test]
fn two_player_outcomes_read_as_results_for_any_number_of_sides() {
    let cases = [
        (Outcome::Checkmate { winner: Color::White }, End::Checkmate { side: 1 }, [Points::ONE, Points::ZERO]),
        (
            Outcome::Stalemate { winner: Color::Black },
            End::Stalemate { side: 0 },
            [Points::TWO_FIFTHS, Points::THREE_FIFTHS],
        ),
        (Outcome::Draw(DrawReason::Stalemate), End::Draw(DrawReason::Stalemate), [Points::HALF; 2]),
        (Outcome::Draw(DrawReason::Repetition), End::Draw(DrawReason::Repetition), [Points::HALF; 2]),
    ];
    for (outcome, end, scores) in cases {
        let r = outcome.result();
        assert_eq!((r.end, r.scores), (end, scores.to_vec()), "{outcome}");
    }
}

#[test]
fn a_check_names_the_movers_royals() {
    let mut checks = 0;
    for id in GameId::ALL {
        let mut game = AnyGame::start(id);
        for _ in 0..150 {
            let royals = game.royals_in_check();
            for &cell in &royals {
                let (side, kind) = game.man_at(cell).expect("a royal on the cell");
                assert_eq!(side, game.side_to_move(), "{id}");
                assert_eq!(game.pieces()[kind.index()].letter, 'K', "{id}");
            }
            checks += usize::from(!royals.is_empty());
            if game.result().is_some() {
                break;
            }
            walk(&mut game, 1);
        }
    }
    assert!(checks > 10, "the walks give checks: {checks}");
}

#[test]
fn one_switch_says_where_the_fast_generator_applies() {
    use raum_rules::{Geometry, VariantId};
    struct Of;
    impl VariantFn for Of {
        type Output = Geometry;
        fn call<S: Width>(self, v: &'static Variant<S>) -> Geometry {
            assert_eq!(v.is_plain(), v.geometry() == Geometry::Plain, "{}", v.id());
            v.geometry()
        }
    }
    let expect = |id: VariantId| match id.name() {
        // A line wraps, the non-combatant rule (the hypertorus) or shared cells.
        "five-up-cylinder" | "five-up-torus" | "five-up-unicorn" => Geometry::Hooked,
        // Savard's boards: the king's quiet steps are restricted in check.
        "wing-table" | "wing-table-alt" | "forced-3d" | "triquetral" => Geometry::KingRestricted,
        _ => Geometry::Plain,
    };
    for id in VariantId::ALL {
        assert_eq!(id.dispatch(Of), expect(id), "{id}");
    }
}
