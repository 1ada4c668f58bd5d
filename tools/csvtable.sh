#!/usr/bin/env bash
# csvtable.sh CSV LOG2 [LOG2 ...] - a markdown table of a sweep CSV at sizes 2^LOG2: one
# row per step, GB/s and percent of the copy bandwidth measured in the same run
# (FAILED/ERROR rows say so), on the CSV's first input.  Columns are found by header
# name.  Used by tools/tables.sh.
set -euo pipefail
csv=${1:?usage: csvtable.sh CSV LOG2 [LOG2 ...]}
shift
[ -f "$csv" ] || { echo "(no $csv yet: run make bench)"; exit 0; }
awk -F, -v sizes="$*" -v file="$csv" '
  NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["step"] == "copy-bandwidth" { bw = $c["gbps"]; gpu = $c["gpu"]; next }
  {
    if (first == "") first = $c["input"]
    if ($c["input"] != first || $c["phase"] != "run") next
    s = $c["step"]
    if (!(s in seen)) { seen[s] = 1; order[++ns] = s }
    v[s, $c["n"]] = ($c["verified"] == "ok") ? sprintf("%.0f (%.1f%%)", $c["gbps"], $c["pct_copy"]) : $c["verified"]
    if (gpu == "") gpu = $c["gpu"]
  }
  END {
    nsz = split(sizes, lg, " ")
    printf "Measured on %s, input %s; copy bandwidth (cudaMemcpy D2D in the same run) %.0f GB/s; data: `%s`.\n\n", gpu, first, bw, file
    printf "| step |"; for (i = 1; i <= nsz; i++) printf " GB/s at n = 2^%s (%% of copy) |", lg[i]; printf "\n"
    printf "|---|"; for (i = 1; i <= nsz; i++) printf "---:|"; printf "\n"
    for (s = 1; s <= ns; s++) {
      printf "| `%s` |", order[s]
      for (i = 1; i <= nsz; i++) { key = order[s] SUBSEP sprintf("%.0f", 2 ^ lg[i]); printf " %s |", (key in v) ? v[key] : "-" }
      printf "\n"
    }
  }' "$csv"
