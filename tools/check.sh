#!/usr/bin/env bash
# check.sh - the kit's self-check (make check):
#   1. exercises/ is what `make exercises` generates from solutions/;
#   2. the untouched skeletons compile, and none of their graded tests passes
#      (GPU tests may only skip, with a reason, when there is no GPU);
#   3. the solutions score full marks on every graded test that can run here;
#   4. the step tables in the READMEs match the programs' step tables.
set -uo pipefail
cd "$(dirname "$0")/.."
broot=${BUILDROOT:-build}
fail=0
say() { printf 'check: %s\n' "$*"; }
bad() { printf 'check: FAILED: %s\n' "$*"; fail=1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1
if tools/mkexercises.sh solutions "$tmp/ex" && diff -r exercises "$tmp/ex" >"$tmp/diff"; then
  say "exercises/ is in sync with solutions/"
else
  bad "exercises/ is out of sync with solutions/ (run: make exercises)"; head -n 40 "$tmp/diff"
fi

# CHECK_CH=NN (make CH=NN check): that chapter's test program and graded tests only
ch=${CHECK_CH:-}
# graded tests of points.tsv: "suite::test"
graded=$(awk -F'\t' -v ch="$ch" 'NR > 1 && (ch == "" || substr($1, 3, 2) == ch) { print $1 }' tests/points.tsv)
status_of() { # results.tsv test -> status<TAB>message
  awk -F'\t' -v k="$2" '$1 "::" $2 == k { print $3 "\t" $4; found = 1 } END { if (!found) print "missing\t" }' "$1"
}

for impl in exercises solutions; do
  if ! make --no-print-directory BUILDROOT="$broot" IMPL=$impl all testbin >"$tmp/build-$impl.log" 2>&1; then
    bad "the $impl do not build"; tail -n 30 "$tmp/build-$impl.log"; continue
  fi
  res=$broot/$impl/check-results.tsv
  KIT_RESULTS=$res $broot/$impl/bin/tests${ch:+_$ch} --jobs "$(nproc)" >"$tmp/test-$impl.log" 2>&1
  [ -s "$res" ] || { bad "the $impl test run wrote no results"; tail -n 30 "$tmp/test-$impl.log"; continue; }
  npass=0 nskip=0
  for t in $graded; do
    IFS=$'\t' read -r st msg < <(status_of "$res" "$t")
    case "$impl:$st" in
      exercises:pass) bad "skeleton passes $t (the test cannot tell a stub from a solution)";;
      solutions:pass) npass=$((npass + 1));;
      *:skip)
        if [[ $msg == "no CUDA device"* ]]; then nskip=$((nskip + 1));
        else bad "$impl: $t skipped without a 'no CUDA device' reason: '$msg'"; fi;;
      solutions:*) bad "solution fails $t: $st $msg";;
      exercises:missing) bad "skeleton test $t did not run";;
    esac
  done
  if [ "$impl" = exercises ]; then
    say "skeletons compile; no graded test passes on them ($nskip skipped: no GPU)"
  else
    say "solutions: $npass graded tests pass, $nskip skipped (no GPU)"
  fi
done

# 4
if tools/tables.sh check; then say "README step tables match the step tables"; else bad "README tables are stale (run: make tables)"; fi

[ $fail = 0 ] && say "all good" || say "some checks failed"
exit $fail
