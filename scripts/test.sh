#!/usr/bin/env bash
# The whole test suite: the workspace's tests (among them the fuzz targets'
# seed corpus replayed through their bodies, crates/raum-cli/tests/cli/
# fuzz_corpus.rs); the web app's end-to-end tests in Debian's chromium
# (scripts/browser-test.sh, which installs what they need) against the `raum`
# binary those tests built, run beside the workspace's tests; then a short run of
# every fuzz target (scripts/fuzz.sh, 20 s each, all at once), which fails on any
# crash or hang.
set -euo pipefail
cd "$(dirname "$0")/.."

# The fuzz targets at cargo-afl's opt-level 3: their build runs beside the
# tests (below), and each target's start (it builds every game's tables before
# AFL++'s fork servers, three of them) takes 7.7 s at opt-level 3 against
# 16.5 s at 1 (BENCHMARKS.md, the test suite's time).
export AFL_OPT_LEVEL="${AFL_OPT_LEVEL:-3}"

# Fetching chromium and playwright-core waits on the network, not the CPU: it
# runs beside the build, and the browser tests wait for it.
install_log="$(mktemp)"
bash scripts/browser-test.sh --install >"$install_log" 2>&1 &
install_pid=$!
# Installing cargo-afl and building the fuzz targets runs beside the tests at
# the lowest priority: it takes the CPU that the workspace's build leaves idle
# (its serial stretches) and that its tests leave idle (single-threaded tests
# at the end of a binary). BENCHMARKS.md, the test suite's time.
fuzz_log="$(mktemp)"
nice -n 19 bash scripts/fuzz.sh --build >"$fuzz_log" 2>&1 &
fuzz_pid=$!
trap 'kill "$install_pid" "$fuzz_pid" 2>/dev/null || true' EXIT

# Build every test (and the `raum` binary the browser tests drive) first, then
# run the web app's browser tests beside the workspace's tests: the browser
# tests mostly wait (on pages, on the engine), the workspace's tests leave a
# core idle at the end of each binary, and the two overlap by most of their
# length (BENCHMARKS.md, the test suite's time).
cargo test --workspace --no-run

if ! wait "$install_pid"; then
    cat "$install_log" >&2
    echo "test.sh: installing what the browser tests need failed" >&2
    exit 1
fi
rm -f "$install_log"
browser_log="$(mktemp)"
bash scripts/browser-test.sh "${CARGO_TARGET_DIR:-target}/debug/raum" >"$browser_log" 2>&1 &
browser_pid=$!
trap 'kill "$install_pid" "$fuzz_pid" "$browser_pid" 2>/dev/null || true' EXIT

cargo_status=0
cargo test --workspace || cargo_status=$?
browser_status=0
wait "$browser_pid" || browser_status=$?
echo "== browser tests (scripts/browser-test.sh), run beside the workspace's tests:"
cat "$browser_log"
rm -f "$browser_log"
if [ "$cargo_status" != 0 ] || [ "$browser_status" != 0 ]; then
    echo "test.sh: cargo test exited $cargo_status, the browser tests $browser_status" >&2
    exit 1
fi
if ! wait "$fuzz_pid"; then
    cat "$fuzz_log" >&2
    echo "test.sh: building the fuzz targets failed" >&2
    exit 1
fi
rm -f "$fuzz_log"
# All five at once on two cores: each target's start (three fork servers, each
# building every game's tables first) is most of a short run, and one round of
# five costs less than two rounds of three (BENCHMARKS.md, the test suite's time).
FUZZ_JOBS=${FUZZ_JOBS:-5} bash scripts/fuzz.sh 20
