#!/usr/bin/env bash
# criterion-bundle.sh PREFIX - copy this machine's Criterion (headers, library,
# and the shared libraries it links beyond the C/C++ runtime) into PREFIX, for
# a GPU node without a package registry:  make test CRITERION_DIR=PREFIX
# Needs libcriterion-dev here (make deps).
set -euo pipefail
prefix=${1:?usage: criterion-bundle.sh PREFIX}
lib=$(ldconfig -p | awk '$1 == "libcriterion.so.3" { print $NF; exit }')
if [ -z "$lib" ] || [ ! -d /usr/include/criterion ]; then
  echo "criterion-bundle: Criterion is not installed here (make deps)" >&2; exit 1
fi
rm -rf "$prefix"
mkdir -p "$prefix/include" "$prefix/lib"
cp -r /usr/include/criterion "$prefix/include/"
cp -L "$lib" "$prefix/lib/"
ln -s libcriterion.so.3 "$prefix/lib/libcriterion.so"
# dependencies, except what every Linux system has
ldd "$lib" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' |
  grep -Ev '/(libc|libm|libdl|librt|libpthread|libresolv|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' |
  while read -r so; do cp -L "$so" "$prefix/lib/"; done
echo "criterion-bundle: $prefix ($(du -sh "$prefix" | cut -f1)); on the GPU node: make test CRITERION_DIR=$prefix"
