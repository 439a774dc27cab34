#!/usr/bin/env bash
# The whole test suite: the workspace's tests; the fuzz targets' seed corpus
# replayed through their bodies (fuzz/tests/corpus.rs: fuzz/ is a workspace of
# its own, outside this one); the web app's end-to-end tests in Debian's
# chromium (scripts/browser-test.sh, which installs what they need) against
# the `raum` binary those tests built; then a short run of every fuzz target
# (scripts/fuzz.sh, 20 s each, two at a time), which fails on any crash or hang.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace
# In fuzz/target (or CARGO_TARGET_DIR), with fuzz/'s own profile: sharing the
# workspace's build would save little, since fuzz/Cargo.lock pins other
# versions of syn, clap and anyhow (and so of every crate of Raum's), and
# building them with the workspace's optimised test profile costs more than
# the unoptimised replay does (about 80 s in all on two cores).
cargo test --manifest-path fuzz/Cargo.toml --locked --test corpus
bash scripts/browser-test.sh "${CARGO_TARGET_DIR:-target}/debug/raum"
bash scripts/fuzz.sh 20
