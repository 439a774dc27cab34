//! Rematches (issue 38): once a game is over a player asks for the next
//! game, with the same variant, mode, clocks and engine and the seats passed
//! on (two sides: colours swapped). Each player's own token opens their new
//! seat; the old game links the new one for everyone, and after a restart.

use super::{Server, wait_for_ply};
use axum::http::StatusCode;
use serde_json::{Value, json};

async fn rematch(s: &Server, id: &str, token: &Value) -> (StatusCode, Value) {
    s.post(&format!("/api/games/{id}/rematch"), json!({"token": token})).await
}

#[tokio::test]
async fn an_online_rematch_swaps_colours_and_each_player_keeps_a_seat() {
    let mut s = Server::new("rematch-online");
    let clock = json!({"initial_ms": 300_000, "increment_ms": 2000});
    let names = json!({"white": "Ann", "black": "Bob"});
    let (id, t) = s.create(json!({"variant": "raumschach", "mode": "online", "clock": clock, "names": names})).await;
    let (ann, bob) = (&t["white"], &t["black"]);
    assert_eq!(rematch(&s, &id, ann).await.0, StatusCode::CONFLICT, "not before the game is over");
    assert_eq!(s.post(&format!("/api/games/{id}/resign"), json!({"token": bob})).await.0, StatusCode::OK);
    // Spectators and strangers cannot ask.
    assert_eq!(rematch(&s, &id, &json!(null)).await.0, StatusCode::FORBIDDEN);
    assert_eq!(rematch(&s, &id, &json!("0123456789abcdef0123456789abcdef")).await.0, StatusCode::FORBIDDEN);
    assert!(s.state(&id).await["rematch"].is_null(), "a refusal made no game");

    // Ann asks: a new game, in which she plays Black.
    let (status, made) = rematch(&s, &id, ann).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    assert_eq!((&made["side"], &made["created"]), (&json!("black"), &json!(true)));
    let next = made["id"].as_str().expect("the new game's id").to_string();
    assert_ne!(next, id);
    let old = s.state(&id).await;
    assert_eq!(old["rematch"], json!({"by": "white", "game": next}), "the old game links the new one");
    // Bob follows the offer with his own token: the same game, where he plays White.
    let (status, followed) = rematch(&s, &id, bob).await;
    assert_eq!(status, StatusCode::OK, "{followed}");
    assert_eq!(
        (&followed["id"], &followed["side"], &followed["created"]),
        (&json!(next), &json!("white"), &json!(false))
    );
    // Asked again: still the one game.
    assert_eq!(rematch(&s, &id, ann).await.1["id"], json!(next));

    let st = s.state(&next).await;
    assert_eq!((&st["variant"], &st["mode"], &st["ply"]), (&json!("raumschach"), &json!("online"), &json!(0)));
    assert_eq!((&st["names"]["white"], &st["names"]["black"]), (&json!("Bob"), &json!("Ann")));
    assert_eq!((&st["clock"]["initial_ms"], &st["clock"]["increment_ms"]), (&json!(300_000), &json!(2000)));
    assert!(st["result"].is_null() && st["rematch"].is_null());
    // Bob's token moves White there, Ann's does not.
    let first = st["legal"][0]["coord"].as_str().expect("a move").to_string();
    assert_eq!(s.play(&next, ann, 0, &first).await.0, StatusCode::FORBIDDEN);
    assert_eq!(s.play(&next, bob, 0, &first).await.0, StatusCode::OK);

    // After a restart the link and the game are there, and asking again makes no other.
    s.restart();
    assert_eq!(s.state(&id).await["rematch"], json!({"by": "white", "game": next}));
    assert_eq!(s.state(&next).await["ply"], 1);
    let (status, again) = rematch(&s, &id, bob).await;
    assert_eq!((status, &again["id"], &again["side"]), (StatusCode::OK, &json!(next), &json!("white")));
    let (_, list) = s.get("/api/games").await;
    assert_eq!(list.as_array().map(Vec::len), Some(2), "two games: {list}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_against_the_engine_or_at_one_screen_opens_at_once() {
    let s = Server::new("rematch-engine");
    let engine = json!({"color": "black", "level": 1});
    let (id, t) = s.create(json!({"variant": "five-up", "mode": "engine", "engine": engine})).await;
    let me = &t["white"];
    assert_eq!(s.post(&format!("/api/games/{id}/resign"), json!({"token": me})).await.0, StatusCode::OK);
    let (status, made) = rematch(&s, &id, me).await;
    assert_eq!((status, &made["side"]), (StatusCode::CREATED, &json!("black")), "{made}");
    let next = made["id"].as_str().expect("id").to_string();
    // Raum has White now, at the same level, and moves first.
    let st = wait_for_ply(&s, &next, 1).await;
    assert_eq!(
        (&st["mode"], &st["engine"]["color"], &st["engine"]["level"]),
        (&json!("engine"), &json!("white"), &json!(1))
    );
    assert_eq!((&st["names"]["white"], &st["seats"]["black"]["human"]), (&json!("Raum (level 1)"), &json!(true)));
    let reply = st["legal"][0]["coord"].as_str().expect("a move").to_string();
    assert_eq!(s.play(&next, me, 1, &reply).await.0, StatusCode::OK);

    // At one screen the one token holds both seats.
    let (id, t) = s.create(json!({"variant": "five-up", "mode": "local"})).await;
    assert_eq!(s.post(&format!("/api/games/{id}/resign"), json!({"token": t["white"]})).await.0, StatusCode::OK);
    let (status, made) = rematch(&s, &id, &t["white"]).await;
    assert_eq!((status, &made["side"]), (StatusCode::CREATED, &json!("both")), "{made}");
    assert_eq!(s.state(&id).await["rematch"]["by"], "both");
}

#[tokio::test]
async fn a_rematch_for_three_passes_each_seat_to_the_next_side() {
    let s = Server::new("rematch-multi");
    let seats = json!({"white": {"name": "Ann"}, "blue": {"name": "Bob"}, "green": {"name": "Cy"}});
    let (id, t) = s.create(json!({"variant": "triquetral-3p", "mode": "online", "seats": seats})).await;
    for side in ["white", "blue"] {
        let (status, v) = s.post(&format!("/api/games/{id}/resign"), json!({"token": t[side]})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    assert!(!s.state(&id).await["result"].is_null());
    let (status, made) = rematch(&s, &id, &t["green"]).await;
    assert_eq!((status, &made["side"]), (StatusCode::CREATED, &json!("white")), "Green's player moves on to White");
    let next = made["id"].as_str().expect("id").to_string();
    assert_eq!(rematch(&s, &id, &t["white"]).await.1["side"], json!("blue"));
    let players: Vec<Value> =
        s.state(&next).await["sides"].as_array().expect("sides").iter().map(|x| x["player"].clone()).collect();
    assert_eq!(players, vec![json!("Cy"), json!("Ann"), json!("Bob")]);
}
