#!/usr/bin/env bash
# tests/grading/devonly.sh - a GPU exercise's student file is device code only (docs/grading.md,
# "Device-only exercise code"): a hostile s1_block_dask.cu (the solution's kernel plus host code
# that would leave a mark: a constructor writing a file, a global object whose host constructor
# writes another, a constructor that exits with status 3, a host definition of the kit's launcher
# copy_s1_block_dask that writes a third, #defines that rename the launcher and the image) is built
# by the kit's own Makefile rule in a scratch copy of the kit, and linked with the kit's launcher
# (chapters/01-copy/s1_launch.c) into a program that calls it.  The object holds data only (the
# fatbin: no code, no constructor, no undefined symbol), the program links (one
# copy_s1_block_dask: the kit's), runs, exits 0 and leaves no mark.  The control: the same file
# compiled as host code (nvcc -c) runs its constructors and makes its marks.  Needs no GPU (n = 0
# launches nothing); about ten seconds.  PASS/FAIL lines, then "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/grading/checks.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CUDA=${CUDA:-/usr/local/cuda}
kit=$tmp/kit
mkdir -p "$kit"
if git rev-parse --git-dir >/dev/null 2>&1; then
  git ls-files -z --cached --others --exclude-standard reference chapters/01-copy solutions/01-copy tools tests Makefile |
    xargs -0 cp --parents -t "$kit"
else
  cp -r --parents reference chapters/01-copy solutions/01-copy tools tests Makefile "$kit"
fi
tools/mkexercises.sh solutions "$kit/exercises" >/dev/null
f=$kit/exercises/01-copy/s1_block_dask.cu
cp solutions/01-copy/s1_block_dask.cu "$f"
cat >>"$f" <<HOSTILE
#include <stdio.h>
#include <stdlib.h>
#define copy_s1_block_dask rt_renamed_launcher
#define KIT_DEV_IMAGE(CH, FILE) rt_renamed_image
static void rt_mark(const char *p) { FILE *f = fopen(p, "w"); if (f) { fputs("rt-attack\\n", f); fclose(f); } }
__attribute__((constructor)) static void rt_ctor(void) { rt_mark("$tmp/MARK_CTOR"); }
__attribute__((constructor)) static void rt_quit(void) { exit(3); }
struct rt_global { rt_global() { rt_mark("$tmp/MARK_GLOBAL"); } } rt_global_object;
#undef copy_s1_block_dask
extern "C" cudaError_t copy_s1_block_dask(const uint32_t *in, uint32_t *out, size_t n, void *scratch, cudaStream_t s)
{
    (void)in; (void)out; (void)n; (void)scratch; (void)s;
    rt_mark("$tmp/MARK_LAUNCHER");
    return cudaSuccess;
}
HOSTILE
b=$tmp/build/exercises/obj
o=$b/exercises/01-copy/s1_block_dask.o
(cd "$kit" && make --no-print-directory BUILDROOT="$tmp/build" IMPL=exercises CH=01 V=1 \
  "$o" "$b/chapters/01-copy/s1_launch.o" "$b/reference/kit_dev.o") >"$tmp/build.log" 2>&1
check "the kit's rule builds the hostile GPU file" [ -f "$o" ]
check "... with nvcc -fatbin only (never -c)" \
  eval 'has "$tmp/build.log" " -fatbin exercises/01-copy/s1_block_dask.cu" && hasnt "$tmp/build.log" " -c exercises/01-copy/s1_block_dask.cu"'
check "its object defines one symbol, the embedded fatbin, and needs none" \
  eval '[ "$(nm "$o" 2>/dev/null | awk "{ print \$2, \$3 }")" = "R kit_dev_01_copy_s1_block_dask" ]'
# objdump -h: "Idx Name Size ..."; the assembler's empty .text, .data and .bss are size 0
check "its object has no code, data or constructor (every section but the fatbin's is empty)" \
  eval 'objdump -h "$o" | awk '"'"'$1 ~ /^[0-9]+$/ && $2 !~ /^\.rodata\.kit_dev_01_copy_s1_block_dask$|^\.note\.GNU-stack$/ && \
        ($3 !~ /^0+$/ || $2 ~ /init_array|ctors/) { bad = 1; print } END { exit bad }'"'"' >"$tmp/sections"'
check "its fatbin holds the kernel's name (the launcher finds it there)" grep -qa copy_block_dask_kernel "${o%.o}.fatbin"
cat >"$tmp/main.c" <<'MAIN'
#include "copy.h"
int main(void)
{
    return copy_s1_block_dask(NULL, NULL, 0, NULL, 0) == cudaSuccess ? 0 : 1; /* n = 0: no launch */
}
MAIN
gcc -std=c11 -I"$kit/reference" -I"$kit/chapters/01-copy" -I"$CUDA/include" -c "$tmp/main.c" -o "$tmp/main.o" &&
  gcc -o "$tmp/prog" "$tmp/main.o" "$b/chapters/01-copy/s1_launch.o" "$b/reference/kit_dev.o" "$o" \
    -L"$CUDA/lib64" -Wl,-rpath,"$CUDA/lib64" -lcudart >"$tmp/link.log" 2>&1
check "a program of the kit's launcher and the hostile object links (one copy_s1_block_dask)" [ -x "$tmp/prog" ]
(cd "$tmp" && ./prog) >"$tmp/run.log" 2>&1; st=$?
check "... runs and exits 0 (no constructor of the student's ran: its exit(3) would)" [ $st = 0 ]
check "... and leaves no mark (constructor, global object, launcher)" \
  eval '[ ! -e "$tmp/MARK_CTOR" ] && [ ! -e "$tmp/MARK_GLOBAL" ] && [ ! -e "$tmp/MARK_LAUNCHER" ]'
check "... and its copy_s1_block_dask is the kit's (s1_launch.c)" \
  eval 'nm "$b/chapters/01-copy/s1_launch.o" | grep -q " T copy_s1_block_dask$"'
# the control: the same file compiled as host code runs its constructors (the test would see them)
(cd "$kit" && "$CUDA/bin/nvcc" -std=c++17 -Ireference -Ichapters/01-copy -c "$f" -o "$tmp/host.o") >>"$tmp/build.log" 2>&1 &&
  gcc -o "$tmp/hostprog" "$tmp/main.o" "$tmp/host.o" "$b/reference/kit_dev.o" -L"$CUDA/lib64" -Wl,-rpath,"$CUDA/lib64" \
    -lcudart -lstdc++ >>"$tmp/link.log" 2>&1
(cd "$tmp" && ./hostprog) >/dev/null 2>&1; st=$?
check "control: compiled as host code, the same file runs its constructors (exit 3) and leaves marks" \
  eval '[ $st = 3 ] && { [ -e "$tmp/MARK_CTOR" ] || [ -e "$tmp/MARK_GLOBAL" ]; }'
# tools/device-only.sh (make check) reads the dependency files: the device-only object passes, a
# host object that read a student's .cuh is named
check "tools/device-only.sh passes the device-only object" "$kit/tools/device-only.sh" "$tmp/build/exercises" 
mkdir -p "$b/chapters/07-compaction"
printf '%s: chapters/07-compaction/s2_warp_atomic.cu exercises/07-compaction/compact_warp_atomic.cuh\n' \
  "$b/chapters/07-compaction/s2_warp_atomic.o" >"$b/chapters/07-compaction/s2_warp_atomic.d"
mkdir -p "$kit/chapters/07-compaction" && : >>"$kit/chapters/07-compaction/s2_warp_atomic.cu"
"$kit/tools/device-only.sh" "$tmp/build/exercises" >"$tmp/devonly.log" 2>&1; st=$?
check "tools/device-only.sh names a host object that read a student's .cuh, and fails" \
  eval '[ $st = 1 ] && has "$tmp/devonly.log" "host object .*s2_warp_atomic.o read the student file exercises/07-compaction/compact_warp_atomic.cuh"'
[ $fail = 0 ] || { tail -n 20 "$tmp/build.log"; tail -n 20 "$tmp/link.log"; }
echo "$pass passed, $fail failed"
[ $fail = 0 ]
