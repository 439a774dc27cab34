//! Counting without listing, and the two compiled copies of the generator.
//!
//! `count_legal` takes shortcuts that listing does not (on wide boards an
//! unpinned slider's moves are counted word by word when not in check), and
//! the generator runs as an x86-64-v3 copy where the CPU allows (`cpu`). Along
//! random games of every variant (positions in check among them, which the test
//! asserts, and pins as the games bring them), the count must equal the list's
//! length, and the baseline copy must give the same list (on a CPU without
//! AVX2 both runs take the baseline copy, and the comparison is trivial).

use raum_rules::{Position, Variant, VariantFn, VariantId, Width, cpu};

struct RandomGames {
    games: usize,
    plies: usize,
    seed: u64,
}

impl VariantFn for RandomGames {
    type Output = (usize, usize);
    fn call<S: Width>(self, v: &'static Variant<S>) -> (usize, usize) {
        let mut x = self.seed;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut positions, mut checks) = (0, 0);
        for _ in 0..self.games {
            let mut pos = Position::start(v);
            for _ in 0..self.plies {
                let moves = pos.legal_moves();
                assert_eq!(pos.count_legal(), moves.len() as u64, "{}: {pos:?}", v.id());
                positions += 1;
                if pos.is_check() {
                    checks += 1;
                }
                if moves.is_empty() {
                    break;
                }
                let m = moves[(next() % moves.len() as u64) as usize];
                pos.play(m);
            }
        }
        (positions, checks)
    }
}

#[test]
fn counting_equals_listing_along_random_games() {
    for id in VariantId::ALL {
        let (positions, checks) = id.dispatch(RandomGames { games: 6, plies: 150, seed: 0x1234_5678 + id.seed() });
        assert!(positions > 300, "{id}: only {positions} positions");
        assert!(checks > 0, "{id}: no position in check was counted");
    }
}

/// A piece that slides and also leaps onto its own lines (here: a rook that
/// also steps one cell orthogonally) must not have those cells counted twice.
#[test]
fn a_piece_that_leaps_onto_its_lines_is_counted_once() {
    use raum_bitboard::Wide;
    use raum_geometry::Family::Orthogonal;
    use raum_rules::{Motion, PieceDef, Role};
    let mut spec = Variant::<Wide<8>>::at_width(VariantId::BetzaUpright).spec().clone();
    for p in &mut spec.pieces {
        if p.letter == 'C' {
            *p = PieceDef::new(
                'C',
                "commoner",
                Role::Piece,
                Motion::slider(&[Orthogonal]).with(Motion::stepper(&[Orthogonal])),
            );
        }
    }
    let v: &'static Variant<Wide<8>> = Box::leak(Box::new(Variant::build(spec).expect("the variant builds")));
    let (positions, _) = RandomGames { games: 3, plies: 120, seed: 42 }.call(v);
    assert!(positions > 200);
}

struct BothCopies;

impl VariantFn for BothCopies {
    type Output = ();
    fn call<S: Width>(self, v: &'static Variant<S>) {
        let mut pos = Position::start(v);
        let mut x = 99u64;
        for _ in 0..120 {
            cpu::force_baseline(true);
            let list = |p: &Position<S>| p.legal_moves().iter().copied().collect::<Vec<_>>();
            let (base, base_count, base_perft) = (list(&pos), pos.count_legal(), pos.perft(2));
            cpu::force_baseline(false);
            assert_eq!(list(&pos), base, "{}", v.id());
            assert_eq!(pos.count_legal(), base_count, "{}", v.id());
            assert_eq!(pos.perft(2), base_perft, "{}", v.id());
            if base.is_empty() {
                break;
            }
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            pos.play(base[(x >> 33) as usize % base.len()]);
        }
    }
}

/// The baseline copy and the detected one (x86-64-v3 on most machines) agree.
#[test]
fn baseline_and_fast_copies_agree() {
    for id in
        [VariantId::FiveUp, VariantId::Raumschach, VariantId::Octahedral, VariantId::BetzaUpright, VariantId::Book3d]
    {
        id.dispatch(BothCopies);
    }
}
