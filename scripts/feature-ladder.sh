#!/usr/bin/env bash
# Each search feature against the engine without it: `raum match` between
# engine:nodes=N,on=FEATURE and engine:nodes=N,off=FEATURE (the other features
# as the variant's defaults), for every feature and variant.
# Usage: scripts/feature-ladder.sh [RAUM_BINARY] (env: NODES, GAMES, JOBS, VARIANTS, FEATURES)
set -euo pipefail
raum=${1:-target/release/raum}
nodes=${NODES:-5000}
games=${GAMES:-400}
jobs=${JOBS:-2}
variants=${VARIANTS:-"five-up raumschach"}
features=${FEATURES:-"aspiration pvs qsearch tt check-extension null-move lmr mvv-lva killers history reverse-futility futility lmp delta"}
for v in $variants; do
  for f in $features; do
    out=$("$raum" match --variant "$v" --a "engine:nodes=$nodes,on=$f" --b "engine:nodes=$nodes,off=$f" \
      --games "$games" --concurrency "$jobs" --seed 1 2>/dev/null)
    games_line=$(grep '^Games:' <<<"$out")
    elo=$(grep '^Elo:' <<<"$out" | sed 's/^Elo: //')
    sprt=$(grep '^SPRT:' <<<"$out" | sed 's/^SPRT: //; s/ (bounds.*): /: /; s/  \[.*//')
    echo "| $v | $f | ${games_line#Games: } | $elo | $sprt |"
  done
done
