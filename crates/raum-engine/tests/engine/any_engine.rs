//! The one engine entry point ([`AnyEngine`]) against the engines behind it:
//! the same search, node for node, for a game of two sides and of more.

use raum_engine::multi::MultiEngine;
use raum_engine::{AnyEngine, Engine, Limits, SearchResult};
use raum_rules::{AnyGame, GameId, GameRules, on_game};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

fn stop() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

/// A game a few moves in, so that the searches have something to choose.
fn game(name: &str) -> AnyGame {
    let mut game = AnyGame::start(GameId::from_name(name).unwrap());
    for i in 0..4 {
        let legal = game.legal_moves();
        game.play(legal[(i * 5) % legal.len()]).unwrap();
    }
    game
}

/// The search the engines behind the entry point give, called directly.
fn direct(game: &AnyGame, limits: &Limits) -> SearchResult {
    on_game!(game,
        g => Engine::new(1, 1).search(g, limits, stop(), &mut |_| {}),
        m => MultiEngine::new(1).search(m, limits, &stop(), &mut |_| {}))
}

#[test]
fn the_entry_point_searches_as_the_engines_do() {
    let limits = Limits { depth: Some(3), ..Limits::default() };
    for name in ["five-up", "raumschach", "wing-table-4p", "triquetral-3p"] {
        let game = game(name);
        let mut infos = 0;
        let r = AnyEngine::new(1, 1).search(&game, &limits, stop(), &mut |_| infos += 1);
        let d = direct(&game, &limits);
        assert_eq!(
            (r.best, r.info.score, r.info.nodes, &r.info.pv),
            (d.best, d.info.score, d.info.nodes, &d.info.pv),
            "{name}"
        );
        assert!(infos >= 1, "{name}: iterations reported");
        assert!(game.legal_moves().contains(&r.best.expect("a move")), "{name}");
    }
}

#[test]
fn multipv_applies_to_two_sides() {
    let mut engine = AnyEngine::new(1, 1);
    engine.two().set_multipv(3);
    let limits = Limits { depth: Some(2), ..Limits::default() };
    let r = engine.search(&game("five-up"), &limits, stop(), &mut |_| {});
    assert_eq!(r.lines.len(), 3);
    let r = engine.search(&game("triquetral-3p"), &limits, stop(), &mut |_| {});
    assert_eq!(r.lines.len(), 1, "a multi-player search gives one line");
}
