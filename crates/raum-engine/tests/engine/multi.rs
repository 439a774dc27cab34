//! The multi-player engine every side for itself (`triquetral-3p`), in each
//! of its three searches (paranoid, best-reply, max^n): a legal move for the
//! side to move, mates that take a side out (of the next side, and of the
//! side after it), games in which sides leave, node limits and determinism.
//! With teams (`wing-table-4p`) the choice is ignored: alpha-beta plays.

use crate::common::Rng;
use raum_bitboard::Wide;
use raum_engine::multi::{MultiEngine, MultiSearch};
use raum_engine::{Limits, Score, SearchResult};
use raum_notation::{format_multi_move, parse_multi_position};
use raum_rules::multi::{MultiGame, MultiId, MultiPosition, MultiVariant};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

type W = Wide<4>;

fn triquetral() -> &'static MultiVariant<W> {
    MultiVariant::<W>::at_width(MultiId::Triquetral3p)
}

fn game(fen: &str) -> MultiGame<W> {
    MultiGame::new(parse_multi_position(triquetral(), fen).unwrap_or_else(|e| panic!("{fen}: {e}")))
}

fn search(kind: MultiSearch, game: &MultiGame<W>, limits: &Limits) -> SearchResult {
    MultiEngine::with_search(4, kind).search(game, limits, &AtomicBool::new(false), &mut |_| {})
}

fn depth(d: u32) -> Limits {
    Limits { depth: Some(d), ..Limits::default() }
}

fn nodes(n: u64) -> Limits {
    Limits { nodes: Some(n), ..Limits::default() }
}

/// Positions from engine games (three sides in, then two).
const POSITIONS: &[&str] = &[
    "gR|1|1|gR/gBgU|gA1|2|gNgU/gP1gP|1gPgP|gP2|3/2gP2|3gA1|5|4gK|5/5|6|bU6|bRbB6|5|wP2wP|wBwK2|wR1wNwR/5|bP5|6bQ|bK1bP5|5|1wPwPwP|wUwQ1wU/5|bP5|1bN1bN3|1bAbP5|5|1wPwPwP/5|bP5|bUbP2wA2|bRbBbP4gQ|5 b - - 2 24",
    "1|1|1|1/2|2|2|2/3|3|3|3/1bQ3|5|5|2gB2|5/5|bA5|bK6|7wP|5|4|4|4/5|4gK1|7|bU7|5|wK3|4/5|6|7|7gP|4wP|4/5|6|7|8|5 b - - 0 89",
    "1|1|1|1/2|2|2|2/3|3|3|3/5|3bU1|5|5|wK4/5|6|1bK5|4wQ3|5|4|4|4/5|6|7|8|5|4|4/5|6|7|8|5|4/5|6|7|8|5 w - - 17 104",
];

/// White to move mates Black (next) with `6f7-5d5`, or Green (after Black)
/// with `6f7-4e5`.
const MATE_NEXT: &str = "gR|gN|1|gR/gBgU|gAgK|gAgQ|gBgU/gPgP1|gPgPgP|gP1gP|gPgPgP/5|5|5|5|5/5|bP5|bUbP5|bRbBbP2wP2|5|2wPwP|wBwA1wB|wRwNwNwR/5|1bP1wA1gP|bQbN5|2bP5|2wP2|wP1wPwP|wUwQwKwU/5|bPbA4|bKbN2gP2|1bAbP5|1wP3|1wPwPwP/5|bP5|bUbP5|bRbBbP5|5 w - - 0 11";
/// Blue (`b`) to move mates White, who moves after Green: `5d6-7f5` leaves
/// White no legal move whatever Green replies.
const MATE_AFTER_NEXT: &str = "gR|gN|gN|gR/gBgU|gAgK|1gQ|gBgU/gPgP1|gPgPgP|gPgPgP|gPgPgP/3gP1|3gA1|5|5|4wA/5|bP5|bUbPbA4|bRbB1bP4|5|wPwPwPwP|wB1wAwB|wRwNwNwR/5|bP5|bQbP5|bNbAbP5|4wP|wPwPwPwK|wUwQ1wU/5|bP5|bKbP5|bN1bP5|5|wPwPwPwP/5|bP5|bUbP5|bRbBbP5|5 b - - 2 3";
/// Two sides in (Black is out): Green to move wins the game with `6e7-6c5`.
const MATE_TO_WIN: &str = "1|1|1|1/2|1gB|2|2/gPgK1|gP1gU|3|3/5|5|1gR3|5|5/5|6|7|bK7|5|4|4|4/5|2gQ3|4gQ2|8|5|4|4/5|6|7|8|5|4/5|6|7|8|5 g - - 7 139";

/// Whether `m` takes a side out: at once, or after any reply of the next side.
fn takes_a_side_out(game: &MultiGame<W>, m: raum_rules::Move) -> bool {
    let mut after = game.clone();
    after.play(m).expect("a legal move");
    let out = game.removed().len();
    if after.removed().len() > out || after.outcome().is_some() {
        return true;
    }
    let replies = after.position().legal_moves();
    replies.iter().all(|&r| {
        let mut g = after.clone();
        g.play(r).expect("a legal reply");
        g.removed().len() > out
    })
}

#[test]
fn the_searches_have_names() {
    for kind in MultiSearch::ALL {
        assert_eq!(kind.name().parse::<MultiSearch>(), Ok(kind));
        assert_eq!(kind.to_string(), kind.name());
    }
    assert_eq!("best-reply".parse::<MultiSearch>(), Ok(MultiSearch::BestReply));
    assert_eq!("MaxN".parse::<MultiSearch>(), Ok(MultiSearch::MaxN));
    assert!("minimax".parse::<MultiSearch>().unwrap_err().to_string().contains("minimax"));
    // Best-reply won the match of the three searches (BENCHMARKS.md, issue 17).
    assert_eq!(MultiSearch::default(), MultiSearch::BestReply);
    assert_eq!(MultiEngine::new(1).multi_search(), MultiSearch::default());
}

#[test]
fn each_search_returns_a_legal_move_for_the_side_to_move() {
    let v = triquetral();
    let mut rng = Rng(0x5EED_0017);
    let mut games = vec![MultiGame::new(MultiPosition::start(v))];
    games.extend(POSITIONS.iter().map(|f| game(f)));
    // Random games: every side to move in turn.
    for plies in [1, 2, 9] {
        let mut g = MultiGame::new(MultiPosition::start(v));
        for _ in 0..plies {
            let l = g.position().legal_moves();
            g.play(l[rng.below(l.len())]).unwrap();
        }
        games.push(g);
    }
    for kind in MultiSearch::ALL {
        for g in &games {
            let r = search(kind, g, &Limits { depth: Some(3), nodes: Some(2_000), ..Limits::default() });
            let m = r.best.unwrap_or_else(|| panic!("{kind}: no move"));
            assert!(g.position().legal_moves().contains(&m), "{kind}: {} is not legal", format_multi_move(v, m));
            assert!(r.info.depth >= 1, "{kind}: no iteration finished");
        }
    }
}

#[test]
fn each_search_takes_a_side_out_with_a_mate_in_one() {
    let v = triquetral();
    for kind in MultiSearch::ALL {
        // Two plies see the next side out, three the side after it.
        for (fen, d) in [(MATE_NEXT, 2), (MATE_AFTER_NEXT, 3)] {
            let g = game(fen);
            assert_eq!(g.position().sides_in().len(), 3);
            let r = search(kind, &g, &depth(d));
            let m = r.best.unwrap();
            assert!(takes_a_side_out(&g, m), "{kind}: {} in {fen} takes no side out", format_multi_move(v, m));
            assert!(matches!(r.info.score, Score::Cp(cp) if cp > 3_000), "{kind}: {:?}", r.info.score);
        }
        // With two sides in, a mate wins the game.
        let g = game(MATE_TO_WIN);
        let r = search(kind, &g, &depth(3));
        let m = r.best.unwrap();
        assert_eq!(format_multi_move(v, m), "6e7-6c5", "{kind}");
        assert_eq!(r.info.score, Score::Mate(1), "{kind}");
        let mut after = g.clone();
        after.play(m).unwrap();
        assert_eq!(after.outcome().map(|o| o.scores[2]), Some(raum_rules::Points::ONE), "{kind}");
    }
}

#[test]
fn the_two_mates_are_what_the_tests_say() {
    let v = triquetral();
    let g = game(MATE_NEXT);
    let mv = |g: &MultiGame<W>, t: &str| raum_notation::parse_multi_move(g.position(), t).unwrap();
    // Black is out at once.
    let mut a = g.clone();
    a.play(mv(&g, "6f7-5d5")).unwrap();
    assert_eq!(a.removed(), &[(1, 1)]);
    // Green is out after Black's move, whichever.
    assert!(takes_a_side_out(&g, mv(&g, "6f7-4e5")));
    let g = game(MATE_AFTER_NEXT);
    let m = mv(&g, "5d6-7f5");
    let mut a = g.clone();
    a.play(m).unwrap();
    assert!(a.removed().is_empty());
    assert!(takes_a_side_out(&g, m), "{}", format_multi_move(v, m));
    // The side after next can be mated only by a search that looks past the
    // next side's reply: no move takes a side out at once.
    assert!(g.position().legal_moves().iter().all(|&x| {
        let mut a = g.clone();
        a.play(x).unwrap();
        a.removed().is_empty()
    }));
}

/// Plays games to the end (or `max` plies), the seats taken by the three
/// searches, rotating; every move must be legal. Returns how many sides left.
fn play_out(start: &MultiGame<W>, n: u64, max: usize, rotate: usize) -> usize {
    let mut engines: Vec<MultiEngine> = MultiSearch::ALL.iter().map(|&k| MultiEngine::with_search(2, k)).collect();
    let mut g = start.clone();
    while g.outcome().is_none() && g.moves().len() < max {
        let side = g.position().side_to_move();
        let e = &mut engines[(side + rotate) % 3];
        let r = e.search(&g, &nodes(n), &AtomicBool::new(false), &mut |_| {});
        let m = r.best.expect("a move while the game goes on");
        g.play(m).unwrap_or_else(|_| panic!("{}: illegal {}", e.multi_search(), format_multi_move(triquetral(), m)));
    }
    g.removed().len() + (3 - start.position().sides_in().len())
}

#[test]
fn the_searches_play_on_as_sides_leave() {
    // From the mates and from endgames, each search in each seat: sides leave
    // (during the games and inside the searches) and nothing breaks.
    let mut left = 0;
    for fen in [MATE_NEXT, MATE_AFTER_NEXT, POSITIONS[1], POSITIONS[2], MATE_TO_WIN] {
        for rotate in 0..3 {
            left += play_out(&game(fen), 400, 40, rotate);
        }
    }
    assert!(left >= 8, "only {left} sides left in those games");
    // A position with a side out from the start (Green's men removed).
    let v = triquetral();
    let start = MultiPosition::start(v);
    let men: Vec<_> = start.men().into_iter().filter(|m| m.1 != 2).collect();
    let two = MultiGame::new(MultiPosition::from_men(v, &men, 1, 0, 1).unwrap());
    assert_eq!(two.position().sides_in(), [0, 1]);
    for kind in MultiSearch::ALL {
        let r = search(kind, &two, &nodes(2_000));
        assert!(two.position().legal_moves().contains(&r.best.unwrap()), "{kind}");
    }
}

#[test]
fn node_limits_hold_and_searches_repeat_exactly() {
    let g = game(POSITIONS[0]);
    for kind in MultiSearch::ALL {
        for n in [1, 7, 300, 1_000, 4_000] {
            let a = search(kind, &g, &nodes(n));
            assert!(a.info.nodes <= n, "{kind}: {} nodes for a limit of {n}", a.info.nodes);
            assert!(g.position().legal_moves().contains(&a.best.unwrap()), "{kind}");
            let b = search(kind, &g, &nodes(n));
            assert_eq!(
                (a.best, a.info.nodes, a.info.depth, a.info.score),
                (b.best, b.info.nodes, b.info.depth, b.info.score)
            );
        }
        // Enough nodes for two iterations (max^n, without pruning: one).
        let r = search(kind, &g, &nodes(4_000));
        let expected = if kind == MultiSearch::MaxN { 1 } else { 2 };
        assert!(r.info.depth >= expected, "{kind}: depth {}", r.info.depth);
    }
}

#[test]
fn movetime_ends_every_search() {
    let g = game(POSITIONS[0]);
    for kind in MultiSearch::ALL {
        let t = Instant::now();
        let r = search(kind, &g, &Limits { movetime: Some(Duration::from_millis(60)), ..Limits::default() });
        assert!(t.elapsed() < Duration::from_millis(1_500), "{kind}: {:?}", t.elapsed());
        assert!(g.position().legal_moves().contains(&r.best.unwrap()), "{kind}");
    }
    // And a stop from outside ends it at once.
    let stop = AtomicBool::new(true);
    for kind in MultiSearch::ALL {
        let r = MultiEngine::with_search(1, kind).search(&g, &Limits::default(), &stop, &mut |_| {});
        assert!(g.position().legal_moves().contains(&r.best.unwrap()), "{kind}");
        assert!(r.info.nodes < 5_000, "{kind}: {}", r.info.nodes);
    }
}

#[test]
fn with_teams_every_choice_searches_alike() {
    let v = MultiVariant::<W>::at_width(MultiId::WingTable4p);
    let g = MultiGame::new(MultiPosition::start(v));
    let found: Vec<_> = MultiSearch::ALL
        .iter()
        .map(|&k| {
            let r = MultiEngine::with_search(4, k).search(&g, &depth(3), &AtomicBool::new(false), &mut |_| {});
            (r.best, r.info.nodes, r.info.score)
        })
        .collect();
    assert!(found.windows(2).all(|w| w[0] == w[1]), "{found:?}");
}
