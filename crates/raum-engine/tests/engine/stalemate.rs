//! Savard's scored stalemate in the search: 3/5 of a point to the side that
//! stalemates, so the search values a stalemate between a draw and a win. It
//! plays mate before stalemate, and stalemate before a draw.

use raum_bitboard::Wide;
use raum_engine::{Engine, Limits, Score, SearchResult};
use raum_notation::{format_move, parse_coordinate, parse_position};
use raum_rules::{Color, Game, Move, Outcome, Position, StalemateRule, Variant, VariantId};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The Wing Table's cell set (156 cells).
type W = Wide<4>;

fn wing_table() -> &'static Variant<W> {
    let v = Variant::<W>::at_width(VariantId::WingTable);
    assert_eq!(v.stalemate_rule(), StalemateRule::ThreeFifths);
    v
}

fn pos(fen: &str) -> Position<W> {
    parse_position(wing_table(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(p: &Position<W>, text: &str) -> Move {
    parse_coordinate(p, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn search(game: &Game<W>, d: u32) -> SearchResult {
    let limits = Limits { depth: Some(d), ..Limits::default() };
    Engine::new(8, 1).search(game, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {})
}

/// White to move can mate in one (the first move) or stalemate in one (the
/// second); found by a scan of random king, queen and rook placements.
const MATE_OR_STALEMATE: &[(&str, &str, &str)] = &[
    ("3k|2R1|4|6|6|6|6|6|6|4|4|4/4|3K|3Q2|6|6|6|6|6|4|4/4|6|6|6|6|6|6|4 w - - 0 1", "2d9-1e8", "2e10-1d10"),
    ("k3|4|4|2R3|6|6|6|6|6|4|4|4/4|4|6|6|6|2Q3|6|6|4|4/4|5K|6|6|6|6|6|4 w - - 0 1", "2c6-1b5", "2c6-2c10"),
    ("k3|4|4|6|6|6|2Q3|6|3R2|4|4|4/4|3K|6|6|6|6|6|6|4|4/4|6|6|6|6|6|6|4 w - - 0 1", "1d4-1b4", "1c6-1c10"),
    ("3k|4|4|R5|K2Q2|6|6|6|6|4|4|4/4|4|6|6|6|6|6|6|4|4/4|6|6|6|6|6|6|4 w - - 0 1", "1a9-1e9", "1d8-1d10"),
];

/// White (king and rook) against king and queen: taking the queen
/// stalemates Black (the second field); the third is a king move and a queen
/// move, each there and back, which brings the position back, so that the
/// king's move out again repeats a position.
const STALEMATE_OR_REPETITION: &[(&str, &str, [&str; 4])] = &[
    (
        "k3|4|4|6|6|6|2R3|6|6|4|1q2|4/4|K3|6|6|6|6|6|6|4|4/4|6|6|6|6|6|6|4 w - - 0 1",
        "1c6-1c2",
        ["2b10-1a9", "1c2-1b1", "1a9-2b10", "1b1-1c2"],
    ),
    (
        "3k|4|4|6|6|6|6|3q2|6|4|2R1|4/4|2K1|6|6|6|6|6|6|4|4/4|6|6|6|6|6|6|4 w - - 0 1",
        "1d2-1d5",
        ["2d10-1c9", "1d5-1b3", "1c9-2d10", "1b3-1d5"],
    ),
    (
        "k3|4|4|6|6|6|6|6|6|1q2|4|4/4|K3|6|6|6|6|6|6|4|4/4|6|6|6|6|6|6|1R2 w - - 0 1",
        "3c3-1c3",
        ["2b10-1a9", "1c3-1c1", "1a9-2b10", "1c1-1c3"],
    ),
];

fn is_stalemate_by_white(p: &Position<W>) -> bool {
    p.outcome() == Some(Outcome::Stalemate { winner: Color::White })
}

#[test]
fn a_stalemated_root_scores_below_a_draw() {
    for &(fen, take, _) in STALEMATE_OR_REPETITION {
        let p = pos(fen);
        let after = p.play_copy(mv(&p, take));
        assert!(is_stalemate_by_white(&after), "{fen}");
        let r = search(&Game::new(after), 3);
        assert_eq!(r.best, None, "{fen}");
        let Score::Cp(cp) = r.info.score else { panic!("{fen}: {:?}", r.info.score) };
        // Worth less than a draw to the stalemated side, and far less than a
        // piece: a modest edge, not a win.
        assert!((-300..0).contains(&cp), "{fen}: {cp}");
    }
}

#[test]
fn mate_comes_before_stalemate() {
    for &(fen, mate, stalemate) in MATE_OR_STALEMATE {
        let p = pos(fen);
        assert!(matches!(p.play_copy(mv(&p, mate)).outcome(), Some(Outcome::Checkmate { winner: Color::White })));
        assert!(is_stalemate_by_white(&p.play_copy(mv(&p, stalemate))), "{fen}");
        for d in 1..=4 {
            let r = search(&Game::new(p), d);
            let best = r.best.expect("a move");
            let after = p.play_copy(best);
            assert!(
                matches!(after.outcome(), Some(Outcome::Checkmate { .. })),
                "{fen} depth {d}: {} does not mate",
                format_move(wing_table(), best)
            );
            assert_eq!(r.info.score, Score::Mate(1), "{fen} depth {d}");
        }
    }
}

#[test]
fn stalemate_comes_before_a_repetition() {
    for &(fen, take, cycle) in STALEMATE_OR_REPETITION {
        let start = pos(fen);
        let stalemated = search(&Game::new(start.play_copy(mv(&start, take))), 1).info.score;
        let mut game = Game::new(start);
        for text in cycle {
            let m = mv(game.position(), text);
            game.play(m).unwrap();
        }
        assert_eq!(game.position().hash(), start.hash(), "{fen}");
        // Stepping out again repeats a position: a draw the losing side would take.
        let out = game.position().play_copy(mv(game.position(), cycle[0]));
        assert!(game.hashes().contains(&out.hash()), "{fen}");
        let expected = mv(&start, take);
        for d in 1..=4 {
            let r = search(&game, d);
            assert_eq!(r.best, Some(expected), "{fen} depth {d}: {:?}", r.best.map(|m| format_move(wing_table(), m)));
            let Score::Cp(cp) = r.info.score else { panic!("{fen} depth {d}: {:?}", r.info.score) };
            assert!(cp > 0, "{fen} depth {d}: {cp}");
            assert_eq!(Score::Cp(-cp), stalemated, "{fen} depth {d}: both sides value the stalemate alike");
        }
    }
}

#[test]
fn stalemate_comes_before_the_fifty_move_rule() {
    // Every White move makes the 100th quiet ply, a draw, except the queen's
    // move that stalemates: the rules score the stalemate, and so does the search.
    let p = pos("k3|4|4|6|6|6|6|6|6|4|4|1Q2/4|4|6|2K3|6|6|6|6|4|4/4|6|6|6|6|6|6|4 w - - 99 80");
    let stalemate = mv(&p, "1c1-1c10");
    assert!(is_stalemate_by_white(&p.play_copy(stalemate)));
    assert!(p.legal_moves().iter().all(|&m| m == stalemate || p.play_copy(m).outcome().is_some()));
    for d in 1..=3 {
        let r = search(&Game::new(p), d);
        assert_eq!(r.best, Some(stalemate), "depth {d}: {:?}", r.best.map(|m| format_move(wing_table(), m)));
        assert!(matches!(r.info.score, Score::Cp(cp) if cp > 0), "depth {d}: {:?}", r.info.score);
    }
}
