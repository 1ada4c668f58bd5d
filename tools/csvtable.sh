#!/usr/bin/env bash
# csvtable.sh CSV LOG2 [LOG2 ...] - a markdown table of a sweep CSV at sizes
# 2^LOG2: one row per step, GB/s and percent of the copy bandwidth measured in
# the same run (FAILED/ERROR rows say so).  Used by tools/tables.sh.
set -euo pipefail
csv=${1:?usage: csvtable.sh CSV LOG2 [LOG2 ...]}
shift
[ -f "$csv" ] || { echo "(no $csv yet: run make bench)"; exit 0; }
awk -F, -v sizes="$*" -v file="$csv" '
  NR == 1 { next }
  $2 == "copy-bandwidth" { bw = $8; gpu = $12; next }
  {
    if (!($2 in seen)) { seen[$2] = 1; order[++ns] = $2 }
    v[$2, $4] = ($11 == "ok") ? sprintf("%.0f (%.1f%%)", $8, $10) : $11
    if (gpu == "") gpu = $12
  }
  END {
    nsz = split(sizes, lg, " ")
    printf "Measured on %s; copy bandwidth (cudaMemcpy D2D in the same run) %.0f GB/s; data: `%s`.\n\n", gpu, bw, file
    printf "| step |"; for (i = 1; i <= nsz; i++) printf " GB/s at n = 2^%s (%% of copy) |", lg[i]; printf "\n"
    printf "|---|"; for (i = 1; i <= nsz; i++) printf "---:|"; printf "\n"
    for (s = 1; s <= ns; s++) {
      printf "| `%s` |", order[s]
      for (i = 1; i <= nsz; i++) { key = order[s] SUBSEP sprintf("%.0f", 2 ^ lg[i]); printf " %s |", (key in v) ? v[key] : "-" }
      printf "\n"
    }
  }' "$csv"
