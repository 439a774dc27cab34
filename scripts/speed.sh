#!/usr/bin/env bash
# The engine-speed measurements of BENCHMARKS.md ("Engine speed"): single-thread nodes/s
# over `raum bench -v five-up -d 9`, then the Five Up bench middlegame (position 6) over
# `raum uci` for 5 s with one thread, with two, and as two one-thread processes at once.
# Run it with the machine otherwise idle: ROUNDS=3 scripts/speed.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
R=target/release/raum
FEN="rwk2|ppq2|5|5|4B/5|2pgp|ppnpp|5|5/2n2|2p2|5|3P1|5/5|5|1P2P|PP1GP|3N1/2Q2|P4|3W1|1P1P1|R1K2 w Kk Ad3@Bd3 0 18"
# nodes/s of the last completed iteration of a 5-second search with $1 threads
uci() {
  printf 'uci\nsetoption name UCI_Variant value five-up\nsetoption name Hash value 64\nsetoption name Threads value %s\nposition fen %s\ngo movetime 5000\n' "$1" "$FEN" \
    | "$R" uci | grep '^info depth' | tail -1 | sed 's/.* nps \([0-9]*\).*/\1/'
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in $(seq "${ROUNDS:-3}"); do
  bench=$("$R" bench -v five-up -d 9 2>/dev/null | sed 's/.* nodes \([0-9]*\) nps/\1/')
  one=$(uci 1)
  two=$(uci 2)
  uci 1 > "$tmp/a" & uci 1 > "$tmp/b"; wait
  pair=$(( $(cat "$tmp/a") + $(cat "$tmp/b") ))
  echo "round $r: bench -d 9 $bench nps; 1 thread $one; 2 threads $two ($(( two * 100 / one ))%); two processes $pair"
done
