//! A study's games in SQLite: the study's key (its kind and everything its
//! games follow from) and one row per game played, by number. A run adds
//! the games it plays as they end, so a study stopped anywhere resumes where
//! it stopped; shards' files merge into one ([`merge`]), each game once.

use crate::args::MergeArgs;
use anyhow::{Context, Result, bail};
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;

/// One game of a study, as kept.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Its number in the study, from 0.
    pub job: u64,
    /// The group it counts in (a piece, a first move).
    pub group: String,
    /// The score of the side the study follows (White's, or the handicapped side's), 0 to 1.
    pub score: f64,
    /// How it ended (`checkmate`, `stalemate`, `50-move rule`, `max plies`, ...).
    pub reason: String,
    /// Plies from its start.
    pub plies: u32,
}

/// A study's file.
pub struct Results {
    conn: Connection,
}

impl Results {
    /// Opens (creating) `path` for the study `key`; a file of another study is refused.
    pub fn open(path: &Path, key: &str) -> Result<Results> {
        let conn = Connection::open(path).with_context(|| format!("opening {}", path.display()))?;
        conn.execute_batch(
            "PRAGMA journal_mode = WAL;
             CREATE TABLE IF NOT EXISTS study (key TEXT NOT NULL);
             CREATE TABLE IF NOT EXISTS games (
                 job INTEGER PRIMARY KEY, grp TEXT NOT NULL, score REAL NOT NULL,
                 reason TEXT NOT NULL, plies INTEGER NOT NULL);",
        )?;
        let kept: Option<String> = conn.query_row("SELECT key FROM study", [], |r| r.get(0)).optional()?;
        match kept {
            None => {
                conn.execute("INSERT INTO study (key) VALUES (?1)", [key])?;
            }
            Some(k) if k == key => {}
            Some(k) => bail!(
                "{} holds another study's games:\n  {k}\nnot\n  {key}\n(name another file with --db)",
                path.display()
            ),
        }
        Ok(Results { conn })
    }

    /// The study a file holds.
    fn key_of(path: &Path) -> Result<String> {
        let conn = Connection::open(path).with_context(|| format!("opening {}", path.display()))?;
        conn.query_row("SELECT key FROM study", [], |r| r.get(0))
            .with_context(|| format!("{} holds no study", path.display()))
    }

    /// Keeps a game (a game kept already is kept as it was: games are the same wherever played).
    pub fn add(&self, o: &Outcome) -> Result<()> {
        self.conn.execute(
            "INSERT OR IGNORE INTO games (job, grp, score, reason, plies) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![o.job as i64, o.group, o.score, o.reason, o.plies],
        )?;
        Ok(())
    }

    /// Every game kept, by number.
    pub fn all(&self) -> Result<Vec<Outcome>> {
        let mut stmt = self.conn.prepare("SELECT job, grp, score, reason, plies FROM games ORDER BY job")?;
        let rows = stmt.query_map([], |r| {
            Ok(Outcome {
                job: r.get::<_, i64>(0)? as u64,
                group: r.get(1)?,
                score: r.get(2)?,
                reason: r.get(3)?,
                plies: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

/// `raum lab merge`: the shards' games in one file.
pub fn merge(a: &MergeArgs) -> Result<()> {
    let key = Results::key_of(&a.inputs[0])?;
    let out = Results::open(&a.out, &key)?;
    let mut added = 0;
    for path in &a.inputs {
        let k = Results::key_of(path)?;
        if k != key {
            bail!("{} holds another study:\n  {k}\nnot\n  {key}", path.display());
        }
        let shard = Results::open(path, &key)?;
        for o in shard.all()? {
            out.add(&o)?;
            added += 1;
        }
    }
    println!("{}: {} games from {} files ({} kept)", a.out.display(), added, a.inputs.len(), out.all()?.len());
    Ok(())
}
