//! Replays the seed corpus through the targets' bodies without AFL++, so that
//! a seed that breaks an invariant shows as a plain test failure:
//! `cargo test --manifest-path fuzz/Cargo.toml`.

use std::path::Path;

fn replay(target: &str, body: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(target);
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
    replay("position", raum_fuzz::position);
}

#[test]
fn moves_seeds() {
    replay("moves", raum_fuzz::moves);
}

#[test]
fn protocol_seeds() {
    replay("protocol", raum_fuzz::protocol);
}

#[test]
fn record_seeds() {
    replay("record", raum_fuzz::record);
}
