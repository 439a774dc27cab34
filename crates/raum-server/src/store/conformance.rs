//! What every store does, tested through [`Store`] alone: on SQLite files,
//! and on PostgreSQL when [`fixtures::POSTGRES_VAR`] names a database (the
//! same tests, once per store).

use super::fixtures::{self, TestDb, mv};
use super::{GameMeta, Rematch, Stamp, StoreError, StoredResult};

fn meta(id: &str) -> GameMeta {
    fixtures::game(id, "local", 1, Some("t"))
}

fn win() -> StoredResult {
    StoredResult { score: "1-0".into(), reason: "resignation".into() }
}

#[test]
fn moves_are_kept_in_order_and_a_ply_is_stored_once() {
    let db = TestDb::new("order");
    let s = db.open();
    s.create(&meta("g1"), &[mv("a")], None).unwrap();
    s.append_move("g1", 1, &mv("b"), None).unwrap();
    assert!(
        matches!(s.append_move("g1", 1, &mv("c"), None), Err(StoreError::OutOfOrder(_, 1))),
        "a ply is stored once"
    );
    assert!(matches!(s.append_move("g1", 3, &mv("c"), None), Err(StoreError::OutOfOrder(_, 3))), "and in order");
    s.append_move("g1", 2, &mv("c"), Some(&win())).unwrap();
    let (m, moves, result) = s.load("g1").unwrap().unwrap();
    assert_eq!(m, meta("g1"));
    assert_eq!(moves, vec![mv("a"), mv("b"), mv("c")]);
    assert_eq!(result, Some(win()));
    assert!(matches!(s.truncate("g1", 2, 1), Err(StoreError::OutOfOrder(_, 2))), "taken back from where it stands");
    s.truncate("g1", 3, 1).unwrap();
    let (_, moves, result) = s.load("g1").unwrap().unwrap();
    assert_eq!((moves.len(), result), (1, None));
    assert!(s.load("nope").unwrap().is_none());
    assert_eq!(s.list(10).unwrap()[0].plies, 1);
    // Offers stand at a ply, and go with the next event.
    assert!(matches!(s.set_offers("g1", 2, Some("draw:0")), Err(StoreError::OutOfOrder(_, 2))));
    s.set_offers("g1", 1, Some("draw:0")).unwrap();
    let stamp =
        |offers: Option<&str>, finished| Stamp { plies: 1, finished, rematched: false, offers: offers.map(Into::into) };
    assert_eq!(s.stamp("g1").unwrap(), Some(stamp(Some("draw:0"), false)));
    assert_eq!(s.load("g1").unwrap().unwrap().0.offers.as_deref(), Some("draw:0"));
    s.finish("g1", &win()).unwrap();
    assert!(matches!(s.finish("g1", &win()), Err(StoreError::Finished(_))), "a game ends once");
    assert!(matches!(s.set_offers("g1", 1, Some("draw:1")), Err(StoreError::OutOfOrder(..))), "nor after");
    assert_eq!(s.list(10).unwrap()[0].result.as_deref(), Some("1-0"));
    assert_eq!(s.stamp("g1").unwrap(), Some(stamp(None, true)));
    assert_eq!(s.stamp("nope").unwrap(), None);
    // Clocks are kept with their move.
    let timed = super::StoredMove {
        coord: "d".into(),
        white_ms: Some(59_000),
        black_ms: Some(61_500),
        at_ms: Some(1_795_000_000_123),
    };
    s.append_move("g1", 1, &timed, None).unwrap();
    assert_eq!(s.load("g1").unwrap().unwrap().1[1], timed);
}

#[test]
fn of_fifty_writers_racing_on_one_ply_exactly_one_stores_it() {
    let db = TestDb::new("race");
    let s = db.open();
    s.create(&meta("g"), &[mv("a")], None).unwrap();
    let outcomes: Vec<Result<(), StoreError>> = std::thread::scope(|scope| {
        let racers: Vec<_> = (0..50)
            .map(|i| {
                let s = &s;
                scope.spawn(move || s.append_move("g", 1, &mv(&format!("m{i}")), None))
            })
            .collect();
        racers.into_iter().map(|r| r.join().expect("a racer")).collect()
    });
    let won: Vec<usize> = outcomes.iter().enumerate().filter(|(_, r)| r.is_ok()).map(|(i, _)| i).collect();
    assert_eq!(won.len(), 1, "{outcomes:?}");
    assert!(outcomes.iter().filter(|r| r.is_err()).all(|r| matches!(r, Err(StoreError::OutOfOrder(_, 1)))));
    let (_, moves, _) = s.load("g").unwrap().unwrap();
    assert_eq!(moves, vec![mv("a"), mv(&format!("m{}", won[0]))]);
    assert_eq!(s.list(1).unwrap()[0].plies, 2);
}

#[test]
fn a_variant_file_is_kept_once_under_its_id() {
    let db = TestDb::new("files");
    let s = db.open();
    assert_eq!(s.variant_file("cubelet").unwrap(), None);
    s.save_variant_file("cubelet", "first").unwrap();
    s.save_variant_file("cubelet", "second").unwrap();
    assert_eq!(s.variant_file("cubelet").unwrap().as_deref(), Some("first"));
    drop(s);
    // It outlives the process.
    let s = db.open();
    assert_eq!(s.variant_file("cubelet").unwrap().as_deref(), Some("first"));
}

#[test]
fn a_multi_player_game_keeps_its_seats_and_the_list_names_its_players() {
    let db = TestDb::new("seats");
    let s = db.open();
    let mut multi = meta("multi");
    multi.seats = Some(r#"[{"name":"Ann","token":"t"},{"name":"Raum (50 ms)","movetime":50}]"#.into());
    s.create(&multi, &[], None).unwrap();
    s.create(&meta("two"), &[], None).unwrap();
    assert_eq!(s.load("multi").unwrap().unwrap().0, multi);
    let list = s.list(10).unwrap();
    let players = |id: &str| list.iter().find(|g| g.id == id).unwrap().players.clone();
    assert_eq!(players("multi"), Some(vec!["Ann".into(), "Raum (50 ms)".into()]));
    assert_eq!(players("two"), None);
}

#[test]
fn a_review_is_replaced_and_a_take_back_drops_it() {
    let db = TestDb::new("reviews");
    let s = db.open();
    s.create(&meta("g"), &[mv("a"), mv("b")], Some(&win())).unwrap();
    assert_eq!(s.review("g").unwrap(), None);
    s.save_review("g", "k1", "{}").unwrap();
    s.save_review("g", "k2", "{\"n\":1}").unwrap();
    assert_eq!(s.review("g").unwrap(), Some(("k2".into(), "{\"n\":1}".into())));
    s.truncate("g", 2, 1).unwrap();
    assert_eq!(s.review("g").unwrap(), None);
}

#[test]
fn a_game_has_one_rematch_linked_from_it_for_good() {
    let db = TestDb::new("rematch");
    let s = db.open();
    let meta = |id: &str| fixtures::game(id, "online", 1, Some("sha256:a"));
    s.create(&meta("first"), &[], None).expect("the first game");
    assert_eq!(s.create_rematch("first", "white", &meta("second")).expect("stored"), None);
    assert_eq!(s.stamp("first").unwrap(), Some(Stamp { plies: 0, finished: false, rematched: true, offers: None }));
    // A second rematch of the same game answers the first and stores nothing.
    assert_eq!(
        s.create_rematch("first", "black", &meta("third")).expect("answered"),
        Some(Rematch { by: "white".into(), game: "second".into() })
    );
    assert!(s.load("third").expect("loads").is_none());
    assert!(s.create_rematch("nope", "white", &meta("fourth")).is_err());
    drop(s);
    // After a restart the link and the game are there.
    let s = db.open();
    let (first, _, _) = s.load("first").expect("loads").expect("stored");
    assert_eq!(first.rematch, Some(Rematch { by: "white".into(), game: "second".into() }));
    let (second, moves, result) = s.load("second").expect("loads").expect("stored");
    assert_eq!((second.rematch, moves.len(), result), (None, 0, None));
}

#[test]
fn unfinished_games_left_too_long_are_deleted_with_their_moves() {
    let db = TestDb::new("retention");
    let s = db.open();
    let meta = |id: &str, created: i64| fixtures::game(id, "online", created, None);
    s.create(&meta("left", 1_000), &[mv("a"), mv("b")], None).expect("an abandoned game");
    s.create(&meta("done", 1_000), &[mv("a")], Some(&win())).expect("a finished game as old");
    s.create(&meta("recent", 5_000), &[mv("a")], None).expect("a game changed lately");
    s.create(&meta("edge", 2_000), &[], None).expect("a game changed at the limit");
    s.save_review("left", "k", "{}").expect("a review of the abandoned game");
    // The finished game's rematch, never played: it goes, and the link with it.
    assert_eq!(s.create_rematch("done", "white", &meta("again", 1_000)).expect("a rematch"), None);

    let mut swept = s.delete_abandoned(2_000).expect("sweeps");
    swept.sort();
    assert_eq!(swept, ["again", "left"]);
    assert!(s.load("left").expect("loads").is_none(), "the abandoned game is gone");
    // Made again under its id, it has no moves and no review: they went with it.
    s.create(&meta("left", 9_000), &[], None).expect("the id is free");
    assert_eq!(s.load("left").expect("loads").expect("stored").1, vec![]);
    assert_eq!(s.review("left").expect("reads"), None);
    let (done, moves, result) = s.load("done").expect("loads").expect("the finished game stays");
    assert_eq!((done.rematch, moves.len(), result), (None, 1, Some(win())));
    assert!(s.load("recent").expect("loads").is_some(), "a recent game stays");
    assert!(s.load("edge").expect("loads").is_some(), "one changed at the limit stays");
    assert!(s.list(10).expect("list").iter().all(|g| g.id != "again"));

    // A move is a change: the game is no longer abandoned.
    s.append_move("edge", 0, &mv("a"), None).expect("a move");
    assert_eq!(s.delete_abandoned(3_000).expect("sweeps"), Vec::<String>::new());
    assert!(s.load("edge").expect("loads").is_some());
    assert_eq!(s.delete_abandoned(6_000).expect("sweeps"), vec!["recent".to_string()]);
}

#[test]
fn opening_again_applies_no_migration_twice_and_changes_nothing() {
    let db = TestDb::new("reopen");
    let s = db.open();
    s.check().expect("the new database has every migration");
    let hashed = crate::games::tokens::TokenHash::of("t");
    s.create(&fixtures::game("g", "online", 1, Some(hashed.as_str())), &[mv("a")], Some(&win())).unwrap();
    let before = s.load("g").unwrap();
    drop(s);
    for _ in 0..2 {
        let s = db.open();
        s.check().expect("still every migration");
        assert_eq!(s.load("g").unwrap(), before);
        assert_eq!(s.list(10).unwrap().len(), 1);
    }
}
