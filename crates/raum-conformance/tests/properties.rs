//! Property tests over random games: make/unmake restores the position and its
//! hash, the incremental hash equals a recomputation, and position strings
//! round-trip.

use proptest::prelude::*;
use raum_notation::{format_position, parse_position};
use raum_rules::{Cells, Position, Variant, VariantId};

/// A small deterministic generator so that a proptest seed replays a game.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn check_game(id: VariantId, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let v = Variant::get(id);
    let mut pos: Position<Cells> = Position::start(v);
    let mut rng = Rng(seed | 1);
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
