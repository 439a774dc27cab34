#!/usr/bin/env bash
# The whole test suite: the workspace's tests (among them the fuzz targets'
# seed corpus replayed through their bodies, crates/raum-cli/tests/cli/
# fuzz_corpus.rs); the web app's end-to-end tests in Debian's chromium
# (scripts/browser-test.sh, which installs what they need) against the `raum`
# binary those tests built, run beside the workspace's tests; the server's tests
# again on PostgreSQL (a scratch cluster on loopback, scripts/postgres.sh, which
# installs Debian's postgresql where it is missing), with the command line's
# cluster test (crates/raum-cli/tests/cli/cluster.rs: two `raum serve` on that
# PostgreSQL behind haproxy, Debian's, installed where missing by
# scripts/cluster.sh install); then a short run of every
# fuzz target (scripts/fuzz.sh, 20 s each, all at once), which fails on any
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
# Installing cargo-afl and building the fuzz targets runs beside the workspace's
# build, at the same priority: its own serial stretches (AFL++'s
# build, the last crates, five links) then fall where the workspace's build
# keeps the other core busy, and it is done before the fuzzers need it (at the
# lowest priority it got too little CPU while the tests ran and was still
# building after them). BENCHMARKS.md, the test suite's time.
fuzz_log="$(mktemp)"
bash scripts/fuzz.sh --build >"$fuzz_log" 2>&1 &
fuzz_pid=$!
# A scratch PostgreSQL for the server's tests' second run, and haproxy for the
# cluster test, started and installed beside the build (one after the other: two
# apt-gets at once would wait on each other's lock).
pg_dir="$(mktemp -d)"
pg_url="$(mktemp)"
pg_log="$(mktemp)"
haproxy_path="$(mktemp)"
{ bash scripts/postgres.sh start "$pg_dir" >"$pg_url" && bash scripts/cluster.sh install >"$haproxy_path"; } 2>"$pg_log" &
pg_pid=$!
stop_all() {
    kill "$install_pid" "$fuzz_pid" "${browser_pid:-}" 2>/dev/null || true
    wait "$pg_pid" 2>/dev/null || true
    bash scripts/postgres.sh stop "$pg_dir" || true
}
trap stop_all EXIT

# Build every test (and the `raum` binary the browser tests drive) first, with
# the list of test programs. The web app's browser tests then run beside the
# test programs that only compute (the rules, the generator's differentials, the
# engine, the soak), which fill the CPU the browser leaves idle while it waits
# on pages and the engine; the command line's and the server's programs, some
# of which time engines on clocks or sockets, run after, alone; then the
# documentation's examples (BENCHMARKS.md, the test suite's time). Each program
# runs as `cargo test` runs it: in its package's folder.
programs="$(mktemp)"
cargo test --workspace --no-run --message-format=json-render-diagnostics | python3 -c '
import json, os, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["profile"]["test"] and m.get("executable"):
        package = m["package_id"].split("#")[0].rsplit("/", 1)[-1]
        timed = package in ("raum-cli", "raum-server")
        print("timed" if timed else "computing", os.path.dirname(m["manifest_path"]), m["executable"], sep="\t")
        if package == "raum-server":
            print("postgres", os.path.dirname(m["manifest_path"]), m["executable"], "", sep="\t")
        if package == "raum-cli" and m["target"]["name"] == "cli":
            print("postgres", os.path.dirname(m["manifest_path"]), m["executable"], "cluster::", sep="\t")
' >"$programs"

# run_programs KIND: runs the test programs of that kind in turn (those given a
# test-name filter, only the tests it matches); non-zero if any failed.
run_programs() {
    local kind=$1 status=0 k dir exe filter
    while IFS=$'\t' read -r k dir exe filter; do
        [ "$k" = "$kind" ] || continue
        echo "     Running $exe${filter:+ $filter}"
        (cd "$dir" && CARGO_MANIFEST_DIR="$dir" "$exe" ${filter:+"$filter"}) || status=1
    done <"$programs"
    return $status
}

if ! wait "$install_pid"; then
    cat "$install_log" >&2
    echo "test.sh: installing what the browser tests need failed" >&2
    exit 1
fi
rm -f "$install_log"
browser_log="$(mktemp)"
bash scripts/browser-test.sh "${CARGO_TARGET_DIR:-target}/debug/raum" >"$browser_log" 2>&1 &
browser_pid=$!

computing_status=0
run_programs computing || computing_status=$?
browser_status=0
wait "$browser_pid" || browser_status=$?
echo "== browser tests (scripts/browser-test.sh), run beside the tests above:"
cat "$browser_log"
rm -f "$browser_log"
timed_status=0
run_programs timed || timed_status=$?
# The server's tests again, every one on PostgreSQL (tests/api.rs and the stores'
# unit tests), and the command line's cluster test, which runs only there.
postgres_status=0
if wait "$pg_pid"; then
    echo "== the server's tests and the cluster test on PostgreSQL ($(cat "$pg_url"))"
    RAUM_TEST_POSTGRES="$(cat "$pg_url")" RAUM_TEST_HAPROXY="$(cat "$haproxy_path")" run_programs postgres ||
        postgres_status=$?
else
    cat "$pg_log" >&2
    echo "test.sh: starting PostgreSQL or installing haproxy failed" >&2
    postgres_status=1
fi
rm -f "$programs" "$pg_url" "$pg_log" "$haproxy_path"
if [ "$computing_status" != 0 ] || [ "$browser_status" != 0 ] || [ "$timed_status" != 0 ] ||
    [ "$postgres_status" != 0 ]; then
    echo "test.sh: a test failed (the computing tests $computing_status, the browser tests $browser_status," \
        "the command line's and server's $timed_status, the server's on PostgreSQL $postgres_status)" >&2
    exit 1
fi
cargo test --workspace --doc

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
