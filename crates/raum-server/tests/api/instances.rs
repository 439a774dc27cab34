//! Several servers on one PostgreSQL database (issue 39): a game created on
//! one is played through another, a move stored by one reaches the sockets
//! of the other, and of two servers racing on one ply exactly one stores its
//! move (the other answers `409`), after which both stand where the store
//! does. A server that dies leaves its games' engine moves and clocks to
//! another, which takes over their leases once they lapse. A seat with a
//! socket on one server shows as present on the others. On SQLite (one
//! server per file) there is nothing to test.

use super::Server;
use axum::http::StatusCode;
use raum_server::store::Database;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Two servers on one PostgreSQL database (a schema of test `name`'s own);
/// `None` on SQLite, where a file belongs to one server.
fn two_servers(name: &str) -> Option<(Server, Server)> {
    let a = Server::new(name);
    if matches!(a.db, Database::Sqlite(_)) {
        return None;
    }
    let b = a.beside();
    Some((a, b))
}

/// The next state a listener hears whose ply is `ply`, within 15 s.
async fn heard(rx: &mut tokio::sync::broadcast::Receiver<std::sync::Arc<str>>, ply: u64) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    loop {
        let text = tokio::time::timeout_at(deadline, rx.recv())
            .await
            .unwrap_or_else(|_| panic!("no state of ply {ply} within 15 s"))
            .expect("the room's states");
        let state: Value = serde_json::from_str(&text).expect("a state");
        if state["ply"] == ply {
            return state;
        }
    }
}

#[tokio::test]
async fn a_game_is_played_through_either_server_and_each_hears_the_other() {
    let Some((a, b)) = two_servers("instances") else { return };
    let (id, t) = a.create(json!({"variant": "five-up", "mode": "online"})).await;

    // Created on A, played through B.
    assert_eq!(b.play(&id, &t["white"], 0, "P-Cc2").await.0, StatusCode::OK);
    assert_eq!(a.state(&id).await["ply"], 1, "A loads what B stored");

    // A socket on each: a move through one reaches the other's.
    let room_a = a.games.room(&id).await.expect("A's room");
    let room_b = b.games.room(&id).await.expect("B's room");
    let (_, mut on_a, _, _here_a) = a.games.listen(&room_a, None).await;
    let (_, mut on_b, _, _here_b) = b.games.listen(&room_b, None).await;
    let sent = Instant::now();
    assert_eq!(a.play(&id, &t["black"], 1, "P-Cc4").await.0, StatusCode::OK);
    let acknowledged = sent.elapsed();
    let state = heard(&mut on_b, 2).await;
    eprintln!(
        "a move through A: acknowledged in {} us, on B's socket {} us after it was sent",
        acknowledged.as_micros(),
        sent.elapsed().as_micros()
    );
    assert_eq!(state["moves"][1]["san"], "Cc4", "{state}");
    let sent = Instant::now();
    assert_eq!(b.play(&id, &t["white"], 2, "B-Ca1").await.0, StatusCode::OK);
    heard(&mut on_a, 3).await;
    eprintln!("a move through B: on A's socket {} us after it was sent", sent.elapsed().as_micros());

    // Both at ply 3: the same move sent to each at once is stored once.
    let (to_a, to_b) = tokio::join!(a.play(&id, &t["black"], 3, "P-Cb4"), b.play(&id, &t["black"], 3, "P-Cb4"));
    let mut statuses = [to_a.0, to_b.0];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT], "{to_a:?} {to_b:?}");
    heard(&mut on_a, 4).await;
    heard(&mut on_b, 4).await;
    let (on_a_now, on_b_now) = (a.state(&id).await, b.state(&id).await);
    assert_eq!((&on_a_now["ply"], &on_a_now["moves"][3]["san"]), (&json!(4), &json!("Cb4")), "{on_a_now}");
    assert_eq!(on_a_now["moves"], on_b_now["moves"]);
    // Fifty clients, half on each server, send one ply's move at once: it is stored once.
    let next = on_a_now["legal"][0]["coord"].as_str().expect("a legal move").to_string();
    let racers = (0..50).map(|i| {
        let (server, next, token) = (if i % 2 == 0 { &a } else { &b }, next.clone(), t["white"].clone());
        let id = id.clone();
        async move { server.play(&id, &token, 4, &next).await.0 }
    });
    let statuses = futures_util::future::join_all(racers).await;
    let won = statuses.iter().filter(|s| **s == StatusCode::OK).count();
    let lost = statuses.iter().filter(|s| **s == StatusCode::CONFLICT).count();
    assert_eq!((won, lost), (1, 49), "{statuses:?}");
    heard(&mut on_a, 5).await;
    heard(&mut on_b, 5).await;
    assert_eq!(a.state(&id).await["moves"], b.state(&id).await["moves"]);
    let on_a_now = a.state(&id).await;
    // And the next move is taken by either.
    let next = on_a_now["legal"][0]["coord"].as_str().expect("a legal move").to_string();
    assert_eq!(a.play(&id, &t["black"], 5, &next).await.0, StatusCode::OK);
    heard(&mut on_b, 6).await;
    assert_eq!(b.state(&id).await["ply"], 6);
}

/// The server holding game `id`'s lease, if any.
fn lease_holder(db: &Database, id: &str) -> Option<String> {
    let Database::Postgres(url) = db else { return None };
    super::seat_tokens::postgres_query(url, "SELECT holder FROM leases WHERE game = $1", &[id])
        .first()
        .and_then(|row| row[0].clone())
}

/// Waits up to 5 s until game `id`'s lease is held.
async fn leased(db: &Database, id: &str) -> String {
    for _ in 0..100 {
        if let Some(holder) = lease_holder(db, id) {
            return holder;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no server claimed game {id}'s lease");
}

#[tokio::test]
async fn engine_moves_and_clocks_go_on_from_another_server_when_theirs_dies() {
    let Some((a, b)) = two_servers("takeover") else { return };
    // An engine game on A, and one with clocks that are nearly out.
    let (engine_game, t) =
        a.create(json!({"variant": "five-up", "mode": "engine", "engine": {"color": "black", "movetime": 300}})).await;
    let (clock_game, c) = a
        .create(json!({"variant": "five-up", "mode": "online", "clock": {"initial_ms": 1500, "increment_ms": 0}}))
        .await;
    // The work each move starts (the engine's reply, the clocks) is leased before the move is
    // stored, so a server dying right after storing it leaves a lease for another to take over:
    // the database refuses these games' moves otherwise.
    let Database::Postgres(url) = &a.db else { unreachable!("two servers share PostgreSQL") };
    let leased_first = format!(
        "CREATE FUNCTION leased_first() RETURNS trigger AS $$ BEGIN
           IF NOT EXISTS (SELECT 1 FROM leases WHERE game = NEW.game) THEN RAISE EXCEPTION 'no lease'; END IF;
           RETURN NEW; END $$ LANGUAGE plpgsql;
         CREATE TRIGGER leased_first BEFORE INSERT ON moves FOR EACH ROW
           WHEN (NEW.game IN ('{engine_game}', '{clock_game}')) EXECUTE FUNCTION leased_first()"
    );
    super::seat_tokens::postgres_batch(url, &leased_first);
    assert_eq!(a.play(&engine_game, &t["white"], 0, "P-Cc2").await.0, StatusCode::OK);
    assert_eq!(a.play(&clock_game, &c["white"], 0, "P-Cc2").await.0, StatusCode::OK);
    // Exactly one server searches the engine's move and runs the clock: A, the only one with
    // the games in memory.
    let holder = leased(&a.db, &engine_game).await;
    assert_eq!(leased(&a.db, &clock_game).await, holder, "one server does both games' work");
    // Then B loads the engine game (a socket on it); the clock game it never loads.
    let room_b = b.games.room(&engine_game).await.expect("B's room");
    let (_, mut on_b, _, _here) = b.games.listen(&room_b, None).await;
    // B leaves the search to A, and its sockets hear that the engine thinks.
    let mut thinking = Value::Null;
    for _ in 0..100 {
        thinking = b.state(&engine_game).await["engine"]["thinking"].clone();
        if thinking == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(thinking, true, "B shows A's search");

    // A dies: its search is lost with it, and its leases lapse.
    let died = Instant::now();
    a.games.stop_work(false).await;

    // B takes the engine game over and plays the engine's move.
    let state = heard(&mut on_b, 2).await;
    eprintln!("the engine's move, played by B, {} ms after A died", died.elapsed().as_millis());
    assert_eq!(state["moves"][1]["color"], "black", "{state}");
    assert_ne!(lease_holder(&b.db, &engine_game), Some(holder.clone()), "B took the lease");
    // And Black's clock, which ran out meanwhile, falls on B.
    let mut flagged = Value::Null;
    for _ in 0..100 {
        flagged = b.state(&clock_game).await;
        if !flagged["result"].is_null() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!("Black's flag, fallen on B, {} ms after A died", died.elapsed().as_millis());
    assert_eq!(flagged["result"]["text"], "1-0, Black's time is up", "{flagged}");
}

#[tokio::test]
async fn offers_made_through_one_server_are_answered_through_another_and_a_game_ends_once() {
    let Some((a, b)) = two_servers("offers") else { return };
    let (id, t) = a.create(json!({"variant": "five-up", "mode": "online"})).await;
    let (draw, takeback) = (format!("/api/games/{id}/draw"), format!("/api/games/{id}/takeback"));
    assert_eq!(a.play(&id, &t["white"], 0, "P-Cc2").await.0, StatusCode::OK);
    assert_eq!(b.state(&id).await["ply"], 1, "B has the game in memory");

    // A take-back asked through A is accepted through B.
    let (status, st) = a.post(&takeback, json!({"token": t["white"], "action": "request"})).await;
    assert_eq!((status, &st["takeback"]["by"]), (StatusCode::OK, &json!("white")), "{st}");
    let (status, st) = b.post(&takeback, json!({"token": t["black"], "action": "accept"})).await;
    assert_eq!((status, &st["ply"]), (StatusCode::OK, &json!(0)), "{st}");
    assert_eq!(a.state(&id).await["ply"], 0, "and A follows");

    // A draw offer through B stands on A after a move of the side that offered it, and is accepted there.
    assert_eq!(b.play(&id, &t["white"], 0, "P-Cc2").await.0, StatusCode::OK);
    let (status, st) = b.post(&draw, json!({"token": t["black"], "action": "offer"})).await;
    assert_eq!((status, &st["draw_offer"]), (StatusCode::OK, &json!("black")), "{st}");
    assert_eq!(b.play(&id, &t["black"], 1, "P-Cc4").await.0, StatusCode::OK);
    assert_eq!(a.state(&id).await["draw_offer"], "black", "the offer outlives its side's move");
    let (status, st) = a.post(&draw, json!({"token": t["white"], "action": "accept"})).await;
    assert_eq!((status, &st["result"]["text"]), (StatusCode::OK, &json!("1/2-1/2, draw agreed")), "{st}");

    // Both players resign at once, one through each server: the game ends once.
    let (id, t) = a.create(json!({"variant": "five-up", "mode": "online"})).await;
    assert_eq!(b.play(&id, &t["white"], 0, "P-Cc2").await.0, StatusCode::OK);
    assert_eq!(a.state(&id).await["ply"], 1);
    let resign = format!("/api/games/{id}/resign");
    let (by_a, by_b) =
        tokio::join!(a.post(&resign, json!({"token": t["white"]})), b.post(&resign, json!({"token": t["black"]})));
    let mut statuses = [by_a.0, by_b.0];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT], "{by_a:?} {by_b:?}");
    let winner = if by_a.0 == StatusCode::OK { &by_a.1 } else { &by_b.1 };
    for s in [&a, &b] {
        let mut st = s.state(&id).await;
        for _ in 0..50 {
            if st["result"] == winner["result"] {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
            st = s.state(&id).await;
        }
        assert_eq!(st["result"], winner["result"], "both servers show the resignation that was stored");
    }
}

/// Polls `server`'s state of game `id` until seat `side`'s presence is `present`, for at most
/// `within`; how long that took.
async fn until_present(server: &Server, id: &str, side: usize, present: bool, within: Duration) -> Duration {
    let began = Instant::now();
    loop {
        let state = server.state(id).await;
        if state["sides"][side]["present"] == present {
            return began.elapsed();
        }
        assert!(began.elapsed() < within, "seat {side} not present={present} within {within:?}: {state}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A player's socket on one server shows them present on the others: on a
/// server that has the game in memory (told by the feed) and on one that
/// loads it later; their leaving too. A server that dies leaves its players'
/// seats present only until its rows lapse with its leases.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_with_a_socket_on_one_server_is_present_on_the_others() {
    let Some((a, b)) = two_servers("presence") else { return };
    let (id, t) = a.create(json!({"variant": "five-up", "mode": "online"})).await;
    let room_b = b.games.room(&id).await.expect("B's room");
    let (_, _on_b, _, _watching) = b.games.listen(&room_b, None).await;
    assert_eq!(b.state(&id).await["sides"][0]["present"], false);

    // White's page opens its socket on A: B shows white present, and a third server loading
    // the game afterwards does too.
    let room_a = a.games.room(&id).await.expect("A's room");
    let white = a.games.listen(&room_a, t["white"].as_str()).await;
    let took = until_present(&b, &id, 0, true, Duration::from_secs(2)).await;
    eprintln!("white's socket on A: present on B after {} ms", took.as_millis());
    let c = a.beside();
    assert_eq!(c.state(&id).await["sides"][0]["present"], true, "read when the game is loaded");
    assert_eq!(b.state(&id).await["sides"][1]["present"], false, "black has no socket");

    // Black on B: present on A; and absent once it leaves.
    let black = b.games.listen(&room_b, t["black"].as_str()).await;
    until_present(&a, &id, 1, true, Duration::from_secs(2)).await;
    drop(black);
    until_present(&a, &id, 1, false, Duration::from_secs(2)).await;

    // Each server makes its rows what its memory says every second: a row lost (deleted
    // behind its back) is written again, and one it should not have is deleted.
    let Database::Postgres(url) = &a.db else { unreachable!("two servers share PostgreSQL") };
    let white_is_on_a = "SELECT holder FROM presence WHERE game = $1 AND side = 0";
    let holder_a = super::seat_tokens::postgres_query(url, white_is_on_a, &[&id]);
    let holder_a = holder_a.first().and_then(|row| row[0].clone()).expect("white's row, A's");
    let _ = super::seat_tokens::postgres_query(url, "DELETE FROM presence WHERE game = $1 RETURNING game", &[&id]);
    let stale = "INSERT INTO presence (game, side, holder, expires) VALUES ($1, 1, $2, 9000000000000) RETURNING game";
    let _ = super::seat_tokens::postgres_query(url, stale, &[&id, &holder_a]);
    let rows = "SELECT side::text, holder FROM presence WHERE game = $1 ORDER BY side";
    let began = Instant::now();
    loop {
        let now = super::seat_tokens::postgres_query(url, rows, &[&id]);
        if now == [vec![Some("0".to_string()), Some(holder_a.clone())]] {
            break;
        }
        assert!(began.elapsed() < Duration::from_secs(3), "A's rows not mended within 3 s: {now:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // White leaves A: absent on B and C.
    drop(white);
    until_present(&b, &id, 0, false, Duration::from_secs(2)).await;
    until_present(&c, &id, 0, false, Duration::from_secs(2)).await;

    // White again on A, and A dies (it renews nothing more): once its rows lapse (5 s), the
    // next server to renew drops them and B shows white absent.
    let _white = a.games.listen(&room_a, t["white"].as_str()).await;
    until_present(&b, &id, 0, true, Duration::from_secs(2)).await;
    a.games.stop_work(false).await;
    let took = until_present(&b, &id, 0, false, Duration::from_secs(10)).await;
    eprintln!("A dead: white absent on B after {} ms", took.as_millis());
}
