//! Leases on PostgreSQL (the `leases` table): which server plays each game's
//! engine moves and flags its clocks. A lease is held until its `expires`,
//! on the database's clock (no two servers' clocks are compared); its holder
//! renews it while it lives, and when a holder dies its leases lapse and the
//! first server to renew after that takes them over. Each statement is one
//! row lock per game: of servers claiming or taking over one game at once,
//! one holds it.

use super::super::{Renewed, StoreError};
use super::Conn;
use std::time::Duration;

/// Claims game `$1` for holder `$2` for `$3` ms, unless another holder's lease
/// is live, or the game is finished or gone: one row when held.
const CLAIM: &str = concat!(
    "INSERT INTO leases (game, holder, expires)
     SELECT id, $2, ",
    now_ms!(),
    " + $3 FROM games WHERE id = $1 AND result IS NULL
     ON CONFLICT (game) DO UPDATE SET holder = EXCLUDED.holder, expires = EXCLUDED.expires
     WHERE leases.holder = EXCLUDED.holder OR leases.expires < ",
    now_ms!(),
    " RETURNING game"
);
/// Takes over, for holder `$1` and `$2` ms, every lease that lapsed.
const TAKE_OVER: &str = concat!(
    "UPDATE leases SET holder = $1, expires = ",
    now_ms!(),
    " + $2 WHERE expires < ",
    now_ms!(),
    " RETURNING game"
);
/// Drops the leases of finished games: no work is left in them.
const DROP_FINISHED: &str = "DELETE FROM leases USING games WHERE leases.game = games.id AND games.result IS NOT NULL";
/// Extends holder `$1`'s leases by `$2` ms from now.
const RENEW: &str = concat!("UPDATE leases SET expires = ", now_ms!(), " + $2 WHERE holder = $1 RETURNING game");

pub(super) fn millis(ttl: Duration) -> i64 {
    i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX / 2)
}

pub(super) fn claim(conn: &mut Conn<'_>, id: &str, holder: &str, ttl: Duration) -> Result<bool, StoreError> {
    let claim = conn.prepared(CLAIM)?;
    Ok(conn.client().query_opt(&claim, &[&id, &holder, &millis(ttl)])?.is_some())
}

pub(super) fn release(conn: &mut Conn<'_>, id: Option<&str>, holder: &str) -> Result<(), StoreError> {
    match id {
        Some(id) => conn.client().execute("DELETE FROM leases WHERE game = $1 AND holder = $2", &[&id, &holder])?,
        None => conn.client().execute("UPDATE leases SET expires = 0 WHERE holder = $1", &[&holder])?,
    };
    Ok(())
}

pub(super) fn renew(conn: &mut Conn<'_>, holder: &str, ttl: Duration) -> Result<Renewed, StoreError> {
    let (drop_finished, take_over, renew) =
        (conn.prepared(DROP_FINISHED)?, conn.prepared(TAKE_OVER)?, conn.prepared(RENEW)?);
    conn.client().execute(&drop_finished, &[])?;
    let games = |rows: Vec<::postgres::Row>| rows.iter().map(|r| r.get::<_, String>(0)).collect::<Vec<_>>();
    let taken_over = games(conn.client().query(&take_over, &[&holder, &millis(ttl)])?);
    let held = games(conn.client().query(&renew, &[&holder, &millis(ttl)])?);
    Ok(Renewed { held, taken_over })
}

#[cfg(test)]
mod tests {
    use super::super::super::fixtures::{TestDb, game, mv};
    use super::super::super::{Database, StoredResult};
    use std::time::Duration;

    /// Runs only where `RAUM_TEST_POSTGRES` names a database (`scripts/test.sh` does).
    #[test]
    fn one_server_holds_a_lease_until_it_lapses_and_then_another_takes_it_over() {
        let db = TestDb::new("leases");
        if matches!(db.db, Database::Sqlite(_)) {
            return;
        }
        let s = db.open();
        s.create(&game("g", "online", 1, None), &[mv("a")], None).unwrap();
        s.create(&game("h", "online", 1, None), &[], None).unwrap();
        let (long, short) = (Duration::from_secs(60), Duration::from_millis(150));

        // Of servers claiming at once, one holds the lease; its holder claims again at will.
        assert!(s.claim("g", "a", short).unwrap());
        assert!(!s.claim("g", "b", long).unwrap(), "a's lease is live");
        assert!(s.claim("g", "a", short).unwrap(), "a renews its own");
        assert!(s.claim("h", "b", long).unwrap());
        assert!(!s.claim("nope", "a", long).unwrap(), "no game, no lease");

        // Renewing keeps a's lease; once a stops, b takes it over, once.
        let renewed = s.renew("a", short).unwrap();
        assert_eq!((renewed.held, renewed.taken_over), (vec!["g".to_string()], vec![]));
        std::thread::sleep(Duration::from_millis(300));
        assert!(s.renew("c", long).unwrap().taken_over == ["g"], "c finds g's lease lapsed");
        let b = s.renew("b", long).unwrap();
        assert_eq!((b.held, b.taken_over), (vec!["h".to_string()], vec![]), "and b finds none");
        assert!(!s.claim("g", "a", long).unwrap(), "a lost it");
        assert!(s.renew("a", long).unwrap().held.is_empty());

        // Released, it is anyone's; a server stopping lets its leases lapse
        // at once, for the next to take over.
        s.release(Some("g"), "c").unwrap();
        assert!(s.claim("g", "a", long).unwrap());
        s.release(None, "a").unwrap();
        assert_eq!(s.renew("c", long).unwrap().taken_over, ["g"]);
        // A finished game is no one's; a deleted game takes its lease with it.
        s.finish("g", &StoredResult { score: "1-0".into(), reason: "resignation".into() }).unwrap();
        assert!(!s.claim("g", "b", long).unwrap(), "a finished game has no work to lease");
        assert_eq!(s.delete_abandoned(i64::MAX).unwrap(), ["h"]);
        assert!(s.renew("b", long).unwrap().held.is_empty(), "h's lease went with it");
    }
}
