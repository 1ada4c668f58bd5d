#!/bin/sh
# draw-figures.sh - draw every GPU's figures of one folder of a chapter's CSVs (needs gnuplot).
#   tools/draw-figures.sh DIR CHAPTER        e.g. tools/draw-figures.sh plots/01-copy 01-copy
# The CSVs of DIR are drawn by reference/plot_common.gp + chapters/CHAPTER/plot.gp into DIR: once per
# GPU of the folder, the K-th GPU being the K-th distinct value of a CSV's gpu column (csvq's
# gpu#=K).  GPU 1 gets the plain figure names (sweep.png), GPU K > 1 gets '@' and a slug of its
# name (sweep@nvidia-h200.png).  `make plots` (DIR = plots/CHAPTER) and `make bench` (DIR = the
# merged folder BUILDROOT/bench/<gpu>/CHAPTER/figures, tools/bench-merge.sh) both draw with it.
# Exit 0 when everything was drawn or there was nothing to draw, 1 when gnuplot failed or is missing.
set -u
if [ $# -ne 2 ]; then echo "usage: tools/draw-figures.sh DIR CHAPTER (e.g. plots/01-copy 01-copy)" >&2; exit 2; fi
dir=${1%/}; c=${2%/}
root=$(cd "$(dirname "$0")/.." && pwd)
# plot_common.gp runs tools/csvq from the repository's root: a relative DIR given from elsewhere is
# made absolute first (make runs at the root, so its paths stay as they are)
case $dir in /*) adir=$dir ;; *) if [ "$(pwd)" = "$root" ]; then adir=$dir; else adir=$(pwd)/$dir; fi ;; esac
if [ ! -f "$root/chapters/$c/plot.gp" ]; then echo "draw-figures: no chapters/$c/plot.gp" >&2; exit 2; fi
command -v gnuplot >/dev/null || { echo "draw-figures: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
cd "$root" || exit 1
if ! ls "$adir"/*.csv >/dev/null 2>&1; then echo "$dir: no CSV yet (make bench CH=${c%%-*})"; exit 0; fi
# the number of GPUs: the most distinct gpu values of any one CSV of the folder
ng=$(for f in "$adir"/*.csv; do tools/csvq "$f" -- gpu 2>/dev/null | awk '!s[$0]++' | wc -l; done | sort -n | tail -n 1)
st=0
gnuplot -e "dir='$adir'; G=1" reference/plot_common.gp "chapters/$c/plot.gp" && echo "$dir: drawn" || st=1
k=2
while [ "$k" -le "${ng:-1}" ]; do
  # the K-th GPU's name, from the first CSV that has one
  g=
  for f in "$adir"/*.csv; do
    g=$(tools/csvq "$f" -- gpu 2>/dev/null | awk '!s[$0]++' | sed -n "${k}p")
    [ -n "$g" ] && break
  done
  slug=$(printf '%s' "$g" | tr 'A-Z' 'a-z' | tr -cs 'a-z0-9' '-' | sed 's/^-//; s/-$//')
  if gnuplot -e "dir='$adir'; G=$k; SUFFIX='@$slug'" reference/plot_common.gp "chapters/$c/plot.gp"; then
    echo "$dir: drawn for its GPU number $k ($g): *@$slug.png"
  else st=1; fi
  k=$((k + 1))
done
exit $st
