//! `raum bench`: its output format, a node count that repeats, and the
//! signature pinned, as Stockfish pins its bench.

use crate::run::raum;
use std::process::Output;

/// The node count of `Bench: <nodes> nodes <nps> nps`, checking the line's shape.
fn bench_nodes(o: &Output) -> u64 {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    let line = out.lines().last().expect("a line");
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words.len(), 5, "{line}");
    assert_eq!((words[0], words[2], words[4]), ("Bench:", "nodes", "nps"), "{line}");
    assert!(words[3].parse::<u64>().is_ok(), "{line}");
    words[1].parse().expect("node count")
}

/// Every variant (and multi-player game) has six bench positions.
const VARIANTS: [&str; 19] = [
    "five-up",
    "five-up-cylinder",
    "five-up-torus",
    "five-up-unicorn",
    "raumschach",
    "octahedral",
    "pyramid",
    "betza-upright",
    "betza-mixed",
    "betza-flat",
    "betza-very3d",
    "book-3d",
    "wing-table",
    "wing-table-alt",
    "forced-3d",
    "triquetral",
    "wing-table-4p",
    "triquetral-3p",
    "triquetral-6p",
];

#[test]
fn bench_signature_is_reproducible() {
    let a = raum(&["bench", "--depth", "4"]);
    let nodes = bench_nodes(&a);
    assert!(nodes > 1000, "{nodes}");
    let err = String::from_utf8_lossy(&a.stderr);
    assert_eq!(err.lines().filter(|l| l.starts_with("position ")).count(), 6 * VARIANTS.len(), "{err}");
    assert!(VARIANTS.iter().all(|v| err.contains(v)), "{err}");
    assert_eq!(bench_nodes(&raum(&["bench", "--depth", "4"])), nodes);
    // A different depth is a different signature.
    assert_ne!(bench_nodes(&raum(&["bench", "--depth", "3"])), nodes);
}

/// `raum bench`'s node count at the default depth. Any change to the search,
/// the evaluation or move order changes it; a change meant to leave the search
/// alone must not. When a change is meant to alter the search, put the new
/// count here and in BENCHMARKS.md ("Engine speed") and name it in the commit.
const SIGNATURE: u64 = 3_138_333;

#[test]
fn bench_signature_is_pinned() {
    let nodes = bench_nodes(&raum(&["bench"]));
    assert_eq!(
        nodes, SIGNATURE,
        "the bench signature changed: if the search was meant to change, update SIGNATURE and BENCHMARKS.md"
    );
}

#[test]
fn bench_rejects_a_bad_depth() {
    let o = raum(&["bench", "--depth", "0"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--depth"));
}

#[test]
fn one_variant_benches_add_up_to_the_whole() {
    let all = bench_nodes(&raum(&["bench", "--depth", "3"]));
    let mut sum = 0;
    for v in VARIANTS {
        let o = raum(&["bench", "--depth", "3", "--variant", v]);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        let of_v = |l: &&str| l.starts_with("position ") && l.split_whitespace().nth(2) == Some(v);
        assert_eq!(err.lines().filter(of_v).count(), 6, "{err}");
        sum += bench_nodes(&o);
    }
    assert_eq!(sum, all);
    let o = raum(&["bench", "--variant", "chess"]);
    assert!(!o.status.success());
}
