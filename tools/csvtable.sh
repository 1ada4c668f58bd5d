#!/usr/bin/env bash
# csvtable.sh CSV LOG2 [LOG2 ...] [h200|h100] - a markdown table of a sweep CSV at sizes 2^LOG2: one
# row per step, GB/s and percent of the copy bandwidth measured in the same run
# (FAILED/ERROR rows say so), on the CSV's first input; a table per GPU when the CSV holds
# runs of several (the gpu column); h200 (or h100) among the arguments: that GPU's table only.  Columns are found by header name.  Used by tools/tables.sh.
set -euo pipefail
csv=${1:?usage: csvtable.sh CSV LOG2 [LOG2 ...]}
shift
[ -f "$csv" ] || { echo "(no $csv yet: run make bench)"; exit 0; }
# h200 or h100 among the sizes: that GPU's table only (h200, the kit's reference GPU, as tools/numbers reads it)
ref= sizes=
for a in "$@"; do
  case $a in h200) ref='NVIDIA H200' ;; h100) ref='NVIDIA H100 80GB HBM3' ;; *) sizes+=" $a" ;; esac
done
awk -F, -v sizes="$sizes" -v file="$csv" -v ref="$ref" '
  NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  ref != "" && $c["gpu"] != ref { next }
  {
    g = $c["gpu"]
    if (!(g in gseen)) { gseen[g] = 1; gorder[++ng] = g }
  }
  $c["step"] == "copy-bandwidth" { bw[g] = $c["gbps"]; next }
  {
    if (!(g in first)) first[g] = $c["input"]
    if ($c["input"] != first[g] || $c["phase"] != "run") next
    s = $c["step"]
    if (!((g, s) in seen)) { seen[g, s] = 1; order[g, ++ns[g]] = s }
    v[g, s, $c["n"]] = ($c["verified"] == "ok") ? sprintf("%.0f (%.1f%%)", $c["gbps"], $c["pct_copy"]) : $c["verified"]
  }
  END {
    nsz = split(sizes, lg, " ")
    for (k = 1; k <= ng; k++) {
      g = gorder[k]
      if (!(g in first)) continue
      if (k > 1) printf "\n"
      printf "Measured on %s, input %s; copy bandwidth (cudaMemcpy D2D in the same run) %.0f GB/s; data: `%s`.\n\n", g, first[g], bw[g], file
      printf "| step |"; for (i = 1; i <= nsz; i++) printf " GB/s at n = 2^%s (%% of copy) |", lg[i]; printf "\n"
      printf "|---|"; for (i = 1; i <= nsz; i++) printf "---:|"; printf "\n"
      for (s = 1; s <= ns[g]; s++) {
        printf "| `%s` |", order[g, s]
        for (i = 1; i <= nsz; i++) { key = g SUBSEP order[g, s] SUBSEP sprintf("%.0f", 2 ^ lg[i]); printf " %s |", (key in v) ? v[key] : "-" }
        printf "\n"
      }
    }
  }' "$csv"
