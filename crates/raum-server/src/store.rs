//! Where games are kept: one interface ([`Store`]) and its two backends, a
//! SQLite file ([`SqliteStore`], the default: one server) and a PostgreSQL
//! database ([`PostgresStore`]: several server instances on one database),
//! chosen by [`Database`].
//!
//! A move is acknowledged only after its row is committed, so a server killed
//! at any moment restarts with every acknowledged move. A ply is part of its
//! move's key: of two writers racing on one ply, one wins and the other is
//! answered [`StoreError::OutOfOrder`].
//!
//! Each backend's schema is its list of numbered migrations (`migrations`),
//! applied when the store opens. Seat tokens are kept only as hashes
//! (`sha256:<64 hex>`). Unfinished games left alone long enough are deleted
//! on request ([`Store::delete_abandoned`]). A finished game's rematch is made
//! and linked from it in one transaction ([`Store::create_rematch`]).

pub mod migrations;
mod postgres;
mod sqlite;

pub use postgres::{PostgresStore, fresh_schema};
pub use sqlite::SqliteStore;

use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused or failed.
    #[error("database: {0}")]
    Db(#[from] rusqlite::Error),
    /// PostgreSQL refused or failed, or could not be reached.
    #[error("database: {0}")]
    Postgres(#[from] ::postgres::Error),
    /// No connection to the database came free in time.
    #[error("database: no connection free after {0} s")]
    Busy(u64),
    /// The database's schema is not one this Raum reads.
    #[error("database schema: {0}")]
    Schema(String),
    /// A stored value could not be read back.
    #[error("stored game {0} is damaged: {1}")]
    Damaged(String, String),
    /// A move for a ply other than the game's next (or one another writer stored first).
    #[error("game {0} has no ply {1} to follow")]
    OutOfOrder(String, usize),
    /// A result for a game that has one (another writer ended it first).
    #[error("game {0} is over")]
    Finished(String),
    /// The database file could not be made.
    #[error("database file: {0}")]
    File(#[from] std::io::Error),
}

/// Everything about a game but its moves, as created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameMeta {
    /// Its id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// `local`, `engine` or `online`.
    pub mode: String,
    /// The start position string.
    pub start: String,
    /// Player names.
    pub white: String,
    /// Player names.
    pub black: String,
    /// The hash of White's seat token, `sha256:<64 hex>` (`None`: the
    /// engine's seat). The token itself is never stored.
    pub white_token: Option<String>,
    /// The hash of Black's seat token.
    pub black_token: Option<String>,
    /// Engine settings (JSON), for engine games.
    pub engine: Option<String>,
    /// Clock settings (JSON), if the game has clocks.
    pub clock: Option<String>,
    /// A multi-player game's seats in turn order (JSON: each side's player
    /// name, seat token's hash or engine settings); `None` for two-player games.
    pub seats: Option<String>,
    /// Seconds since 1970 when created.
    pub created: i64,
    /// The rematch of this game, once a player asked for one (`None` until then).
    #[serde(default)]
    pub rematch: Option<Rematch>,
    /// The draw offer and take-back request standing now, as the room
    /// writes them (`None`: none; never set when created).
    #[serde(default)]
    pub offers: Option<String>,
}

/// A game's rematch: the next game, made by a player of this one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rematch {
    /// The side (key: `white`, `blue`) whose player asked for it, in this game.
    pub by: String,
    /// The next game's id.
    pub game: String,
}

/// A move as stored: its coordinate text and the clocks after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMove {
    /// Coordinate notation; in a multi-player game a resignation is
    /// `resign <side letter>`.
    pub coord: String,
    /// White's remaining time after the move, if the game has clocks.
    pub white_ms: Option<i64>,
    /// Black's remaining time after the move.
    pub black_ms: Option<i64>,
    /// When it was made, in milliseconds since 1970 (`None`: imported from a
    /// record, or stored before Raum kept it).
    pub at_ms: Option<i64>,
}

/// A result not decided by the rules alone (resignation, agreement, time),
/// or one the rules decided, as stored for the list of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredResult {
    /// `1-0`, `0-1`, `1/2-1/2` (a multi-player game: each side's score, `1-0-1-0`).
    pub score: String,
    /// `checkmate`, `resignation`, `time`, ...
    pub reason: String,
}

/// A line of the list of games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameSummary {
    /// Its id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// Mode.
    pub mode: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// Moves played.
    pub plies: i64,
    /// The result, `None` while the game goes on.
    pub result: Option<String>,
    /// Why it ended.
    pub reason: Option<String>,
    /// Seconds since 1970 of the last change.
    pub updated: i64,
    /// A multi-player game's player names in turn order (absent for two-player games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<Vec<String>>,
}

/// A stored game: what it was created with, its moves and its result.
pub type StoredGame = (GameMeta, Vec<StoredMove>, Option<StoredResult>);

/// Keeps games. Every method commits before it returns.
pub trait Store: Send + Sync {
    /// Records a new game with its first moves (a game imported from a record).
    fn create(&self, meta: &GameMeta, moves: &[StoredMove], result: Option<&StoredResult>) -> Result<(), StoreError>;
    /// Appends the move for ply `ply` (0-based); refused if that ply is
    /// stored. The offers standing are cleared.
    fn append_move(
        &self,
        id: &str,
        ply: usize,
        mv: &StoredMove,
        result: Option<&StoredResult>,
    ) -> Result<(), StoreError>;
    /// Keeps only the first `plies` moves of a game that has `from` events (a
    /// take-back), and clears its result and offers; refused
    /// ([`StoreError::OutOfOrder`]) if the game has another number of events.
    fn truncate(&self, id: &str, from: usize, plies: usize) -> Result<(), StoreError>;
    /// Ends the game with `result` (resignation, agreement, time) and clears
    /// its offers; refused ([`StoreError::Finished`]) if it has a result.
    fn finish(&self, id: &str, result: &StoredResult) -> Result<(), StoreError>;
    /// Sets the offers standing in an unfinished game at `plies` events;
    /// refused ([`StoreError::OutOfOrder`]) if it has another number, or a result.
    fn set_offers(&self, id: &str, plies: usize, offers: Option<&str>) -> Result<(), StoreError>;
    /// A game, if stored.
    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError>;
    /// How game `id` stands, in brief, if stored.
    fn stamp(&self, id: &str) -> Result<Option<Stamp>, StoreError>;
    /// The most recently changed games, newest first.
    fn list(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError>;
    /// Keeps a variant file under its game's id, unless one is kept there
    /// already (an id names one game on a server: the first file's).
    fn save_variant_file(&self, id: &str, text: &str) -> Result<(), StoreError>;
    /// The variant file kept under `id`, if any.
    fn variant_file(&self, id: &str) -> Result<Option<String>, StoreError>;
    /// Records `next`, the rematch of the finished game `previous` asked for by
    /// the side `by`, and links it from `previous`, in one transaction; unless
    /// `previous` has a rematch already, which is then answered and nothing
    /// is stored. `Ok(None)`: `next` was stored.
    fn create_rematch(&self, previous: &str, by: &str, next: &GameMeta) -> Result<Option<Rematch>, StoreError>;
    /// Deletes, with their moves, the unfinished games (no result) whose
    /// last change was before `changed_before` (seconds since 1970), and
    /// returns their ids. Finished games are kept forever.
    fn delete_abandoned(&self, changed_before: i64) -> Result<Vec<String>, StoreError>;
    /// A game's review, if one is kept: the key of the game it was made for
    /// (its moves and result) and its JSON.
    fn review(&self, id: &str) -> Result<Option<(String, String)>, StoreError>;
    /// Keeps a game's review, replacing an older one.
    fn save_review(&self, id: &str, key: &str, body: &str) -> Result<(), StoreError>;
    /// Whether the database answers and has every migration this Raum
    /// knows (for `/readyz`).
    fn check(&self) -> Result<(), StoreError>;
    /// Calls `on_change`, from a thread of the store's until the store is
    /// dropped, for every change any server makes to the games in this
    /// database (this one's own included); `Ok(false)` if the store has no
    /// such feed (a SQLite file belongs to one server).
    fn watch(&self, on_change: Box<dyn Fn(Change) + Send>) -> Result<bool, StoreError> {
        let _ = on_change;
        Ok(false)
    }
    /// Leases (several servers on one database): claims for server `holder`,
    /// for `ttl`, game `id`'s timed work (its engine's moves and its clocks'
    /// flags), unless another server's lease on it is live; whether `holder`
    /// holds it now. Refused (`false`) for a finished or deleted game. A
    /// SQLite file belongs to one server, which holds every lease.
    fn claim(&self, id: &str, holder: &str, ttl: Duration) -> Result<bool, StoreError> {
        let _ = (id, holder, ttl);
        Ok(true)
    }
    /// Gives up `holder`'s lease on game `id` (the game has no timed work
    /// left); or (`None`) lets every lease it has lapse now, for other
    /// servers to take over at their next renewal (a server stopping).
    fn release(&self, id: Option<&str>, holder: &str) -> Result<(), StoreError> {
        let _ = (id, holder);
        Ok(())
    }
    /// Extends every lease of `holder` by `ttl` from now, and takes over for
    /// it the leases other servers let lapse (a server that died): the games
    /// whose leases it holds, and among them those it took over.
    fn renew(&self, holder: &str, ttl: Duration) -> Result<Renewed, StoreError> {
        let _ = (holder, ttl);
        Ok(Renewed::default())
    }
    /// Seat `side` of game `id` has a socket open on server `holder` now
    /// (`present`, kept for `ttl` and renewed with its leases), or has none
    /// there any more; announced on the feed as [`Change::Presence`]. A
    /// SQLite file belongs to one server, which keeps this in its memory.
    fn set_presence(
        &self,
        id: &str,
        side: usize,
        holder: &str,
        present: bool,
        ttl: Duration,
    ) -> Result<(), StoreError> {
        let _ = (id, side, holder, present, ttl);
        Ok(())
    }
    /// Makes `holder`'s presence rows `seats` (game, side), each kept for
    /// `ttl`: the rows it lacks are written, those it has beyond them
    /// deleted, and the rows of servers that stopped renewing theirs (dead)
    /// deleted; every game whose presence changed is announced.
    fn keep_presence(&self, holder: &str, ttl: Duration, seats: &[(String, usize)]) -> Result<(), StoreError> {
        let _ = (holder, ttl, seats);
        Ok(())
    }
    /// The seats of game `id` with a socket open on a live server other than `holder`.
    fn present_elsewhere(&self, id: &str, holder: &str) -> Result<Vec<usize>, StoreError> {
        let _ = (id, holder);
        Ok(Vec::new())
    }
    /// The store's connections to its database, for `/metrics`.
    fn connections(&self) -> Connections;
}

/// What [`Store::renew`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Renewed {
    /// The games whose leases the server holds now (those taken over included).
    pub held: Vec<String>,
    /// The games whose leases it took over from a server that let them lapse.
    pub taken_over: Vec<String>,
}

/// A store's connections to its database: in use now, and how many it may open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Connections {
    /// Held by a call now.
    pub in_use: usize,
    /// The most the store opens.
    pub max: usize,
}

/// How a game stands, in brief: enough to tell whether a copy in memory
/// is the game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// Its events (moves, and resignations and fallen flags in games for more than two).
    pub plies: usize,
    /// Whether it has a result.
    pub finished: bool,
    /// Whether it has a rematch.
    pub rematched: bool,
    /// The offers standing ([`GameMeta::offers`]).
    pub offers: Option<String>,
}

/// A change to the games, as a store's feed reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Game `id` changed: this is how it stands now; and its new last event,
    /// when the change was that one event stored (a move: what a server
    /// needs to follow it without loading the game).
    Game { id: String, stamp: Stamp, last: Option<StoredMove> },
    /// Game `id` was deleted.
    Gone(String),
    /// A seat of game `id` got its first socket on some server, or lost its
    /// last (or a dead server's sockets lapsed).
    Presence(String),
    /// The feed was interrupted: any game may have changed meanwhile.
    Everything,
}

impl Change {
    /// A change as the feed carries it: `<id> <plies> <finished 0|1>
    /// <rematched 0|1> <offers, - for none>`, after an event stored followed
    /// by `|<white_ms> <black_ms> <at_ms> <coord>` (`-` for none; the
    /// coordinates last, as they may hold a space: `resign w`); `<id> gone`;
    /// or `<id> present`.
    pub fn parse(text: &str) -> Option<Change> {
        let (text, last) = match text.split_once('|') {
            Some((stamp, event)) => (stamp, Some(Change::event(event)?)),
            None => (text, None),
        };
        let words: Vec<&str> = text.split(' ').collect();
        let flag = |w: &str| match w {
            "0" => Some(false),
            "1" => Some(true),
            _ => None,
        };
        match words[..] {
            [id, "gone"] if last.is_none() => Some(Change::Gone(id.into())),
            [id, "present"] if last.is_none() => Some(Change::Presence(id.into())),
            [id, plies, finished, rematched, offers] => Some(Change::Game {
                id: id.into(),
                stamp: Stamp {
                    plies: plies.parse().ok()?,
                    finished: flag(finished)?,
                    rematched: flag(rematched)?,
                    offers: Some(offers).filter(|o| *o != "-").map(Into::into),
                },
                last,
            }),
            _ => None,
        }
    }
}

impl Change {
    /// An event as the feed carries it: `<white_ms> <black_ms> <at_ms> <coord>`.
    fn event(text: &str) -> Option<StoredMove> {
        let mut words = text.splitn(4, ' ');
        let mut number = || -> Option<Option<i64>> {
            match words.next()? {
                "-" => Some(None),
                n => n.parse().ok().map(Some),
            }
        };
        let (white_ms, black_ms, at_ms) = (number()?, number()?, number()?);
        let coord = words.next().filter(|c| !c.is_empty())?.to_string();
        Some(StoredMove { coord, white_ms, black_ms, at_ms })
    }
}

/// Where a server keeps its games: a SQLite file, or a PostgreSQL database
/// named by a `postgres://` (or `postgresql://`) URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file, made if missing.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (`postgres://user:password@host:port/database`).
    Postgres(String),
}

impl Database {
    /// A PostgreSQL URL names PostgreSQL; anything else is a SQLite file's path.
    pub fn parse(text: &str) -> Database {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Database::Postgres(text.to_string())
        } else {
            Database::Sqlite(PathBuf::from(text))
        }
    }

    /// Opens the store (making a SQLite file if missing) and applies the
    /// migrations its database lacks.
    pub fn open(&self) -> Result<Arc<dyn Store>, StoreError> {
        Ok(match self {
            Database::Sqlite(path) => Arc::new(SqliteStore::open(path)?),
            Database::Postgres(url) => Arc::new(PostgresStore::open(url)?),
        })
    }

    /// Where the games are, for people: a SQLite file's full path, or the
    /// PostgreSQL URL with its password hidden.
    pub fn describe(&self) -> String {
        match self {
            Database::Sqlite(path) => std::fs::canonicalize(path).unwrap_or(path.clone()).display().to_string(),
            Database::Postgres(url) => without_password(url),
        }
    }
}

/// `url` with the password of its user part, if any, as `***`.
fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_string() };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    let Some(at) = authority.rfind('@') else { return url.to_string() };
    let (user_part, host) = authority.split_at(at);
    match user_part.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***{host}{path}"),
        None => url.to_string(),
    }
}

/// Seconds since 1970.
pub fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

/// The player names of a multi-player game's seats column, for the list of
/// games (never its tokens).
fn player_names(seats: Option<String>) -> Option<Vec<String>> {
    #[derive(Deserialize)]
    struct Named {
        name: String,
    }
    let seats: Vec<Named> = serde_json::from_str(&seats?).ok()?;
    Some(seats.into_iter().map(|s| s.name).collect())
}

fn result_parts(r: Option<&StoredResult>) -> (Option<&str>, Option<&str>) {
    (r.map(|r| r.score.as_str()), r.map(|r| r.reason.as_str()))
}

#[cfg(test)]
mod conformance;

#[cfg(test)]
mod tests {
    use super::{Change, Stamp};

    #[test]
    fn the_feed_reads_what_it_carries_and_nothing_else() {
        let stamp = |plies, offers: Option<&str>| Stamp {
            plies,
            finished: true,
            rematched: false,
            offers: offers.map(Into::into),
        };
        let game = |plies, offers, last| Change::Game { id: "g".into(), stamp: stamp(plies, offers), last };
        assert_eq!(Change::parse("g 12 1 0 -"), Some(game(12, None, None)));
        assert_eq!(Change::parse("g 3 1 0 draw:0,1;takeback:1@3"), Some(game(3, Some("draw:0,1;takeback:1@3"), None)));
        let event = |coord: &str, w, b, at| {
            Some(super::StoredMove { coord: coord.into(), white_ms: w, black_ms: b, at_ms: at })
        };
        assert_eq!(
            Change::parse("g 4 1 0 -|59000 - 1795000000123 Dc2-Cc2"),
            Some(game(4, None, event("Dc2-Cc2", Some(59_000), None, Some(1_795_000_000_123))))
        );
        assert_eq!(Change::parse("g 4 1 0 -|- - - resign w"), Some(game(4, None, event("resign w", None, None, None))));
        assert_eq!(Change::parse("g gone"), Some(Change::Gone("g".into())));
        assert_eq!(Change::parse("g present"), Some(Change::Presence("g".into())));
        for bad in [
            "",
            "g",
            "g 1 1 0",
            "g x 1 0 -",
            "g 1 2 0 -",
            "g 1 1 0 - more",
            "g 1 1 0 -|- - -",
            "g 1 1 0 -|x - - a",
            "g 1 1 0 -|- -",
            "g gone|- - - a",
            "g present|- - - a",
        ] {
            assert_eq!(Change::parse(bad), None, "{bad:?}");
        }
    }
}
#[cfg(test)]
pub(crate) mod fixtures;
