//! Running a study: its games, numbered from 0, each a start and a group
//! that follow from the study and the number alone, played by the same
//! player on both sides on every core, kept as they end ([`super::results`]),
//! skipping the games kept already (a resumed study) and, with `--shard I/N`,
//! those of other shards. Once every game is kept, the study's report.

use super::report::Report;
use super::results::{Outcome, Results};
use crate::adjudication::Rules;
use crate::args::StudyArgs;
use crate::matches::{Lineup, Player, Spec, parse_spec, play_game};
use crate::rng::Rng;
use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use raum_rules::{AnyGame, GameId};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// One game of a study: where it starts, the group it counts in, and whose score it keeps.
pub struct Job {
    pub start: AnyGame,
    pub group: String,
    /// The side whose score is kept (0 White).
    pub side: usize,
}

/// A study: its games and what they say.
pub trait Study: Sync {
    /// The study's kind and everything its games follow from; a file keeps one study's games.
    fn key(&self) -> String;
    /// How many games it has.
    fn games(&self) -> u64;
    /// Game `j` (it depends on `j` and the study alone).
    fn job(&self, j: u64) -> Job;
    /// What the games say.
    fn report(&self, games: &[Outcome]) -> Result<Report>;
}

/// The seed of game `j` of a study seeded `seed`.
pub fn game_seed(seed: u64, j: u64) -> u64 {
    let mut r = Rng::new(seed ^ j.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    r.next_u64()
}

/// `--shard I/N`: I from 1 to N.
fn shard(text: Option<&str>) -> Result<(u64, u64)> {
    let Some(text) = text else { return Ok((0, 1)) };
    let parse = || -> Option<(u64, u64)> {
        let (i, n) = text.split_once('/')?;
        let (i, n) = (i.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?);
        (n >= 1 && (1..=n).contains(&i)).then_some((i - 1, n))
    };
    parse().with_context(|| format!("--shard {text}: expected I/N with 1 <= I <= N, e.g. 2/4"))
}

/// The player of a study, checked once.
pub fn player_spec(a: &StudyArgs, id: GameId) -> Result<Spec> {
    parse_spec(&a.player, id).with_context(|| format!("in --player {}", a.player))
}

/// Plays the study's games this run owes (this shard's, not yet kept), then
/// reports if every game of the study is kept.
pub fn run(a: &StudyArgs, id: GameId, study: &dyn Study) -> Result<()> {
    let (index, of) = shard(a.shard.as_deref())?;
    let spec = player_spec(a, id)?;
    let results = Results::open(&a.db, &study.key())?;
    let kept: std::collections::HashSet<u64> = results.all()?.iter().map(|o| o.job).collect();
    let total = study.games();
    let mut todo: Vec<u64> = (0..total).filter(|j| j % of == index && !kept.contains(j)).collect();
    if let Some(n) = a.max_new {
        todo.truncate(n as usize);
    }
    let threads = a
        .concurrency
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, todo.len().max(1));
    if a.concurrency == Some(0) {
        bail!("--concurrency must be at least 1");
    }
    eprintln!(
        "lab: {} games in the study, {} kept, {} to play now{} on {} thread{}",
        total,
        kept.len(),
        todo.len(),
        if of > 1 { format!(" (shard {} of {of})", index + 1) } else { String::new() },
        threads,
        if threads == 1 { "" } else { "s" }
    );
    if !todo.is_empty() {
        play(a, id, &spec, study, &todo, threads, &results)?;
    }
    let games = results.all()?;
    if (games.len() as u64) < total {
        eprintln!(
            "lab: {} of {} games kept in {}; the report comes once all are (run again, or merge the shards)",
            games.len(),
            total,
            a.db.display()
        );
        return Ok(());
    }
    let report = study.report(&games)?;
    print!("{}", report.terminal());
    if let Some(path) = &a.report {
        report.write(path)?;
        eprintln!("lab: report in {}", path.display());
    }
    Ok(())
}

/// Plays `todo` on `threads` threads, each with its players, keeping each game as it ends.
fn play(
    a: &StudyArgs,
    id: GameId,
    spec: &Spec,
    study: &dyn Study,
    todo: &[u64],
    threads: usize,
    results: &Results,
) -> Result<()> {
    let lineup = Lineup::two(spec.clone(), spec.clone());
    let next = AtomicUsize::new(0);
    let failed = Mutex::new(None);
    let (send, receive) = mpsc::channel::<Outcome>();
    let live = std::io::stderr().is_terminal();
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..threads {
            let send = send.clone();
            let (next, failed, lineup) = (&next, &failed, &lineup);
            scope.spawn(move || {
                let mut players = match (Player::new(spec, id), Player::new(spec, id)) {
                    (Ok(w), Ok(b)) => vec![w, b],
                    (Err(e), _) | (_, Err(e)) => {
                        *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                        return;
                    }
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&j) = todo.get(i) else { return };
                    let job = study.job(j);
                    let mut rng = Rng::new(game_seed(a.seed, j));
                    let r =
                        play_game(job.start, &mut players, &[0, 1], lineup, &mut rng, a.max_plies, Rules::default());
                    let score = r.scores[job.side].as_f64();
                    let reason = if r.termination == "adjudication" { "max plies".to_string() } else { r.reason };
                    let o = Outcome { job: j, group: job.group, score, reason, plies: r.comments.len() as u32 };
                    if send.send(o).is_err() {
                        return;
                    }
                }
            });
        }
        drop(send);
        // A terminal gets a progress bar; a log file a line every 100 games.
        let bar = if live { ProgressBar::new(todo.len() as u64) } else { ProgressBar::hidden() };
        bar.set_style(
            ProgressStyle::with_template("lab: {bar:32} {pos}/{len} games, {per_sec}, {eta} to go")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        let started = std::time::Instant::now();
        for (n, o) in receive.iter().enumerate() {
            results.add(&o)?;
            bar.inc(1);
            let n = n + 1;
            if !live && (n == todo.len() || n % 100 == 0) {
                let rate = n as f64 / started.elapsed().as_secs_f64().max(1e-9);
                let left = (todo.len() - n) as f64 / rate;
                eprintln!("lab: {n}/{} games, {rate:.1} a second, {left:.0} s to go", todo.len());
            }
        }
        bar.finish();
        Ok(())
    })?;
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e.context("starting the player"));
    }
    Ok(())
}
