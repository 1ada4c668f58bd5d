#!/usr/bin/env bash
# summary.sh RESULTS.tsv [STATUS] - one line per outcome after a test run, with the
# reasons tests were skipped (Criterion's synthesis line does not show skips).  STATUS,
# the test program's exit status, makes the last line say whether the run passed, so that
# make's own "Error 1" after it only repeats what the kit already said.
set -euo pipefail
f=${1:?usage: summary.sh RESULTS.tsv [STATUS]}
st=${2:-}
if [ ! -f "$f" ]; then
  [ -z "$st" ] || [ "$st" = 0 ] || echo "kit tests: the test program ended with status $st before it wrote $f"
  exit 0
fi
awk -F'\t' -v file="$f" -v st="$st" '
  { n[$3]++; if ($3 == "skip") why[$4]++; if ($3 != "pass" && $3 != "skip") bad[++nb] = $1 "::" $2 " (" $3 ")" }
  END {
    printf "kit tests: %d passed, %d failed, %d crashed, %d timed out, %d skipped\n", n["pass"], n["fail"], n["crash"], n["timeout"], n["skip"]
    for (r in why) printf "  skipped %d: %s\n", why[r], r
    for (i = 1; i <= nb; i++) printf "  not passing: %s\n", bad[i]
    if (st != "" && st != 0)
      printf "kit tests: FAILED (%d not passing; each failure message is above, one line per test in %s)\n", nb, file
    else if (st != "")
      printf "kit tests: OK\n"
  }' "$f"
