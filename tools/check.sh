#!/usr/bin/env bash
# check.sh - the kit's self-check (make check):
#   1. exercises/ is what `make exercises` generates from solutions/;
#   2. the untouched skeletons compile, and none of their graded tests passes
#      (GPU tests may only skip, with a reason, when there is no GPU);
#   3. the solutions score full marks on every graded test that can run here;
#   4. the step tables in the READMEs match the programs' step tables, every generated number
#      matches its CSV and the converted files hold no other (tools/numbers, tests/numbers.sh), the documents' numbers in
#      reference/published/ are well formed (tools/check-published.sh), and tools/ratios and
#      tools/csvtable.sh keep the runs of two GPUs in one CSV apart;
#   5. 2 and 3 again through the grader's split: the judge built with the skeletons, the runners
#      with the skeletons (nothing passes) and with the solutions (full marks), a random seed; and
#      no runner links anything that answers an exercise (tools/runner-answers.sh), and no host
#      object read a GPU exercise's student file (tools/device-only.sh).
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
graded=$(awk -F'\t' -v ch="$ch" 'NR > 1 && $3 != "speed" && (ch == "" || substr($1, 3, 2) == ch) { print $1 }' tests/points.tsv)
status_of() { # results.tsv test -> status<TAB>message
  awk -F'\t' -v k="$2" '$1 "::" $2 == k { print $3 "\t" $4; found = 1 } END { if (!found) print "missing\t" }' "$1"
}
# tally IMPL RESULTS WHAT: every graded test of RESULTS judged for IMPL (a skeleton passes none, a
# solution all, a skip only for want of a GPU), WHAT naming the run in messages; sets npass, nskip
tally() {
  local impl=$1 res=$2 what=$3 t st msg
  npass=0 nskip=0
  for t in $graded; do
    IFS=$'\t' read -r st msg < <(status_of "$res" "$t")
    case "$impl:$st" in
      exercises:pass) bad "$what passes $t (the test cannot tell a stub from a solution)";;
      solutions:pass) npass=$((npass + 1));;
      *:skip)
        if [[ $msg == "no CUDA device"* ]]; then nskip=$((nskip + 1));
        else bad "$what: $t skipped without a 'no CUDA device' reason: '$msg'"; fi;;
      solutions:*) bad "$what fails $t: $st $msg";;
      exercises:missing) bad "$what: $t did not run";;
    esac
  done
}

# seed_exercises: the exercises' build takes the solutions' objects that include nothing from
# solutions/ (their dependency files say so): the same source, flags and headers, so the same object.
# Copied with their times; make still rebuilds any whose source or headers changed since.  Skipped
# unless both builds have the same flags (ARCH, CUDA ...).
seed_exercises() {
  local from=$broot/solutions to=$broot/exercises d o t n=0
  [ -f "$from/.flags" ] || return 0
  if [ -f "$to/.flags" ]; then cmp -s "$from/.flags" "$to/.flags" || return 0
  else mkdir -p "$to" && cp -p "$from/.flags" "$to/.flags"; fi
  while IFS= read -r d; do
    o=${d%.d}.o; t=$to/${o#"$from"/}
    [ -f "$o" ] || continue
    [ -f "$t" ] && [ "$t" -nt "$o" ] && continue
    grep -Eq '(^|[[:space:]])solutions/' "$d" && continue
    mkdir -p "$(dirname "$t")" && cp -p "$o" "$t" &&
      sed "s#$from/#$to/#g" "$d" >"${t%.o}.d" && touch -r "$d" "${t%.o}.d" && n=$((n + 1))
  done < <(find "$from/obj" -name '*.d')
  say "exercises: $n objects reused from the solutions' build"
}

# the solutions first, so that the exercises' build reuses what does not depend on them
for impl in solutions exercises; do
  [ "$impl" = exercises ] && seed_exercises
  if ! make --no-print-directory BUILDROOT="$broot" IMPL=$impl all testbin >"$tmp/build-$impl.log" 2>&1; then
    bad "the $impl do not build"; tail -n 30 "$tmp/build-$impl.log"; continue
  fi
  res=$broot/$impl/check-results.tsv
  KIT_RESULTS=$res $broot/$impl/bin/tests${ch:+_$ch} --jobs "$(nproc)" >"$tmp/test-$impl.log" 2>&1
  [ -s "$res" ] || { bad "the $impl test run wrote no results"; tail -n 30 "$tmp/test-$impl.log"; continue; }
  tally "$impl" "$res" "$([ "$impl" = exercises ] && echo skeleton || echo solution)"
  if [ "$impl" = exercises ]; then
    say "skeletons compile; no graded test passes on them ($nskip skipped: no GPU)"
  else
    say "solutions: $npass graded tests pass, $nskip skipped (no GPU)"
  fi
done

# 5
if make --no-print-directory BUILDROOT="$broot" IMPL=exercises judge runners >"$tmp/build-judge.log" 2>&1 &&
   make --no-print-directory BUILDROOT="$broot" IMPL=solutions runners >>"$tmp/build-judge.log" 2>&1; then
  for impl in exercises solutions; do
    res=$broot/$impl/check-split.tsv
    rm -f "$res"
    KIT_RESULTS=$res KIT_RUNNER_DIR=$PWD/$broot/$impl/bin KIT_RUNNER_LOG=$broot/$impl/check-runner.log \
      KIT_GRADE_SEED=$RANDOM$RANDOM $broot/exercises/bin/judge${ch:+_$ch} --jobs "$(nproc)" --filter 'ex*/*' \
      >"$tmp/split-$impl.log" 2>&1
    [ -s "$res" ] || { bad "the judge with the $impl runners wrote no results"; tail -n 30 "$tmp/split-$impl.log"; continue; }
    tally "$impl" "$res" "judge + $([ "$impl" = exercises ] && echo skeleton || echo solution) runner"
    say "judge + $impl runners: $npass graded tests pass, $nskip skipped (no GPU)"
  done
  # no host object read a GPU exercise's student file: those are compiled device-only
  for impl in solutions exercises; do
    if tools/device-only.sh "$broot/$impl" >"$tmp/devonly-$impl.log" 2>&1; then
      say "$impl: no host object read a GPU exercise's file (tools/device-only.sh)"
    else bad "$impl: a host object read a GPU exercise's file:"; cat "$tmp/devonly-$impl.log"; fi
  done
  # nothing that answers an exercise is linked into a runner (tests/runner-answers.tsv)
  if tools/runner-answers.sh "$broot/exercises" >"$tmp/answers.log" 2>&1; then
    say "the runners hold none of the kit's answers (tests/runner-answers.tsv)"
  else bad "a runner holds an answer:"; cat "$tmp/answers.log"; fi
else
  bad "the judge or the runners do not build"; tail -n 30 "$tmp/build-judge.log"
fi

# 4
if tools/tables.sh check; then say "README step tables match the step tables"; else bad "README tables are stale (run: make tables)"; fi
if tools/numbers check; then say "every generated number matches its CSV (tools/numbers)"; else bad "README numbers differ from their CSVs or have none (run: make tables; the lines above say where)"; fi
if tests/numbers.sh >"$tmp/numbers-test.log" 2>&1; then say "$(tail -n 1 "$tmp/numbers-test.log")"; else bad "tests/numbers.sh"; cat "$tmp/numbers-test.log"; fi
if tools/check-published.sh >/dev/null; then say "the documents' numbers (reference/published) are well formed"; else bad "reference/published: tools/check-published.sh"; fi
# a CSV with the runs of two GPUs: a ratio and a table never mix them (made here, known answers)
{
  echo "chapter,step,param,input,n,shape,phase,bytes,ms_median,ms_min,gbps,items_s,unit,pct_copy,verified,gpu"
  echo "00,copy-bandwidth,probe,uniform,64,,run,512,0.1,0.1,1000,1,elements/s,100,ok,GPU A"
  echo "00,s1_x,,uniform,1024,,run,8192,1.0,1.0,8,1,items/s,0.8,ok,GPU A"
  echo "00,cub_x,,uniform,1024,,run,8192,2.0,2.0,4,1,items/s,0.4,ok,GPU A"
  echo "00,copy-bandwidth,probe,uniform,64,,run,512,0.1,0.1,3000,1,elements/s,100,ok,GPU B"
  echo "00,s1_x,,uniform,1024,,run,8192,4.0,4.0,2,1,items/s,0.1,ok,GPU B"
  echo "00,cub_x,,uniform,1024,,run,8192,2.0,2.0,4,1,items/s,0.1,ok,GPU B"
} >"$tmp/two-gpus.csv"
r=$(tools/ratios "$tmp/two-gpus.csv" | sed -n 's/^On \(.*\)\. Ratio.*/\1/p; s/.* \([0-9.]*x\) |$/\1/p' | tr '\n' ';')
t=$(tools/csvtable.sh "$tmp/two-gpus.csv" 10 | sed -n 's/^Measured on \([^,]*\),.* \([0-9]*\) GB\/s;.*/\1 \2/p' | tr '\n' ';')
if [ "$r" = "GPU A;2.000x;GPU B;0.500x;" ] && [ "$t" = "GPU A 1000;GPU B 3000;" ]; then
  say "ratios and README tables keep the runs of two GPUs apart"
else bad "tools/ratios or tools/csvtable.sh mixed two GPUs' runs: ratios '$r', tables '$t'"; fi

[ $fail = 0 ] && say "all good" || say "some checks failed"
exit $fail
