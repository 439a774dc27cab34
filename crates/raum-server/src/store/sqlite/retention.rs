//! Retention: an unfinished game nobody changed for long enough is deleted
//! with its moves; a finished game is kept forever.

use super::StoreError;
use rusqlite::{Connection, params};

/// Deletes, in one transaction, the games without a result whose `updated`
/// is before `changed_before`, and their moves; their ids.
pub(super) fn delete_abandoned(conn: &mut Connection, changed_before: i64) -> Result<Vec<String>, StoreError> {
    const ABANDONED: &str = "result IS NULL AND updated < ?1";
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    // A rematch never played goes too: the game it was offered from forgets it.
    tx.execute(
        &format!("UPDATE games SET rematch = NULL, rematch_by = NULL WHERE rematch IN (SELECT id FROM games WHERE {ABANDONED})"),
        [changed_before],
    )?;
    // The moves and reviews first: they refer to their game.
    tx.execute(
        &format!("DELETE FROM reviews WHERE game IN (SELECT id FROM games WHERE {ABANDONED})"),
        [changed_before],
    )?;
    tx.execute(&format!("DELETE FROM moves WHERE game IN (SELECT id FROM games WHERE {ABANDONED})"), [changed_before])?;
    let ids = {
        let mut stmt = tx.prepare(&format!("DELETE FROM games WHERE {ABANDONED} RETURNING id"))?;
        stmt.query_map(params![changed_before], |r| r.get(0))?.collect::<Result<Vec<String>, _>>()?
    };
    tx.commit()?;
    Ok(ids)
}
