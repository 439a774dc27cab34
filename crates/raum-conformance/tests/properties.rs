//! Property tests over random games: make/unmake restores the position and its
//! hash, the incremental hash equals a recomputation, and position strings
//! round-trip.

use proptest::prelude::*;
use raum_conformance::rng::Rng;
use raum_notation::{format_position, parse_position};
use raum_rules::{Cells, Position, Variant, VariantId};

fn check_game(id: VariantId, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let v = Variant::get(id);
    let mut pos: Position<Cells> = Position::start(v);
    let mut rng = Rng::new(seed);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Every legal move is undone exactly.
        for &m in moves.iter() {
            let before = pos;
            let undo = pos.play(m);
            prop_assert_eq!(pos.hash(), pos.compute_hash(), "incremental hash after {:?}", m);
            pos.unplay(m, undo);
            prop_assert!(pos == before, "unplay of {:?} did not restore the position", m);
        }
        let text = format_position(&pos);
        let parsed = parse_position(v, &text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert!(parsed == pos, "position string did not round-trip: {}", text);
        prop_assert_eq!(format_position(&parsed), text);
        let m = moves[rng.below(moves.len())];
        pos.play(m);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn five_up_make_unmake_hash_and_strings(seed in any::<u64>(), plies in 1usize..160) {
        check_game(VariantId::FiveUp, seed, plies)?;
    }

    #[test]
    fn raumschach_make_unmake_hash_and_strings(seed in any::<u64>(), plies in 1usize..160) {
        check_game(VariantId::Raumschach, seed, plies)?;
    }
}

/// A valid position string with a few characters replaced, deleted or inserted.
fn mutated(base: &str, edits: &[(usize, u8, u8)]) -> String {
    let mut bytes = base.as_bytes().to_vec();
    let alphabet = b"KQRBNWGPUkqrbnwgpu0123456789|/ -@,wbABCDEabcde";
    for &(at, op, ch) in edits {
        if bytes.is_empty() {
            break;
        }
        let i = at % bytes.len();
        let c = alphabet[ch as usize % alphabet.len()];
        match op % 3 {
            0 => bytes[i] = c,
            1 => {
                bytes.remove(i);
            }
            _ => bytes.insert(i, c),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Bad input never panics: arbitrary text and near-valid position strings
    /// either parse into a position that round-trips, or give an error.
    #[test]
    fn position_parser_never_panics(text in ".{0,80}", edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..4)) {
        for id in VariantId::ALL {
            let v = Variant::get(id);
            let _ = parse_position(v, &text);
            let start = raum_notation::start_string(v);
            let candidate = mutated(&start, &edits);
            if let Ok(pos) = parse_position(v, &candidate) {
                let again = parse_position(v, &format_position(&pos)).expect("printed position parses");
                prop_assert!(again == pos);
            }
        }
    }

    /// Move parsers never panic and accept only legal moves.
    #[test]
    fn move_parser_never_panics(text in "[A-Za-z0-9()=+#x\\-@ ]{0,16}") {
        for id in VariantId::ALL {
            let pos = Position::start(Variant::get(id));
            if let Ok(m) = raum_notation::parse_move(&pos, &text) {
                prop_assert!(pos.is_legal(m));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// A null move equals the same position with the other side to move, built
    /// from scratch: hash included.
    #[test]
    fn null_move_matches_a_fresh_position(seed in any::<u64>(), plies in 0usize..80) {
        for id in VariantId::ALL {
            let v = Variant::get(id);
            let mut pos: Position<Cells> = Position::start(v);
            let mut rng = Rng::new(seed);
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[rng.below(moves.len())]);
            }
            if pos.is_check() {
                continue;
            }
            let null = pos.null_move();
            let mut setup = pos.to_setup();
            setup.side = setup.side.opponent();
            setup.ep.clear();
            setup.ep_victim = None;
            setup.halfmove += 1;
            if pos.side_to_move() == raum_rules::Color::Black {
                setup.fullmove += 1;
            }
            let fresh = Position::from_setup(v, setup).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(null == fresh);
            prop_assert_eq!(null.hash(), null.compute_hash());
        }
    }
}
