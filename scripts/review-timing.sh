#!/usr/bin/env bash
# The review's time and its effect on engine moves, under load (issue 38):
# starts a release server on a free port with a fresh database, runs the
# load script's client against it (GAMES online games between people, as
# scripts/load.sh plays them), and meanwhile scripts/review-timing.py: a
# finished game of PLIES plies reviewed while another game's engine replies
# are timed. Prints the engine replies' times with and without the review,
# the review's time, and the load's move round trips (BENCHMARKS.md).
#
#   scripts/review-timing.sh [PLIES] [GAMES] [VARIANT]     defaults: 120 200 five-up
set -euo pipefail
cd "$(dirname "$0")/.."
plies=${1:-120}
games=${2:-200}
variant=${3:-five-up}

cargo build --release -q -p raum-cli
cargo build --release -q -p raum-server --example load
ulimit -n 4096 2>/dev/null || true
dir=$(mktemp -d)
out="$dir/serve.out"
target/release/raum serve --port 0 --no-address-limits --db "$dir/games.db" >"$out" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$dir"' EXIT
for _ in $(seq 100); do
    grep -q 'http://' "$out" 2>/dev/null && break
    sleep 0.1
done
url=$(grep -o 'http://[^ ]*' "$out") || { cat "$out" >&2; echo "review-timing.sh: the server did not start" >&2; exit 1; }
target/release/examples/load --url "$url" --games "$games" --plies 120 --think-ms 250 --max-p99-ms 1000 >"$dir/load.out" 2>&1 &
load=$!
python3 scripts/review-timing.py "$url" "$plies" "$variant"
wait $load || true
sed 's/^/load: /' "$dir/load.out"
