//! `raum tune`: runs on a tiny record file from `raum match` and reports the
//! error before and after.

use raum_engine::EvalParams;
use raum_engine::tune;
use raum_rules::VariantId;
use std::process::Command;

#[test]
fn tune_runs_on_match_records() {
    let dir = std::env::temp_dir().join(format!("raum-tune-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("games.tsv");
    let out_file = dir.join("params.txt");
    let raum = env!("CARGO_BIN_EXE_raum");
    let o = Command::new(raum)
        .args(["match", "--variant", "five-up", "--a", "random", "--b", "greedy", "--games", "6", "--record"])
        .arg(&record)
        .output()
        .expect("raum match runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = Command::new(raum)
        .args(["tune", "--variant", "five-up", "--iterations", "3", "--holdout", "3", "--records"])
        .arg(&record)
        .arg("--out")
        .arg(&out_file)
        .output()
        .expect("raum tune runs");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", String::from_utf8_lossy(&o.stderr));
    let before = number_in(&out, "error before:");
    let after = number_in(&out, "error after:");
    assert!(out.contains("value_P = "), "{out}");
    assert!(out.contains("held-out error before:") && out.contains("held-out error after:"), "{out}");
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert!(written.contains("tempo = "), "{written}");
    // The tuner moved something (the library's tests check that it finds a planted
    // optimum): the listing written is not the built-in terms, and the error it
    // reports for them, in the file's heading too, is the one printed.
    let built_in = EvalParams::for_variant(VariantId::FiveUp);
    let tuned = tune::parse_listing(&built_in, &written).expect("the written listing parses");
    assert_ne!(tuned, built_in, "{written}");
    assert!(
        written.starts_with("# raum tune: ") && written.contains(&format!("error {before:.6} -> {after:.6}")),
        "{written}"
    );
    assert!(after < before, "{out}");
    // The written listing is an evaluation a match player takes, and a start for more tuning.
    let spec = format!("engine:nodes=200,eval={}", out_file.display());
    let o = Command::new(raum).args(["match", "--a", &spec, "--b", "random", "--games", "2"]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = Command::new(raum)
        .args(["tune", "--iterations", "1", "--records"])
        .arg(&record)
        .arg("--start")
        .arg(&out_file)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A game met twice (here: the same file twice) counts once.
    let o =
        Command::new(raum).args(["tune", "--iterations", "1", "--records"]).arg(&record).arg(&record).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("Skipped 6 repeated games") && out.contains("Games: 6 "), "{out}");
    // Quiescence-resolved samples: the positions are replaced, the error still falls.
    let o =
        Command::new(raum).args(["tune", "--iterations", "2", "--resolve", "--records"]).arg(&record).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("Resolved: "), "{out}");
    assert!(number_in(&out, "error after:") < number_in(&out, "error before:"), "{out}");
    // Search labels: reported, and a lambda outside 0..=1 is refused with a clear message.
    let o = Command::new(raum)
        .args(["tune", "--iterations", "1", "--search-labels", "300", "--lambda", "0.7", "--records"])
        .arg(&record)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("Labels: 300-node searches blended with the results (lambda 0.7)"), "{out}");
    let o = Command::new(raum)
        .args(["tune", "--search-labels", "300", "--lambda", "1.5", "--records"])
        .arg(&record)
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--lambda must be between 0 and 1"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The number after `prefix` on the output line starting with it.
fn number_in(out: &str, prefix: &str) -> f64 {
    let line = out.lines().find(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("no '{prefix}' in {out}"));
    line[prefix.len()..].split_whitespace().next().unwrap().parse().unwrap()
}
