#!/usr/bin/env bash
# A long AFL++ campaign of one fuzz target on every core of a machine (issue
# 16: 10^7 executions per target): one main instance and JOBS-1 secondaries
# sharing one output folder, so that what one finds the others build on. Stops
# after SECONDS, or once the instances together have run EXECS inputs.
#
#   scripts/fuzz-parallel.sh TARGET SECONDS [EXECS]
#
# Build the targets first (`scripts/fuzz.sh 0` builds them and runs nothing for
# long; or `cd fuzz && cargo afl build --release --locked`). Environment:
# AFL_FUZZ is the afl-fuzz to run (default: `cargo afl fuzz`; a copy of the one
# cargo-afl built works on another machine of the same architecture), FUZZ_BIN
# the instrumented target (default fuzz/target/release/TARGET), FUZZ_OUT the
# output folder (default fuzz/target/afl-par/TARGET; an existing one is
# resumed), JOBS the number of instances (default: one a core).
#
# Prints each instance's executions and the sum, then every crash and every
# timed-out input that also runs past 10 s when replayed alone; exits non-zero
# if there is one.
set -euo pipefail

main() {
    cd "$(dirname "$0")/.."
    [ $# -ge 2 ] || { echo "usage: scripts/fuzz-parallel.sh TARGET SECONDS [EXECS]" >&2; exit 2; }
    local target=$1 seconds=$2 execs=${3:-0}
    [ -d "fuzz/corpus/$target" ] || { echo "fuzz-parallel.sh: unknown target '$target'" >&2; exit 2; }
    local bin=${FUZZ_BIN:-fuzz/target/release/$target}
    local out=${FUZZ_OUT:-fuzz/target/afl-par/$target}
    local jobs=${JOBS:-$(nproc)}
    [ -x "$bin" ] || { echo "fuzz-parallel.sh: no target binary at $bin (build the targets first)" >&2; exit 2; }
    local fuzz=(cargo afl fuzz)
    [ -n "${AFL_FUZZ:-}" ] && fuzz=("$AFL_FUZZ")

    # Unattended, and the core_pattern is the machine's. Each instance binds
    # a free core of its own (no AFL_NO_AFFINITY): they are the machine's load.
    export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
    # The targets build every variant before the fork server starts.
    export AFL_FORKSRV_INIT_TMOUT=120000
    local input="fuzz/corpus/$target"
    [ -d "$out" ] && input=-
    mkdir -p "$out"

    local pids=() i name role
    for ((i = 0; i < jobs; i++)); do
        if ((i == 0)); then name=main role=-M; else name=s$i role=-S; fi
        "${fuzz[@]}" -i "$input" -o "$out" "$role" "$name" -x "fuzz/dict/$target.dict" -t 2000 -G 8192 \
            -V "$seconds" -- "$bin" >"$out/$name.log" 2>&1 &
        pids+=($!)
        # The main instance makes the shared folders before the others read them.
        ((i == 0)) && sleep 2
    done

    local start=$SECONDS total
    while any_alive "${pids[@]}"; do
        sleep 10
        total=$(sum_execs "$out")
        echo "fuzz-parallel.sh: $target $((SECONDS - start)) s, $total executions"
        if ((execs > 0 && total >= execs)); then
            # SIGINT: each instance writes its final statistics and stops.
            interrupt "${pids[@]}"
            break
        fi
        # An instance that stopped early (a bad build, no shared memory) says why.
        for ((i = 0; i < jobs; i++)); do
            if ! kill -0 "${pids[i]}" 2>/dev/null && ((SECONDS - start < seconds - 5)); then
                name=s$i; ((i == 0)) && name=main
                echo "fuzz-parallel.sh: instance $name stopped early:" >&2
                tail -20 "$out/$name.log" >&2
                interrupt "${pids[@]}"
                wait || true
                exit 1
            fi
        done
    done
    wait || true

    report "$out" "$bin"
}

# SIGINT to each instance: to the afl-fuzz that `cargo afl fuzz` runs as well
# as to cargo, which does not pass the signal on (the instances ran on to
# their time limit, past the executions asked for).
interrupt() {
    local p
    for p in "$@"; do
        pkill -INT -P "$p" 2>/dev/null || true
        kill -INT "$p" 2>/dev/null || true
    done
}

any_alive() {
    local p
    for p in "$@"; do
        kill -0 "$p" 2>/dev/null && return 0
    done
    return 1
}

# The executions of every instance so far (their statistics, written about
# once a minute and when they stop).
sum_execs() {
    local total=0 n f
    for f in "$1"/*/fuzzer_stats; do
        [ -f "$f" ] || continue
        n=$(awk -F: '/^execs_done/ { gsub(/ /, "", $2); print $2 }' "$f")
        total=$((total + ${n:-0}))
    done
    echo "$total"
}

report() {
    local out=$1 bin=$2 f bad=0 crashes hangs rc
    for f in "$out"/*/fuzzer_stats; do
        awk -F: '/^(afl_banner|execs_done|execs_per_sec|corpus_count|saved_crashes|saved_hangs|stability)/ {
            gsub(/^ +| +$/, "", $1); gsub(/^ +| +$/, "", $2); printf "%s=%s ", $1, $2 } END { print "" }' "$f"
    done
    echo "total executions: $(sum_execs "$out")"
    crashes=$(find "$out" -path '*/crashes/id*' -type f)
    if [ -n "$crashes" ]; then
        echo "crashes (replay with: $bin < INPUT):"
        echo "$crashes"
        bad=1
    fi
    # A timeout on a loaded machine is not a hang: replay each alone, with 10 s
    # for the input beyond the target's warm-up (it builds every variant before
    # it reads its input, seconds on a busy machine), timed on an empty input.
    hangs=$(find "$out" -path '*/hangs/id*' -type f)
    local warm=0 start
    if [ -n "$hangs" ]; then
        start=$SECONDS
        "$bin" </dev/null >/dev/null 2>&1 || true
        warm=$((SECONDS - start))
        echo "warm-up (an empty input): about $warm s"
    fi
    for f in $hangs; do
        rc=0
        timeout $((warm + 10)) "$bin" <"$f" >/dev/null 2>&1 || rc=$?
        case $rc in
            0) echo "timed out under load, runs alone: $f" ;;
            124) echo "hang (over 10 s beyond the warm-up, alone): $f"; bad=1 ;;
            *) echo "timed out, and crashes alone (exit $rc): $f"; bad=1 ;;
        esac
    done
    return "$bad"
}

main "$@"
