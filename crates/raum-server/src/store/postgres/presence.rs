//! Presence on PostgreSQL (the `presence` table): which seats of a game have
//! a socket open on which server, so that every server shows a player whose
//! socket is on another as present. A server writes a row when a seat's first
//! socket opens on it and deletes it when the last closes; every second it
//! makes its rows what its memory says (renewed, the missing written, the
//! stale deleted: [`keep`]), and none when it stops; a dead server's rows
//! lapse, and the first server to keep its own after that deletes them. Each
//! change is announced as `<game> present` ([`super::super::Change::Presence`]).

use super::super::StoreError;
use super::Conn;
use super::leases::millis;
use std::time::Duration;

/// Announces each game of the rows `gone` or `up` (a CTE) names, once.
macro_rules! announce {
    ($rows:literal) => {
        concat!(
            "SELECT pg_notify('",
            channel!(),
            "', game || ' present') FROM (SELECT DISTINCT game FROM ",
            $rows,
            ") g"
        )
    };
}

/// Seat `$2` of game `$1` has a socket on holder `$3`, for `$4` ms (the game must exist).
const PRESENT: &str = concat!(
    "WITH up AS (INSERT INTO presence (game, side, holder, expires) SELECT id, $2, $3, ",
    now_ms!(),
    " + $4 FROM games WHERE id = $1
     ON CONFLICT (game, side, holder) DO UPDATE SET expires = EXCLUDED.expires RETURNING game) ",
    announce!("up")
);
/// Seat `$2` of game `$1` has no socket on holder `$3` any more.
const ABSENT: &str = concat!(
    "WITH gone AS (DELETE FROM presence WHERE game = $1 AND side = $2 AND holder = $3 RETURNING game) ",
    announce!("gone")
);
/// The seats of game `$1` present on live holders other than `$2`.
const ELSEWHERE: &str = concat!(
    "SELECT DISTINCT side FROM presence WHERE game = $1 AND holder <> $2 AND expires >= ",
    now_ms!(),
    " ORDER BY side"
);
/// Extends holder `$1`'s rows by `$2` ms.
const RENEW: &str = concat!("UPDATE presence SET expires = ", now_ms!(), " + $2 WHERE holder = $1");
/// Writes holder `$1`'s rows for the seats (games `$3`, sides `$4`) it lacks, for `$2` ms.
const RESTORE: &str = concat!(
    "WITH up AS (INSERT INTO presence (game, side, holder, expires) SELECT t.game, t.side, $1, ",
    now_ms!(),
    " + $2 FROM unnest($3::text[], $4::int[]) AS t(game, side) WHERE EXISTS (SELECT 1 FROM games WHERE id = t.game)
     ON CONFLICT (game, side, holder) DO NOTHING RETURNING game) ",
    announce!("up")
);
/// Deletes holder `$1`'s rows for seats other than those (games `$2`, sides `$3`).
const STALE: &str = concat!(
    "WITH gone AS (DELETE FROM presence p WHERE holder = $1 AND NOT EXISTS
     (SELECT 1 FROM unnest($2::text[], $3::int[]) AS t(game, side) WHERE t.game = p.game AND t.side = p.side)
     RETURNING game) ",
    announce!("gone")
);
/// Deletes the rows that lapsed (their server died), announcing their games.
const LAPSED: &str =
    concat!("WITH gone AS (DELETE FROM presence WHERE expires < ", now_ms!(), " RETURNING game) ", announce!("gone"));

fn side(side: usize) -> Result<i32, StoreError> {
    i32::try_from(side).map_err(|_| StoreError::Schema(format!("no seat {side}")))
}

pub(super) fn set(
    conn: &mut Conn<'_>,
    id: &str,
    seat: usize,
    holder: &str,
    present: bool,
    ttl: Duration,
) -> Result<(), StoreError> {
    let seat = side(seat)?;
    if present {
        let statement = conn.prepared(PRESENT)?;
        conn.client().query(&statement, &[&id, &seat, &holder, &millis(ttl)])?;
    } else {
        let statement = conn.prepared(ABSENT)?;
        conn.client().query(&statement, &[&id, &seat, &holder])?;
    }
    Ok(())
}

pub(super) fn elsewhere(conn: &mut Conn<'_>, id: &str, holder: &str) -> Result<Vec<usize>, StoreError> {
    let statement = conn.prepared(ELSEWHERE)?;
    let rows = conn.client().query(&statement, &[&id, &holder])?;
    Ok(rows.iter().filter_map(|r| usize::try_from(r.get::<_, i32>(0)).ok()).collect())
}

pub(super) fn keep(
    conn: &mut Conn<'_>,
    holder: &str,
    ttl: Duration,
    seats: &[(String, usize)],
) -> Result<(), StoreError> {
    let games: Vec<&str> = seats.iter().map(|(game, _)| game.as_str()).collect();
    let sides = seats.iter().map(|&(_, s)| side(s)).collect::<Result<Vec<i32>, _>>()?;
    let ttl = millis(ttl);
    let (renew, restore, stale, lapsed) =
        (conn.prepared(RENEW)?, conn.prepared(RESTORE)?, conn.prepared(STALE)?, conn.prepared(LAPSED)?);
    conn.client().execute(&renew, &[&holder, &ttl])?;
    conn.client().query(&restore, &[&holder, &ttl, &games, &sides])?;
    conn.client().query(&stale, &[&holder, &games, &sides])?;
    conn.client().query(&lapsed, &[])?;
    Ok(())
}
