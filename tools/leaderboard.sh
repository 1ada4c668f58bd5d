#!/usr/bin/env bash
# leaderboard.sh CLASS [--names] - the class's speed ratios per exercise (make leaderboard
# SUBMISSIONS=dir [NAMES=1]), from the last grading of each student (BUILDROOT/grades/students/
# NAME/speed.tsv, written by the judge's speed tests).  Students are shown by rank only unless
# --names; printed, and drawn into BUILDROOT/grades/leaderboard.png when gnuplot is installed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
class=${1:?usage: leaderboard.sh CLASS [--names]}
names=0; [ "${2:-}" = --names ] && names=1
broot=${BUILDROOT:-build}
case $broot in /*) ;; *) broot=$root/$broot;; esac
out=${GRADE_OUT:-$broot/grades}
[ -d "$class" ] || { echo "leaderboard: no folder '$class'" >&2; exit 2; }
rows=$(mktemp); trap 'rm -f "$rows"' EXIT
while IFS= read -r -d '' d; do
  name=${d##*/}
  f=$out/students/$name/speed.tsv
  [ -f "$f" ] || continue
  awk -F'\t' -v who="$(printf '%s' "$name" | tr '\t\n' '  ')" '{ print $1 "\t" $2 "\t" $8 "\t" who }' "$f" >>"$rows"
done < <(find "$class" -mindepth 1 -maxdepth 1 -type d ! -name '.*' -print0)
[ -s "$rows" ] || { echo "leaderboard: no speed results for $class under $out/students (grade the class first)"; exit 0; }
# exercise, ratio, device, student: best first within each exercise
sort -t $'\t' -k1,1 -k2,2gr "$rows" | awk -F'\t' -v names=$names -v dat="$out/leaderboard.dat" '
  $1 != ex { ex = $1; rank = 0; nex++; printf "%s (%s)\n", ex, $3 }
  { rank++; printf "  %3d. %-24s %5.1f %%\n", rank, names ? $4 : "", 100 * $2
    print nex, 100 * $2, ex > dat }'
if command -v gnuplot >/dev/null; then
  gnuplot -e "set terminal pngcairo size 900,500; set output '$out/leaderboard.png';
    set ylabel '% of the reference'; set xlabel 'exercise'; unset key; set grid ytics;
    plot '$out/leaderboard.dat' using 1:2:xtic(3) with points pt 7" 2>/dev/null &&
    echo "drawn: $out/leaderboard.png"
fi
