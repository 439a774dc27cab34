//! The perft suite in `data/perft.txt`: fast generator against recorded counts.

use raum_notation::parse_position;
use raum_rules::{Position, Variant, VariantId};

#[test]
fn perft_suite() {
    let text = include_str!("../../data/perft.txt");
    let mut checked = 0;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let [variant, fen, counts] = fields[..] else { panic!("line {}: expected 3 fields", n + 1) };
        let v = Variant::get(variant.parse::<VariantId>().expect("variant"));
        let pos = if fen == "startpos" { Position::start(v) } else { parse_position(v, fen).expect("position") };
        for (i, expected) in counts.split_whitespace().enumerate() {
            let expected: u64 = expected.parse().expect("count");
            let depth = i as u32 + 1;
            assert_eq!(pos.perft(depth), expected, "line {}: {variant} {fen} depth {depth}", n + 1);
            checked += 1;
        }
    }
    assert!(checked >= 30, "suite too small: {checked} counts");
}
