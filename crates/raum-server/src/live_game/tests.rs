use super::*;
use raum_engine::{AnyEngine, Limits};
use raum_rules::multi::MultiId;
use raum_rules::{Points, VariantId};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

fn two(id: VariantId, fen: Option<&str>) -> Result<LiveGame, String> {
    LiveGame::new(GameId::Two(id), fen)
}

fn multi(id: MultiId) -> LiveGame {
    LiveGame::new(GameId::Multi(id), None).unwrap()
}

#[test]
fn seed_line_mates_in_every_notation() {
    let mut g = two(VariantId::FiveUp, None).unwrap();
    assert_eq!(g.legal().len(), 62);
    for text in ["P-Cc2", "P-Cc4", "B-Ca1", "BxEb2"] {
        g.play(text).unwrap();
    }
    assert_eq!(g.outcome().map(|o| o.scores), Some(vec![Points::ZERO, Points::ONE]));
    assert_eq!(g.events()[3].san, "BxEb2#");
    assert!(g.events()[3].check);
    // Bishop takes on Eb2: the two cells change.
    assert_eq!(g.events()[3].changes.len(), 2);
    assert_eq!(g.start_pieces().len(), 40);
    assert!(g.legal().is_empty());
    assert_eq!(g.play("Ec2-Ec3"), Err(MoveError::GameOver));
    assert!(g.undo());
    assert_eq!((g.ply(), g.events().len()), (3, 3));
}

#[test]
fn a_savard_stalemate_ends_the_game_scored() {
    // Wing Table: White (king and rook) takes Black's queen, which stalemates Black.
    let fen = "k3|4|4|6|6|6|2R3|6|6|4|1q2|4/4|K3|6|6|6|6|6|6|4|4/4|6|6|6|6|6|6|4 w - - 0 1";
    let mut g = two(VariantId::WingTable, Some(fen)).unwrap();
    g.play("1c6-1c2").unwrap();
    let scores = g.outcome().unwrap().scores;
    assert_eq!((scores[0].to_string(), scores[1].to_string()), ("3/5".into(), "2/5".into()));
    assert_eq!(g.termination(), Some("stalemate"));
    assert!(g.legal().is_empty());
    assert_eq!(g.play("1a12-1b11"), Err(MoveError::GameOver));
}

#[test]
fn every_game_starts_plays_and_takes_back() {
    for id in GameId::ALL {
        let mut g = LiveGame::new(id, None).unwrap();
        let first = g.legal();
        assert!(!first.is_empty(), "{id}");
        assert!(matches!(g.play("Zz9-Zz8"), Err(MoveError::Illegal(_))), "{id}");
        let fen = g.fen();
        assert_eq!(LiveGame::new(id, Some(&fen)).unwrap().fen(), fen);
        g.play(&first[0].coord).unwrap();
        let e = &g.events()[0];
        assert_eq!((g.ply(), g.side(), e.kind, e.color, e.number), (1, 1, "move", "white", 1), "{id}");
        assert!(g.undo());
        assert_eq!((g.ply(), g.fen()), (0, fen), "{id}");
        assert!(!g.undo());
    }
    assert!(two(VariantId::FiveUp, Some("nonsense")).is_err());
    let g = multi(MultiId::WingTable4p);
    let white = g.start_pieces().iter().filter(|(_, m)| m.starts_with('w')).count();
    assert_eq!(g.start_pieces().len(), 4 * white, "every side has White's army");
}

#[test]
fn a_resignation_every_side_for_itself_takes_the_side_out() {
    let mut g = multi(MultiId::Triquetral3p);
    let m = g.legal()[0].coord.clone();
    g.play(&m).unwrap();
    // Blue is to move and resigns: its men leave, Green moves next.
    g.resign(1, "resign").unwrap();
    assert_eq!((g.sides_in(), g.side(), g.outcome()), (vec![0, 2], 2, None));
    let e = &g.events()[1];
    assert_eq!((e.kind, e.color, e.out.clone()), ("resign", "blue", vec!["blue"]));
    assert_eq!(e.changes.len(), g.start_pieces().len() / 3);
    assert!(e.changes.iter().all(|(_, m)| m.is_none()));
    assert_eq!(g.resign(1, "resign"), Err("Blue is already out of the game".into()));
    // White's flag falls out of turn: Green is the last side in.
    g.resign(0, "time").unwrap();
    assert_eq!(g.outcome().map(|o| o.scores), Some(vec![Points::ZERO, Points::ZERO, Points::ONE]));
    assert_eq!((g.events()[2].kind, g.events()[2].san.as_str()), ("time", "White's time is up"));
    let text = g.record().to_string();
    assert!(text.contains(&format!("1. {m} Blue-resigns White-resigns 0-0-1")), "{text}");
    let again = replay_multi(&raum_notation::parse_records(&text).unwrap()[0]).unwrap();
    assert_eq!((again.fen(), again.ply()), (g.fen(), 3));
    assert!(g.undo() && g.undo());
    assert_eq!((g.sides_in(), g.side()), (vec![0, 1, 2], 1));
}

#[test]
fn a_team_resignation_scores_the_team() {
    let mut g = multi(MultiId::WingTable4p);
    g.resign(1, "resign").unwrap();
    assert_eq!(g.outcome().map(|o| o.scores), Some(vec![Points::ONE, Points::ZERO, Points::ONE, Points::ZERO]));
    assert_eq!((g.events()[0].changes.clone(), g.events()[0].out.clone()), (vec![], vec!["red"]));
    assert_eq!(g.termination(), Some("resignation"));
    assert_eq!(g.record().moves[0].text, "Red-resigns");
    assert!(g.undo());
    assert_eq!(g.outcome(), None);
}

#[test]
fn analysis_answers_for_every_kind() {
    let mut engine = AnyEngine::new(1, 1);
    let limits = Limits { depth: Some(2), ..Limits::default() };
    for id in [GameId::Two(VariantId::FiveUp), GameId::Multi(MultiId::Triquetral3p)] {
        let g = LiveGame::new(id, None).unwrap();
        let a = g.analyse(&mut engine, &limits, Arc::new(AtomicBool::new(false)));
        let best = a.best.expect("a move");
        assert!(g.legal().contains(&best), "{id}");
        assert_eq!((a.line.first(), a.view), (Some(&best.san), "white"), "{id}");
    }
}
