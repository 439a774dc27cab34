#!/usr/bin/env bash
# The web server's footprint for a first visitor: starts `RAUM_BINARY serve`
# on a fresh database on loopback, times the first GET /api/variants, makes
# the lobby's other requests, prints the resident memory, and stops it.
#
#   scripts/serve-footprint.sh RAUM_BINARY [PORT]
set -euo pipefail
binary=$1
port=${2:-38200}
dir=$(mktemp -d)
"$binary" serve --port "$port" --db "$dir/games.db" >/dev/null 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
first=$(curl -s -o /dev/null -w "%{time_total}" "http://127.0.0.1:$port/api/variants")
for p in / /static/lobby.js /api/games /api/variant-examples /api/variants; do
    curl -s -o /dev/null "http://127.0.0.1:$port$p"
done
rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
echo "first GET /api/variants: ${first} s; resident memory after the lobby: $((rss / 1024)) MB"
