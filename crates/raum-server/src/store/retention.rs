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

#[cfg(test)]
mod tests {
    use super::super::fixtures::{self, mv};
    use super::super::{GameMeta, SqliteStore, Store, StoredResult};

    /// A game created at `created` (its last change, until a move).
    fn meta(id: &str, created: i64) -> GameMeta {
        fixtures::game(id, "online", created, None)
    }

    fn moves_of(s: &SqliteStore, id: &str) -> i64 {
        s.conn().query_row("SELECT COUNT(*) FROM moves WHERE game = ?1", [id], |r| r.get(0)).expect("count")
    }

    #[test]
    fn unfinished_games_left_too_long_are_deleted_with_their_moves() {
        let path = std::env::temp_dir().join(format!("raum-store-retention-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let s = SqliteStore::open(&path).expect("opens");
        let win = StoredResult { score: "1-0".into(), reason: "resignation".into() };
        s.create(&meta("left", 1_000), &[mv("a"), mv("b")], None).expect("an abandoned game");
        s.create(&meta("done", 1_000), &[mv("a")], Some(&win)).expect("a finished game as old");
        s.create(&meta("recent", 5_000), &[mv("a")], None).expect("a game changed lately");
        s.create(&meta("edge", 2_000), &[], None).expect("a game changed at the limit");
        assert_eq!(moves_of(&s, "left"), 2);

        assert_eq!(s.delete_abandoned(2_000).expect("sweeps"), vec!["left".to_string()]);
        assert!(s.load("left").expect("loads").is_none(), "the abandoned game is gone");
        assert_eq!(moves_of(&s, "left"), 0, "and its moves");
        let (_, moves, result) = s.load("done").expect("loads").expect("the finished game stays");
        assert_eq!((moves.len(), result), (1, Some(win)));
        assert!(s.load("recent").expect("loads").is_some(), "a recent game stays");
        assert!(s.load("edge").expect("loads").is_some(), "one changed at the limit stays");
        assert_eq!(moves_of(&s, "recent"), 1);
        assert!(s.list(10).expect("list").iter().all(|g| g.id != "left"));

        // A move is a change: the game is no longer abandoned.
        s.append_move("edge", 0, &mv("a"), None).expect("a move");
        assert_eq!(s.delete_abandoned(3_000).expect("sweeps"), Vec::<String>::new());
        assert!(s.load("edge").expect("loads").is_some());
        assert_eq!(s.delete_abandoned(6_000).expect("sweeps"), vec!["recent".to_string()]);
        drop(s);
        let _ = std::fs::remove_file(&path);
    }
}
