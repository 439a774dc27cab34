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
