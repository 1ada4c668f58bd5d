#!/bin/sh
# demo-figure.sh NN - draw the ladder figure of the last `demo` or `walk` of chapter NN from
# $BUILDROOT/demo/chNN.csv (written by the program): chNN.png/.svg for its first ladder,
# chNN-<ladder>.png/.svg for the others, beside the CSV.  Without gnuplot it says so and succeeds
# (the program has printed the text chart already when no display is set).
set -u
nn=${1:?usage: demo-figure.sh NN}
dir=${BUILDROOT:-build}/demo
csv=$dir/ch$nn.csv
cd "$(dirname "$0")/.." || exit 1
[ -s "$csv" ] || { echo "demo-figure: no $csv (the run wrote none)"; exit 0; }
command -v gnuplot >/dev/null || { echo "demo-figure: gnuplot not found, no $dir/ch$nn.png (apt-get install gnuplot-nox)"; exit 0; }
# a minimal container may have gnuplot and no font: its PNG then has no text (the SVG keeps it)
if command -v fc-list >/dev/null && [ -z "$(fc-list 2>/dev/null | head -n 1)" ]; then
  echo "demo-figure: no fonts installed, the PNG will have no text (apt-get install fonts-dejavu-core; the SVG has it)"
fi
k=0
for l in $(tools/csvq "$csv" -- ladder | awk '!s[$0]++'); do
  out=$dir/ch$nn; [ $k = 0 ] || out=$dir/ch$nn-$l
  gnuplot -e "f='$csv'; L='$l'; out='$out'" reference/demo.gp || exit 1
  echo "figure: $out.png, $out.svg"
  k=$((k + 1))
done
