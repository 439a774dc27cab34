//! The levels' Elo scale against the ladder it was measured by
//! (`docs/levels-ladder.tsv`): the scale is the ladder's chain, every level
//! on it was played as the level table has it, the ladder meets the bar the
//! levels were set by, and it was played by the search this build runs (the
//! rows' bench signature is `raum bench --variant V`'s today). The Elo
//! constants are recorded measurements: when the search changes, this test
//! fails until the ladder is played again.

use raum_engine::{LEVELS, level_elos, level_table};
use raum_rules::VariantId;
use std::collections::HashMap;
use std::process::Command;

struct Row {
    variant: String,
    upper: String,
    lower: String,
    a: String,
    b: String,
    wins: u32,
    draws: u32,
    losses: u32,
    commit: String,
    bench: u64,
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
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 10, "{line}");
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
            commit: f[8].into(),
            bench: f[9].parse().unwrap_or_else(|_| panic!("{line}")),
        });
    }
    rows
}

/// Level `k` (1-based) of `id` written out as the choice it makes, as the
/// ladder's rows write it.
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

/// `raum bench --variant V`'s node count: the search's signature in `V`.
fn bench_signature(id: VariantId) -> u64 {
    let o = Command::new(env!("CARGO_BIN_EXE_raum")).args(["bench", "--variant", id.name()]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    let line = out.lines().last().expect("a line");
    line.strip_prefix("Bench: ").and_then(|r| r.split(' ').next()?.parse().ok()).unwrap_or_else(|| panic!("{line}"))
}

/// Checks `id`'s ladder rows against the level table, the Elo scale and the
/// bar, given the search's bench signature in `id` now.
fn check(rows: &[Row], id: VariantId, signature: u64) -> Result<(), String> {
    let mine: Vec<&Row> = rows.iter().filter(|r| r.variant == id.name()).collect();
    if mine.is_empty() {
        return Err(format!("{id:?}: no ladder rows"));
    }
    for r in &mine {
        if r.bench != signature {
            return Err(format!(
                "{id:?}: the row {} against {} was played at commit {} with bench signature {}, but the search's \
                 is now {signature}: play the ladder again (scripts/levels-ladder.sh) and update calibration.rs",
                r.upper, r.lower, r.commit, r.bench
            ));
        }
        if r.commit.len() < 7 || !r.commit.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!("{id:?}: row {} against {}: {:?} is not a commit", r.upper, r.lower, r.commit));
        }
    }
    let mut elo: HashMap<&str, f64> = HashMap::from([("random", 0.0)]);
    for r in &mine {
        let Some(&below) = elo.get(r.lower.as_str()) else {
            return Err(format!("{id:?}: {} before {}", r.lower, r.upper));
        };
        elo.entry(&r.upper).or_insert(below + r.elo());
        for (name, player) in [(&r.upper, &r.a), (&r.lower, &r.b)] {
            if let Some(k) = name.strip_prefix('L') {
                let k: usize = k.parse().map_err(|_| format!("{name} is not a level"))?;
                if k == 0 || k > LEVELS as usize || *player != spec(id, k) {
                    let table = if k == 0 || k > LEVELS as usize { "no level".into() } else { spec(id, k) };
                    return Err(format!("{id:?}: {name} is {table} in the table, but the row played {player}"));
                }
            }
        }
    }
    let (scale, own) = level_elos(id);
    if !own {
        return Err(format!("{id:?} reads another variant's scale"));
    }
    for (k, &e) in scale.iter().enumerate() {
        let measured = elo.get(format!("L{}", k + 1).as_str()).copied();
        if !measured.is_some_and(|m| (m - e).abs() <= 0.5) {
            return Err(format!("{id:?} level {}: calibration.rs says {e}, the ladder {measured:?}", k + 1));
        }
    }
    if elo.contains_key(format!("L{}", scale.len() + 1).as_str()) {
        return Err(format!("{id:?}: a measured level is off the scale"));
    }
    // The bar: level 1 loses at least 70% to greedy, level 2 beats it, and every
    // step scores 60% to 90%.
    let row = |u: &str, l: &str| mine.iter().find(|r| r.upper == u && r.lower == l).copied();
    let l1 = row("L1", "greedy").ok_or("level 1 against greedy")?;
    if f64::from(l1.losses) < 0.7 * f64::from(l1.wins + l1.draws + l1.losses) {
        return Err(format!("{id:?}: level 1 loses less than 70% to greedy"));
    }
    if row("L2", "greedy").ok_or("level 2 against greedy")?.score() <= 0.5 {
        return Err(format!("{id:?}: level 2 does not beat greedy"));
    }
    for k in 2..=scale.len() {
        let step = row(&format!("L{k}"), &format!("L{}", k - 1)).ok_or(format!("{id:?}: no step to level {k}"))?;
        let score = step.score();
        if !(0.6..=0.9).contains(&score) {
            return Err(format!("{id:?} level {k}: {score:.3} against the level below"));
        }
    }
    Ok(())
}

const LADDERED: [VariantId; 2] = [VariantId::FiveUp, VariantId::Raumschach];

#[test]
fn the_scale_is_the_ladder() {
    let rows = ladder();
    for id in LADDERED {
        check(&rows, id, bench_signature(id)).unwrap();
    }
}

/// The checks fail when what they check is off: a search with another
/// signature, a row that played something other than the table's level, a
/// step outside the bar.
#[test]
fn the_ladder_check_fails_when_the_ladder_is_stale() {
    let signature = |id: VariantId| ladder().iter().find(|r| r.variant == id.name()).map(|r| r.bench).unwrap();
    for id in LADDERED {
        let s = signature(id);
        assert_eq!(check(&ladder(), id, s), Ok(()));
        let e = check(&ladder(), id, s + 1).unwrap_err();
        assert!(e.contains("play the ladder again"), "{e}");

        let mut rows = ladder();
        let r = rows.iter_mut().find(|r| r.variant == id.name() && r.upper == "L3" && r.lower == "L2").unwrap();
        r.a = "engine:depth=1,lines=256,spread=999".into();
        let e = check(&rows, id, s).unwrap_err();
        assert!(e.contains("L3 is engine:depth=1"), "{e}");

        let mut rows = ladder();
        let r = rows.iter_mut().find(|r| r.variant == id.name() && r.upper == "L5" && r.lower == "L4").unwrap();
        (r.wins, r.draws, r.losses) = (195, 0, 5);
        assert!(check(&rows, id, s).is_err());
    }
}
