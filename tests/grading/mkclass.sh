#!/usr/bin/env bash
# tests/grading/mkclass.sh N DIR - a made-up class of N students in DIR, every
# student submitting every exercise file of every chapter (for timing the grader):
# solutions copies, plus (from the 6th student on) one each of: a compile error,
# a renamed GPU kernel (formerly a link error), a wrong answer, a CPU infinite loop, a GPU kernel that hangs,
# an empty folder.
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:?usage: mkclass.sh N DIR}
dir=${2:?usage: mkclass.sh N DIR}
mkdir -p "$dir"
for i in $(seq -w 1 "$n"); do
  s=$dir/student$i
  rm -rf "$s"; mkdir -p "$s"
  cp -r solutions/. "$s/"
  # each file a little different from the solution, as students' files are
  find "$s" -type f -exec sh -c 'printf "\n/* student %s */\n" "$1" >>"$2"' _ "$i" {} \;
done
[ "$n" -ge 11 ] || exit 0
sed -i 's/const uint64_t left = nblocks % nrows;/const uint64_t left = nblocks % nrows/' "$dir/student06/01-copy/loadbalance.h"
# a renamed kernel: the GPU file is device code, so it links, and the kit's launcher finds no kernel
sed -i 's/ copy_block_dask_kernel(/ copy_blockdask_kernel(/' "$dir/student07/01-copy/s1_block_dask.cu"
sed -i 's/\*count = base + /*count = base + 1 + /' "$dir/student08/01-copy/loadbalance.h"
sed -i 's|    const uint64_t base = nblocks / nrows;|    for (volatile int spin = nblocks == 3 \&\& nrows == 2112; spin;) { }\n&|' "$dir/student09/01-copy/loadbalance.h"
# a register-only spin loop may be compiled away; one that sleeps is not
sed -i 's|    const size_t block_base = (size_t)blockIdx.x \* S1_DBS;|    while (n > 0) __nanosleep(1000);\n&|' "$dir/student10/01-copy/s1_block_dask.cu"
rm -rf "${dir:?}/student11"/*
