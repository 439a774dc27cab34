//! The built-in files.

use super::*;

#[test]
fn every_builtin_file_reads_and_has_the_cells_its_width_was_chosen_for() {
    for id in VariantId::ALL {
        let def = read(builtin_text(id.name()).unwrap(), id.name()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(def.id(), id.name());
        assert_eq!(def.side_count(), 2);
        assert_eq!(def.cells(), crate::variants::cells(id), "{id}");
    }
    for id in MultiId::ALL {
        let def = read(builtin_text(id.name()).unwrap(), id.name()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(def.id(), id.name());
        assert_eq!(def.cells(), id.cells(), "{id}");
        assert!(def.side_count() > 2);
    }
    assert_eq!(BUILTIN.len(), VariantId::ALL.len() + MultiId::ALL.len());
}

/// The tutorial's Cubelet under `id`, with `rules` appended as its `[rules]`.
fn cubelet_with(id: &str, rules: &str) -> crate::AnyGame {
    let text = include_str!("../../../../examples/variants/cubelet.toml")
        .replace("id = \"cubelet\"", &format!("id = \"{id}\""));
    let text = format!("{text}\n[rules]\n{rules}\n");
    crate::AnyGame::start(load(&text, &format!("{id}.toml")).unwrap_or_else(|e| panic!("{e}")))
}

/// Knights out and back, `rounds` times: two knight moves out (White's, then
/// Black's), two back; the result after each ply, until the game ends.
fn knights_out_and_back(game: &mut crate::AnyGame, rounds: usize) -> Vec<Option<crate::End>> {
    use crate::GameRules;
    let knight = game.pieces().iter().position(|p| p.letter == 'N').expect("a knight");
    let mut results = Vec::new();
    for _ in 0..rounds {
        let mut out = Vec::new();
        for _ in 0..2 {
            // A quiet knight move that gives no check (so that the other side may go back).
            let m = *game
                .legal_moves()
                .iter()
                .find(|m| {
                    let mut after = game.clone();
                    game.man_at(m.from()).is_some_and(|(_, k)| k.index() == knight)
                        && game.man_at(m.to()).is_none()
                        && after.play(**m).is_ok()
                        && after.royals_in_check().is_empty()
                })
                .expect("a quiet knight move");
            game.play(m).expect("legal");
            out.push(m);
            results.push(game.result().map(|r| r.end));
            if game.result().is_some() {
                return results;
            }
        }
        for m in out {
            let back = *game.legal_moves().iter().find(|b| b.from() == m.to() && b.to() == m.from()).expect("back");
            game.play(back).expect("legal");
            results.push(game.result().map(|r| r.end));
            if game.result().is_some() {
                return results;
            }
        }
    }
    results
}

#[test]
fn the_move_count_and_repetition_rules_are_the_file_s() {
    use crate::{DrawReason, End};
    // Two occurrences draw: the start again after four plies.
    let mut g = cubelet_with("cubelet-twice", "repetition = 2\nmove-limit = 0");
    let r = knights_out_and_back(&mut g, 1);
    assert_eq!(r, [None, None, None, Some(End::Draw(DrawReason::Repetition))]);
    // One move each without a capture or a pawn move draws.
    let mut g = cubelet_with("cubelet-one-move", "repetition = 0\nmove-limit = 1");
    assert_eq!(knights_out_and_back(&mut g, 1), [None, Some(End::Draw(DrawReason::FiftyMoves))]);
    // Neither rule: three occurrences and twelve quiet plies end nothing.
    let mut g = cubelet_with("cubelet-endless", "repetition = 0\nmove-limit = 0");
    let r = knights_out_and_back(&mut g, 3);
    assert!(r.len() == 12 && r.iter().all(Option::is_none), "{r:?}");
    // The defaults: three occurrences.
    let mut g = cubelet_with("cubelet-default", "");
    let r = knights_out_and_back(&mut g, 2);
    assert!(r.len() == 8 && r[..7].iter().all(Option::is_none), "{r:?}");
    assert_eq!(r[7], Some(End::Draw(DrawReason::Repetition)));
    // Out of range.
    let text = include_str!("../../../../examples/variants/cubelet.toml");
    let errors =
        read(&format!("{text}\n[rules]\nrepetition = 1\nmove-limit = -3\n"), "c.toml").unwrap_err().to_string();
    assert!(errors.contains("rules.repetition") && errors.contains("rules.move-limit"), "{errors}");
}
