#!/usr/bin/env bash
# The skill levels' ladder of issue 18 (docs/levels-ladder.tsv, BENCHMARKS.md "Levels"):
# the anchors (greedy against random, level 1 and level 2 against greedy), then each level
# against the one below, GAMES games each, in each variant. Games run to MAX_PLIES (1000: the
# weakest players' games are long, and at the default 400 the greedy capturer's wins end as
# adjudicated draws). Prints one row a match in the ladder file's format, with the commit of
# the working tree and the binary's `raum bench --variant V` signature (append them to it, write
# each `engine:level=K` out as the choice the level makes, which the test the_scale_is_the_ladder
# names when it meets one, then run scripts/levels-scale.py for the scale and the plot).
# Usage: scripts/levels-ladder.sh [RAUM_BINARY]
#   (env: GAMES=200, JOBS=2, SEED=11, MAX_PLIES=1000, VARIANTS="five-up raumschach",
#    LEVELS="2 3 ... 15": the upper level of each step to play, ANCHORS=0 to skip the
#    matches against greedy, MATCH_ARGS: more `raum match` options, such as resign
#    adjudication for the top levels' long searches)
set -euo pipefail
raum=${1:-target/release/raum}
games=${GAMES:-200}
jobs=${JOBS:-2}
seed=${SEED:-11}
max_plies=${MAX_PLIES:-1000}
variants=${VARIANTS:-"five-up raumschach"}
levels=${LEVELS:-"2 3 4 5 6 7 8 9 10 11 12 13 14 15"}
anchors=${ANCHORS:-1}
row() {
  local v=$1 upper=$2 lower=$3 a=$4 b=$5 res w d l
  # shellcheck disable=SC2086
  res=$("$raum" match --variant "$v" --a "$a" --b "$b" --games "$games" --seed "$seed" \
    --max-plies "$max_plies" --concurrency "$jobs" ${MATCH_ARGS:-} 2>/dev/null | grep '^Games:')
  read -r w d l < <(sed -E 's/.*W: ([0-9]+) +D: ([0-9]+) +L: ([0-9]+).*/\1 \2 \3/' <<<"$res")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$v" "$upper" "$lower" "$a" "$b" "$w" "$d" "$l" \
    "$commit" "$(signature "$v")"
}
commit=$(git rev-parse --short=7 HEAD)$(git diff --quiet HEAD -- crates || echo "+changes")
signature() { "$raum" bench --variant "$1" 2>/dev/null | tail -1 | cut -d' ' -f2; }
for v in $variants; do
  if [ "$anchors" = 1 ]; then
    row "$v" greedy random greedy random
    row "$v" L1 greedy engine:level=1 greedy
  fi
  for l in $levels; do
    row "$v" "L$l" "L$((l - 1))" "engine:level=$l" "engine:level=$((l - 1))"
  done
  if [ "$anchors" = 1 ]; then
    row "$v" L2 greedy engine:level=2 greedy
  fi
done
