//! Perft from the start positions against independent counts.

use raum_rules::{Position, Variant, VariantId};

#[test]
fn five_up_start_has_62_moves() {
    // RULES.md: the seed's "59" omits Dd1-Ed3, Da1-Ea3 and Db1-Ca1.
    let pos = Position::start(Variant::get(VariantId::FiveUp));
    assert_eq!(pos.perft(1), 62);
    assert_eq!(pos.legal_moves().len(), 62);
}

#[test]
fn raumschach_perft_shallow() {
    let pos = Position::start(Variant::get(VariantId::Raumschach));
    assert_eq!(pos.perft(1), 61);
    assert_eq!(pos.perft(2), 3_615);
    assert_eq!(pos.perft(3), 237_316);
}

/// Perft of a variant's start at any width, through the one dispatch point.
struct StartPerft(u32);

impl raum_rules::VariantFn for StartPerft {
    type Output = u64;
    fn call<S: raum_rules::Width>(self, v: &'static Variant<S>) -> u64 {
        Position::start(v).perft(self.0)
    }
}

/// Issue 12's start move counts; perft(2) and perft(3) agree with the naive
/// reference generator (raum-conformance's `naive_wide`, written from RULES.md).
#[test]
fn wide_starts() {
    let expected: [(VariantId, [u64; 3]); 7] = [
        (VariantId::Octahedral, [116, 13_456, 1_623_606]),
        (VariantId::Pyramid, [70, 4_900, 369_295]),
        (VariantId::BetzaUpright, [216, 46_656, 10_390_544]),
        (VariantId::BetzaMixed, [188, 35_344, 6_974_076]),
        (VariantId::BetzaFlat, [216, 46_656, 10_390_348]),
        (VariantId::BetzaVery3d, [184, 33_856, 6_521_680]),
        (VariantId::Book3d, [122, 14_870, 1_988_984]),
    ];
    for (id, counts) in expected {
        for (depth, want) in (1..=3).zip(counts) {
            assert_eq!(id.dispatch(StartPerft(depth)), want, "{id} perft({depth})");
        }
    }
}
