//! The analysis board's server side (docs/api.md, "Analysis board"): any
//! position of any game the app offers, reached from a start by a line of
//! moves, and not a stored game: `POST /api/positions` says what is on the
//! board there (the men, the legal moves, check, the rules' result, and how
//! each move of the line is written), `POST /api/lines` gives the engine's
//! best lines there. Nothing is kept.

use super::game_result::GameResult;
use super::refusal::Refusal;
use super::registry::Games;
use crate::engine_pool::{Client, Kind, Ticket};
use crate::live_game::{Event, Lines, LiveGame, MAX_LINES, MoveView, side_key};
use raum_engine::Limits;
use raum_rules::GameId;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Most moves a line may have (a game of 300 moves).
pub const MAX_MOVES: usize = 600;
/// Longest search asked for, in milliseconds.
pub const MAX_MOVETIME_MS: u64 = 10_000;

/// A position: a game, its start, and the moves played from there.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionReq {
    /// The variant's id (a kept variant file's too).
    pub variant: String,
    /// A position string; none: the variant's start.
    #[serde(default)]
    pub start: Option<String>,
    /// Moves from the start, in coordinates or (two sides) descriptive notation.
    #[serde(default)]
    pub moves: Vec<String>,
}

/// `POST /api/lines`: a position and how to search it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinesReq {
    /// As [`PositionReq`]'s.
    pub variant: String,
    /// As [`PositionReq`]'s.
    #[serde(default)]
    pub start: Option<String>,
    /// As [`PositionReq`]'s.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Milliseconds to search, 1 to 10000.
    #[serde(default = "default_movetime")]
    pub movetime: u64,
    /// Lines, 1 to 5 (games for more than two sides give one).
    #[serde(default = "default_multipv")]
    pub multipv: usize,
    /// The board asking (a page's own id, up to 64 characters): its new
    /// search stops its last one; other boards' searches go on.
    #[serde(default)]
    pub board: Option<String>,
}

fn default_movetime() -> u64 {
    1000
}

fn default_multipv() -> usize {
    3
}

/// A side, as the board shows it.
#[derive(Serialize)]
struct SideInfo {
    key: &'static str,
    letter: char,
    name: &'static str,
    team: u8,
}

/// What is on the board after a line.
#[derive(Serialize)]
struct PositionView<'a> {
    variant: &'a str,
    /// `two` or `multi`.
    kind: &'static str,
    sides: Vec<SideInfo>,
    start: String,
    fen: String,
    side: &'static str,
    ply: usize,
    /// The line's moves as the game page's move list writes them (with the
    /// cells each changed, as a game's state gives them).
    moves: &'a [Event],
    start_pieces: &'a [(usize, String)],
    legal: Vec<MoveView>,
    check: Vec<usize>,
    in_check: bool,
    /// Where the rules end the game: the score and why.
    result: Option<GameResult>,
}

/// The search each analysis board runs (by client and board): a new one stops the last.
#[derive(Default)]
pub struct Boards {
    running: Mutex<HashMap<String, Arc<AtomicBool>>>,
}

/// A board's search while it runs: stopped, and let go of, when its request
/// ends however it ends (a client that leaves stops it).
struct Running<'a> {
    boards: &'a Boards,
    key: String,
    stop: Arc<AtomicBool>,
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let mut running = self.boards.running.lock().unwrap_or_else(|e| e.into_inner());
        if running.get(&self.key).is_some_and(|s| Arc::ptr_eq(s, &self.stop)) {
            running.remove(&self.key);
        }
    }
}

impl Boards {
    /// Stops `key`'s search, waits (a little) for it to let go of the
    /// engine, and registers the next.
    async fn start(&self, key: String) -> Running<'_> {
        let before = self.running.lock().unwrap_or_else(|e| e.into_inner()).get(&key).cloned();
        if let Some(before) = before {
            before.store(true, Ordering::Relaxed);
            for _ in 0..60 {
                let gone = !self
                    .running
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get(&key)
                    .is_some_and(|s| Arc::ptr_eq(s, &before));
                if gone {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        self.running.lock().unwrap_or_else(|e| e.into_inner()).insert(key.clone(), Arc::clone(&stop));
        Running { boards: self, key, stop }
    }
}

impl Games {
    /// The game after `req`'s line, replayed off the async workers.
    async fn explore(&self, req: &PositionReq) -> Result<LiveGame, Refusal> {
        if req.moves.len() > MAX_MOVES {
            return Err(Refusal::new(400, format!("{} moves: at most {MAX_MOVES}", req.moves.len())));
        }
        self.ensure_variant(&req.variant).await?;
        let id = GameId::from_name(&req.variant).map_err(|e| Refusal::new(404, e.to_string()))?;
        let (start, moves) = (req.start.clone(), req.moves.clone());
        tokio::task::spawn_blocking(move || {
            let mut game = LiveGame::new(id, start.as_deref().map(str::trim).filter(|s| !s.is_empty()))
                .map_err(|e| Refusal::new(400, e))?;
            for (i, text) in moves.iter().enumerate() {
                game.play(text).map_err(|e| Refusal::new(400, format!("move {} ({text}): {e}", i + 1)))?;
            }
            Ok(game)
        })
        .await
        .map_err(|e| Refusal::new(500, format!("the line could not be replayed: {e}")))?
    }

    /// `POST /api/positions`: the board after a line, as JSON.
    pub async fn position(&self, req: PositionReq) -> Result<String, Refusal> {
        let game = self.explore(&req).await?;
        let sides = game.sides();
        let result = game.outcome().map(|o| {
            let reason = game.termination().unwrap_or("checkmate");
            GameResult::plain(sides, o.scores, reason)
        });
        let view = PositionView {
            variant: &req.variant,
            kind: if game.two() { "two" } else { "multi" },
            sides: sides
                .iter()
                .map(|s| SideInfo { key: side_key(s), letter: s.letter, name: s.name, team: s.team })
                .collect(),
            start: game.start_fen(),
            fen: game.fen(),
            side: side_key(&sides[game.side()]),
            ply: game.ply(),
            moves: game.events(),
            start_pieces: game.start_pieces(),
            legal: game.legal(),
            check: game.check(),
            in_check: result.is_none() && game.in_check(),
            result,
        };
        serde_json::to_string(&view).map_err(|e| Refusal::new(500, e.to_string()))
    }

    /// `POST /api/lines`: the engine's lines after a line, for `client`'s
    /// board `req.board`, whose search before this one stops now.
    pub async fn board_lines(&self, client: Client, req: LinesReq) -> Result<Lines, Refusal> {
        if req.movetime == 0 || req.movetime > MAX_MOVETIME_MS {
            return Err(Refusal::new(400, format!("movetime {}: expected 1 to {MAX_MOVETIME_MS} ms", req.movetime)));
        }
        if req.multipv == 0 || req.multipv > MAX_LINES {
            return Err(Refusal::new(400, format!("multipv {}: expected 1 to {MAX_LINES}", req.multipv)));
        }
        if req.board.as_ref().is_some_and(|b| b.len() > 64) {
            return Err(Refusal::new(400, "board: at most 64 characters"));
        }
        let key = format!("{client}/{}", req.board.as_deref().unwrap_or(""));
        let game = self.explore(&PositionReq { variant: req.variant, start: req.start, moves: req.moves }).await?;
        let running = self.boards.start(key.clone()).await;
        let budget = Duration::from_millis(req.movetime);
        let ticket = Ticket { kind: Kind::Analysis, client, game: Arc::from(format!("board:{key}")), budget };
        let limits = Limits { movetime: Some(budget), ..Limits::default() };
        let (flag, multipv) = (Arc::clone(&running.stop), req.multipv);
        let answer =
            self.pool.run(ticket, Arc::clone(&running.stop), move |e| game.lines(e, &limits, flag, multipv)).await;
        drop(running);
        answer.map_err(Refusal::from)
    }
}
