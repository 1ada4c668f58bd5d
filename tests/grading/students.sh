#!/usr/bin/env bash
# tests/grading/students.sh - students the class tests do not have, graded for real (chapter 01,
# CPU side, in the sandbox): two failures each (the status names the first in the order compile,
# link, load; each exercise keeps its own reason; the GPU file is device code, so its failures are
# compile errors and the link and load failures come from the CPU exercises' headers: link_load is
# graded as an assignment of chapters 01 and 02, whose two CPU exercises' files hold one each), a flat upload (Gradescope puts every file at the
# top of the submission: each is placed by its name), a zip of exercises/ (placed by the end of
# each path) and a misplaced file (refused, with the place it may have meant).  Its own assignment folder (grades/students-test/) in BUILDROOT/test-grading,
# whose kit build it shares with run.sh.  About 2 minutes on 2 cores once the kit is built.
# PASS/FAIL lines, then "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
broot=${BUILDROOT:-build}
case $broot in /*) ;; *) broot=$(pwd)/$broot;; esac
export BUILDROOT=$broot/test-grading
unset SUBMISSION SUBMISSIONS CH EXERCISES ASSIGNMENT GRADE_JOBS MAKEFLAGS MFLAGS
export GRADE_SPEED=0   # the totals below leave the speed tests out (run.sh's speed class has them)
. tests/grading/checks.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gpu=0
nvidia-smi -L 2>/dev/null | grep -q '^GPU' && gpu=1
if [ $gpu = 1 ]; then m=17 ug=0; else m=8 ug=9; fi

c=$tmp/class S=solutions/01-copy
mkdir -p "$c"/{compile_link,compile_load}/01-copy "$c/flat" "$c/misplaced/copy" "$c/zipped/exercises/01-copy"
# a compile error in the GPU file, a call of a function nobody defines (a link error) in the other
cp $S/* "$c/compile_link/01-copy/"
sed -i 's/const uint32_t \*src = in + base;/const uint32_t *src = in + bse;/' "$c/compile_link/01-copy/s1_block_dask.cu"
sed -i 's/^    const uint64_t base = nblocks \/ nrows;$/#ifndef __CUDA_ARCH__\n    (void)student_helper_nobody_wrote(0);\n#endif\n&/;
        s/^static inline KIT_HD void row_dask_balance(/#ifdef __cplusplus\nextern "C"\n#endif\nint student_helper_nobody_wrote(int);\n&/' \
  "$c/compile_link/01-copy/loadbalance.h"
# a link error in chapter 01's CPU exercise, a constructor that exits (the runner stops at load) in
# chapter 02's (sklansky8.h): graded apart, as the assignment CH=01,02
c2=$tmp/class2
mkdir -p "$c2/link_load/01-copy" "$c2/link_load/02-reduce-scan"
cp $S/loadbalance.h "$c2/link_load/01-copy/"
sed -i 's/^    const uint64_t base = nblocks \/ nrows;$/#ifndef __CUDA_ARCH__\n    (void)student_helper_nobody_wrote(0);\n#endif\n&/;
        s/^static inline KIT_HD void row_dask_balance(/#ifdef __cplusplus\nextern "C"\n#endif\nint student_helper_nobody_wrote(int);\n&/' \
  "$c2/link_load/01-copy/loadbalance.h"
cp solutions/02-reduce-scan/sklansky8.h "$c2/link_load/02-reduce-scan/"
sed -i 's|^#endif$|#include <stdlib.h>\n__attribute__((constructor)) static void link_load_quits(void) { exit(7); }\n&|' \
  "$c2/link_load/02-reduce-scan/sklansky8.h"
# a compile error in the GPU file, a constructor that exits (the runner stops at load) in the other
cp $S/* "$c/compile_load/01-copy/"
sed -i 's/const uint32_t \*src = in + base;/const uint32_t *src = in + bse;/' "$c/compile_load/01-copy/s1_block_dask.cu"
sed -i 's|^#endif$|#include <stdlib.h>\n__attribute__((constructor)) static void compile_load_quits(void) { exit(7); }\n&|' \
  "$c/compile_load/01-copy/loadbalance.h"
cp $S/loadbalance.h "$c/flat/"
cp $S/loadbalance.h "$c/misplaced/copy/"
cp $S/loadbalance.h "$c/zipped/exercises/01-copy/"   # a zip of the student's exercises/ folder
check "the class is what the test means (sed edits applied)" eval \
  'grep -q "student_helper_nobody_wrote(0)" "$c/compile_link/01-copy/loadbalance.h" && grep -q bse "$c/compile_link/01-copy/s1_block_dask.cu" &&
   grep -q bse "$c/compile_load/01-copy/s1_block_dask.cu" && grep -q "exit(7)" "$c/compile_load/01-copy/loadbalance.h" &&
   grep -q "student_helper_nobody_wrote(0)" "$c2/link_load/01-copy/loadbalance.h" && grep -q "exit(7)" "$c2/link_load/02-reduce-scan/sklansky8.h"'

make --no-print-directory grade SUBMISSIONS="$c" CH=01 ASSIGNMENT=students-test GRADE_JOBS=2 >"$tmp/class.txt" 2>&1
st=$?
cat "$tmp/class.txt"
out=$BUILDROOT/grades/students-test csv=$BUILDROOT/grades/students-test/class.csv
check "make grade SUBMISSIONS=dir CH=01 ASSIGNMENT=students-test exits 0" [ $st = 0 ]
check "compile and link errors: did not compile, naming the file that did not compile" \
  has "$csv" "^\"compile_link\",0,$m,$ug,\"did not compile\",\"01-copy/s1_block_dask.cu:[0-9]+: "
check "... and the link error is kept for its own exercise" \
  has "$out/students/compile_link/table.txt" 'ex01_loadbalance .*did not link: undefined symbol student_helper_nobody_wrote'
check "compile error and a crash at load: did not compile (the earlier of the two)" \
  has "$csv" "^\"compile_load\",0,$m,$ug,\"did not compile\",\"01-copy/s1_block_dask.cu:[0-9]+: "
check "... and the crash at load is kept for its own exercise" \
  has "$out/students/compile_load/table.txt" 'ex01_loadbalance .*crashed at load: 01-copy/loadbalance.h'
make --no-print-directory grade SUBMISSIONS="$c2" CH=01,02 ASSIGNMENT=students-test2 GRADE_JOBS=2 >"$tmp/class2.txt" 2>&1
st=$?
cat "$tmp/class2.txt"
out2=$BUILDROOT/grades/students-test2
check "make grade SUBMISSIONS=dir CH=01,02 ASSIGNMENT=students-test2 exits 0" [ $st = 0 ]
check "link error and a crash at load: did not link (the earlier of the two)" \
  has "$out2/class.csv" "^\"link_load\",0,[0-9]+,[0-9]+,\"did not link\",\"undefined symbol student_helper_nobody_wrote"
check "... and the crash at load is kept for its own exercise" \
  has "$out2/students/link_load/table.txt" 'ex02_sklansky .*crashed at load: 02-reduce-scan/sklansky8.h'
check "a flat upload is placed by its file's name: full marks ($m's CPU part)" has "$csv" "^\"flat\",8,$m,$ug,\"graded\""
check "... and says where it took the file" has "$out/students/flat/results.json" 'took loadbalance.h as 01-copy/loadbalance.h'
check "a file under its exercise path in a folder of its own (a zip of exercises/) is placed: full marks" \
  eval 'has "$csv" "^\"zipped\",8,$m,$ug,\"graded\"" && has "$out/students/zipped/results.json" "took exercises/01-copy/loadbalance.h as 01-copy/loadbalance.h"'
check "a misplaced file is refused with the place it may have meant" \
  has "$out/students/misplaced/results.json" 'ignored copy/loadbalance.h \(not an exercise file; did you mean 01-copy/loadbalance.h\?\)'
check "... and scores what the skeletons score" has "$csv" "^\"misplaced\",0,$m,$ug,\"nothing submitted\""
echo "$pass passed, $fail failed"
[ $fail = 0 ]
