#!/usr/bin/env bash
# summary.sh RESULTS.tsv - one line per outcome after a test run, with the
# reasons tests were skipped (Criterion's synthesis line does not show skips).
set -euo pipefail
f=${1:?usage: summary.sh RESULTS.tsv}
[ -f "$f" ] || exit 0
awk -F'\t' '
  { n[$3]++; if ($3 == "skip") why[$4]++; if ($3 != "pass" && $3 != "skip") bad[++nb] = $1 "::" $2 " (" $3 ")" }
  END {
    printf "kit tests: %d passed, %d failed, %d crashed, %d timed out, %d skipped\n", n["pass"], n["fail"], n["crash"], n["timeout"], n["skip"]
    for (r in why) printf "  skipped %d: %s\n", why[r], r
    for (i = 1; i <= nb; i++) printf "  not passing: %s\n", bad[i]
  }' "$f"
