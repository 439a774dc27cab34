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

#[cfg(test)]
mod tests {
    use super::super::fixtures;
    use super::super::{GameMeta, Rematch, SqliteStore, Store};

    fn meta(id: &str) -> GameMeta {
        fixtures::game(id, "online", 1, Some("sha256:a"))
    }

    #[test]
    fn a_game_has_one_rematch_linked_from_it_for_good() {
        let path = std::env::temp_dir().join(format!("raum-store-rematch-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let s = SqliteStore::open(&path).expect("opens");
        s.create(&meta("first"), &[], None).expect("the first game");
        assert_eq!(s.create_rematch("first", "white", &meta("second")).expect("stored"), None);
        // A second rematch of the same game answers the first and stores nothing.
        assert_eq!(
            s.create_rematch("first", "black", &meta("third")).expect("answered"),
            Some(Rematch { by: "white".into(), game: "second".into() })
        );
        assert!(s.load("third").expect("loads").is_none());
        assert!(s.create_rematch("nope", "white", &meta("fourth")).is_err());
        drop(s);
        // After a restart the link and the game are there.
        let s = SqliteStore::open(&path).expect("opens again");
        let (first, _, _) = s.load("first").expect("loads").expect("stored");
        assert_eq!(first.rematch, Some(Rematch { by: "white".into(), game: "second".into() }));
        let (second, moves, result) = s.load("second").expect("loads").expect("stored");
        assert_eq!((second.rematch, moves.len(), result), (None, 0, None));
        drop(s);
        let _ = std::fs::remove_file(&path);
    }
}
