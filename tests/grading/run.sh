#!/usr/bin/env bash
# tests/grading/run.sh - end-to-end tests of the grader (make test-grading).
#
# The parts that need no build first (units.sh; devonly.sh builds one object of a hostile GPU
# file).  Builds a throwaway class in a temporary folder (a solutions copy, compile errors in a
# CPU and a GPU file, a renamed kernel, a link error, a wrong answer, an infinite loop, an empty
# folder) and grades it for real with chapter 01, plus one compile error in chapter 02; an assignment of two
# exercises of chapters 01 and 06 (a solutions copy, a flat Gradescope-style upload),
# which later gradings leave in place; the judge against misbehaving runners and the
# secret seed (judge.sh); the red team (redteam.sh); students with several failures
# and misplaced uploads (students.sh); checks each student's status, the tables and
# results.json.  Works with and without a GPU (the expected totals follow).
# Its own BUILDROOT (BUILDROOT/test-grading), so your grades are untouched.
# PASS/FAIL lines, then "N passed, N failed".  About 5 minutes on 2 cores.
# GRADING_SKIP_APT=1 skips the apt lock test (it needs root and a registry).
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
broot=${BUILDROOT:-build}
case $broot in /*) ;; *) broot=$repo/$broot;; esac
export BUILDROOT=$broot/test-grading
out=$BUILDROOT/grades
unset SUBMISSION SUBMISSIONS CH GRADE_JOBS MAKEFLAGS MFLAGS
export GRADE_SPEED=0   # speed tests only in their own class below (tests/grading/speed.sh)
. tests/grading/checks.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# grade_class WHAT DIR CH [VAR=value...]: make grade of the class DIR (chapter CH, two at a time),
# its output in $tmp/WHAT.txt and on stdout with its time; st: make's exit status
grade_class() {
  local what=$1 d=$2 c=$3 t0; shift 3
  t0=$(date +%s)
  env "$@" make --no-print-directory grade SUBMISSIONS="$d" CH="$c" GRADE_JOBS=2 >"$tmp/$what.txt" 2>&1
  st=$?
  cat "$tmp/$what.txt"
  echo "($what, chapter $c: $(( $(date +%s) - t0 )) s)"
}
gpu=0
nvidia-smi -L 2>/dev/null | grep -q '^GPU' && gpu=1
echo "grading tests: BUILDROOT=$BUILDROOT, GPU here: $([ $gpu = 1 ] && echo yes || echo no)"
# chapter 01 has 8 CPU points and 9 GPU points
# (gp: what the GPU exercise earns when its tests run)
if [ $gpu = 1 ]; then m=17 full1='17/17' total1='17,17,0' ug=0 gp=9; else m=8 full1='8/8' total1='8,8,9' ug=9 gp=0; fi
# the students' code runs in the sandbox; without bubblewrap (or user namespaces) grading refuses
if ! tools/sandbox.sh check >/dev/null 2>&1; then
  echo "FAIL: bubblewrap does not work here ($(tools/sandbox.sh check 2>&1)); the grading tests need it"
  echo "0 passed, 1 failed"; exit 1
fi

# part SCRIPT ARGS...: a script of tests/grading/ whose PASS/FAIL lines count here
part() {
  "$@" >"$tmp/part.txt" 2>&1
  cat "$tmp/part.txt"
  pass=$((pass + $(grep -c '^PASS: ' "$tmp/part.txt"))) fail=$((fail + $(grep -c '^FAIL: ' "$tmp/part.txt")))
  check "$1 ran to its end" has "$tmp/part.txt" '^[0-9]+ passed, 0 failed$'
}
out=$BUILDROOT/grades/ch01   # CH=01's assignment folder

# ---------------------------------------------------------------- units
part tests/grading/units.sh
# a GPU exercise's file is device code only: its host code does not exist (devonly.sh)
part tests/grading/devonly.sh

# 9: CH=NN-topic, the form make help lists
check "make accepts CH=02-reduce-scan" make -n test CH=02-reduce-scan >/dev/null

# ---------------------------------------------------------------- one student
mkdir -p "$tmp/sol"
cp -r solutions/. "$tmp/sol/"
# 1: CH after the folder (the Makefile's order)
make --no-print-directory grade SUBMISSION="$tmp/sol" CH=01 >"$tmp/one.txt" 2>&1
st=$?
cat "$tmp/one.txt"
check "make grade SUBMISSION=dir CH=01 exits 0" [ $st = 0 ]
check "solutions copy: full marks ($full1)" has "$tmp/one.txt" "^total: $full1 graded points"
check "solutions copy: every CPU exercise test passed" [ "$(grep -c '^ex01_loadbalance .* passed$' "$tmp/one.txt")" = 4 ]
if [ $gpu = 0 ]; then
  check "no GPU: the GPU exercise is 'not graded here (no GPU)'" \
    [ "$(grep -c '^ex01_block_dask .*-/[0-9]  not graded here (no GPU)' "$tmp/one.txt")" = 4 ]
  check "no GPU: results.json shows no GPU test as failed" hasnt "$out/students/sol/results.json" '"status": "failed"'
fi
check "only chapter 01 was graded" hasnt "$tmp/one.txt" '^ex0[246]_'
tools/grade-submission.sh --ch 1 "$tmp/sol" >"$tmp/one-b.txt" 2>&1
check "grade-submission.sh --ch 1 DIR (option first) gives the same" has "$tmp/one-b.txt" "^total: $full1 graded points"
make --no-print-directory grade SUBMISSION="$tmp/sol" CH=01-copy >"$tmp/one-c.txt" 2>&1
check "make grade CH=01-copy gives the same" has "$tmp/one-c.txt" "^total: $full1 graded points"
check "the shared kit build is reused (and said so)" has "$tmp/one-c.txt" 'the kit with the skeletons is built already'
check "... and \"building\" is not said again" hasnt "$tmp/one-c.txt" 'building the kit'
# ... also with Criterion named by CRITERION_DIR (the system's prefix where none is given): the
# runners' make in the box and the judge's outside must leave the same flag stamp
cdir=${CRITERION_DIR:-/usr}
if [ -f "$cdir/include/criterion/criterion.h" ]; then
  CRITERION_DIR=$cdir tools/grade-submission.sh --ch 1 "$tmp/sol" >"$tmp/one-d.txt" 2>&1
  CRITERION_DIR=$cdir tools/grade-submission.sh --ch 1 "$tmp/sol" >"$tmp/one-e.txt" 2>&1
  check "with CRITERION_DIR=$cdir: full marks, and the kit is built once (the next grading reuses it)" eval \
    'has "$tmp/one-e.txt" "^total: $full1 graded points" && has "$tmp/one-e.txt" "the kit with the skeletons is built already"'
fi
check "the first build said what it builds, how much and where its log is (or that it was built already)" eval \
  'has "$tmp/one.txt" "building the kit with the skeletons, shared by every student: chapters 01, the judge and the runners \([0-9]+ compile and link steps; .*\); log: .*/kit-build.log" ||
   has "$tmp/one.txt" "the kit with the skeletons is built already"'
check "solutions copy: results under the assignment's folder (grades/ch01/students/sol/)" [ -s "$out/students/sol/results.json" ]

# ------------------------------------------------ an assignment: two exercises of chapters 01 and 06
a=$tmp/assign
mkdir -p "$a"/{full/01-copy,full/06-ballot-scan,flat}
cp solutions/01-copy/* "$a/full/01-copy/"; cp solutions/06-ballot-scan/* "$a/full/06-ballot-scan/"
cp solutions/01-copy/loadbalance.h solutions/06-ballot-scan/ballot_bitplane.h "$a/flat/"   # Gradescope's layout
make --no-print-directory grade SUBMISSIONS="$a" EXERCISES=ex01_loadbalance,ex06_bitplane GRADE_JOBS=2 >"$tmp/assign.txt" 2>&1
st=$?
cat "$tmp/assign.txt"
ad=$BUILDROOT/grades/ex01_loadbalance-ex06_bitplane
check "make grade SUBMISSIONS=dir EXERCISES=ex01_loadbalance,ex06_bitplane exits 0" [ $st = 0 ]
check "assignment: its own folder, named after what it grades" [ -s "$ad/class.csv" ]
check "assignment: a correct student gets 16/16 (the maximum is what was assigned)" has "$ad/class.csv" '^"full",16,16,0,"graded"'
check "assignment: only the two exercises are in the results" \
  eval '[ "$(grep -oE "\"name\": \"ex[0-9]+_[a-z_]+" "$ad/students/full/results.json" | sort -u | cut -d\" -f4 | tr "\n" " ")" = "ex01_loadbalance ex06_bitplane " ]'
check "assignment: the other exercises' files are left as their skeletons, and said so" \
  has "$ad/students/full/results.json" 'left as the skeletons: the files of ex01_block_dask, ex06_lanemask, ex06_segscan \(not part of this assignment\)'
check "assignment: a flat upload is placed by its file names and scores 16/16" has "$ad/class.csv" '^"flat",16,16,0,"graded"'
check "assignment: ... and says where it took each file" \
  eval 'has "$ad/students/flat/results.json" "took loadbalance.h as 01-copy/loadbalance.h" && has "$ad/students/flat/results.json" "took ballot_bitplane.h as 06-ballot-scan/ballot_bitplane.h"'
check "no results.json of the assignment has a test of max_score 0" eval '! grep -l "\"max_score\": 0," "$ad"/students/*/results.json | grep -q .'
assign_before=$(cd "$ad" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum | sha256sum)

# the judge against misbehaving runners, and the secret seed against its inputs (judge_01_06: built above)
part tests/grading/judge.sh "$BUILDROOT/grades/kit/build/exercises/bin/judge_01_06"

# 6: a submission that no longer compiles does not keep its old results.json
mkdir -p "$tmp/stale/alice/01-copy"
cp solutions/01-copy/loadbalance.h "$tmp/stale/alice/01-copy/"
tools/grade-submission.sh "$tmp/stale/alice" --ch 01 >/dev/null 2>&1
check "alice first scores 8" has "$out/students/alice/results.json" '"score": 8,'
sed -i 's/\*count = base/*count = bse/' "$tmp/stale/alice/01-copy/loadbalance.h"
tools/grade-submission.sh "$tmp/stale/alice" --ch 01 >"$tmp/stale.txt" 2>&1
check "after breaking it, alice's results.json is new: score 0" has "$out/students/alice/results.json" '"score": 0,'
check "... and says why" has "$out/students/alice/results.json" "did not compile: 01-copy/loadbalance.h:[0-9]+: .*bse"

# ---------------------------------------------------------------- a class
c=$tmp/class S=solutions/01-copy
mkdir -p "$c"/{good,compile_cpu,compile_gpu,link,link_use,wrong,loop}/01-copy "$c/empty"
cp $S/* "$c/good/01-copy/"; echo notes >"$c/good/README.txt"
cp $S/loadbalance.h "$c/compile_cpu/01-copy/"
sed -i 's/const uint64_t left = nblocks % nrows;/const uint64_t left = nblocks % nrows/' "$c/compile_cpu/01-copy/loadbalance.h"
cp $S/* "$c/compile_gpu/01-copy/"
sed -i 's/const uint32_t \*src = in + base;/const uint32_t *src = in + bse;/' "$c/compile_gpu/01-copy/s1_block_dask.cu"
cp $S/* "$c/link/01-copy/"      # renames the kernel the kit loads: device code is data, so it
sed -i 's/ copy_block_dask_kernel(/ copy_blockdask_kernel(/' "$c/link/01-copy/s1_block_dask.cu"   # links
cp $S/* "$c/link_use/01-copy/"  # calls a function nobody defines (host code: the CPU exercise)
sed -i 's/^    const uint64_t base = nblocks \/ nrows;$/#ifndef __CUDA_ARCH__\n    (void)student_helper_nobody_wrote(0);\n#endif\n&/;
        s/^static inline KIT_HD void row_dask_balance(/#ifdef __cplusplus\nextern "C"\n#endif\nint student_helper_nobody_wrote(int);\n&/' \
  "$c/link_use/01-copy/loadbalance.h"
cp $S/loadbalance.h "$c/wrong/01-copy/"
sed -i 's/\*count = base + /*count = base + 1 + /' "$c/wrong/01-copy/loadbalance.h"
cp $S/loadbalance.h "$c/loop/01-copy/"  # hangs in large_counts only (3 blocks over 2112 rows)
sed -i 's|    const uint64_t base = nblocks / nrows;|    for (volatile int spin = nblocks == 3 \&\& nrows == 2112; spin;) { }\n&|' "$c/loop/01-copy/loadbalance.h"
check "the class is what the test means (sed edits applied)" eval \
  'grep -q "nrows\$" "$c/compile_cpu/01-copy/loadbalance.h" && grep -q bse "$c/compile_gpu/01-copy/s1_block_dask.cu" &&
   grep -q blockdask "$c/link/01-copy/s1_block_dask.cu" && grep -q spin "$c/loop/01-copy/loadbalance.h" &&
   grep -q "student_helper_nobody_wrote(0)" "$c/link_use/01-copy/loadbalance.h" && grep -q "base + 1 +" "$c/wrong/01-copy/loadbalance.h"'

grade_class class "$c" 01
csv=$out/class.csv
check "make grade SUBMISSIONS=dir CH=01 GRADE_JOBS=2 exits 0" [ $st = 0 ]
check "students graded two at a time" has "$tmp/class.txt" '8 students, 2 at a time'
check "good: $full1, graded" has "$csv" "^\"good\",$total1,\"graded\""
check "good: the extra file is reported as ignored" has "$out/students/good/results.json" 'ignored README.txt'
check "compile_cpu: did not compile, file:line: message (table)" \
  has "$out/class.txt" "compile_cpu +0/$m +did not compile: 01-copy/loadbalance.h:[0-9]+: expected"
check "compile_cpu: ... and in results.json" \
  has "$out/students/compile_cpu/results.json" '"output": "did not compile: 01-copy/loadbalance.h:[0-9]+: expected'
check "compile_gpu: did not compile (nvcc's message), its CPU exercise still graded" \
  has "$csv" "^\"compile_gpu\",8,$m,$ug,\"did not compile\",\"01-copy/s1_block_dask.cu:[0-9]+: identifier \"\"bse\"\" is undefined\""
check "link: a renamed kernel builds and links (the GPU file is device code, loaded by name at run time)" \
  has "$csv" "^\"link\",8,$m,$ug,\"graded\""
if [ $gpu = 1 ]; then
  check "link: ... and its GPU tests fail: the kit's launcher finds no kernel of that name" \
    has "$out/students/link/table.txt" 'ex01_block_dask +whole_blocks +required +0/3 +failed'
fi
check "link_use: did not link: undefined symbol it calls, its other exercise still graded" \
  has "$csv" "^\"link_use\",$gp,$m,$ug,\"did not link\",\"undefined symbol student_helper_nobody_wrote \\(01-copy/loadbalance.h\\)"
check "wrong: graded, 0 points" has "$csv" "^\"wrong\",0,$m,"
check "wrong: the failure shows expected and got" \
  has "$out/students/wrong/results.json" 'example_23_over_5.*failed: row_dask_balance\(nblocks=23, nrows=5, row=0\): \*start = 0, \*count = 5, want 0 and 4'
check "loop: the hanging test timed out, the others passed" has "$out/students/loop/table.txt" 'large_counts +extra +0/1 +timed out'
check "loop: 7 of $m" has "$csv" "^\"loop\",7,$m,"
check "empty: nothing submitted" has "$csv" "^\"empty\",0,$m,[0-9]+,\"nothing submitted\""
check "no student scores 0 in silence (each 0 has its reason)" \
  bash -c "! grep -E '^\"[^\"]*\",0,' '$csv' | grep -vE 'did not|nothing submitted|^\"wrong\"'"
check "the class table is sorted by student" \
  [ "$(awk -F, 'NR > 1 { print $1 }' "$csv" | tr -d '"' | tr '\n' ' ')" = "compile_cpu compile_gpu empty good link link_use loop wrong " ]
check "class.json holds every student's results" [ "$(grep -c '": {"status": ' "$out/class.json")" = 8 ]
if command -v python3 >/dev/null; then
  check "class.json and every results.json are valid JSON" python3 -c 'import json, sys
for f in sys.argv[1:]: json.load(open(f))' "$out/class.json" "$out"/students/*/results.json
fi
# 4: one shared build; per student only the files that depend on theirs
check "good: the kit was not rebuilt for the student (no reference/ or other steps)" \
  hasnt "$out/students/good/build.log" ' -c (reference/|chapters/01-copy/s[0-46]_)'
check "good: its two sources and the runner's test file that includes its header were rebuilt (the GPU file device-only)" \
  [ "$(grep -cE ' (-c|-fatbin) (exercises/01-copy/s1_block_dask.cu|chapters/01-copy/s5_row_dask.cu|tests/test_01_exercises.c)' "$out/students/good/build.log")" = 3 ]
check "good: the GPU file was compiled device-only, never as host code" \
  eval 'has "$out/students/good/build.log" " -fatbin exercises/01-copy/s1_block_dask.cu" && hasnt "$out/students/good/build.log" " -c exercises/01-copy/s1_block_dask.cu"'
check "wrong (a header only): nothing rebuilt but what includes it" \
  [ "$(grep -cE ' -c ' "$out/students/wrong/build.log")" = 2 ]

# ------------------------------------------- the red team: one student per attack (redteam.sh)
rt=$tmp/redteam
tests/grading/redteam.sh "$rt" "$repo"
snap() { (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum | sha256sum); }
class_before=$(snap "$c") rt_before=$(snap "$rt") good_before=$(snap "$out/students/good")
git_before=$(git -C "$repo" status --porcelain 2>&1)
# a sandbox budget this machine can pay for twice at once (memhog, bomb); the grader's lock file
# stays as it was (fdlock)
: >"$BUILDROOT/grades/.lock"
grade_class rt "$rt" 01 GRADE_LOAD_TIMEOUT=15 GRADE_MEM_MB=2048 GRADE_TMP_MB=256 GRADE_COMPILE_S=60
sleep 2   # anything left behind would still be there
csv=$out/class.csv
check "make grade of the red-team class exits 0" [ $st = 0 ]
# who, its score without a GPU, 1 if its GPU file (the solution's) earns the GPU exercise's gp
# points where a GPU grades it, its status
while read -r who score g status; do
  score=$((score + g * gp))
  check "red team: $who scores $score of $m ($status)" has "$csv" "^\"$who\",$score,$m,[0-9]*,\"$status"
done <<'EXPECT'
honest 8 1 graded
asserts 0 0 graded
atexit 0 0 graded
dlsym 0 0 graded
incsol 0 0 did not compile
incabs 0 0 did not compile
incmacro 0 0 graded
borrow 0 0 did not compile
harm 8 1 graded
sleepers 8 1 graded
pausector 0 1 crashed at load
exitload 0 1 crashed at load
abortload 0 1 crashed at load
fakeout 0 0 graded
forkwait 8 1 graded
kit 8 0 graded
fdlock 8 1 graded
memhog 8 1 graded
bomb 8 0 did not compile
flood 8 1 graded
selfexe 0 0 graded
cub_cccl_cub 8 0 did not compile
cub_cuda_cub 8 0 did not compile
cub_thrust_cub 8 0 did not compile
cub_nv_cub 8 0 did not compile
devhost 8 1 graded
students 0 0 nothing submitted
cluster 0 0 nothing submitted
bob9 0 0 nothing submitted
bob10 0 0 nothing submitted
EXPECT
check "red team: the borrowed kit function is named" has "$out/students/borrow/results.json" "calls the kit's kit_rand64"
check "red team: the hang at load blames its file, in bounded time ($(cat "$out/students/pausector/seconds" 2>/dev/null) s)" \
  eval 'has "$out/students/pausector/status.tsv" "01-copy/loadbalance.h: the program stopped" && [ "$(cat "$out/students/pausector/seconds")" -le 300 ]'
check "red team: the grader's lock file is as it was (no student wrote into it)" [ ! -s "$BUILDROOT/grades/.lock" ]
held=$(grep -o 'rt-mem held [0-9]* MB' "$out/students/memhog/runner.log" | awk '$3 > m { m = $3 } END { print m + 0 }')
tmpw=$(grep -o 'rt-tmp wrote [0-9]* MB' "$out/students/memhog/runner.log" | awk '$3 > m { m = $3 } END { print m + 0 }')
if tools/sandbox.sh check 2>/dev/null | grep -q cgroup; then
  check "red team: memhog's processes held at most the sandbox's 2048 MB together (held $held MB)" \
    eval '[ "$held" -gt 0 ] && [ "$held" -le 2048 ]'
else
  echo "SKIP: memhog's total (no memory cgroup here: $(tools/sandbox.sh check 2>&1))"
fi
check "red team: memhog wrote at most 2 x 256 MB into /tmp and /var/tmp ($tmpw MB)" eval '[ "$tmpw" -le 512 ]'
check "red team: the compile that never ends is named, in bounded time ($(cat "$out/students/bomb/seconds" 2>/dev/null) s)" \
  eval 'has "$out/students/bomb/status.tsv" "01-copy/s1_block_dask.cu:[0-9:]* .*(60 s|MB)" && [ "$(cat "$out/students/bomb/seconds")" -le 300 ]'
check "red team: build.log is cut at 1 MB ($(stat -c %s "$out/students/flood/build.log") bytes)" \
  eval '[ "$(stat -c %s "$out/students/flood/build.log")" -le 1049000 ] && has "$out/students/flood/build.log" "cut at 1 MB"'
check "red team: CUB by another spelling is refused, naming the header" \
  eval 'has "$out/students/cub_cccl_cub/status.tsv" "#include of [^ ]*: a library.s ready-made code" &&
        has "$out/students/cub_cuda_cub/status.tsv" "#include of [^ ]*: a library.s ready-made code"'
check "red team: every student's maximum is the same ($m)" \
  [ "$(awk -F, 'NR > 1 && $3 != "" { print $3 }' "$csv" | sort -u | tr '\n' ' ')" = "$m " ]
check "red team: names with a quote, a backslash and a tab are graded and quoted" \
  eval 'has "$csv" "^\"a\"\"b[\\\\]c\",0," && has "$csv" "^\"tab	name\",0,"'
check "red team: natural order (bob9 before bob10)" \
  eval '[ "$(grep -n "^\"bob9\"" "$csv" | cut -d: -f1)" -lt "$(grep -n "^\"bob10\"" "$csv" | cut -d: -f1)" ]'
check "red team: a newline and a hidden folder are refused with a message" \
  eval 'has "$out/class.txt" "newline" && has "$out/class.txt" "hidden folder" && has "$tmp/rt.txt" "hidden folder"'
if command -v python3 >/dev/null; then
  check "red team: class.json and every results.json are valid JSON" python3 -c 'import json, sys
for f in sys.argv[1:]: json.load(open(f))' "$out/class.json" "$out"/students/*/results.json
fi
check "red team: no submission of either class changed" eval '[ "$(snap "$c")" = "$class_before" ] && [ "$(snap "$rt")" = "$rt_before" ]'
check "red team: the earlier class's results are untouched" [ "$(snap "$out/students/good")" = "$good_before" ]
check "the assignment's results are untouched by the later gradings of chapter 01" [ "$(snap "$ad")" = "$assign_before" ]

# students with several failures, a flat upload and a misplaced file (their own assignment folder)
part tests/grading/students.sh
check "red team: the kit's checkout is as it was (git status)" [ "$(git -C "$repo" status --porcelain 2>&1)" = "$git_before" ]
check "red team: nothing was written outside the sandbox" \
  eval '! find "$repo" "$tmp" "$BUILDROOT" /tmp -maxdepth 3 -name RT_WAS_HERE 2>/dev/null | grep -q .'
check "red team: no process outlived the grading" eval '! ps -eo comm=,args= | grep -v grep | grep -qE "rt-attack|sleep 1800"'
ps -eo pid=,comm=,args= | grep -E "rt-attack|sleep 1800" | grep -v grep | head -n 5

# ------------------------------------------- speed: timed by the judge, each cheat 0 (speed.sh)
sc=$tmp/speedclass
tests/grading/speed.sh "$sc" "$repo"
t0=$(date +%s)
GRADE_SPEED=1 make --no-print-directory grade SUBMISSIONS="$sc" CH=01 GRADE_JOBS=2 >"$tmp/speed.txt" 2>&1
st=$?
cat "$tmp/speed.txt"
echo "(speed class, chapter 01: $(( $(date +%s) - t0 )) s)"
lb() { grep -E "^ex01_loadbalance +$2 " "$out/students/$1/table.txt"; }
check "make grade of the speed class exits 0" [ $st = 0 ]
check "the reference runners were built from the solutions" has "$tmp/speed.txt" 'reference runners for speed tests'
for who in fast slow early lazy staging previous copyone forge; do
  check "speed: $who: the 4 other ex01_loadbalance tests pass (nothing else changes)" \
    [ "$(lb $who '[a-z_0-9]+' | grep -v ' speed ' | grep -c 'passed$')" = 4 ]
done
check "speed: fast (the solution) gets every speed point" [ "$(lb fast 'speed_[0-9]+' | grep -c ' 1/1 ')" = 3 ]
check "speed: the printout names the throughput, the ratio, the reference and the device" \
  has "$out/students/fast/table.txt" "^speed: ex01_loadbalance: [0-9.e+]+ rows/s = [0-9]+ % of the solution's row_dask_balance on "
check "speed: results.json carries the ratio and the device" \
  has "$out/students/fast/results.json" '"name": "ex01_loadbalance::speed_95".*"extra_data": \{"ratio": [0-9.]+, "noise": [0-9.]+, "device": "'
# slow: fewer points, and exactly the tiers its credited ratio reaches
cred=$(awk -F'\t' '$1 == "ex01_loadbalance" { print $4 }' "$out/students/slow/speed.tsv")
earned=$(awk -F'\t' -v c="$cred" '$3 == "speed" && $1 ~ /^ex01_loadbalance::/ { split($1, p, "_"); if (c * 100 + 1e-9 >= p[3] + 0) s += $2 } END { print s + 0 }' tests/points.tsv)
got=$(lb slow 'speed_[0-9]+' | grep -c ' 1/1 ')
lb slow 'speed_[0-9]+'
check "speed: slow scores fewer speed points than the solution ($got of 3, credited ratio ${cred:-none})" [ "${got:-3}" -lt 3 ]
check "speed: slow scores what its ratio earns ($earned)" [ "${cred:+$got}" = "$earned" ]
for who in early lazy staging previous copyone forge; do
  lb $who 'speed_95'
  check "speed: cheat $who scores 0 on the speed test" [ "$(lb $who 'speed_[0-9]+' | grep -c ' 0/1  failed: ')" = 3 ]
done
check "speed: early is caught by its commitments" eval 'lb early speed_50 | grep -q "not the one it committed to"'
check "speed: staging is caught by the check of its outputs" eval 'lb staging speed_50 | grep -qE "failed: row_dask_balance\(nblocks=[0-9]+, nrows=[0-9]+"'
check "speed: forge is caught before or at its reply" eval 'lb forge speed_50 | grep -qE "before the judge said go|out of step"'
check "speed: class.csv has a column per speed test" has "$out/class.csv" '^student,.*,speed:ex01_loadbalance'
# the GPU exercise's speed: fast full, gpuslow right and fewer points (on a GPU); otherwise not graded
bd() { grep -E "^ex01_block_dask +$2 " "$out/students/$1/table.txt"; }
if [ $gpu = 1 ]; then
  bd fast 'speed_[0-9]+'; bd gpuslow 'speed_[0-9]+'
  check "speed, GPU: fast (the solution) gets every ex01_block_dask speed point" \
    [ "$(bd fast 'speed_[0-9]+' | grep -c ' 1/1 ')" = 3 ]
  check "speed, GPU: gpuslow passes the 4 other ex01_block_dask tests" \
    [ "$(bd gpuslow '[a-z_0-9]+' | grep -v ' speed ' | grep -c 'passed$')" = 4 ]
  cred=$(awk -F'\t' '$1 == "ex01_block_dask" { print $4 }' "$out/students/gpuslow/speed.tsv")
  earned=$(awk -F'\t' -v c="$cred" '$3 == "speed" && $1 ~ /^ex01_block_dask::/ { split($1, p, "_"); if (c * 100 + 1e-9 >= p[4] + 0) s += $2 } END { print s + 0 }' tests/points.tsv)
  got=$(bd gpuslow 'speed_[0-9]+' | grep -c ' 1/1 ')
  check "speed, GPU: gpuslow scores fewer speed points than the solution ($got of 3, credited ratio ${cred:-none})" [ "${got:-3}" -lt 3 ]
  check "speed, GPU: gpuslow scores what its ratio earns ($earned)" [ "${cred:+$got}" = "$earned" ]
  check "speed, GPU: the printout names the GPU exercise's throughput and its reference" \
    has "$out/students/fast/table.txt" "^speed: ex01_block_dask: [0-9.e+]+ words/s = [0-9]+ % of s1_block_dask on "
else
  check "speed, no GPU: the GPU exercise's speed tests are 'not graded here (no GPU)'" \
    [ "$(bd gpuslow 'speed_[0-9]+' | grep -c 'not graded here (no GPU)')" = 3 ]
fi

# ------------------------- the red team of chapter 05: what the compiler and the runner see
rt5=$tmp/redteam05
tests/grading/redteam05.sh "$rt5" "$repo"
rt5_before=$(snap "$rt5")
grade_class rt5 "$rt5" 05
out=$BUILDROOT/grades/ch05   # CH=05's assignment folder
csv=$out/class.csv
check "make grade of the chapter 05 red-team class exits 0" [ $st = 0 ]
m5=$(awk -F, '$1 == "\"honest05\"" { print $3 }' "$csv")
# honest05 submits the CPU exercises only: every point of theirs (speed is off here)
cpu5=$(awk -F'\t' '$1 ~ /^ex05_/ && $3 != "speed" && $4 == "cpu" { s += $2 } END { print s + 0 }' tests/points.tsv)
check "chapter 05: the honest student scores every CPU point ($cpu5 of ${m5:-?})" has "$csv" "^\"honest05\",$cpu5,$m5,[0-9]*,\"graded"
while read -r who score status; do
  check "red team 05: $who scores $score ($status)" has "$csv" "^\"$who\",$score,$m5,[0-9]*,\"$status"
done <<'EXPECT'
inc_comment 0 did not compile
inc_comment2 0 did not compile
inc_splice 0 did not compile
inc_splice2 0 did not compile
inc_trigraph 0 did not compile
inc_digraph 0 did not compile
inc_macro 0 did not compile
inc_angle 0 did not compile
inc_dotdot 0 did not compile
inc_next 0 did not compile
inc_pragma 0 did not compile
inc_formfeed 0 did not compile
inc_line 0 did not compile
inc_lastline 0 did not compile
has_include 0 graded
runner_helper 0 did not
runner_radix_h 0 did not
identity 0 graded
EXPECT
check "red team 05: a refused include names the kit's header" has "$out/students/inc_splice/status.tsv" 'radix\.h'
check "red team 05: no submission changed" [ "$(snap "$rt5")" = "$rt5_before" ]

# 5: an empty class folder is an error, not a phantom student "*"
mkdir -p "$tmp/noclass"
make --no-print-directory grade SUBMISSIONS="$tmp/noclass" CH=01 >"$tmp/noclass.txt" 2>&1
st=$?
cat "$tmp/noclass.txt"
check "an empty SUBMISSIONS folder fails" [ $st != 0 ]
check "... saying why" has "$tmp/noclass.txt" 'no student folders'
check "... and grades no student named *" [ ! -e "$out/*" ]

# 3: a header of chapter 02 that does not compile is named (the exercise's comment wraps)
mkdir -p "$tmp/sk/02-reduce-scan"
cp solutions/02-reduce-scan/sklansky8.h "$tmp/sk/02-reduce-scan/"
sed -i 's/b = rs_affine_then(v\[2\], v\[3\]);/b = rs_affine_then(v[2], v[3])/' "$tmp/sk/02-reduce-scan/sklansky8.h"
make --no-print-directory grade SUBMISSION="$tmp/sk" CH=02 >"$tmp/sk.txt" 2>&1
tail -n 6 "$tmp/sk.txt"
check "sklansky8.h: its exercise says did not compile" \
  [ "$(grep -cE '^ex02_sklansky .* 0/[0-9] +did not compile: 02-reduce-scan/sklansky8.h:[0-9]+: ' "$tmp/sk.txt")" = 3 ]

# 7: make deps waits for a busy package manager instead of failing at once
if [ -n "${GRADING_SKIP_APT:-}" ] || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "SKIP: apt lock test (needs root and apt-get; GRADING_SKIP_APT unset)"
else
  printf '%s\n' '#include <fcntl.h>' '#include <stdio.h>' '#include <unistd.h>' \
    'int main(int c, char **v) { struct flock l = {.l_type = F_WRLCK}; int fd = open(v[1], O_RDWR);' \
    '  if (fd < 0 || fcntl(fd, F_SETLK, &l)) { perror(v[1]); return 1; } puts("locked"); fflush(stdout);' \
    '  pause(); return 0; }' >"$tmp/hold.c"
  gcc -o "$tmp/hold" "$tmp/hold.c"
  lock=/var/lib/dpkg/lock-frontend
  "$tmp/hold" $lock >"$tmp/hold.out" & h=$!
  sleep 1; (sleep 6; kill $h) & k=$!
  t0=$(date +%s)
  make --no-print-directory deps APT_LOCK_TIMEOUT=120 >"$tmp/deps1.txt" 2>&1
  st=$? dt=$(( $(date +%s) - t0 ))
  kill $h 2>/dev/null; wait $k 2>/dev/null
  check "make deps waited for the lock held 6 s (${dt} s) and then succeeded" eval '[ $st = 0 ] && [ $dt -ge 4 ] && has "$tmp/hold.out" locked'
  "$tmp/hold" $lock >"$tmp/hold.out" & h=$!
  sleep 1
  make --no-print-directory deps APT_LOCK_TIMEOUT=2 >"$tmp/deps2.txt" 2>&1
  st=$?
  kill $h 2>/dev/null
  cat "$tmp/deps2.txt"
  check "make deps with the lock held past the timeout fails" [ $st != 0 ]
  check "... with advice that fits (package manager busy)" has "$tmp/deps2.txt" 'package manager is busy'
fi

# ------------------------------------------- the main job without a GPU: plots/ is never touched
if [ $gpu = 0 ]; then
  before=$(git -C "$repo" status --porcelain -- plots 2>&1)
  BUILDROOT=$broot make --no-print-directory bench CH=01 QUICK=1 EXP=sweep >"$tmp/bench.txt" 2>&1
  st=$?
  check "make bench without a GPU runs the CPU rows" eval '[ $st = 0 ] && has "$tmp/bench.txt" "CPU rows only"'
  check "... and leaves plots/ as committed (no CSV, no figure redrawn)" \
    eval '[ "$(git -C "$repo" status --porcelain -- plots 2>&1)" = "$before" ]'
  check "... its rows are in build/cpu-only/" [ -s "$repo/build/cpu-only/01-copy/sweep.csv" ]
  "$broot/solutions/bin/ch01" bench --quick --exp sweep --out ./plots/01-copy/ >"$tmp/bench2.txt" 2>&1
  check "ch01 bench --out ./plots/01-copy/ without a GPU writes elsewhere and says so" \
    eval '[ "$(git -C "$repo" status --porcelain -- plots 2>&1)" = "$before" ] && has "$tmp/bench2.txt" "not writing CPU-only rows"'
  "$broot/solutions/bin/ch01" bench --reps 0 >"$tmp/bench3.txt" 2>&1
  st=$?
  check "ch01 bench --reps 0 is refused with the valid range" eval '[ $st = 2 ] && has "$tmp/bench3.txt" "from 1 to 1000"'
  "$broot/solutions/bin/ch01" bench --out "$tmp/none/x.csv" >"$tmp/bench4.txt" 2>&1
  st=$?
  check "ch01 bench --out FILE.csv is refused (--out is a folder)" eval '[ $st = 2 ] && [ ! -e "$tmp/none" ]'
fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
