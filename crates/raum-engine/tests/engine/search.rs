//! Search behaviour: mates, legal answers, determinism, draws, limits, threads.

use raum_engine::{Engine, Limits, Score, SearchInfo, SearchResult};
use raum_notation::{format_move, parse_move, parse_position};
use raum_rules::{Cells, DrawReason, Game, Move, Outcome, Position, Variant, VariantId};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn pos(id: VariantId, fen: &str) -> Position<Cells> {
    parse_position(Variant::get(id), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn search_game(engine: &mut Engine, game: &Game<Cells>, limits: &Limits) -> SearchResult {
    engine.search(game, limits, Arc::new(AtomicBool::new(false)), &mut |_| {})
}

fn search(p: Position<Cells>, limits: &Limits) -> SearchResult {
    search_game(&mut Engine::new(8, 1), &Game::new(p), limits)
}

fn depth(d: u32) -> Limits {
    Limits { depth: Some(d), ..Limits::default() }
}

fn is_mate(p: &Position<Cells>) -> bool {
    matches!(p.outcome(), Some(Outcome::Checkmate { .. }))
}

fn mate_in_1(p: &Position<Cells>) -> bool {
    p.legal_moves().iter().any(|&m| is_mate(&p.play_copy(m)))
}

/// After `m`, every reply allows mate at once.
fn forces_mate_in_2(p: &Position<Cells>, m: Move) -> bool {
    let after = p.play_copy(m);
    let replies = after.legal_moves();
    !replies.is_empty() && replies.iter().all(|&r| mate_in_1(&after.play_copy(r)))
}

fn mate_in_2(p: &Position<Cells>) -> bool {
    p.legal_moves().iter().any(|&m| forces_mate_in_2(p, m))
}

#[test]
fn finds_the_seed_mate_in_one() {
    // Five Up: 1. P-Cc2 P-Cc4 2. B-Ca1?? BxEb2 mate (RULES.md, README).
    let v = Variant::get(VariantId::FiveUp);
    let mut game = Game::new(Position::start(v));
    for text in ["P-Cc2", "P-Cc4", "B-Ca1"] {
        let m = parse_move(game.position(), text).unwrap();
        game.play(m).unwrap();
    }
    let expected = parse_move(game.position(), "BxEb2").unwrap();
    for d in 1..=3 {
        let r = search_game(&mut Engine::new(8, 1), &game, &depth(d));
        assert_eq!(r.best, Some(expected), "depth {d}");
        assert_eq!(r.info.score, Score::Mate(1), "depth {d}");
        assert_eq!(r.info.pv.first(), Some(&expected));
    }
}

/// Mates in one, found by a brute-force scan of random king, queen and rook
/// placements (and checked again here by brute force).
const MATES_IN_1: &[(VariantId, &str)] = &[
    (VariantId::FiveUp, "5|5|5|5|5/5|5|3K1|5|5/5|5|5|3k1|5/5|5|5|1R3|5/5|4Q|5|5|5 w - - 0 1"),
    (VariantId::FiveUp, "5|4R|5|5|5/5|5|5|5|5/5|5|5|5|1k3/5|5|5|5|5/5|5|5|2K2|2Q2 w - - 0 1"),
    (VariantId::Raumschach, "5|5|5|5|2R2/5|5|5|5|5/5|5|5|5|K4/5|5|5|4Q|5/5|5|5|k4|5 w - - 0 1"),
    (VariantId::Raumschach, "5|5|5|5|5/k4|5|5|2Q2|4R/5|5|1K3|5|5/5|5|5|5|5/5|5|5|5|5 w - - 0 1"),
];

/// Mates in two (and not in one), found and checked the same way.
const MATES_IN_2: &[(VariantId, &str)] = &[
    (VariantId::FiveUp, "2K2|5|5|5|3R1/5|5|5|5|5/5|5|5|5|5/5|5|5|5|5/3Q1|5|5|5|1k3 w - - 0 1"),
    (VariantId::FiveUp, "5|5|k4|5|5/5|5|3K1|5|5/5|5|5|1Q3|1R3/5|5|5|5|5/5|5|5|5|5 w - - 0 1"),
    (VariantId::FiveUp, "5|5|K4|5|2k2/5|5|5|5|5/5|5|5|5|1Q3/5|5|5|5|5/5|5|5|5|5 w - - 0 1"),
    (VariantId::Raumschach, "4k|5|2K2|5|5/5|5|5|5|5/5|5|3R1|5|5/5|5|5|5|5/5|5|5|3Q1|5 w - - 0 1"),
    (VariantId::Raumschach, "5|k4|5|5|1K3/5|5|5|1R3|5/5|5|5|5|5/Q4|5|5|5|5/5|5|5|5|5 w - - 0 1"),
    (VariantId::Raumschach, "5|5|5|2Q2|5/1k3|5|2K2|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|5 w - - 0 1"),
];

#[test]
fn finds_mates_in_one() {
    for &(id, fen) in MATES_IN_1 {
        let p = pos(id, fen);
        assert!(mate_in_1(&p), "{fen} is not a mate in one");
        for d in [1, 2, 4] {
            let r = search(p, &depth(d));
            let best = r.best.expect("a move");
            assert!(is_mate(&p.play_copy(best)), "{fen} depth {d}: {}", format_move(p.variant(), best));
            assert_eq!(r.info.score, Score::Mate(1), "{fen} depth {d}");
        }
    }
}

#[test]
fn finds_mates_in_two_and_sees_being_mated() {
    for &(id, fen) in MATES_IN_2 {
        let p = pos(id, fen);
        assert!(!mate_in_1(&p) && mate_in_2(&p), "{fen} is not a mate in two");
        // Three plies, and one for the reductions of quiet first moves.
        for d in [4, 5, 6] {
            let r = search(p, &depth(d));
            let best = r.best.expect("a move");
            assert!(forces_mate_in_2(&p, best), "{fen} depth {d}: {}", format_move(p.variant(), best));
            assert_eq!(r.info.score, Score::Mate(2), "{fen} depth {d}");
            assert!(r.info.pv.len() >= 3, "{fen}: pv {:?}", r.info.pv);
        }
        // The defender sees its fate.
        let r = search(p, &depth(4));
        let after = p.play_copy(r.best.unwrap());
        assert_eq!(search(after, &depth(4)).info.score, Score::Mate(-1), "{fen}");
    }
}

#[test]
fn checkmated_and_stalemated_roots() {
    // The seed mate, played out: the side to move is mated.
    let mut mated = Position::start(Variant::get(VariantId::FiveUp));
    for text in ["P-Cc2", "P-Cc4", "B-Ca1", "BxEb2"] {
        mated.play(parse_move(&mated, text).unwrap());
    }
    assert!(is_mate(&mated));
    let r = search(mated, &depth(3));
    assert_eq!((r.best, r.info.score), (None, Score::Mate(0)));

    for &(id, fen) in STALEMATE_TRAPS {
        let p = pos(id, fen);
        let stalemating = stalemating_capture(&p);
        let after = p.play_copy(stalemating);
        assert_eq!(after.outcome(), Some(Outcome::Draw(DrawReason::Stalemate)));
        let r = search(after, &depth(3));
        assert_eq!((r.best, r.info.score), (None, Score::Cp(0)), "{fen}");
    }
}

/// Positions where White can take Black's rook, which stalemates Black.
const STALEMATE_TRAPS: &[(VariantId, &str)] = &[
    (VariantId::FiveUp, "5|5|5|5|5/5|5|5|5|5/5|5|Q2K1|5|2rR1/5|5|2k2|5|5/5|5|5|5|5 w - - 0 1"),
    (VariantId::FiveUp, "5|5|5|5|Q4/5|5|5|5|5/5|5|4R|5|r4/5|5|K4|5|5/5|5|5|k4|5 w - - 0 1"),
    (VariantId::Raumschach, "5|5|5|5|5/5|5|5|5|5/5|5|5|K4|5/3R1|5|5|5|5/k4|5|1r2Q|5|5 w - - 0 1"),
    (VariantId::Raumschach, "5|5|5|5|2K1k/4R|5|5|5|5/5|5|5|5|5/1r3|5|5|4Q|5/5|5|5|5|5 w - - 0 1"),
];

fn stalemating_capture(p: &Position<Cells>) -> Move {
    *p.legal_moves()
        .iter()
        .find(|&&m| {
            p.piece_at(m.to()).is_some() && p.play_copy(m).outcome() == Some(Outcome::Draw(DrawReason::Stalemate))
        })
        .expect("a stalemating capture")
}

#[test]
fn stalemate_scores_zero_inside_the_search() {
    // Taking the rook would win material but stalemates: the engine keeps a
    // winning score with another move.
    for &(id, fen) in STALEMATE_TRAPS {
        let p = pos(id, fen);
        let trap = stalemating_capture(&p);
        for d in [1, 2, 3] {
            let r = search(p, &depth(d));
            assert_ne!(r.best, Some(trap), "{fen} depth {d}");
            match r.info.score {
                Score::Cp(cp) => assert!(cp > 300, "{fen} depth {d}: {cp}"),
                Score::Mate(n) => assert!(n > 0, "{fen} depth {d}: mate {n}"),
            }
        }
    }
}

/// Five Up: White (king and rook) against king, queen and rook; no captures or checks at hand.
const LOSING: &str = "k4|5|5|5|5/2q1r|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|R1K2 w - - 0 1";

fn cp(r: &SearchResult) -> i32 {
    match r.info.score {
        Score::Cp(cp) => cp,
        Score::Mate(n) => panic!("unexpected mate {n}"),
    }
}

#[test]
fn repetition_in_the_game_history_is_a_draw() {
    let start = pos(VariantId::FiveUp, LOSING);
    assert!(cp(&search(start, &depth(4))) < -500);
    // Both rooks step out and back: the start position is on the board again.
    let mut game = Game::new(start);
    for text in ["Ea1-Ea2", "Be5-Be4", "Ea2-Ea1", "Be4-Be5"] {
        let m = parse_move(game.position(), text).unwrap();
        game.play(m).unwrap();
    }
    assert_eq!(game.position().hash(), start.hash());
    // Stepping out again repeats a position: the losing side takes the draw.
    for d in [1, 2, 4] {
        let r = search_game(&mut Engine::new(8, 1), &game, &depth(d));
        assert_eq!(r.info.score, Score::Cp(0), "depth {d}");
        let after = game.position().play_copy(r.best.unwrap());
        assert!(game.hashes().contains(&after.hash()), "depth {d}: {:?}", r.best);
    }
}

#[test]
fn the_fifty_move_rule_is_a_draw() {
    // Any move of the losing side reaches the 100th quiet ply.
    let fen = LOSING.replace(" 0 1", " 99 80");
    for d in [1, 2, 4] {
        assert_eq!(search(pos(VariantId::FiveUp, &fen), &depth(d)).info.score, Score::Cp(0), "depth {d}");
    }
    assert!(cp(&search(pos(VariantId::FiveUp, &LOSING.replace(" 0 1", " 90 80")), &depth(4))) < -500);
}

use crate::common::Rng;

fn random_game(rng: &mut Rng, id: VariantId, plies: usize) -> Game<Cells> {
    let mut game = Game::new(Position::start(Variant::get(id)));
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.position().legal_moves();
        let m = moves[rng.below(moves.len())];
        game.play(m).unwrap();
    }
    game
}

#[test]
fn answers_with_a_legal_move_in_random_positions() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut engine = Engine::new(8, 1);
    for i in 0..200 {
        let id = VariantId::ALL[i % 2];
        let plies = rng.below(120);
        let game = random_game(&mut rng, id, plies);
        let p = *game.position();
        let limits = Limits { depth: Some(1 + (i % 4) as u32), nodes: Some(3000), ..Limits::default() };
        let r = search_game(&mut engine, &game, &limits);
        match r.best {
            Some(m) => assert!(p.is_legal(m), "game {i}"),
            None => assert_eq!(p.count_legal(), 0, "game {i}"),
        }
        // The line reported starts with the move played, even when the last iteration was cut short.
        assert_eq!(r.info.pv.first(), r.best.as_ref(), "game {i}");
        if let Some(ponder) = r.ponder {
            assert!(p.play_copy(r.best.unwrap()).is_legal(ponder), "game {i}");
        }
        // The principal variation is a line of legal moves.
        let mut q = p;
        for &m in &r.info.pv {
            assert!(q.is_legal(m), "game {i}: pv {:?}", r.info.pv);
            q.play(m);
        }
    }
}

#[test]
fn a_node_limit_gives_the_same_search_every_time() {
    let fens = [
        (
            VariantId::FiveUp,
            "rwkgr|pp1p1|5|5|5/2qn1|p1ppp|1p2p|5|5/2nb1|2p2|5|3P1|5/5|1B3|1PP1P|PPW1P|1BQN1/5|P4|5|1P1P1|R1KGR w Kk - 0 9",
        ),
        (
            VariantId::Raumschach,
            "5|5|2N2|PPPPP|R1K1R/5|5|1P3|P1PP1|B1Q1U/5|3p1|5|U3P|2B2/ub1ub|ppn1p|2p2|2N2|5/r1kqr|ppppp|2n2|5|5 w - - 3 9",
        ),
    ];
    for (id, fen) in fens {
        let game = Game::new(pos(id, fen));
        let limits = Limits { nodes: Some(40_000), ..Limits::default() };
        let mut infos = Vec::new();
        let a =
            Engine::new(16, 1).search(&game, &limits, Arc::new(AtomicBool::new(false)), &mut |i| infos.push(i.clone()));
        assert_eq!(a.info.nodes, 40_000, "{fen}");
        let b = search_game(&mut Engine::new(16, 1), &game, &limits);
        assert_eq!(
            (&a.best, &a.info.pv, a.info.nodes, a.info.depth),
            (&b.best, &b.info.pv, b.info.nodes, b.info.depth)
        );
        // A used engine repeats it after new_game.
        let mut engine = Engine::new(16, 1);
        search_game(&mut engine, &Game::new(Position::start(Variant::get(id))), &depth(3));
        engine.new_game();
        let c = search_game(&mut engine, &game, &limits);
        assert_eq!((&a.best, &a.info.pv, a.info.nodes), (&c.best, &c.info.pv, c.info.nodes));
        // Iterations are reported in order, the last one being the result's.
        assert!(infos.windows(2).all(|w| w[0].depth < w[1].depth && w[0].nodes <= w[1].nodes));
        assert_eq!(infos.last().map(|i: &SearchInfo| i.depth), Some(a.info.depth));
    }
}

#[test]
fn threads_stop_and_time_limits() {
    let game = Game::new(pos(
        VariantId::FiveUp,
        "rwk2|ppqp1|5|5|4B/2g2|p1pbp|1pn1p|5|5/2n2|2p2|5|3P1|5/5|5|1P2P|PPWBP|3N1/2Q2|P4|5|1P1P1|R1KG1 w Kk - 1 15",
    ));
    let legal = |r: &SearchResult| game.position().is_legal(r.best.expect("a move"));

    // Lazy SMP: three threads, a depth limit.
    let r = search_game(&mut Engine::new(16, 3), &game, &depth(6));
    assert!(legal(&r) && r.info.depth == 6 && r.info.nodes > 0);

    // `infinite` runs until stopped from outside.
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    // The clock starts before the stopper's does: on a loaded machine the
    // stopper may sleep out part of its 150 ms before this thread runs again.
    let t = Instant::now();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(150));
        flag.store(true, Ordering::Relaxed);
    });
    let limits = Limits { infinite: true, ..Limits::default() };
    let r = Engine::new(16, 2).search(&game, &limits, stop, &mut |_| {});
    stopper.join().unwrap();
    assert!(legal(&r));
    assert!(t.elapsed() >= Duration::from_millis(150) && t.elapsed() < Duration::from_secs(5));

    // movetime and a clock.
    for limits in [
        Limits { movetime: Some(Duration::from_millis(100)), ..Limits::default() },
        Limits {
            wtime: Some(Duration::from_millis(2000)),
            btime: Some(Duration::from_millis(10)),
            ..Limits::default()
        },
    ] {
        let t = Instant::now();
        let r = search_game(&mut Engine::new(16, 1), &game, &limits);
        assert!(legal(&r));
        assert!(t.elapsed() < Duration::from_millis(1000), "{limits:?}: {:?}", t.elapsed());
    }

    // A search stopped before it starts still answers with a legal move.
    let r = Engine::new(1, 1).search(&game, &Limits::default(), Arc::new(AtomicBool::new(true)), &mut |_| {});
    assert!(legal(&r));
}

#[test]
fn every_feature_can_be_switched_off() {
    use raum_engine::{Feature, Features};
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mid = pos(
        VariantId::FiveUp,
        "rwkgr|pp1p1|5|5|5/2qn1|p1ppp|1p2p|5|5/2nb1|2p2|5|3P1|5/5|1B3|1PP1P|PPW1P|1BQN1/5|P4|5|1P1P1|R1KGR w Kk - 0 9",
    );
    let full = search(mid, &depth(6));
    for f in Feature::ALL {
        let mut engine = Engine::new(8, 1);
        engine.set_features(Features::default().without(f));
        assert_eq!(engine.features(VariantId::FiveUp).off(), vec![f]);
        for &(id, fen) in MATES_IN_1.iter().chain(MATES_IN_2) {
            let p = pos(id, fen);
            let n = if mate_in_1(&p) { 1 } else { 2 };
            engine.new_game();
            let r = search_game(&mut engine, &Game::new(p), &depth(4 * n));
            let best = r.best.expect("a move");
            assert_eq!(r.info.score, Score::Mate(n as i32), "{fen} without {f}");
            assert!(if n == 1 { is_mate(&p.play_copy(best)) } else { forces_mate_in_2(&p, best) }, "{fen} without {f}");
        }
        for _ in 0..10 {
            let (id, plies) = (VariantId::ALL[rng.below(2)], 30 + rng.below(60));
            let game = random_game(&mut rng, id, plies);
            let r = search_game(&mut engine, &game, &Limits { nodes: Some(2000), ..Limits::default() });
            if let Some(m) = r.best {
                assert!(game.position().is_legal(m), "without {f}");
            }
        }
        // Switching a feature off changes the search.
        engine.new_game();
        let r = search_game(&mut engine, &Game::new(mid), &depth(6));
        assert_ne!(r.info.nodes, full.info.nodes, "{f}");
    }
}

#[test]
fn every_search_parameter_reaches_the_search() {
    use raum_engine::SearchParams;
    let mid = pos(
        VariantId::FiveUp,
        "rwkgr|pp1p1|5|5|5/2qn1|p1ppp|1p2p|5|5/2nb1|2p2|5|3P1|5/5|1B3|1PP1P|PPW1P|1BQN1/5|P4|5|1P1P1|R1KGR w Kk - 0 9",
    );
    let game = Game::new(mid);
    let defaults = SearchParams::for_variant(VariantId::FiveUp);
    let mut engine = Engine::new(8, 1);
    engine.set_params(defaults);
    let base = search_game(&mut engine, &game, &depth(7));
    // Defaults set by hand search as the built-in ones.
    let built_in = search_game(&mut Engine::new(8, 1), &game, &depth(7));
    assert_eq!((base.info.nodes, &base.info.pv), (built_in.info.nodes, &built_in.info.pv));
    for name in SearchParams::names() {
        // A value far from the default: twice it plus 3; depths 2 less, and the null
        // move's base reduction 0, so that they matter at these depths (a deeper
        // null move search would already be quiescence).
        let mut p = defaults;
        let d = defaults.get(name).unwrap();
        let value = match name {
            "null-base" => 0,
            n if n.ends_with("-depth") => (d - 2).max(1),
            _ => d * 2 + 3,
        };
        // The evaluation's share of the null move's reduction needs both of its
        // parameters (either alone leaves the search as it is), and a null move
        // search shallow enough to be shortened: it is compared with a search
        // that has the partner parameter and a base reduction of 0.
        let mut compare_with = base.info.nodes;
        if name.starts_with("null-eval") {
            p.null_base = 0;
            match name {
                "null-eval-div" => p.null_eval_max = 3,
                _ => p.null_eval_div = 100,
            }
            let mut engine = Engine::new(8, 1);
            engine.set_params(p);
            compare_with = search_game(&mut engine, &game, &depth(7)).info.nodes;
        }
        p.set(name, &value.to_string()).unwrap();
        let mut engine = Engine::new(8, 1);
        engine.set_params(p);
        assert_eq!(engine.params(VariantId::FiveUp).get(name), Some(value));
        let r = search_game(&mut engine, &game, &depth(7));
        assert!(game.position().is_legal(r.best.unwrap()), "{name}");
        assert_ne!(r.info.nodes, compare_with, "{name}={value} does not change the search");
    }
}

#[test]
fn evaluation_terms_can_be_replaced_for_one_variant() {
    use raum_engine::EvalParams;
    let v = Variant::get(VariantId::FiveUp);
    // White has a rook more.
    let game = Game::new(pos(VariantId::FiveUp, "K4|5|5|5|5/5|5|5|5|5/5|5|R4|5|5/5|5|5|5|5/5|5|5|5|4k w - - 0 1"));
    let base = search_game(&mut Engine::new(8, 1), &game, &depth(3));
    // A rook worth 500 more lifts White's score by about as much.
    let mut params = EvalParams::for_variant(VariantId::FiveUp);
    params.piece_values.iter_mut().filter(|(l, _)| *l == 'R').for_each(|(_, x)| *x += 500);
    let mut engine = Engine::new(8, 1);
    engine.set_eval_params(v, params);
    let r = search_game(&mut engine, &game, &depth(3));
    let (Score::Cp(a), Score::Cp(b)) = (base.info.score, r.info.score) else { panic!("no mate here") };
    assert!((450..=550).contains(&(b - a)), "{a} -> {b}");
    // Raumschach keeps its built-in terms.
    let rs = Game::new(Position::start(Variant::get(VariantId::Raumschach)));
    let x = search_game(&mut engine, &rs, &depth(2));
    let y = search_game(&mut Engine::new(8, 1), &rs, &depth(2));
    assert_eq!(x.info.score, y.info.score);
}
