#!/bin/sh
# bench-merge.sh - one CSV of a user's `make bench` beside the committed reference, for drawing.
#   tools/bench-merge.sh COMMITTED.csv RUN.csv OUT.csv
# OUT gets RUN's header once, then the rows of COMMITTED (plots/NN-topic/NAME.csv; skipped when it
# does not exist), then RUN's rows with ' (this run)' appended to their gpu column, so this run's GPU
# is never one of the committed GPUs even on the same model: tools/draw-figures.sh then draws the
# committed GPU as GPU 1 (plain figure names) and this run as a later GPU ('@<gpu>-this-run' names).
# Columns are matched by name (the first line is the header): a committed column RUN lacks is
# dropped, a column COMMITTED lacks is left empty.  Values contain no commas (the kit's CSVs).
# Exit 2 on bad usage, an unreadable RUN or a RUN without a gpu column.
set -u
if [ $# -ne 3 ]; then echo "usage: tools/bench-merge.sh COMMITTED.csv RUN.csv OUT.csv" >&2; exit 2; fi
ref=$1; run=$2; out=$3
[ -r "$run" ] || { echo "bench-merge: cannot read $run" >&2; exit 2; }
[ -f "$ref" ] || ref=/dev/null
mkdir -p "$(dirname "$out")" || exit 2
tmp=$out.tmp.$$
trap 'rm -f "$tmp"' EXIT
awk -F, -v OFS=, -v ref="$ref" -v run="$run" '
BEGIN {
    if ((getline line < run) <= 0) { print "bench-merge: " run " is empty" > "/dev/stderr"; exit 2 }
    sub(/\r$/, "", line)
    nh = split(line, head, ",")
    for (i = 1; i <= nh; i++) col[head[i]] = i
    if (!("gpu" in col)) { print "bench-merge: " run " has no gpu column" > "/dev/stderr"; exit 2 }
    print line
    # the committed rows, re-ordered into the run header
    if ((getline line < ref) > 0) {
        sub(/\r$/, "", line)
        nr = split(line, rhead, ",")
        for (i = 1; i <= nh; i++) { from[i] = 0; for (j = 1; j <= nr; j++) if (rhead[j] == head[i]) from[i] = j }
        while ((getline line < ref) > 0) {
            sub(/\r$/, "", line)
            if (line == "") continue
            split(line, v, ",")
            o = ""
            for (i = 1; i <= nh; i++) o = o (i > 1 ? OFS : "") (from[i] ? v[from[i]] : "")
            print o
        }
    }
    # this run, its gpu column marked
    g = col["gpu"]
    while ((getline line < run) > 0) {
        sub(/\r$/, "", line)
        if (line == "") continue
        n = split(line, v, ",")
        v[g] = v[g] == "" ? "(this run)" : v[g] " (this run)"
        o = ""
        for (i = 1; i <= (n > nh ? n : nh); i++) o = o (i > 1 ? OFS : "") v[i]
        print o
    }
    exit 0
}' >"$tmp" || exit 2
mv "$tmp" "$out"
