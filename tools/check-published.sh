#!/usr/bin/env bash
# check-published.sh [FILE ...] - every reference/published/*.csv (or the files named) has the
# header "figure,gpu,series,x,value,unit,what", seven fields on every row (no commas inside a
# field: tools/csvq splits on every comma), a non-empty figure and a numeric value.  Prints one
# line per problem and exits 1 if there is any; prints a summary and exits 0 otherwise.
set -euo pipefail
header='figure,gpu,series,x,value,unit,what'
[ $# -gt 0 ] || set -- "$(dirname "$0")"/../reference/published/*.csv
st=0; rows=0
for f in "$@"; do
  [ -f "$f" ] || { echo "$f: no such file"; st=1; continue; }
  h=$(head -n 1 "$f" | tr -d '\r')
  [ "$h" = "$header" ] || { echo "$f:1: header is '$h', expected '$header'"; st=1; }
  out=$(awk -F, -v f="$f" '
    NR == 1 { next }
    /^[[:space:]]*$/ { printf "%s:%d: empty line\n", f, NR; bad = 1; next }
    { n++ }
    NF != 7 { printf "%s:%d: %d fields, expected 7\n", f, NR, NF; bad = 1; next }
    $1 == "" { printf "%s:%d: empty figure\n", f, NR; bad = 1 }
    $5 == "" { printf "%s:%d: empty value\n", f, NR; bad = 1; next }
    $5 !~ /^-?[0-9]+([.][0-9]+)?([eE][-+]?[0-9]+)?$/ { printf "%s:%d: value %s is not a number\n", f, NR, $5; bad = 1 }
    END { if (n == 0) { printf "%s: no data rows\n", f; bad = 1 }; print "ROWS " n + 0; exit bad }' "$f") || st=1
  rows=$((rows + $(printf '%s\n' "$out" | awk '$1 == "ROWS" { print $2 }')))
  printf '%s\n' "$out" | grep -v '^ROWS ' || true
done
[ $st = 0 ] && echo "check-published: $# files, $rows rows, all well formed"
exit $st
