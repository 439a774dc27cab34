#!/usr/bin/env bash
# Learns the evaluation of each game named (default: every two-player game whose
# terms were not fitted to games; BENCHMARKS.md, "Learned evaluations") with
# `raum lab learn`, one after another, each in target/learn/<game>/, at the lowest
# CPU priority. A run stopped anywhere goes on where it stopped when started again.
#
#   scripts/learn-all.sh [GAME...]
#
# LEARN_ARGS adds arguments to every `raum lab learn` (e.g. "--games 1000 --nodes 1500");
# RAUM is the binary (default: target/release/raum, built first).
set -euo pipefail
cd "$(dirname "$0")/.."

games=("$@")
if [ ${#games[@]} -eq 0 ]; then
    games=(five-up-cylinder five-up-torus five-up-unicorn forced-3d wing-table wing-table-alt triquetral
        pyramid octahedral book-3d betza-upright betza-mixed betza-flat betza-very3d)
fi
raum=${RAUM:-target/release/raum}
if [ -z "${RAUM:-}" ]; then
    cargo build --release --quiet -p raum-cli
fi
for g in "${games[@]}"; do
    echo "== $g ($(date -u +%H:%M:%S))"
    # shellcheck disable=SC2086
    nice -n 19 "$raum" lab learn --variant "$g" --dir "target/learn/$g" ${LEARN_ARGS:-}
done
