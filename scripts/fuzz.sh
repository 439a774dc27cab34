#!/usr/bin/env bash
# Coverage-guided fuzzing of Raum's text parsers (issue 16): builds the targets
# in fuzz/ with cargo-afl (AFL++ on stable Rust) and runs each for SECONDS
# (default 60) from its seed corpus, fuzz/corpus/<target>.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]      targets: position moves protocol record variant
#   scripts/fuzz.sh --build                    only install cargo-afl and build the targets
#
# Exits non-zero if any target found a crash (a panic: a parser's or an
# invariant's) or a hang, after printing each input's path; replay one with
# `fuzz/target/release/<target> < <input>`.
#
# Environment: FUZZ_TARGET_DIR (default fuzz/target) is where the targets are
# built, kept apart from the workspace's target directory because cargo-afl
# builds everything with its own flags; FUZZ_OUT (default
# $FUZZ_TARGET_DIR/afl-out) is where AFL++ writes; FUZZ_EXECS=N ends each
# target's run after about N executions (or SECONDS, if that comes first and
# is not 0); FUZZ_JOBS=N runs N targets at a time (default: one a core);
# AFL_OPT_LEVEL (cargo-afl's, default 3) is the targets' optimisation level.
set -euo pipefail

main() {
    cd "$(dirname "$0")/.."

    ALL_TARGETS=(position moves protocol record variant)
    # cargo-afl builds its own AFL++ (4.40c for this version) from source: the
    # compiler runtime it links into the targets must match its afl-fuzz, so
    # Debian's older afl++ package cannot stand in for it.
    CARGO_AFL_VERSION=0.18.2

    build_only=0
    if [ "${1:-}" = --build ]; then
        build_only=1
        shift
    fi
    seconds=${1:-60}
    shift || true
    targets=("$@")
    [ ${#targets[@]} -gt 0 ] || targets=("${ALL_TARGETS[@]}")
    for t in "${targets[@]}"; do
        [ -d "fuzz/corpus/$t" ] || { echo "fuzz.sh: unknown target '$t' (targets: ${ALL_TARGETS[*]})" >&2; exit 2; }
    done

    # AFL++ is built with make and a C compiler.
    if ! command -v make >/dev/null || ! command -v cc >/dev/null; then
        apt-get update -q && apt-get install -y -q make gcc
    fi
    if ! cargo afl --version 2>/dev/null | grep -q "cargo-afl $CARGO_AFL_VERSION"; then
        cargo install cargo-afl --version "$CARGO_AFL_VERSION" --locked
    fi
    # Installing builds AFL++ and its runtime for the current rustc; a later rustc
    # needs them built again ('already built' is the usual answer).
    if ! out=$(cargo afl config --build 2>&1); then
        case "$out" in
            *"already built"*) ;;
            *) echo "$out" >&2; exit 1 ;;
        esac
    fi

    target_dir=${FUZZ_TARGET_DIR:-$PWD/fuzz/target}
    out_root=${FUZZ_OUT:-$target_dir/afl-out}
    (cd fuzz && CARGO_TARGET_DIR="$target_dir" cargo afl build --release --locked)
    [ "$build_only" = 0 ] || exit 0

    # Non-interactive: no status screen, no CPU-governor or core-dump checks (CI
    # machines are shared and their core_pattern is not ours to change), no core
    # binding (another fuzzer or the other core's work may hold one).
    export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
    # Each target builds every variant before its fork server starts: seconds,
    # more on a loaded machine, than AFL++'s default 10 s allows.
    export AFL_FORKSRV_INIT_TMOUT=120000

    mkdir -p "$out_root"
    # The targets run side by side, FUZZ_JOBS at a time (default: one a core),
    # each on its own output folder and log; then each is judged in turn.
    jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
    running=0
    for t in "${targets[@]}"; do
        if [ "$running" -ge "$jobs" ]; then
            wait -n || true
            running=$((running - 1))
        fi
        run_target "$t" &
        running=$((running + 1))
    done
    wait || true

    failed=0
    for t in "${targets[@]}"; do
        judge "$t" || failed=1
    done
    exit $failed
}

# Runs AFL++ on target $1 (a background job of main); its exit status goes to
# $out_root/$1.status.
run_target() {
    local t=$1 out="$out_root/$1" timeout_ms=2000 status=0
    rm -rf "$out"
    # The protocol target runs searches (capped at a few hundred nodes each),
    # so an input may take longer than a parse.
    [ "$t" = protocol ] && timeout_ms=5000
    local limit=(-V "$seconds")
    if [ -n "${FUZZ_EXECS:-}" ]; then
        # SECONDS 0: executions alone end the run; otherwise whichever comes first.
        if [ "$seconds" -gt 0 ]; then limit+=(-E "$FUZZ_EXECS"); else limit=(-E "$FUZZ_EXECS"); fi
    fi
    echo "== fuzz $t: ${limit[*]}"
    # -G: inputs longer than the targets read only cost time.
    cargo afl fuzz -i "fuzz/corpus/$t" -o "$out" -x "fuzz/dict/$t.dict" -t "$timeout_ms" -G 8192 "${limit[@]}" \
        "$target_dir/release/$t" >"$out_root/$t.log" 2>&1 || status=$?
    echo "$status" >"$out_root/$t.status"
}

# Reports target $1's run; non-zero if AFL++ failed or found a crash or a hang.
judge() {
    local t=$1 out="$out_root/$1" failed=0
    if [ "$(cat "$out_root/$t.status" 2>/dev/null || echo 1)" != 0 ]; then
        tail -n 30 "$out_root/$t.log" >&2
        echo "fuzz $t: afl-fuzz failed (log: $out_root/$t.log)" >&2
        return 1
    fi
    local stats="$out/default/fuzzer_stats"
    field() { awk -v k="$1" '$1 == k { print $3 }' "$stats"; }
    echo "fuzz $t: $(field execs_done) executions in $(field run_time) s ($(field execs_per_sec) execs/s)," \
        "corpus $(field corpus_count), crashes $(field saved_crashes), hangs $(field saved_hangs)"
    for f in "$out"/default/crashes/id:*; do
        [ -e "$f" ] || continue
        echo "fuzz $t: FOUND a crash: $f" >&2
        failed=1
    done
    # A timeout on a loaded machine is not a hang: an input that runs to its end
    # when replayed alone (the target builds every variant first, then runs it
    # once) is reported but does not fail the run.
    for f in "$out"/default/hangs/id:*; do
        [ -e "$f" ] || continue
        if timeout 120 "$target_dir/release/$t" <"$f" >/dev/null 2>&1; then
            echo "fuzz $t: timed out under AFL++ but ends when replayed: $f" >&2
        else
            echo "fuzz $t: FOUND a hang: $f" >&2
            failed=1
        fi
    done
    return $failed
}

# Read whole before it runs, so that editing this file during a long run
# cannot change what the run does next.
main "$@"
