//! The server under abuse (issue 37): the security headers on pages, files
//! and API answers alike, 404s that do not echo what was asked for, move
//! numbers bounded on input, names that cannot pass for the engine's, and
//! engine seats that never play on alone.

use super::Server;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::json;
use tower::ServiceExt;

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let s = Server::new("headers");
    let (id, _) = s.create(json!({"variant": "five-up", "mode": "local"})).await;
    let game = format!("/g/{id}");
    let state = format!("/api/games/{id}");
    for uri in ["/", game.as_str(), "/rules/five-up", "/static/lobby.js", "/api/variants", state.as_str(), "/nowhere"] {
        let req = Request::builder().uri(uri).body(Body::empty()).expect("request");
        let resp = s.app.clone().oneshot(req).await.expect("answer");
        let h = resp.headers();
        let csp = h.get("content-security-policy").and_then(|v| v.to_str().ok()).unwrap_or_default();
        assert!(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"), "{uri}: {csp:?}");
        assert_eq!(h.get("x-content-type-options").map(|v| v.as_bytes()), Some(&b"nosniff"[..]), "{uri}");
        assert_eq!(h.get("referrer-policy").map(|v| v.as_bytes()), Some(&b"no-referrer"[..]), "{uri}");
    }
}

#[tokio::test]
async fn not_found_answers_do_not_echo_the_path() {
    let s = Server::new("not-found");
    for uri in ["/static/%3Cscript%3Ealert(1)%3C%2Fscript%3E.js", "/%3Cb%3Ebold", "/api/%3Cb%3E"] {
        let req = Request::builder().uri(uri).body(Body::empty()).expect("request");
        let resp = s.app.clone().oneshot(req).await.expect("answer");
        assert_eq!(resp.status(), StatusCode::NOT_FOUND, "{uri}");
        let body = resp.into_body().collect().await.expect("body").to_bytes();
        let text = String::from_utf8_lossy(&body).to_lowercase();
        assert!(!text.contains("script") && !text.contains("<b>") && !text.contains("%3c"), "{uri}: {text}");
    }
}

/// Pages of what is not there (issue 38): a `404` HTML page that says what is
/// missing (a game, a variant, a page), with the security headers and
/// nothing of the address; what is there is a `200` page.
#[tokio::test]
async fn pages_of_what_is_not_there_are_404_pages() {
    let s = Server::new("missing-pages");
    let (id, _) = s.create(json!({"variant": "five-up", "mode": "local"})).await;
    let game = format!("/g/{id}");
    let cases = [
        ("/g/unknown", StatusCode::NOT_FOUND, "There is no such game."),
        ("/g/%3Cb%3Eunknown", StatusCode::NOT_FOUND, "There is no such game."),
        ("/rules/unknown", StatusCode::NOT_FOUND, "There is no such variant."),
        ("/rules/five-up-tesseract", StatusCode::NOT_FOUND, "There is no such variant."),
        ("/rules/five-up-unicorn", StatusCode::OK, "<title>Raum · rules</title>"),
        ("/unknown", StatusCode::NOT_FOUND, "There is no such page."),
        ("/g/unknown/more", StatusCode::NOT_FOUND, "There is no such page."),
        (game.as_str(), StatusCode::OK, "<title>Raum · game</title>"),
        ("/rules/five-up", StatusCode::OK, "<title>Raum · rules</title>"),
        ("/rules/triquetral-6p", StatusCode::OK, "<title>Raum · rules</title>"),
    ];
    for (uri, status, says) in cases {
        let req = Request::builder().uri(uri).body(Body::empty()).expect("request");
        let resp = s.app.clone().oneshot(req).await.expect("answer");
        assert_eq!(resp.status(), status, "{uri}");
        let h = resp.headers();
        assert_eq!(h.get("content-type").map(|v| v.as_bytes()), Some(&b"text/html; charset=utf-8"[..]), "{uri}");
        let csp = h.get("content-security-policy").and_then(|v| v.to_str().ok()).unwrap_or_default();
        assert!(csp.contains("frame-ancestors 'none'"), "{uri}: {csp:?}");
        let body = resp.into_body().collect().await.expect("body").to_bytes();
        let text = String::from_utf8_lossy(&body);
        assert!(text.contains(says), "{uri}: {text}");
        if status == StatusCode::NOT_FOUND {
            let lower = text.to_lowercase();
            assert!(!lower.contains("unknown") && !lower.contains("more") && !lower.contains("%3c"), "{uri}: {text}");
        }
    }
}

#[tokio::test]
async fn move_numbers_past_the_bound_are_refused() {
    let s = Server::new("move-numbers");
    let start = "rwkgr|ppppp|5|5|5/nbqnb|ppppp|5|5|5/5|5|5|5|5/5|5|5|PPPPP|NBQNB/5|5|5|PPPPP|RWKGR w Kk -";
    for clocks in ["0 4294967295", "0 1000001", "1000001 1"] {
        let (status, v) = s
            .post("/api/games", json!({"variant": "five-up", "mode": "local", "fen": format!("{start} {clocks}")}))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{clocks}: {v}");
        assert!(v["error"].as_str().is_some_and(|e| e.contains("no game is that long")), "{v}");
    }
    let (status, v) =
        s.post("/api/games", json!({"variant": "five-up", "mode": "local", "fen": format!("{start} 0 1000000")})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
}

#[tokio::test]
async fn a_person_may_not_take_the_engine_s_name() {
    let s = Server::new("engine-name");
    let names = json!({"white": "Raum (level 3)"});
    let (status, v) = s.post("/api/games", json!({"variant": "five-up", "mode": "online", "names": names})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().is_some_and(|e| e.contains("is the engine's")), "{v}");
    let seats = json!({"white": {"name": "raum"}});
    let (status, v) = s.post("/api/games", json!({"variant": "triquetral-3p", "mode": "online", "seats": seats})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    // Hidden characters go: the name kept is the one shown.
    let names = json!({"white": "\u{202E}nnA\u{202C}"});
    let (id, _) = s.create(json!({"variant": "five-up", "mode": "online", "names": names})).await;
    assert_eq!(s.state(&id).await["names"]["white"], "nnA");
}

/// Seats of Raum never play on alone: once the last person resigns, the
/// engine makes no further move (the probe saw 82 plies in 4 s).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_seats_stop_when_the_last_person_leaves() {
    let s = Server::new("engine-alone");
    let engine = json!({"player": "engine", "movetime": 30});
    let seats = json!({"white": {"name": "Ann"}, "blue": engine, "green": engine});
    let (id, t) = s.create(json!({"variant": "triquetral-3p", "mode": "online", "seats": seats})).await;
    let st = s.state(&id).await;
    let first = st["legal"][0]["coord"].as_str().expect("a move").to_string();
    assert_eq!(s.play(&id, &t["white"], 0, &first).await.0, StatusCode::OK);
    // Blue and Green answer while Ann is in.
    super::wait_for_ply(&s, &id, 3).await;
    let (status, st) = s.post(&format!("/api/games/{id}/resign"), json!({"token": t["white"]})).await;
    assert_eq!(status, StatusCode::OK, "{st}");
    let ply = st["ply"].clone();
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    let st = s.state(&id).await;
    assert_eq!((&st["ply"], &st["engine"]["thinking"]), (&ply, &json!(false)), "{st}");
}
