//! `raum lab` (issue 36): the coverage count is Aikin's for Five Up; a study
//! split into four shards and merged equals the study played whole; a study
//! stopped and resumed equals one played at once; a file of another study is
//! refused, and so are bad shards.

use super::run::{raum, stderr, stdout};
use std::path::PathBuf;

/// A scratch file's path, removed first.
fn scratch(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("raum-lab-{name}-{}.db", std::process::id()));
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", p.display()));
    }
    p
}

/// A small balance study's arguments, kept in `db`.
fn balance<'a>(db: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args =
        vec!["lab", "balance", "--games", "24", "--player", "engine:nodes=300", "--max-plies", "80", "--db", db];
    args.extend_from_slice(extra);
    args
}

#[test]
fn five_up_coverage_is_aikins_count() {
    let out = raum(&["lab", "coverage", "--variant", "five-up"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("coverage 612 from the centre, density 4.90"), "{text}");
    assert!(text.contains("Aikin's count: 612"), "{text}");
    // every built-in game has a line
    let all = stdout(&raum(&["lab", "coverage"]));
    for id in ["five-up", "raumschach", "octahedral", "betza-upright", "book-3d", "triquetral-6p"] {
        assert!(all.lines().any(|l| l.starts_with(id)), "{id}: {all}");
    }
}

#[test]
fn shards_merged_equal_the_whole_study_and_a_resumed_study_equals_one_run() {
    let whole = scratch("whole");
    let w = whole.to_str().expect("path");
    let once = raum(&balance(w, &[]));
    assert!(once.status.success(), "{}", stderr(&once));
    let report = stdout(&once);
    assert!(report.contains("Balance of five-up: 24 self-play games"), "{report}");

    let shards: Vec<PathBuf> = (1..=4).map(|i| scratch(&format!("shard{i}"))).collect();
    for (i, s) in shards.iter().enumerate() {
        let shard = format!("{}/4", i + 1);
        let out = raum(&balance(s.to_str().expect("path"), &["--shard", &shard]));
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stdout(&out).is_empty(), "a shard alone reports nothing");
        assert!(stderr(&out).contains("6 to play now (shard"), "{}", stderr(&out));
    }
    let merged = scratch("merged");
    let m = merged.to_str().expect("path");
    let mut args = vec!["lab", "merge", m];
    args.extend(shards.iter().map(|s| s.to_str().expect("path")));
    let out = raum(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&raum(&balance(m, &[]))), report, "four shards merged");

    // Stopped after 10 games, then resumed.
    let resumed = scratch("resumed");
    let r = resumed.to_str().expect("path");
    let first = raum(&balance(r, &["--max-new", "10"]));
    assert!(first.status.success() && stdout(&first).is_empty(), "{}", stderr(&first));
    assert!(stderr(&first).contains("10 of 24 games kept"), "{}", stderr(&first));
    let second = raum(&balance(r, &[]));
    assert!(stderr(&second).contains("24 games in the study, 10 kept, 14 to play now"), "{}", stderr(&second));
    assert_eq!(stdout(&second), report, "stopped and resumed");

    // Another study's file is refused; so is a bad shard.
    let other = raum(&["lab", "balance", "--games", "8", "--db", w]);
    assert!(!other.status.success());
    assert!(stderr(&other).contains("holds another study's games"), "{}", stderr(&other));
    let bad = raum(&balance(w, &["--shard", "5/4"]));
    assert!(stderr(&bad).contains("--shard 5/4: expected I/N"), "{}", stderr(&bad));
}

/// `raum lab learn`: the three stages write their files, the report gives a
/// verdict, and a second run keeps every stage instead of playing again.
#[test]
fn learn_keeps_each_stage_and_reports_a_verdict() {
    let dir = std::env::temp_dir().join(format!("raum-lab-learn-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().expect("path");
    let args = [
        "lab",
        "learn",
        "--variant",
        "five-up-cylinder",
        "--dir",
        d,
        "--games",
        "16",
        "--nodes",
        "150",
        "--max-plies",
        "60",
        "--iterations",
        "2",
        "--match-games",
        "8",
        "--concurrency",
        "2",
    ];
    let first = raum(&args);
    assert!(first.status.success(), "{}", stderr(&first));
    let games = std::fs::read_to_string(dir.join("selfplay-001.tsv")).expect("selfplay-001.tsv");
    assert_eq!(games.lines().count(), 16, "{games}");
    let fit = std::fs::read_to_string(dir.join("fit.txt")).expect("fit.txt");
    // The fit reads the 16 games less any a pair repeated (the same moves from one opening).
    let fitted: usize = fit
        .strip_prefix("# raum tune: ")
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{fit}"));
    assert!((8..=16).contains(&fitted) && fit.contains("value_Q = "), "{fit}");
    let report = std::fs::read_to_string(dir.join("report.md")).expect("report.md");
    assert!(report.contains("| value_Q |") && report.contains("The fit (A) against the built-in terms"), "{report}");
    assert!(report.contains("**Keep the built-in terms**") || report.contains("**Adopt the fit.**"), "{report}");
    assert!(stdout(&first).trim_end().ends_with(report.trim_end()), "the report is printed last");

    let again = raum(&args);
    assert!(again.status.success(), "{}", stderr(&again));
    let said = stderr(&again);
    for kept in ["selfplay-001.tsv kept", "fit.txt kept", "match.txt kept"] {
        assert!(said.contains(kept), "{kept}: {said}");
    }
    assert_eq!(std::fs::read_to_string(dir.join("report.md")).expect("report.md"), report);

    let bad = raum(&["lab", "learn", "--variant", "triquetral-3p", "--dir", d]);
    assert!(!bad.status.success());
    assert!(stderr(&bad).contains("two-player games"), "{}", stderr(&bad));
    std::fs::remove_dir_all(&dir).expect("removing the folder");
}
