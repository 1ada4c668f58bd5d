#!/usr/bin/env bash
# compile-limit.sh SECONDS MB CMD... - one compiler run of a graded build, bounded (the Makefile's
# COMPILE_LIMIT, set by tools/grade-lib.sh; it runs inside the sandbox): CMD gets SECONDS of wall
# time and MB of address space.  When it runs past either, the file being compiled (the argument
# after -c) is named in the compiler's own format, so the grader blames it without rebuilding:
#   chapters/01-copy/s5_row_dask.cu:1:1: error: compiling this file ran past 300 s (the grader's limit)
set -uo pipefail
t=${1:?compile-limit.sh SECONDS MB CMD...} mb=${2:?compile-limit.sh SECONDS MB CMD...}
shift 2
src=unknown prev=""
for a in "$@"; do [ "$prev" = -c ] && src=$a; prev=$a; done
# never above what the sandbox allows already (a limit is only lowered)
hard=$(ulimit -H -v)
[ "$hard" != unlimited ] && [ $((mb * 1024)) -gt "$hard" ] && mb=$((hard / 1024))
err=$(mktemp)
timeout -k 5 "$t" prlimit --as=$((mb * 1024 * 1024)) -- "$@" 2>"$err"
rc=$?
cat "$err" >&2
if [ $rc = 124 ] || [ $rc = 137 ]; then
  printf '%s:1:1: error: compiling this file ran past %s s (the grader'"'"'s limit)\n' "$src" "$t" >&2
elif [ $rc != 0 ] && grep -qiE 'out of memory|memory exhausted|bad_alloc|cannot allocate' "$err"; then
  printf '%s:1:1: error: compiling this file needed more than %s MB (the grader'"'"'s limit)\n' "$src" "$mb" >&2
fi
rm -f "$err"
exit $rc
