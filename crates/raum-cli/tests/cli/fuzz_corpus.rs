//! The fuzz targets' seed corpus (`fuzz/corpus/<target>/`) replayed through
//! the targets' own bodies (`fuzz/src/lib.rs`, compiled here as a module), so
//! that a seed that breaks an invariant is a plain test failure of the
//! workspace's suite. fuzz/ is a workspace of its own, built by cargo-afl
//! (scripts/fuzz.sh); replaying its seeds here costs no build of its own.

#[allow(dead_code)]
#[path = "../../../../fuzz/src/lib.rs"]
mod bodies;

use std::path::Path;

fn replay(target: &str, body: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus").join(target);
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("corpus entry").path();
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        body(&data);
        seen += 1;
    }
    assert!(seen > 0, "no seeds in {}", dir.display());
}

#[test]
fn position_seeds() {
    replay("position", bodies::position);
}

#[test]
fn moves_seeds() {
    replay("moves", bodies::moves);
}

#[test]
fn protocol_seeds() {
    replay("protocol", bodies::protocol);
}

#[test]
fn record_seeds() {
    replay("record", bodies::record);
}

#[test]
fn variant_seeds() {
    replay("variant", bodies::variant);
}
