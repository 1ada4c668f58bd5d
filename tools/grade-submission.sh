#!/usr/bin/env bash
# grade-submission.sh DIR [--ch NN,..] [--exercises exNN_a,..] [--assignment NAME]
# grade-submission.sh --class DIR [the same] [-j N]   every sub-folder of DIR (one per student)
# grade-submission.sh --name [--ch ..] [--exercises ..] [--assignment ..]   the assignment's folder name
#
# --ch and --exercises select what is graded (an assignment; nothing: every exercise): the
# chapters' exercises and the exercises named; the maximum is theirs.  Each assignment has its
# folder, BUILDROOT/grades/<assignment>/ (--assignment, else named after the selection: ch01,
# ch01-ch06, ex01_loadbalance-ex06_bitplane, all), so grading one never replaces another's.
# DIR mirrors exercises/ (NN-topic/<file>); only files that exist in exercises/
# are taken; a file at the top of DIR (a flat upload) counts as the exercise file of
# its name when exactly one has it.  Students' code is untrusted: it is compiled and run only inside the
# sandbox (tools/sandbox.sh, bubblewrap; UNSAFE=1 / GRADE_UNSAFE=1 grades without
# it and says so), and scored by the judge, which never runs it (docs/grading.md).
# The kit is built once with the skeletons (BUILDROOT/grades/kit); each student is
# graded in a scratch copy of that build, so only their files and what depends on
# them rebuild.  A file that does not compile, leaves a symbol undefined or stops
# its program at load is replaced by its skeleton: its exercise scores 0 with the
# reason, the others are still graded.  A kernel that crashes or hangs fails its
# own tests only.  Students run N at a time (-j, default: the number of cores);
# with a GPU here, their test runs take turns on it.  Results:
# BUILDROOT/grades/<assignment>/students/<student>/ and, for a class,
# BUILDROOT/grades/<assignment>/class.{txt,csv,json}.
set -uo pipefail
. "$(dirname "$0")/grade-lib.sh"
usage() { sed -n '2,4p' "$0" | sed 's/^# //'; exit 2; }
ch="" exercises="" assignment="" class=0 jobs=${GRADE_JOBS:-} target="" name_only=0
while [ $# -gt 0 ]; do   # options before or after the folder
  case $1 in
    --ch) ch=${2:-}; shift; shift;;
    --ch=*) ch=${1#*=}; shift;;
    --exercises) exercises=${2:-}; shift; shift;;
    --exercises=*) exercises=${1#*=}; shift;;
    --assignment) assignment=${2:-}; shift; shift;;
    --assignment=*) assignment=${1#*=}; shift;;
    --name) name_only=1; shift;;
    --class) class=1; shift;;
    -j) jobs=${2:-}; shift; shift;;
    -j*) jobs=${1#-j}; shift;;
    -h|--help) usage;;
    -*) die "unknown option $1";;
    *) [ -z "$target" ] || die "one folder only (got '$target' and '$1')"; target=$1; shift;;
  esac
done
select_init "$ch" "$exercises" "$assignment"
[ $name_only = 1 ] && { echo "$assignment"; exit 0; }
[ -n "$target" ] || usage
[ -d "$target" ] || die "no folder '$target'"
target=$(cd "$target" && pwd)
sandbox_init
mkdir -p "$out" "$adir"
# one grading at a time per BUILDROOT (they share the kit build)
if command -v flock >/dev/null; then
  exec 9>"$out/.lock"
  flock -n 9 || { echo "grade: another grading is using $out; waiting"; flock 9; }
fi

if [ $class = 0 ]; then
  prepare_kit || exit 1
  name=$(basename "$target")
  [[ $name == *$'\n'* ]] && die "a newline in the folder name: rename the folder"
  echo "grade: assignment $assignment (${sel:-every exercise})"
  grade_one "$target" "$name"
  echo "== $name"
  cat "$studs/$name/table.txt"
  IFS=$'\t' read -r _ _ _ _ st detail <"$studs/$name/status.tsv"
  echo "status: $st${detail:+: $detail}"
  echo "results: $studs/$name/ (results.json, table.txt, build.log, tests.log, runner.log)"
  exit 0
fi

list=$adir/class-students.txt
class_students "$target" >"$list"
[ -s "$list" ] || die "no student folders to grade in '$target' (one sub-folder per student)"
nst=$(wc -l <"$list")
jobs=${jobs:-$nproc_}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "-j $jobs: not a number"
[ "$jobs" -gt "$nst" ] && jobs=$nst
gpu_lock=""
if [ "${GRADE_GPU_LOCK:-auto}" != 0 ] && [ $gpu_here = 1 ]; then
  gpu_lock=$out/.gpu.lock   # one student's test run on the GPU at a time
fi
# the cores shared among the students at work; a test run that holds the GPU
# lock runs alone, so it gets them all
per=$((nproc_ / jobs)); [ $per -ge 1 ] || per=1
export GRADE_MAKE_JOBS=${GRADE_MAKE_JOBS:-$per} GRADE_TEST_JOBS=${GRADE_TEST_JOBS:-${gpu_lock:+$nproc_}}
export GRADE_TEST_JOBS=${GRADE_TEST_JOBS:-$per}
t0=$(date +%s)
prepare_kit || exit 1
echo "grade: assignment $assignment (${sel:-every exercise}): $nst students, $jobs at a time${gpu_lock:+, GPU test runs one at a time}"
while IFS= read -r name; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  (
    grade_one "$target/$name" "$name" >/dev/null 2>&1
    IFS=$'\t' read -r _ score max _ st detail <"$studs/$name/status.tsv"
    printf '  %-20s %7s  %s (%s s)\n' "$(printf '%s' "$name" | tr -c '[:print:]' '?')" "$score/$max" \
      "$st${detail:+: ${detail:0:100}}" "$(cat "$studs/$name/seconds")"
  ) 2>/dev/null &
done <"$list"
wait
write_class "$list"
echo
cat "$adir/class.txt"
echo "class: $adir/class.{txt,csv,json}; per student: $studs/<student>/ ($(( $(date +%s) - t0 )) s in all)"
