//! The levels' Elo scale against the ladder it was measured by
//! (`docs/levels-ladder.tsv`): the scale is the ladder's chain, every level
//! on it was played as the table says, and the ladder meets the bar the levels
//! were set by.

use raum_engine::{LEVELS, level_elos, level_table};
use raum_rules::VariantId;
use std::collections::HashMap;

struct Row {
    variant: String,
    upper: String,
    lower: String,
    a: String,
    b: String,
    wins: u32,
    draws: u32,
    losses: u32,
}

impl Row {
    fn score(&self) -> f64 {
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.wins + self.draws + self.losses)
    }

    fn elo(&self) -> f64 {
        let p = self.score();
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

fn ladder() -> Vec<Row> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/levels-ladder.tsv");
    let text = std::fs::read_to_string(path).expect("docs/levels-ladder.tsv");
    let mut rows = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 8, "{line}");
        let n = |i: usize| f[i].parse::<u32>().unwrap_or_else(|_| panic!("{line}"));
        rows.push(Row {
            variant: f[0].into(),
            upper: f[1].into(),
            lower: f[2].into(),
            a: f[3].into(),
            b: f[4].into(),
            wins: n(5),
            draws: n(6),
            losses: n(7),
        });
    }
    rows
}

/// Level `k` (1-based) of `id` as a player of its own: how the ladder played it
/// before the table held it (it chooses move for move as `engine:level=K`).
fn spec(id: VariantId, k: usize) -> String {
    let l = level_table(id)[k - 1];
    let limit = match l.depth {
        Some(d) => format!("depth={d}"),
        None => format!("nodes={}", l.nodes),
    };
    if l.grab {
        format!("engine:{limit},grab=1")
    } else {
        format!("engine:{limit},lines={},spread={}", l.lines, l.spread)
    }
}

#[test]
fn the_scale_is_the_ladder() {
    let rows = ladder();
    for id in [VariantId::FiveUp, VariantId::Raumschach] {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.variant == id.name()).collect();
        let mut elo: HashMap<&str, f64> = HashMap::from([("random", 0.0)]);
        for r in &mine {
            assert!(elo.contains_key(r.lower.as_str()), "{}: {} before {}", r.variant, r.lower, r.upper);
            if !elo.contains_key(r.upper.as_str()) {
                elo.insert(&r.upper, elo[r.lower.as_str()] + r.elo());
            }
            for (name, player) in [(&r.upper, &r.a), (&r.lower, &r.b)] {
                if let Some(k) = name.strip_prefix('L') {
                    let k: usize = k.parse().unwrap();
                    let as_level = format!("engine:level={k}");
                    assert!(
                        k <= LEVELS as usize && (*player == spec(id, k) || *player == as_level),
                        "{}: {name} is {} ({as_level}), not {player}",
                        r.variant,
                        spec(id, k)
                    );
                }
            }
        }
        let (scale, own) = level_elos(id);
        assert!(own);
        for (k, &e) in scale.iter().enumerate() {
            let measured = elo.get(format!("L{}", k + 1).as_str()).copied();
            assert!(measured.is_some_and(|m| (m - e).abs() <= 0.5), "{id:?} level {}: {e} vs {measured:?}", k + 1);
        }
        assert!(
            !elo.contains_key(format!("L{}", scale.len() + 1).as_str()),
            "{id:?}: a measured level is off the scale"
        );
        // The bar: level 1 loses at least 70% to greedy, level 2 beats it, and every
        // step scores 60% to 90%.
        let row = |u: &str, l: &str| mine.iter().find(|r| r.upper == u && r.lower == l).copied();
        let l1 = row("L1", "greedy").expect("level 1 against greedy");
        assert!(f64::from(l1.losses) >= 0.7 * f64::from(l1.wins + l1.draws + l1.losses), "{id:?}");
        assert!(row("L2", "greedy").expect("level 2 against greedy").score() > 0.5, "{id:?}");
        for k in 2..=scale.len() {
            let step = row(&format!("L{k}"), &format!("L{}", k - 1)).expect("each step");
            let score = step.score();
            assert!((0.6..=0.9).contains(&score), "{id:?} level {k}: {score:.3}");
        }
    }
}
