//! What analysis and levels ask of the search: MultiPV lines, `searchmoves`,
//! root-move reports, win/draw/loss chances, and playing levels.

use raum_engine::{CurrMove, Engine, LEVELS, Limits, Score, SearchResult, Skill, wdl};
use raum_rules::{Cells, Game, Move, Position, Variant, VariantId};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn depth(d: u32) -> Limits {
    Limits { depth: Some(d), ..Limits::default() }
}

fn run(engine: &mut Engine, game: &Game<Cells>, limits: &Limits) -> SearchResult {
    engine.search(game, limits, Arc::new(AtomicBool::new(false)), &mut |_| {})
}

/// The start and a position after four plies (fixed picks among the legal
/// moves), in each 125-cell variant.
fn positions() -> Vec<Game<Cells>> {
    let mut out = Vec::new();
    for id in [VariantId::FiveUp, VariantId::Raumschach] {
        let mut game = Game::new(Position::start(Variant::get(id)));
        out.push(game.clone());
        for pick in [5, 11, 17, 3] {
            let legal = game.position().legal_moves();
            let m = legal[pick % legal.len()];
            game.play(m).unwrap();
        }
        out.push(game);
    }
    out
}

#[test]
fn multipv_lines_are_distinct_ordered_and_the_first_is_the_single_search() {
    for game in positions() {
        let id = game.position().variant().id();
        for d in [1, 3, 5] {
            let single = run(&mut Engine::new(8, 1), &game, &depth(d));
            let mut e = Engine::new(8, 1);
            e.set_multipv(3);
            let mut reported = Vec::new();
            let r = e.search(&game, &depth(d), Arc::new(AtomicBool::new(false)), &mut |i| {
                if i.depth == d {
                    reported.push(i.clone())
                }
            });
            assert_eq!(r.lines.len(), 3, "{id} depth {d}");
            let firsts: Vec<Move> = r.lines.iter().map(|l| l.pv[0]).collect();
            assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{id} {d}");
            let cp = |s: Score| match s {
                Score::Cp(c) => c,
                Score::Mate(n) => 100_000 * n.signum() - n,
            };
            assert!(r.lines.windows(2).all(|w| cp(w[0].score) >= cp(w[1].score)), "{id} {d}: {:?}", r.lines);
            assert_eq!(r.lines.iter().map(|l| l.multipv).collect::<Vec<_>>(), [1, 2, 3]);
            assert!(r.lines.iter().all(|l| game.position().is_legal(l.pv[0])));
            assert_eq!((r.best, r.info.score), (single.best, single.info.score), "{id} depth {d}");
            assert_eq!(r.best, Some(firsts[0]));
            // Each line reported once at the last depth, best first.
            assert_eq!(reported.iter().map(|l| l.pv[0]).collect::<Vec<_>>(), firsts, "{id} {d}");
        }
    }
}

#[test]
fn more_lines_than_moves_give_every_move_once() {
    let v = Variant::get(VariantId::FiveUp);
    // White: king Ea3 with a pawn; Black: king Ae3, rook Ac1 (few legal moves).
    let pos = raum_notation::parse_position(v, "2k2|5|r4|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|K4|P4|5 w - -").unwrap();
    let legal = pos.legal_moves().len();
    assert!(legal < 20, "{legal}");
    let mut e = Engine::new(1, 1);
    e.set_multipv(50);
    let r = run(&mut e, &Game::new(pos), &depth(2));
    assert_eq!(r.lines.len(), legal);
    let mut firsts: Vec<Move> = r.lines.iter().map(|l| l.pv[0]).collect();
    firsts.sort_by_key(|m| (m.from(), m.to()));
    firsts.dedup();
    assert_eq!(firsts.len(), legal);
}

#[test]
fn searchmoves_limit_the_root() {
    for game in positions() {
        let pos = game.position();
        let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let full = run(&mut Engine::new(8, 1), &game, &depth(3));
        // Every move but the best: the answer is another move.
        let others: Vec<Move> = legal.iter().copied().filter(|&m| Some(m) != full.best).collect();
        let r = run(&mut Engine::new(8, 1), &game, &Limits { searchmoves: others.clone(), ..depth(3) });
        assert!(r.best.is_some_and(|m| others.contains(&m)), "{:?}", r.best);
        // One move: that move, and MultiPV cannot list more.
        let only = legal[legal.len() / 2];
        let mut e = Engine::new(8, 1);
        e.set_multipv(4);
        let r = run(&mut e, &game, &Limits { searchmoves: vec![only], ..depth(3) });
        assert_eq!(r.best, Some(only));
        assert_eq!(r.lines.len(), 1);
        // None of them legal: every move is searched.
        let r = run(&mut Engine::new(8, 1), &game, &Limits { searchmoves: vec![Move::normal(0, 0)], ..depth(3) });
        assert_eq!(r.best, full.best);
    }
}

#[test]
fn root_moves_are_reported_once_the_search_runs_long() {
    let game = positions().remove(0);
    let mut seen: Vec<CurrMove> = Vec::new();
    // Searched until twelve root moves are reported (not for a fixed time:
    // on a busy machine a timed search may end before its first report),
    // with a minute as the cap.
    let limits = Limits { movetime: Some(Duration::from_secs(60)), ..Limits::default() };
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let r = Engine::new(8, 1).search_reporting(&game, &limits, stop, &mut |_| {}, &mut |c| {
        seen.push(*c);
        if seen.len() >= 12 {
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    });
    assert!(seen.len() >= 12, "{} root moves reported in {:?}", seen.len(), r.info.time);
    for c in &seen {
        assert!(game.position().is_legal(c.mv));
        assert!(c.number >= 1 && c.depth >= 1);
    }
    // The numbers count up by one; a new depth (or a re-search of one whose
    // score fell outside its window) starts again at 1.
    for w in seen.windows(2) {
        assert!(w[1].number == w[0].number + 1 || w[1].number == 1, "{seen:?}");
        assert!(w[1].depth >= w[0].depth, "{seen:?}");
    }
    // Short searches report none.
    let mut quiet = 0;
    Engine::new(8, 1)
        .search_reporting(&game, &depth(3), Arc::new(AtomicBool::new(false)), &mut |_| {}, &mut |_| quiet += 1);
    assert_eq!(quiet, 0);
}

#[test]
fn wdl_follows_the_score() {
    let game = positions().remove(1);
    let r = run(&mut Engine::new(8, 1), &game, &depth(4));
    let w = wdl(r.info.score);
    assert_eq!(w.win + w.draw + w.loss, 1000);
    assert!(wdl(Score::Cp(200)).win > wdl(Score::Cp(0)).win);
}

#[test]
fn levels_repeat_under_a_seed_and_play_legal_moves() {
    // The levels that choose among lines (the higher ones are node-limited searches).
    let choosing = (1..LEVELS).filter(|&l| raum_engine::LEVEL_TABLE[l as usize - 1].lines > 1);
    for (game, level) in positions().iter().cycle().zip(choosing) {
        {
            // Within the level's budget, but no more than a test needs.
            let limits = Limits { nodes: Some(20_000), ..Limits::default() };
            let play = |seed: u64| {
                let mut e = Engine::new(4, 1);
                e.set_skill(Skill::new(level, seed));
                (0..3).map(|_| run(&mut e, game, &limits).best).collect::<Vec<_>>()
            };
            let a = play(9);
            assert_eq!(a, play(9), "level {level}");
            assert!(a.iter().all(|m| m.is_some_and(|m| game.position().is_legal(m))), "level {level}");
        }
    }
}

#[test]
fn the_lowest_level_varies_its_moves_and_the_top_does_not() {
    let game = positions().remove(0);
    let mut low = Engine::new(4, 1);
    low.set_skill(Skill::new(1, 3));
    let moves: std::collections::HashSet<_> = (0..40).map(|_| run(&mut low, &game, &Limits::default()).best).collect();
    assert!(moves.len() >= 5, "level 1 chose only {} moves", moves.len());
    let mut top = Engine::new(4, 1);
    top.set_skill(Skill::new(LEVELS, 3));
    assert!(top.skill().is_none(), "the top level is the engine itself");
    let limits = Limits { nodes: Some(20_000), ..Limits::default() };
    let a = run(&mut top, &game, &limits).best;
    top.new_game();
    assert_eq!(a, run(&mut top, &game, &limits).best);
}
