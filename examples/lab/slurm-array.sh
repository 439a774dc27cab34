#!/bin/bash
# A `raum lab` study split over a Slurm job array: task I of N plays shard
# I of N into its own file; then `raum lab merge` joins them, and the study
# run once more over the merged file prints the report.
#
#   sbatch slurm-array.sh
#   # afterwards:
#   raum lab merge lab/values.db lab/values-*.db
#   raum lab values --games 2900 --player engine:nodes=1500 --db lab/values.db --report lab/values.md
#SBATCH --job-name=raum-lab-values
#SBATCH --array=1-8
#SBATCH --cpus-per-task=1
#SBATCH --mem=256M
#SBATCH --requeue
set -euo pipefail
mkdir -p lab
# A requeued task resumes its shard where it stopped.
raum lab values --variant five-up --games 2900 --player engine:nodes=1500 \
  --shard "${SLURM_ARRAY_TASK_ID}/${SLURM_ARRAY_TASK_COUNT}" \
  --db "lab/values-${SLURM_ARRAY_TASK_ID}.db" --concurrency 1
