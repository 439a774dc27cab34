//! A finished game's review (docs/api.md, "Review"): every position of the
//! game searched on the engine pool, one after another and at a fixed
//! number of nodes, then each move's loss: how much of the mover's expected
//! score (the engine's win/draw/loss model) the move gave away against the
//! engine's best, classed as an inaccuracy, a mistake or a blunder. Made
//! once, kept with the game in the store under a key of its moves and
//! result, and answered from there afterwards.
//!
//! Two-player games only: in a game for more sides a position's score is
//! the mover's alone, and the next position's is another side's, so a move's
//! loss has no common measure.

use super::refusal::Refusal;
use super::registry::Games;
use crate::engine_pool::{Client, Kind, PoolError, Ticket};
use crate::live_game::{Lines, LiveGame, side_key};
use raum_engine::{Limits, WDL_K};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Nodes searched in each position.
pub const NODES: u64 = 150_000;
/// The time a review's searches may take in all, shared by its positions
/// (on the widest boards the nodes take longer than this allows)...
pub const REVIEW_TIME: Duration = Duration::from_secs(20);
/// ... but one position never less than this, nor more than [`POSITION_MAX`].
pub const POSITION_MIN: Duration = Duration::from_millis(100);
/// The longest one position may search: the pool's slice, past which
/// another client's waiting analysis would stop it.
pub const POSITION_MAX: Duration = crate::engine_pool::SLICE;
/// Reviews one client may have being made at a time.
pub const REVIEWS_PER_CLIENT: usize = 2;
/// A review whose next position waited this long for the engine is given up
/// (a later request starts it again).
pub const STALLED: Duration = Duration::from_secs(600);

/// The longest each of `positions` positions may search.
pub fn position_time(positions: usize) -> Duration {
    (REVIEW_TIME / positions.max(1) as u32).clamp(POSITION_MIN, POSITION_MAX)
}
/// A move that loses this much of the mover's expected score (0 to 1) is an inaccuracy.
pub const INACCURACY: f64 = 0.05;
/// ... a mistake.
pub const MISTAKE: f64 = 0.10;
/// ... a blunder.
pub const BLUNDER: f64 = 0.15;
/// How long a position refused by the engine's caps waits before it asks again.
const RETRY: Duration = Duration::from_secs(2);

/// The reviews being made, by game.
#[derive(Default)]
pub struct Reviews {
    running: Mutex<HashMap<String, Arc<Progress>>>,
}

/// How far a review being made has come.
struct Progress {
    key: String,
    client: Client,
    total: usize,
    done: AtomicUsize,
    failed: AtomicBool,
}

/// A position's score: White's expected score, and the engine's best move.
#[derive(Serialize)]
struct PositionReview {
    ply: usize,
    /// `+0.35`, `#3`, or the result (`1-0`) where the rules ended the game.
    score: String,
    /// White's expected score, 0 to 1.
    white: f64,
    /// The engine's move (none where the game is over).
    best: Option<BestMove>,
    depth: u32,
}

#[derive(Serialize, Clone)]
struct BestMove {
    coord: String,
    san: String,
}

/// A move's verdict.
#[derive(Serialize)]
struct MoveReview {
    /// The move's ply (1: the first move).
    ply: usize,
    color: &'static str,
    san: String,
    /// The mover's expected score given away, 0 to 1.
    loss: f64,
    /// `best`, `good`, `inaccuracy`, `mistake` or `blunder`.
    class: &'static str,
    /// The engine's move in the position before, where another move was played.
    best: Option<BestMove>,
}

#[derive(Serialize, Default)]
struct SideReview {
    inaccuracies: usize,
    mistakes: usize,
    blunders: usize,
    /// The mean loss per move.
    average_loss: f64,
}

#[derive(Serialize)]
struct Review {
    nodes: u64,
    thresholds: BTreeMap<&'static str, f64>,
    positions: Vec<PositionReview>,
    moves: Vec<MoveReview>,
    sides: BTreeMap<&'static str, SideReview>,
}

/// The class of a move that gave away `loss`.
pub fn class_of(loss: f64) -> &'static str {
    if loss >= BLUNDER {
        "blunder"
    } else if loss >= MISTAKE {
        "mistake"
    } else if loss >= INACCURACY {
        "inaccuracy"
    } else {
        "good"
    }
}

/// The key a review is kept under: the game's moves and result.
fn key_of(game: &LiveGame, score: &str) -> String {
    let mut h = Sha256::new();
    h.update(game.start_fen());
    for e in game.events() {
        h.update([0]);
        h.update(e.coord.as_deref().unwrap_or(&e.san));
    }
    h.update([1]);
    h.update(score);
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn status(status: &str, done: usize, total: usize) -> Arc<str> {
    format!("{{\"status\":\"{status}\",\"done\":{done},\"total\":{total}}}").into()
}

impl Games {
    /// The review of game `id`: kept, being made, or (with `start`) started
    /// now, charged to `client`. The answer is the JSON of docs/api.md.
    pub async fn review(self: &Arc<Self>, client: Client, id: &str, start: bool) -> Result<Arc<str>, Refusal> {
        let room_arc = self.room(id).await?;
        let (game, score) = {
            let room = room_arc.lock().await;
            let Some(result) = &room.result else {
                return Err(Refusal::new(409, "a game is reviewed once it is over"));
            };
            (room.game.clone(), result.score.clone())
        };
        if !game.two() {
            return Err(Refusal::new(409, "reviews are for two-player games (docs/api.md, \"Review\")"));
        }
        let key = key_of(&game, &score);
        let owned = id.to_string();
        let kept = self.blocking(move |s| s.review(&owned)).await?;
        let total = game.ply() + 1;
        if let Some((k, body)) = kept
            && k == key
        {
            return Ok(format!("{{\"status\":\"done\",\"done\":{total},\"total\":{total},\"review\":{body}}}").into());
        }
        let progress = {
            let mut running = self.reviews.running.lock().unwrap_or_else(|e| e.into_inner());
            match running.get(id) {
                Some(p) if p.key == key && !p.failed.load(Ordering::Relaxed) => Some(Arc::clone(p)),
                _ if !start => None,
                _ if running.values().filter(|p| p.client == client).count() >= REVIEWS_PER_CLIENT => {
                    return Err(Refusal::new(
                        429,
                        format!("you have {REVIEWS_PER_CLIENT} reviews being made; wait for one to finish"),
                    ));
                }
                _ => {
                    let p = Arc::new(Progress {
                        key: key.clone(),
                        client: Arc::clone(&client),
                        total,
                        done: AtomicUsize::new(0),
                        failed: AtomicBool::new(false),
                    });
                    running.insert(id.to_string(), Arc::clone(&p));
                    let games = Arc::clone(self);
                    let (id, job) = (id.to_string(), Arc::clone(&p));
                    tokio::spawn(async move { games.make_review(client, id, game, job).await });
                    Some(p)
                }
            }
        };
        Ok(match progress {
            Some(p) => {
                let done = p.done.load(Ordering::Relaxed);
                status(if done == 0 { "queued" } else { "running" }, done, p.total)
            }
            None => status("none", 0, total),
        })
    }

    /// Searches every position of `game`, then keeps the review.
    async fn make_review(self: Arc<Self>, client: Client, id: String, game: LiveGame, progress: Arc<Progress>) {
        let made = self.search_positions(&client, &id, &game, &progress).await;
        let saved = match made {
            // Kept only if the game is still the one reviewed (not taken back meanwhile).
            Some(positions) if self.still(&id, &progress.key).await => {
                let body = serde_json::to_string(&review(&game, positions)).unwrap_or_default();
                let (store, key, id) = (Arc::clone(&self.store), progress.key.clone(), id.clone());
                tokio::task::spawn_blocking(move || store.save_review(&id, &key, &body)).await.is_ok_and(|r| r.is_ok())
            }
            _ => false,
        };
        if !saved {
            progress.failed.store(true, Ordering::Relaxed);
        }
        let mut running = self.reviews.running.lock().unwrap_or_else(|e| e.into_inner());
        if running.get(&id).is_some_and(|p| Arc::ptr_eq(p, &progress)) {
            running.remove(&id);
        }
    }

    /// Whether game `id` is still the game a review keyed `key` is of.
    async fn still(self: &Arc<Self>, id: &str, key: &str) -> bool {
        let Ok(room) = self.room(id).await else { return false };
        let room = room.lock().await;
        room.result.as_ref().is_some_and(|r| key_of(&room.game, &r.score) == key)
    }

    /// The engine's lines of every position, the start first; `None` if the
    /// engine failed, the game changed (a take-back) or the engine was not
    /// to be had for [`STALLED`].
    async fn search_positions(
        self: &Arc<Self>,
        client: &Client,
        id: &str,
        game: &LiveGame,
        progress: &Progress,
    ) -> Option<Vec<Option<Lines>>> {
        let mut at = game.clone();
        let mut found = Vec::new();
        let limits = Limits { nodes: Some(NODES), movetime: Some(position_time(game.ply() + 1)), ..Limits::default() };
        loop {
            if !self.still(id, &progress.key).await {
                return None;
            }
            // A position the rules ended needs no search.
            let lines =
                if at.outcome().is_some() { None } else { Some(self.search_one(client, id, &at, &limits).await?) };
            found.push(lines);
            progress.done.fetch_add(1, Ordering::Relaxed);
            if !at.undo() {
                break;
            }
        }
        found.reverse();
        Some(found)
    }

    /// One position's lines, asked again while the engine's caps refuse it
    /// (for up to [`STALLED`]) or a game's move stops it early.
    async fn search_one(&self, client: &Client, id: &str, at: &LiveGame, limits: &Limits) -> Option<Lines> {
        let since = std::time::Instant::now();
        loop {
            if since.elapsed() > STALLED {
                return None;
            }
            let ticket = Ticket {
                kind: Kind::Analysis,
                client: Arc::clone(client),
                game: Arc::from(format!("review:{id}")),
                budget: limits.movetime.unwrap_or(POSITION_MAX),
            };
            let stop = Arc::new(AtomicBool::new(false));
            let (flag, snapshot, limits) = (Arc::clone(&stop), at.clone(), limits.clone());
            let answer = self
                .pool
                .run(ticket, stop, move |e| {
                    let lines = snapshot.lines(e, &limits, Arc::clone(&flag), 1);
                    (lines, flag.load(Ordering::Relaxed))
                })
                .await;
            match answer {
                Ok((lines, false)) => return Some(lines),
                // Stopped for someone's move: that position again, behind it in the queue.
                Ok((_, true)) => {}
                Err(PoolError::Busy(_) | PoolError::Limit(_)) => tokio::time::sleep(RETRY).await,
                Err(PoolError::Failed) => return None,
            }
        }
    }
}

/// White's expected score for a line's score from White's side.
fn expected(lines: &Lines) -> (String, f64, u32, Option<BestMove>) {
    let Some(l) = lines.lines.first() else { return ("+0.00".into(), 0.5, lines.depth, None) };
    let white = match (l.mate, l.cp) {
        (Some(n), _) => f64::from(u8::from(n > 0)),
        (None, Some(cp)) => raum_engine::tune::sigmoid(f64::from(cp), WDL_K),
        (None, None) => 0.5,
    };
    let best = l.best.as_ref().map(|b| BestMove { coord: b.coord.clone(), san: b.san.clone() });
    (l.score.clone(), white, l.depth, best)
}

/// The review of `game` from its positions' lines (`None`: the rules ended it there).
fn review(game: &LiveGame, found: Vec<Option<Lines>>) -> Review {
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    let mut at = game.clone();
    let mut positions = Vec::with_capacity(found.len());
    // Walk back from the end, so that each position's game is at hand.
    for (ply, lines) in found.iter().enumerate().rev() {
        let pos = match lines {
            Some(lines) => {
                let (score, white, depth, best) = expected(lines);
                PositionReview { ply, score, white: round(white), best, depth }
            }
            None => {
                let scores = at.outcome().map(|o| o.scores).unwrap_or_default();
                let white = scores.first().map_or(0.5, |p| p.as_f64());
                let score = raum_notation::format_result(Some(&scores));
                PositionReview { ply, score, white: round(white), best: None, depth: 0 }
            }
        };
        positions.push(pos);
        at.undo();
    }
    positions.reverse();
    let sides = game.sides();
    let mut moves = Vec::new();
    let mut per_side: BTreeMap<&'static str, (SideReview, f64, usize)> = BTreeMap::new();
    for (i, e) in game.events().iter().enumerate() {
        let (before, after) = (&positions[i], &positions[i + 1]);
        let white_moved = e.color == side_key(&sides[0]);
        let (b, a) = if white_moved { (before.white, after.white) } else { (1.0 - before.white, 1.0 - after.white) };
        let played_best = before.best.as_ref().is_some_and(|b| Some(&b.coord) == e.coord.as_ref());
        let loss = if played_best { 0.0 } else { round((b - a).max(0.0)) };
        let class = if played_best { "best" } else { class_of(loss) };
        let entry = per_side.entry(e.color).or_default();
        match class {
            "inaccuracy" => entry.0.inaccuracies += 1,
            "mistake" => entry.0.mistakes += 1,
            "blunder" => entry.0.blunders += 1,
            _ => {}
        }
        entry.1 += loss;
        entry.2 += 1;
        moves.push(MoveReview {
            ply: i + 1,
            color: e.color,
            san: e.san.clone(),
            loss,
            class,
            best: if played_best { None } else { before.best.clone() },
        });
    }
    let sides = per_side
        .into_iter()
        .map(|(k, (mut s, total, n))| {
            s.average_loss = if n == 0 { 0.0 } else { round(total / n as f64) };
            (k, s)
        })
        .collect();
    let thresholds = BTreeMap::from([("inaccuracy", INACCURACY), ("mistake", MISTAKE), ("blunder", BLUNDER)]);
    Review { nodes: NODES, thresholds, positions, moves, sides }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_are_classed_by_the_documented_thresholds() {
        assert_eq!(class_of(0.0), "good");
        assert_eq!(class_of(0.049), "good");
        assert_eq!(class_of(0.05), "inaccuracy");
        assert_eq!(class_of(0.1), "mistake");
        assert_eq!(class_of(0.15), "blunder");
        assert_eq!(class_of(0.9), "blunder");
    }

    #[test]
    fn a_review_shares_its_time_among_its_positions() {
        assert_eq!(position_time(1), POSITION_MAX);
        assert_eq!(position_time(121), REVIEW_TIME / 121);
        assert!(position_time(121) * 121 <= REVIEW_TIME);
        assert_eq!(position_time(1000), POSITION_MIN);
    }
}
