//! Property tests over random games: make/unmake restores the position and its
//! hash, the incremental hash equals a recomputation, and position strings
//! round-trip.

use proptest::prelude::*;
use raum_conformance::rng::Rng;
use raum_notation::{format_position, parse_position};
use raum_rules::{Position, Variant, VariantFn, VariantId, Width};

/// A property checked on one variant at its width (see [`VariantId::dispatch`]).
struct Check<F>(F);

impl<F: Property> VariantFn for Check<F> {
    type Output = Result<(), TestCaseError>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Self::Output {
        self.0.check(v)
    }
}

trait Property {
    fn check<S: Width>(self, v: &'static Variant<S>) -> Result<(), TestCaseError>;
}

struct Game {
    seed: u64,
    plies: usize,
}

impl Property for Game {
    fn check<S: Width>(self, v: &'static Variant<S>) -> Result<(), TestCaseError> {
        check_game(v, self.seed, self.plies)
    }
}

fn check_game<S: Width>(v: &'static Variant<S>, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let mut pos: Position<S> = Position::start(v);
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
        VariantId::FiveUp.dispatch(Check(Game { seed, plies }))?;
    }

    #[test]
    fn raumschach_make_unmake_hash_and_strings(seed in any::<u64>(), plies in 1usize..160) {
        VariantId::Raumschach.dispatch(Check(Game { seed, plies }))?;
    }

    /// Wrapped boards (cyclic lines, the unmoved field) and shared cells
    /// (a piece and its riding unicorn moving together or apart).
    #[test]
    fn five_up_variants_make_unmake_hash_and_strings(seed in any::<u64>(), plies in 1usize..160) {
        for id in [VariantId::FiveUpCylinder, VariantId::FiveUpTorus, VariantId::FiveUpUnicorn] {
            id.dispatch(Check(Game { seed, plies }))?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// The wide boards (256 and 512 cells): fewer cases, as each position has
    /// a hundred or more moves to make and unmake.
    #[test]
    fn wide_make_unmake_hash_and_strings(seed in any::<u64>(), plies in 1usize..120) {
        for id in VariantId::ALL.into_iter().filter(|id| id.width() != raum_rules::CellWidth::W128 && !SAVARD.contains(id)) {
            id.dispatch(Check(Game { seed, plies }))?;
        }
    }

    /// Savard's boards (irregular, 112 to 173 cells; the king restricted in
    /// check, promotion inside the centre).
    #[test]
    fn savard_make_unmake_hash_and_strings(seed in any::<u64>(), plies in 1usize..160) {
        for id in SAVARD {
            id.dispatch(Check(Game { seed, plies }))?;
        }
    }
}

const SAVARD: [VariantId; 4] =
    [VariantId::WingTable, VariantId::WingTableAlt, VariantId::Forced3d, VariantId::Triquetral];

/// A valid position string with a few characters replaced, deleted or inserted.
fn mutated(base: &str, edits: &[(usize, u8, u8)]) -> String {
    let mut bytes = base.as_bytes().to_vec();
    let alphabet = b"KQRBNWGPUCEkqrbnwgpuce0123456789|/ -@,.+wbABCDEFGHabcdefghijIVXxyz";
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
            id.dispatch(Check(ParseNoise { text: text.clone(), edits: edits.clone() }))?;
        }
    }

    /// Move parsers never panic and accept only legal moves.
    #[test]
    fn move_parser_never_panics(text in "[A-Za-z0-9()=+#x\\-@ .:]{0,16}") {
        for id in VariantId::ALL {
            id.dispatch(Check(MoveNoise(text.clone())))?;
        }
    }
}

struct ParseNoise {
    text: String,
    edits: Vec<(usize, u8, u8)>,
}

impl Property for ParseNoise {
    fn check<S: Width>(self, v: &'static Variant<S>) -> Result<(), TestCaseError> {
        let _ = parse_position(v, &self.text);
        let start = raum_notation::start_string(v);
        let candidate = mutated(&start, &self.edits);
        if let Ok(pos) = parse_position(v, &candidate) {
            let again = parse_position(v, &format_position(&pos)).expect("printed position parses");
            prop_assert!(again == pos);
        }
        Ok(())
    }
}

struct MoveNoise(String);

impl Property for MoveNoise {
    fn check<S: Width>(self, v: &'static Variant<S>) -> Result<(), TestCaseError> {
        let pos = Position::start(v);
        if let Ok(m) = raum_notation::parse_move(&pos, &self.0) {
            prop_assert!(pos.is_legal(m));
        }
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// A null move equals the same position with the other side to move, built
    /// from scratch: hash included.
    #[test]
    fn null_move_matches_a_fresh_position(seed in any::<u64>(), plies in 0usize..80) {
        for id in VariantId::ALL {
            id.dispatch(Check(NullMove { seed, plies }))?;
        }
    }
}

struct NullMove {
    seed: u64,
    plies: usize,
}

impl Property for NullMove {
    fn check<S: Width>(self, v: &'static Variant<S>) -> Result<(), TestCaseError> {
        let (seed, plies) = (self.seed, self.plies);
        {
            let mut pos: Position<S> = Position::start(v);
            let mut rng = Rng::new(seed);
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[rng.below(moves.len())]);
            }
            if pos.is_check() {
                return Ok(());
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
        Ok(())
    }
}
