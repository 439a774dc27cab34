//! The HTTP side: the JSON API under `/api/` (docs/api.md), the WebSocket
//! that pushes each game's state, and the front end's pages and files.

use crate::engine_pool::Client;
use crate::games::board::{LinesReq, PositionReq};
use crate::games::refusal::Refusal;
use crate::games::registry::Games;
use crate::games::registry::RoomArc;
use crate::games::request::NewGame;
use crate::limits::{Bucket, Limited, client_of};
use crate::{variant_files, variants};
use axum::body::Body;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, FromRequestParts, Path, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use raum_rules::VariantId;
use raum_rules::multi::MultiId;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

mod assets {
    include!(concat!(env!("OUT_DIR"), "/assets.rs"));
}

/// How often a quiet WebSocket is pinged.
const PING_EVERY: std::time::Duration = std::time::Duration::from_secs(30);

/// Largest request body taken.
pub const MAX_BODY: usize = 64 * 1024;

/// An error answer: its status and `{"error": "..."}`, and for a request
/// over a limit, when to try again.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
    retry_after: Option<u64>,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError { status, message: message.into(), retry_after: None }
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> Self {
        let status = StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        // The engine's caps say "later", as the rate limits do.
        let retry_after =
            (status == StatusCode::TOO_MANY_REQUESTS || status == StatusCode::SERVICE_UNAVAILABLE).then_some(5);
        ApiError { status, message: r.message, retry_after }
    }
}

impl From<Limited> for ApiError {
    fn from(l: Limited) -> Self {
        ApiError { status: StatusCode::TOO_MANY_REQUESTS, message: l.message, retry_after: Some(l.retry_after) }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut r = (self.status, Json(serde_json::json!({ "error": self.message }))).into_response();
        if let Some(secs) = self.retry_after {
            r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        r
    }
}

/// The address a request came from, as limits count it (behind a trusted
/// proxy, the client it names: [`crate::proxies`]); `None` for a request
/// made in-process (tests), which no per-address limit counts.
pub struct Peer(pub Option<Client>);

impl<S: Send + Sync> FromRequestParts<S> for Peer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        // Through a trusted proxy: the client it names; else the connection's address.
        if let Some(crate::proxies::Forwarded(client)) = parts.extensions.get() {
            return Ok(Peer(Some(Arc::clone(client))));
        }
        Ok(Peer(parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| client_of(c.0))))
    }
}

impl Peer {
    /// Who the engine's work for this request is charged to.
    fn charged(&self) -> Client {
        self.0.clone().unwrap_or_else(|| Arc::from("in-process"))
    }
}

/// A JSON body whose every refusal (malformed, wrong shape, too big, too
/// slow to arrive) is an [`ApiError`] that says what was wrong.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned> FromRequest<Arc<Games>> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &Arc<Games>) -> Result<Self, ApiError> {
        // The whole body within the policy's time: a body that trickles in
        // holds a connection no longer than one that never comes.
        let within = state.gate.policy.body_timeout;
        match tokio::time::timeout(within, Json::<T>::from_request(req, state)).await {
            Ok(Ok(Json(t))) => Ok(JsonBody(t)),
            Ok(Err(rejection)) => Err(json_refusal(rejection)),
            Err(_) => Err(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!("the request body did not arrive within {} s", within.as_secs()),
            )),
        }
    }
}

fn json_refusal(r: JsonRejection) -> ApiError {
    let status = r.status();
    let text = if status == StatusCode::PAYLOAD_TOO_LARGE {
        format!("the request body is over {} KB", MAX_BODY / 1024)
    } else {
        r.body_text()
    };
    ApiError::new(status, text)
}

type Api<T> = Result<T, ApiError>;

/// Runs a change to a game on a task of its own, so that a client leaving
/// mid-request (which drops the handler) cannot cut the change in two: it
/// completes, is stored and is broadcast, whoever waits for the answer.
async fn detached<T: Send + 'static>(
    change: impl std::future::Future<Output = Result<T, Refusal>> + Send + 'static,
) -> Api<T> {
    match tokio::spawn(change).await {
        Ok(r) => r.map_err(ApiError::from),
        Err(e) => Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("the request failed: {e}"))),
    }
}

/// The router: API, WebSocket, pages and static files.
pub fn router(games: Arc<Games>) -> Router {
    let api = Router::new()
        .route("/variants", get(list_variants).post(upload_variant))
        .route("/variant-examples", get(|| async { Json(variant_files::examples()) }))
        .route("/variants/{id}", get(variant))
        .route("/variants/{id}/rules", get(variant_rules))
        .route("/games", get(list_games).post(create_game))
        .route("/games/{id}", get(game_state))
        .route("/games/{id}/moves", post(play).layer(axum::middleware::from_fn_with_state(Arc::clone(&games), timed)))
        .route("/games/{id}/undo", post(undo))
        .route("/games/{id}/resign", post(resign))
        .route("/games/{id}/draw", post(draw))
        .route("/games/{id}/takeback", post(takeback))
        .route("/games/{id}/rematch", post(rematch))
        .route("/games/{id}/analysis", post(analysis))
        .route("/games/{id}/review", get(review).post(start_review))
        .route("/games/{id}/pgn", get(pgn))
        .route("/positions", post(position))
        .route("/lines", post(lines))
        .route("/games/{id}/ws", get(socket))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such API call (see docs/api.md)") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "this API call takes another method (see docs/api.md)")
        });
    Router::new()
        .nest("/api", api)
        .route("/", get(|| async { asset("index.html") }))
        .route("/g/{id}", get(game_page))
        .route("/analysis", get(|| async { asset("analysis.html") }))
        .route("/rules/{variant}", get(rules_page))
        .route("/healthz", get(|| async { Json(serde_json::json!({"status": "ok"})) }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .route("/static/{*path}", get(|Path(path): Path<String>| async move { asset(&path) }))
        .fallback(|| async { not_found_page(Missing::Page) })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(refuse_oversized))
        .layer(axum::middleware::map_response(security_headers))
        .layer(axum::middleware::from_fn(log_request))
        .with_state(games)
}

/// A move request's time, from its arrival (before its body is read) to its
/// answer, whatever the answer (`raum_move_seconds`).
async fn timed(State(g): State<Arc<Games>>, req: Request, next: axum::middleware::Next) -> Response {
    let arrived = std::time::Instant::now();
    let answer = next.run(req).await;
    g.metrics.move_seconds.observe(arrived.elapsed());
    answer
}

/// A debug event for each request (off at the default level, `info`): its
/// method, path, status and time. The path only: a socket's query holds a
/// seat token.
async fn log_request(req: Request, next: axum::middleware::Next) -> Response {
    if !tracing::enabled!(tracing::Level::DEBUG) {
        return next.run(req).await;
    }
    let (method, path) = (req.method().clone(), req.uri().path().to_string());
    let arrived = std::time::Instant::now();
    let answer = next.run(req).await;
    let ms = arrived.elapsed().as_secs_f64() * 1000.0;
    tracing::debug!(%method, %path, status = answer.status().as_u16(), ms, "request");
    answer
}

/// `GET /metrics`: the server's numbers in Prometheus' text format
/// ([`crate::metrics`]). No rate limit counts it: a scraper polls it.
async fn metrics(State(g): State<Arc<Games>>) -> Response {
    let mut r = Response::new(Body::from(crate::metrics::render(&g)));
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(crate::metrics::CONTENT_TYPE));
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// A body announced over [`MAX_BODY`] is refused before any of it is read
/// (a client that announces 10 GB and sends one byte gets its answer now).
async fn refuse_oversized(req: Request, next: axum::middleware::Next) -> Response {
    let announced = req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if announced.is_some_and(|n| n > MAX_BODY as u64) {
        let mut r =
            ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, format!("the request body is over {} KB", MAX_BODY / 1024))
                .into_response();
        r.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        return r;
    }
    next.run(req).await
}

/// The pages' and the API's content policy: everything from this server, no
/// inline script or style (the pages have none), never framed (a framed game
/// page could be clicked into resigning).
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// Every answer's security headers: the content policy, no content-type
/// sniffing, and no referrer (a game's address must not leak to another site).
async fn security_headers(mut r: Response) -> Response {
    let h = r.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    r
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or_default() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn asset(path: &str) -> Response {
    match assets::ASSETS.iter().find(|(p, _)| *p == path) {
        Some((p, bytes)) => {
            let mut r = Response::new(Body::from(*bytes));
            r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type(p)));
            r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            r
        }
        // The path is not echoed: an answer says nothing a link could plant.
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}

/// What a page's `404` says is missing.
#[derive(Clone, Copy)]
enum Missing {
    Page,
    Game,
    Variant,
}

/// The `404` page: `not-found.html`, its heading and explanation chosen by
/// what is missing. Nothing of the request is written into it.
fn not_found_page(what: Missing) -> Response {
    const PAGE: (&str, &str) = ("There is no such page.", "The address may be mistyped, or the page has moved.");
    let (title, why) = match what {
        Missing::Page => PAGE,
        Missing::Game => (
            "There is no such game.",
            "The link may be mistyped, or the game is gone: a game left unfinished and untouched for a long time is \
             deleted.",
        ),
        Missing::Variant => {
            ("There is no such variant.", "The address may be mistyped: the lobby lists every variant and its rules.")
        }
    };
    let page = assets::ASSETS.iter().find(|(p, _)| *p == "not-found.html").map(|(_, b)| String::from_utf8_lossy(b));
    let Some(page) = page else { return (StatusCode::NOT_FOUND, title).into_response() };
    let page = page.replacen(PAGE.0, title, 1).replacen(PAGE.1, why, 1);
    let mut r = (StatusCode::NOT_FOUND, page).into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}

/// `/g/{id}`: the game page, or for a game the server does not have a
/// `404` page that says so.
async fn game_page(State(g): State<Arc<Games>>, Path(id): Path<String>) -> Response {
    match g.room(&id).await {
        Err(r) if r.status == 404 => not_found_page(Missing::Game),
        // Anything else the page itself reports, from its own request.
        _ => asset("game.html"),
    }
}

/// `/rules/{variant}`: the rules page of a variant the app offers (a kept
/// variant file's too), else a `404` page.
async fn rules_page(State(g): State<Arc<Games>>, Path(id): Path<String>) -> Response {
    let known = ensure_loaded(&g, &id).await.is_ok() && (MultiId::from_name(&id).is_some() || variant_id(&id).is_ok());
    if known { asset("rules.html") } else { not_found_page(Missing::Variant) }
}

fn json_text(text: Arc<str>) -> Response {
    let mut r = Response::new(Body::from(text.to_string()));
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    r
}

fn variant_id(id: &str) -> Api<VariantId> {
    id.parse().map_err(|e: raum_rules::UnknownVariant| ApiError::new(StatusCode::NOT_FOUND, e.to_string()))
}

async fn list_variants() -> Json<&'static [variants::VariantSummary]> {
    Json(variants::list())
}

/// Loads the variant file kept under `id`, if the store holds one and it is not loaded yet.
async fn ensure_loaded(g: &Arc<Games>, id: &str) -> Api<()> {
    g.ensure_variant(id).await.map_err(ApiError::from)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UploadReq {
    /// The file's text.
    text: String,
    /// Its name, for messages (`my-game.toml`).
    #[serde(default)]
    name: Option<String>,
}

/// `POST /api/variants`: a variant file, read, loaded and kept.
async fn upload_variant(State(g): State<Arc<Games>>, peer: Peer, JsonBody(req): JsonBody<UploadReq>) -> Response {
    if let Err(limited) = g.gate.check(Bucket::VariantFiles, peer.0.as_ref()) {
        return ApiError::from(limited).into_response();
    }
    let name: String = req.name.as_deref().map_or("variant.toml".into(), crate::games::request::clean_name);
    let store = Arc::clone(&g.store);
    let done = tokio::task::spawn_blocking(move || variant_files::upload(store.as_ref(), &req.text, &name)).await;
    match done {
        Ok(Ok(id)) => (StatusCode::CREATED, Json(variants::summary(id))).into_response(),
        Ok(Err(refusal)) => {
            let status = StatusCode::from_u16(refusal.status).unwrap_or(StatusCode::UNPROCESSABLE_ENTITY);
            let body = serde_json::json!({ "error": refusal.message, "problems": refusal.problems });
            (status, Json(body)).into_response()
        }
        Err(e) => {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("reading the file failed: {e}")).into_response()
        }
    }
}

async fn variant(State(g): State<Arc<Games>>, Path(id): Path<String>) -> Api<Json<variants::VariantInfo>> {
    ensure_loaded(&g, &id).await?;
    if let Some(multi) = MultiId::from_name(&id) {
        return Ok(Json(variants::multi_info(multi)));
    }
    Ok(Json(variants::info(variant_id(&id)?)))
}

async fn variant_rules(State(g): State<Arc<Games>>, Path(id): Path<String>) -> Api<Json<variants::RulesInfo>> {
    ensure_loaded(&g, &id).await?;
    if let Some(multi) = MultiId::from_name(&id) {
        return Ok(Json(variants::multi_rules(multi)));
    }
    Ok(Json(variants::rules(variant_id(&id)?)))
}

/// Ready to serve: the database answers and has every migration this Raum
/// knows (`503` otherwise). `/healthz` answers while the process runs.
async fn readyz(State(g): State<Arc<Games>>) -> Response {
    match g.ready().await {
        Ok(()) => Json(serde_json::json!({"status": "ready"})).into_response(),
        Err(e) => {
            (StatusCode::SERVICE_UNAVAILABLE, Json(serde_json::json!({"status": "unavailable", "error": e.message})))
                .into_response()
        }
    }
}

async fn list_games(State(g): State<Arc<Games>>) -> Api<Response> {
    Ok(Json(g.list().await?).into_response())
}

async fn create_game(State(g): State<Arc<Games>>, peer: Peer, JsonBody(req): JsonBody<NewGame>) -> Api<Response> {
    g.gate.check(Bucket::Games, peer.0.as_ref())?;
    let created = detached(async move { g.create(peer.charged(), req).await }).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

async fn game_state(State(g): State<Arc<Games>>, Path(id): Path<String>) -> Api<Response> {
    let room = g.room(&id).await?;
    Ok(json_text(Games::current_state(&room).await))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveReq {
    #[serde(default)]
    token: Option<String>,
    ply: usize,
    #[serde(rename = "move")]
    text: String,
}

async fn play(
    State(g): State<Arc<Games>>,
    peer: Peer,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<MoveReq>,
) -> Api<Response> {
    g.gate.check(Bucket::Moves, peer.0.as_ref())?;
    let client = peer.charged();
    Ok(json_text(detached(async move { g.play(client, &id, req.token.as_deref(), req.ply, &req.text).await }).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UndoReq {
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    ply: Option<usize>,
}

async fn undo(
    State(g): State<Arc<Games>>,
    peer: Peer,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<UndoReq>,
) -> Api<Response> {
    g.gate.check(Bucket::Moves, peer.0.as_ref())?;
    let client = peer.charged();
    Ok(json_text(detached(async move { g.undo(client, &id, req.token.as_deref(), req.ply).await }).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResignReq {
    #[serde(default)]
    token: Option<String>,
    /// A multi-player game at one screen: the side that resigns.
    #[serde(default)]
    side: Option<String>,
}

async fn resign(
    State(g): State<Arc<Games>>,
    peer: Peer,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<ResignReq>,
) -> Api<Response> {
    g.gate.check(Bucket::Moves, peer.0.as_ref())?;
    Ok(json_text(detached(async move { g.resign(&id, req.token.as_deref(), req.side.as_deref()).await }).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DrawReq {
    #[serde(default)]
    token: Option<String>,
    action: String,
}

async fn draw(
    State(g): State<Arc<Games>>,
    peer: Peer,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<DrawReq>,
) -> Api<Response> {
    g.gate.check(Bucket::Moves, peer.0.as_ref())?;
    Ok(json_text(detached(async move { g.draw(&id, req.token.as_deref(), &req.action).await }).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TakebackReq {
    #[serde(default)]
    token: Option<String>,
    action: String,
    /// The events the client saw: an answer meant for another position is refused.
    #[serde(default)]
    ply: Option<usize>,
}

/// `POST /api/games/{id}/takeback`: a take-back asked of the opponent, accepted or declined.
async fn takeback(
    State(g): State<Arc<Games>>,
    peer: Peer,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<TakebackReq>,
) -> Api<Response> {
    g.gate.check(Bucket::Moves, peer.0.as_ref())?;
    let client = peer.charged();
    Ok(json_text(
        detached(async move { g.takeback_request(client, &id, req.token.as_deref(), &req.action, req.ply).await })
            .await?,
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RematchReq {
    #[serde(default)]
    token: Option<String>,
}

/// `POST /api/games/{id}/rematch`: the next game of a finished one (`201` when this call made it).
async fn rematch(
    State(g): State<Arc<Games>>,
    peer: Peer,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<RematchReq>,
) -> Api<Response> {
    g.gate.check(Bucket::Games, peer.0.as_ref())?;
    let client = peer.charged();
    let answer = detached(async move { g.rematch(client, &id, req.token.as_deref()).await }).await?;
    let status = if answer.created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(answer)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalysisReq {
    #[serde(default = "default_movetime")]
    movetime: u64,
    /// The position after this many events (moves) from the start: an
    /// earlier position than the game's own. `None`: the position now.
    #[serde(default)]
    ply: Option<usize>,
}

fn default_movetime() -> u64 {
    500
}

async fn analysis(
    State(g): State<Arc<Games>>,
    peer: Peer,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<AnalysisReq>,
) -> Api<Response> {
    g.gate.check(Bucket::Analyses, peer.0.as_ref())?;
    Ok(Json(g.analyse(peer.charged(), &id, req.movetime, req.ply).await?).into_response())
}

/// `GET /api/games/{id}/review`: the review kept, or how far it has come.
async fn review(State(g): State<Arc<Games>>, peer: Peer, Path(id): Path<String>) -> Api<Response> {
    Ok(json_text(g.review(peer.charged(), &id, false).await?))
}

/// `POST /api/games/{id}/review`: the review kept, or made now.
async fn start_review(State(g): State<Arc<Games>>, peer: Peer, Path(id): Path<String>) -> Api<Response> {
    g.gate.check(Bucket::Analyses, peer.0.as_ref())?;
    Ok(json_text(g.review(peer.charged(), &id, true).await?))
}

/// `POST /api/positions`: the analysis board's position after a line.
async fn position(State(g): State<Arc<Games>>, peer: Peer, JsonBody(req): JsonBody<PositionReq>) -> Api<Response> {
    g.gate.check(Bucket::Moves, peer.0.as_ref())?;
    Ok(json_text(g.position(req).await?.into()))
}

/// `POST /api/lines`: the engine's lines on the analysis board.
async fn lines(State(g): State<Arc<Games>>, peer: Peer, JsonBody(req): JsonBody<LinesReq>) -> Api<Response> {
    // A board's new search stops its last: the engine's caps bound it, the
    // rate only its requests (as moves: a board asks at each step).
    g.gate.check(Bucket::Moves, peer.0.as_ref())?;
    Ok(Json(g.board_lines(peer.charged(), req).await?).into_response())
}

async fn pgn(State(g): State<Arc<Games>>, Path(id): Path<String>) -> Api<Response> {
    let text = g.record(&id).await?;
    let mut r = Response::new(Body::from(text));
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-chess-pgn; charset=utf-8"));
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"raum-{id}.pgn\"")) {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(r)
}

#[derive(Deserialize)]
struct SocketQuery {
    #[serde(default)]
    token: Option<String>,
}

async fn socket(
    State(g): State<Arc<Games>>,
    peer: Peer,
    Path(id): Path<String>,
    q: Result<Query<SocketQuery>, QueryRejection>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Api<Response> {
    let Query(q) = q.map_err(|r| ApiError::new(r.status(), r.body_text()))?;
    let ws = ws.map_err(|r| ApiError::new(r.status(), format!("{}: this address takes a WebSocket", r.body_text())))?;
    let room = g.room(&id).await?;
    let slot = g.gate.open_socket(&id, peer.0.as_ref())?;
    let (first, listener, you, presence) = g.listen(&room, q.token.as_deref()).await;
    // Clients send nothing on the socket, and a large read buffer costs a
    // zeroing on each poll: keep it small.
    let stopping = g.stopping.subscribe();
    Ok(ws.read_buffer_size(4 * 1024).max_message_size(4 * 1024).max_frame_size(4 * 1024).on_upgrade(
        move |socket| async move {
            push_states(socket, room, first, listener, you, stopping).await;
            drop((presence, slot));
        },
    ))
}

fn state_message(state: &str, you: Option<&str>) -> Message {
    let you = match you {
        Some(s) => format!("\"{s}\""),
        None => "null".into(),
    };
    Message::Text(format!("{{\"type\":\"state\",\"you\":{you},\"state\":{state}}}").into())
}

/// Sends the state now and after every change, until the client leaves.
async fn push_states(
    mut socket: WebSocket,
    room: RoomArc,
    first: Arc<str>,
    mut listener: tokio::sync::broadcast::Receiver<Arc<str>>,
    you: Option<&'static str>,
    mut stopping: tokio::sync::watch::Receiver<bool>,
) {
    if socket.send(state_message(&first, you)).await.is_err() {
        return;
    }
    // The server stopping: a close with code 1012 (service restart), which the page
    // answers by connecting again.
    let restart = Message::Close(Some(axum::extract::ws::CloseFrame {
        code: 1012,
        reason: "the server is restarting: connect again".into(),
    }));
    // A ping now and then finds connections that died without a close
    // (a phone changing networks): their sends fail, or no answer comes.
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    let mut heard = tokio::time::Instant::now();
    loop {
        if *stopping.borrow() {
            let _ = socket.send(restart).await;
            return;
        }
        tokio::select! {
            // (the server's games gone: nothing more will be told)
            changed = stopping.changed() => if changed.is_err() { return },
            _ = ping.tick() => {
                if heard.elapsed() > 3 * PING_EVERY || socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                    return;
                }
            }
            next = listener.recv() => {
                let state = match next {
                    Ok(s) => s,
                    // Missed some: the latest state says everything.
                    Err(RecvError::Lagged(_)) => Games::current_state(&room).await,
                    Err(RecvError::Closed) => return,
                };
                if socket.send(state_message(&state, you)).await.is_err() {
                    return;
                }
            }
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                // Clients send nothing that matters (moves go by POST), but
                // any message, a pong included, says the connection lives.
                Some(Ok(_)) => heard = tokio::time::Instant::now(),
            },
        }
    }
}
