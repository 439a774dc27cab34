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

. scripts/lib/release-server.sh
"$release/examples/load" --url "$url" --games "$games" --plies 120 --think-ms 250 --max-p99-ms 1000 >"$dir/load.out" 2>&1 &
load=$!
python3 scripts/review-timing.py "$url" "$plies" "$variant"
wait $load || true
sed 's/^/load: /' "$dir/load.out"
