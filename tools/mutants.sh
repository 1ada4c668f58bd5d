#!/usr/bin/env bash
# mutants.sh [--only NAME,..] [LIST]  - does each test catch the bug it is there for?
#
# LIST (tests/mutants.tsv): one mutant a line: name, file, a sed -E script that makes a small bug,
# the test that must catch it, what the bug is.  Each mutant is applied alone to a scratch copy of
# the tree (BUILDROOT/mutants/tree; the repository is never touched), its test runs there, and the
# file goes back.  Caught: the test failed.  Survived: it passed (the test misses that bug).  Not
# applied: the script no longer changes the file (the code moved on: fix the entry).  Did not
# build: the bug broke the build, which proves nothing about the test (fix the entry).  Exit 0 only
# when every mutant was applied, built and caught.
#
# Tests (each builds only what it needs, in the scratch copy's own build/, kept between runs so
# that a mutant rebuilds the file it changed and what depends on it):
#   reference  make test-reference (the harness's own suite: reference/)
#   judge      the judge of chapters 01 and 06, built with the skeletons, against fake runners
#              and the secret seed (tests/grading/judge.sh)
#   units      the grader's parts that need no build (tests/grading/units.sh)
#   students   a small class graded for real (tests/grading/students.sh; needs bubblewrap)
#   chapterNN  chapter NN's CPU suite (chNN_cpu: its baselines and checks; builds its test program)
# Every test first runs on the unchanged copy and must pass there.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
list=tests/mutants.tsv only=""
while [ $# -gt 0 ]; do
  case $1 in
    --only) only=${2:-}; shift 2;;
    --only=*) only=${1#*=}; shift;;
    -h|--help) sed -n '2,3p' "$0" | sed 's/^# //'; exit 0;;
    -*) echo "mutants: unknown option $1" >&2; exit 2;;
    *) list=$1; shift;;
  esac
done
[ -f "$list" ] || { echo "mutants: no list $list" >&2; exit 2; }
broot=${BUILDROOT:-build}
case $broot in /*) ;; *) broot=$root/$broot;; esac
w=$broot/mutants tree=$broot/mutants/tree logs=$broot/mutants/logs
mkdir -p "$tree" "$logs"
jobs=$(nproc 2>/dev/null || echo 2)

# the scratch copy: the tree's files with their times (an unchanged file rebuilds nothing)
git ls-files -z -co --exclude-standard | grep -zv "^${broot#"$root"/}/" | tar --null -T - -cf - | tar -C "$tree" -xf - ||
  { echo "mutants: cannot copy the tree to $tree" >&2; exit 2; }
# a repository of its own, so that what lists the tree's files (the grader's kit copy) lists its own
[ -d "$tree/.git" ] || git -C "$tree" init -q || exit 2
# the copy keeps the sources' times, which an object built from a mutant of an earlier run is newer
# than: every file a mutant changes is made newer than its objects, so that it rebuilds as it is
grep -v '^#' "$list" | cut -f2 | sort -u | while IFS= read -r f; do [ -f "$tree/$f" ] && touch "$tree/$f"; done

# run_test NAME: 0 passed, 1 failed, 2 did not build (in $tree, output on stdout)
run_test() {
  (
    cd "$tree" || exit 2
    export BUILDROOT=build
    case $1 in
      reference)
        make --no-print-directory -j"$jobs" build/solutions/bin/tests_reference || exit 2
        build/solutions/bin/tests_reference --jobs "$jobs" || exit 1;;
      judge)
        make --no-print-directory -j"$jobs" IMPL=exercises CH=01,06 judge-program || exit 2
        tests/grading/judge.sh build/exercises/bin/judge_01_06 || exit 1;;
      units)
        tests/grading/units.sh || exit 1;;
      students)
        tests/grading/students.sh || exit 1;;
      chapter[0-9][0-9])   # a chapter's CPU suite (its test program, solutions)
        make --no-print-directory -j"$jobs" CH="${1#chapter}" testbin || exit 2
        "build/solutions/bin/tests_${1#chapter}" --jobs "$jobs" --filter "ch${1#chapter}_cpu/*" || exit 1;;
      *) echo "mutants: no test '$1' (reference, judge, units, students, chapterNN)"; exit 2;;
    esac
  )
}

# the mutants of the list (or of --only), as lines of 5 tab-separated fields
grep -v '^#' "$list" | grep -v '^[[:space:]]*$' >"$w/list"
if [ -n "$only" ]; then
  awk -F'\t' -v only=",$only," 'index(only, "," $1 ",")' "$w/list" >"$w/list.only"; mv "$w/list.only" "$w/list"
fi
[ -s "$w/list" ] || { echo "mutants: nothing to run" >&2; exit 2; }

# every test on the unchanged tree first: a test that fails there can catch nothing
for t in $(cut -f4 "$w/list" | sort -u); do
  s=$(date +%s)
  run_test "$t" >"$logs/baseline-$t.log" 2>&1
  r=$?
  if [ $r != 0 ]; then
    echo "mutants: the test '$t' does not pass on the unchanged tree (see $logs/baseline-$t.log)" >&2
    tail -n 15 "$logs/baseline-$t.log" >&2
    exit 1
  fi
  echo "baseline: $t passes ($(( $(date +%s) - s )) s)"
done

caught=0 survived=0 broken=0 n=0
while IFS=$'\t' read -r name file script t what; do
  n=$((n + 1))
  f=$tree/$file
  s=$(date +%s)
  if [ ! -f "$f" ]; then
    printf '%-26s NOT APPLIED  %s: no such file\n' "$name" "$file"; broken=$((broken + 1)); continue
  fi
  cp -p "$f" "$w/orig"
  sed -E -i -e "$script" "$f"
  if cmp -s "$f" "$w/orig"; then
    printf '%-26s NOT APPLIED  the script no longer changes %s\n' "$name" "$file"; broken=$((broken + 1)); continue
  fi
  run_test "$t" </dev/null >"$logs/$name.log" 2>&1
  r=$?
  # the file goes back, newer than what the mutant built from it, so it rebuilds next time
  cp "$w/orig" "$f"; touch "$f"
  case $r in
    0) printf '%-26s SURVIVED     %s (test %s; log %s)\n' "$name" "$what" "$t" "$logs/$name.log"; survived=$((survived + 1));;
    1) printf '%-26s caught       %s (test %s, %s s)\n' "$name" "$what" "$t" "$(( $(date +%s) - s ))"; caught=$((caught + 1));;
    *) printf '%-26s DID NOT BUILD %s (test %s; log %s)\n' "$name" "$what" "$t" "$logs/$name.log"; broken=$((broken + 1));;
  esac
done <"$w/list"
echo "mutants: $n, caught $caught, survived $survived, not applied or not built $broken"
[ $caught = "$n" ]
