#!/usr/bin/env bash
# The strength ladder of issue 3 and issue 12: the engine at a fixed time a move
# against `random` and `greedy`, for each variant, with balanced random openings.
# Prints one Markdown table row per match; keeps the game records in $OUT.
# Usage: scripts/ladder.sh [RAUM_BINARY]
#   (env: MOVETIME=100, GAMES=100, JOBS=2, SEED=11, OUT=ladder-records,
#    VARIANTS="octahedral pyramid book-3d betza-upright betza-mixed betza-flat betza-very3d",
#    OPPONENTS="random greedy")
set -euo pipefail
raum=${1:-target/release/raum}
movetime=${MOVETIME:-100}
games=${GAMES:-100}
jobs=${JOBS:-2}
seed=${SEED:-11}
out=${OUT:-ladder-records}
variants=${VARIANTS:-"octahedral pyramid book-3d betza-upright betza-mixed betza-flat betza-very3d"}
opponents=${OPPONENTS:-"random greedy"}
mkdir -p "$out"
for v in $variants; do
  for o in $opponents; do
    record="$out/$v-$o.tsv"
    start=$(date +%s)
    res=$("$raum" match --variant "$v" --a "engine:movetime=$movetime" --b "$o" --games "$games" \
      --seed "$seed" --concurrency "$jobs" --record "$record" 2>/dev/null)
    secs=$(( $(date +%s) - start ))
    games_line=$(grep '^Games:' <<<"$res")
    # How the decided games ended, and the longest game in plies.
    reasons=$(cut -f5 "$record" | sort | uniq -c | awk '{c=$1; $1=""; printf "%s%s %d", (n++ ? ", " : ""), substr($0, 2), c}')
    longest=$(awk -F'\t' '{n = split($7, m, " "); if (n > max) max = n} END {print max + 0}' "$record")
    echo "| $v | $o | ${games_line#Games: } | $reasons | $longest | ${secs} s |"
  done
done
