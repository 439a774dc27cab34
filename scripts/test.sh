#!/usr/bin/env bash
# The whole test suite: the workspace's tests; the web app's end-to-end tests
# in Debian's chromium (scripts/browser-test.sh, which installs what they need)
# against the `raum` binary those tests built; then a short run of every fuzz
# target (scripts/fuzz.sh, 20 s each, two at a time), which fails on any crash or hang.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace
bash scripts/browser-test.sh "${CARGO_TARGET_DIR:-target}/debug/raum"
bash scripts/fuzz.sh 20
