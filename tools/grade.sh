#!/usr/bin/env bash
# grade.sh RESULTS.tsv POINTS.tsv RESULTS.json [CH] [NOTES.tsv]
# Join the test results (tests/kit_test.c writes them) with the points table:
# print a score table and write a Gradescope-style results.json.
# A test skipped for want of a GPU is "not graded" (it counts in no total).
# NOTES.tsv (optional): exercise <TAB> note, appended to that exercise's outputs.
set -euo pipefail
results=${1:?usage: grade.sh RESULTS.tsv POINTS.tsv RESULTS.json [CH] [NOTES.tsv]}
points=${2:?}
json=${3:?}
ch=${4:-}
notes=${5:-/dev/null}
[ -f "$results" ] || { echo "grade: no results file $results (did the tests build and run?)" >&2; exit 1; }
awk -F'\t' -v json="$json" -v ch="$ch" '
function esc(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, " ", s); return s }
FILENAME == ARGV[1] { note[$1] = note[$1] (note[$1] == "" ? "" : "; ") $2; next }
FILENAME == ARGV[2] { key = $1 "::" $2; status[key] = $3; msg[key] = $4; next }
FNR == 1 { next }                                   # points.tsv header
{
  split($1, part, "::"); ex = part[1]
  if (ch != "" && substr(ex, 3, 2) != ch) next
  n++; test[n] = $1; pts[n] = $2 + 0; level[n] = $3; exer[n] = ex
}
END {
  printf "%-20s %-28s %-9s %7s  %s\n", "exercise", "test", "level", "points", "result"
  rule = "-----------------------------------------------------------------------------------------"
  print rule
  for (i = 1; i <= n; i++) {
    k = test[i]; st = (k in status) ? status[k] : "missing"; m = msg[k]
    split(k, part, "::")
    if (st == "pass") { got = pts[i]; out = "passed" }
    else if (st == "skip") { got = 0; out = "not graded: " m }
    else if (st == "missing") { got = 0; out = "not run (the test program did not build or did not reach it)" }
    else { got = 0; out = st ": " m }
    if (note[exer[i]] != "") out = out " [" note[exer[i]] "]"
    graded = st != "skip"
    if (graded) { score += got; max += pts[i]; lv[level[i]] += got; lvmax[level[i]] += pts[i] }
    else ungraded += pts[i]
    shown = graded ? sprintf("%d/%d", got, pts[i]) : sprintf("-/%d", pts[i])
    printf "%-20s %-28s %-9s %7s  %s\n", exer[i], part[2], level[i], shown, substr(out, 1, 160)
    row[i] = sprintf("    {\"name\": \"%s\", \"score\": %d, \"max_score\": %d, \"status\": \"%s\", \"tags\": [\"%s\", \"%s\"], \"output\": \"%s\"}",
                     esc(k), got, graded ? pts[i] : 0, st == "pass" ? "passed" : "failed", esc(exer[i]), level[i], esc(out))
  }
  print rule
  printf "total: %d/%d graded points (required %d/%d, extra %d/%d)", score, max, lv["required"], lvmax["required"], lv["extra"], lvmax["extra"]
  if (ungraded) printf "; %d points not graded (no GPU)", ungraded
  printf "\n"
  printf "{\n  \"score\": %d,\n  \"max_score\": %d,\n  \"output\": \"%d/%d graded points; %d not graded\",\n  \"tests\": [\n", score, max, score, max, ungraded > json
  for (i = 1; i <= n; i++) printf "%s%s\n", row[i], i < n ? "," : "" > json
  printf "  ]\n}\n" > json
  print "results: " json
}' "$notes" "$results" "$points"
