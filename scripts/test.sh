#!/usr/bin/env bash
# The whole test suite: the workspace's tests, then a short run of every fuzz
# target (scripts/fuzz.sh, 60 s each), which fails on any crash or hang.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace
bash scripts/fuzz.sh 60
