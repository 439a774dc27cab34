#!/usr/bin/env bash
# A bounded load on `raum serve` (issue 15): starts a release server on a free
# port with a fresh database, plays GAMES concurrent online games of PLIES
# moves each through crates/raum-server/examples/load.rs (both players on
# WebSockets, no engine; before each move a player thinks for a random time,
# uniform in 0..2*THINK_MS), prints the move round-trip percentiles (POST of a
# move to the opponent's socket delivering it) and fails if the 99th is over
# MAX_P99_MS. THINK_MS 0 makes every game move as fast as the server answers:
# a saturation test that measures throughput.
#
#   scripts/load.sh [GAMES] [PLIES] [THINK_MS] [MAX_P99_MS]      defaults: 200 20 250 50
#
# RAUM_LOAD_DB=postgres runs the server on a scratch PostgreSQL (scripts/postgres.sh);
# RAUM_LOAD_DB=cluster runs two servers on one behind haproxy (scripts/cluster.sh), and the
# games are played through the balancer. RAUM_RELEASE_DIR=FOLDER takes the binaries from a
# release build there rather than building them (scripts/lib/release-server.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
plies=${2:-20}
think=${3:-250}
max_p99=${4:-50}

. scripts/lib/release-server.sh
"$release/examples/load" --url "$url" --games "$games" --plies "$plies" --think-ms "$think" --max-p99-ms "$max_p99"
