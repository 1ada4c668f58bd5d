#!/usr/bin/env bash
# tests/grading/units.sh - the grader's parts that need no build (make test-grading runs it first):
# every exercise file maps to its exercise; grade.sh on made-up results (the order of the table,
# each status's points, the tests not graded here kept out of results.json's tests[], what an
# assignment selects and its maximum); select_work (the selection, the folder's name, the judge's
# filter).  A few seconds.  PASS/FAIL lines, then "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
. tests/grading/checks.sh
export GRADE_SPEED=0   # the speed rows have their own class (tests/grading/speed.sh)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 3: every exercise file maps to its exercise, wherever its comment wraps
. tools/grade-lib.sh
kit=$repo
exercise_map=$(cat <<'EOF'
01-copy/loadbalance.h ex01_loadbalance
01-copy/s1_block_dask.cu ex01_block_dask
02-reduce-scan/r6_warp_shuffle.cu ex02_warp_reduce
02-reduce-scan/s2_warp_scan.cu ex02_block_scan
02-reduce-scan/sklansky8.h ex02_sklansky
03-kdtree/knn_ex_heap.h ex03_heap
03-kdtree/knn_ex_median.h ex03_median
03-kdtree/knn_ex_trim.cuh ex03_trim
04-histogram/packed.h ex04_packed
04-histogram/trish_bin.cuh ex04_bin_word
04-histogram/trish_rowsum.cuh ex04_rowsum
05-radix-sort/radix_image.h ex05_image
05-radix-sort/radix_offsets.h ex05_offsets
05-radix-sort/radix_tile_rank.cuh ex05_tile_rank
06-ballot-scan/ballot_bitplane.h ex06_bitplane
06-ballot-scan/ballot_lanemask.cuh ex06_lanemask
06-ballot-scan/ballot_segscan.cuh ex06_segscan
07-compaction/compact_phase3.h ex07_phase3
07-compaction/compact_scatter.h ex07_scatter
07-compaction/compact_warp_atomic.cuh ex07_warp_atomic
EOF
)
while read -r f want; do
  check "exercise of $f is $want" [ "$(exercise_of "$f")" = "$want" ]
done <<<"$exercise_map"
unlisted=$(comm -23 <(cd exercises && find . -type f | sed 's|^\./||' | sort) <(awk '{ print $1 }' <<<"$exercise_map" | sort) | tr '\n' ' ')
check "every exercise file is in that list (not listed: ${unlisted:-none})" [ -z "$unlisted" ]

# 8, 9: grade.sh on made-up results: chapters in order; a skipped GPU test is not failed
awk -F'\t' 'NR > 1 { split($1, p, "::"); gpu = p[1] == "ex01_block_dask"
  print p[1] "\t" p[2] "\t" (gpu ? "skip" : "pass") "\t" (gpu ? "no CUDA device (made up)" : "") }' \
  tests/points.tsv >"$tmp/unit.tsv"
tools/grade.sh "$tmp/unit.tsv" tests/points.tsv "$tmp/unit.json" >"$tmp/unit.txt"
order=$(awk 'NR > 2 && /^ex/ { c = substr($1, 3, 2); if (c != last) printf "%s ", c; last = c }' "$tmp/unit.txt")
want_order=$(awk -F'\t' 'NR > 1 { print substr($1, 3, 2) }' tests/points.tsv | sort -u | tr '\n' ' ')
check "the table lists chapters in order (got: $order, want: $want_order)" [ "$order" = "$want_order" ]
check "not graded here (no GPU): shown as -/points" has "$tmp/unit.txt" 'ex01_block_dask +whole_blocks +required +-/3 +not graded here \(no GPU\)'
check "results.json: a not-graded test is not in tests[] (Gradescope would show it passed)" \
  hasnt "$tmp/unit.json" '"name": "ex01_block_dask::'
check "results.json: ... and the top-level output names it with its points" \
  has "$tmp/unit.json" '"output": ".*not graded here \(no GPU\): ex01_block_dask \(4 tests, 9 points\)'
check "results.json: no test has max_score 0" hasnt "$tmp/unit.json" '"max_score": 0,'
tools/grade.sh "$tmp/unit.tsv" tests/points.tsv "$tmp/unit-sel.json" "6-ballot-scan,ex01_loadbalance" >"$tmp/unit-sel.txt"
check "grade.sh SELECTION: chapter 06 and ex01_loadbalance only" \
  eval '[ "$(grep -oE "^ex0[0-9]_[a-z_]+" "$tmp/unit-sel.txt" | sort -u | tr "\n" " ")" = "ex01_loadbalance ex06_bitplane ex06_lanemask ex06_segscan " ]'
sel_max=$(awk -F'\t' 'NR > 1 && $3 != "speed" && ($1 ~ /^ex06_/ || $1 ~ /^ex01_loadbalance::/) { s += $2 } END { print s }' tests/points.tsv)
check "grade.sh SELECTION: the maximum is the selection's ($sel_max)" has "$tmp/unit-sel.json" "^  \"max_score\": $sel_max,"
# what an assignment selects, its folder's name and the judge's filter
sw() { (select_work "$@") 2>&1 | tr '\n' '|'; }
check "select_work: CH=1,06 -> chapters 01 and 06, folder ch01-ch06" [ "$(sw 1,06 "")" = '01,06|01,06|ch01-ch06|@(ex01_*|ex06_*)/*|' ]
check "select_work: EXERCISES -> their chapters, folder named after them" \
  [ "$(sw "" ex06_bitplane,ex01_loadbalance)" = '01,06|ex01_loadbalance,ex06_bitplane|ex01_loadbalance-ex06_bitplane|@(ex01_loadbalance|ex06_bitplane)/*|' ]
check "select_work: an exercise of a chapter selected whole adds nothing; ASSIGNMENT names the folder" \
  [ "$(sw 01 ex01_block_dask,ex06_bitplane hw1)" = '01,06|01,ex06_bitplane|hw1|@(ex01_*|ex06_bitplane)/*|' ]
check "select_work: nothing selected -> everything, folder all" [ "$(sw "" "")" = '||all|ex*/*|' ]
check "select_work: an unknown exercise is refused with the list" eval '[[ "$(sw "" ex01_nope)" == *"no exercise '"'"'ex01_nope'"'"' (have: ex01_loadbalance"* ]]'
check "select_work: an unknown chapter is refused, not read as everything" \
  eval '[[ "$(sw 9 "")" == *"CH=9: no such chapter"* ]] && [[ "$(sw 9 "")" != *"|all|"* ]]'
check "select_work: ASSIGNMENT=kit and ASSIGNMENT=../x are refused" \
  eval '[[ "$(sw 01 "" kit)" == *"not kit or cluster"* ]] && [[ "$(sw 01 "" ../x)" == *"a name of letters"* ]]'
check "results.json: nothing failed when everything passed or was not graded" hasnt "$tmp/unit.json" '"failed"'
total=$(awk -F'\t' 'NR > 1 && $3 != "speed" && $1 !~ /^ex01_block_dask/ { s += $2 } END { print s }' tests/points.tsv)
check "results.json: the total leaves the not-graded points out ($total)" has "$tmp/unit.json" "^  \"max_score\": $total,"


# every status of a test that ran, with its points; a GPU test without a GPU here is never graded,
# whatever its result says; a note names the exercise that did not compile
printf '%s\t%s\t%s\t%s\n' ex01_loadbalance example_23_over_5 fail 'row 0: made up' \
  ex01_loadbalance covers_in_order crash 'crashed: signal 11 (made up)' \
  ex01_loadbalance avoids_first_and_last timeout 'ran past 60 s (made up)' \
  ex01_loadbalance large_counts pass '' \
  ex01_block_dask whole_blocks pass '' ex01_block_dask odd_sizes pass '' \
  ex01_block_dask large_and_patterns pass '' ex01_block_dask tiny_and_empty pass '' \
  ex06_bitplane split_is_ballot pass '' >"$tmp/st.tsv"
printf 'ex06_bitplane\tcompile\t06-ballot-scan/ballot_bitplane.h:3: made up\n' >"$tmp/st-notes.tsv"
GRADE_HAVE_GPU=0 tools/grade.sh "$tmp/st.tsv" tests/points.tsv "$tmp/st.json" 01,06 "$tmp/st-notes.tsv" "$tmp/st-sum.tsv" >"$tmp/st.txt"
check "grade.sh: failed, crashed and timed out score 0, each with its word" eval \
  'has "$tmp/st.txt" "example_23_over_5 +required +0/2 +failed: row 0" && has "$tmp/st.txt" "covers_in_order +required +0/3 +crashed: signal 11" &&
   has "$tmp/st.txt" "avoids_first_and_last +extra +0/2 +timed out: "'
check "grade.sh: a GPU test on a machine without one is not graded, even when its result says pass" \
  eval 'has "$tmp/st.txt" "whole_blocks +required +-/3 +not graded here \(no GPU\)" && hasnt "$tmp/st.json" "ex01_block_dask::"'
check "grade.sh: a note's exercise did not compile, even where a result says pass" \
  has "$tmp/st.txt" 'split_is_ballot +required +0/2 +did not compile: 06-ballot-scan/ballot_bitplane.h:3: made up'
check "grade.sh: the summary counts each status (1 passed, 1 failed, 1 crashed, 1 timed out)" \
  has "$tmp/st-sum.tsv" '^1	16	27	passed=1 failed=1 crashed=1 timed_out=1 not_graded=14 did_not_compile=4 '
check "grade.sh: results.json's status: passed or failed, never anything else" \
  eval '[ "$(grep -o "\"status\": \"[a-z ]*\"" "$tmp/st.json" | sort -u | tr "\n" " ")" = "\"status\": \"failed\" \"status\": \"passed\" " ]'
echo "$pass passed, $fail failed"
[ $fail = 0 ]
