//! Rematches: the next game of a finished one, stored with the link to it
//! in one transaction, so that a game has one rematch and a server killed
//! halfway keeps both or neither.

use super::{GameMeta, Rematch, StoreError, insert_game};
use rusqlite::{Connection, OptionalExtension, params};

/// Stores `next` and links it from `previous` as its rematch asked for by
/// `by`, unless `previous` has one already: `Ok(Some(that one))`, and
/// nothing stored. A `previous` that is not stored is an error.
pub(super) fn create_rematch(
    conn: &mut Connection,
    previous: &str,
    by: &str,
    next: &GameMeta,
) -> Result<Option<Rematch>, StoreError> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let linked: Option<(Option<String>, Option<String>)> = tx
        .query_row("SELECT rematch, rematch_by FROM games WHERE id = ?1", [previous], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    match linked {
        None => return Err(StoreError::Damaged(previous.into(), "no such game to rematch".into())),
        Some((Some(game), by)) => return Ok(Some(Rematch { by: by.unwrap_or_default(), game })),
        Some((None, _)) => {}
    }
    insert_game(&tx, next, 0, None)?;
    tx.execute(
        "UPDATE games SET rematch = ?2, rematch_by = ?3 WHERE id = ?1 AND rematch IS NULL",
        params![previous, next.id, by],
    )?;
    tx.commit()?;
    Ok(None)
}
