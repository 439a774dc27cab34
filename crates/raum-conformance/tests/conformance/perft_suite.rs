//! The perft suite in `data/perft.txt`: fast generator against recorded counts.

use raum_notation::parse_position;
use raum_rules::{Position, Variant, VariantFn, VariantId, Width};

/// Perft of a line's position at each depth, at the variant's width.
struct Counts<'a> {
    fen: &'a str,
    depths: u32,
}

impl VariantFn for Counts<'_> {
    type Output = Vec<u64>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Vec<u64> {
        let pos =
            if self.fen == "startpos" { Position::start(v) } else { parse_position(v, self.fen).expect("position") };
        (1..=self.depths).map(|d| pos.perft(d)).collect()
    }
}

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
        let id = variant.parse::<VariantId>().expect("variant");
        let expected: Vec<u64> = counts.split_whitespace().map(|c| c.parse().expect("count")).collect();
        let got = id.dispatch(Counts { fen, depths: expected.len() as u32 });
        assert_eq!(got, expected, "line {}: {variant} {fen}", n + 1);
        checked += expected.len();
    }
    assert!(checked >= 30, "suite too small: {checked} counts");
}
