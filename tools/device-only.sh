#!/usr/bin/env bash
# tools/device-only.sh BUILD - no host object of the build read a GPU exercise's student file
# (docs/grading.md, "Device-only exercise code"): every .cu and .cuh of solutions/ and exercises/
# is device code, compiled only by `nvcc -fatbin` (an object with a .fatbin beside it); a host
# object (any other) whose dependency file lists one would run the student's host code, or let
# the student's macros rewrite the kit's.  The compiler decides: the dependency files list every
# file it read.  (A CPU exercise's .h is host code by nature and not checked.)  Prints one line
# per offence; exit 1 when there is one.
set -uo pipefail
cd "$(dirname "$0")/.."
b=${1:?usage: tools/device-only.sh BUILD (e.g. build/solutions)}
[ -d "$b/obj" ] || { echo "device-only: no $b/obj (build first)" >&2; exit 2; }
st=0
while IFS= read -r -d '' d; do
  o=${d%.d}.o
  [ -f "${d%.d}.fatbin" ] && continue   # device-only: its host code does not exist
  # stale: the source it was built from (the rule's first prerequisite) is gone from the tree
  src=$(awk '{ for (i = 1; i <= NF; i++) if ($i !~ /:$/ && $i != "\\") { if (n++) { print $i; exit } } }' "$d")
  [ -n "$src" ] && [ ! -e "$src" ] && continue
  while IFS= read -r f; do
    echo "device-only: host object $o read the student file $f"; st=1
  done < <(awk '{ sub(/\\$/, "") } { for (i = 1; i <= NF; i++) if ($i !~ /:$/) print $i }' "$d" |
           grep -E '^(\./)?(solutions|exercises)/[0-9][0-9]-[^/]+/[^/]+\.cuh?$' | sed 's|^\./||' | sort -u)
done < <(find "$b/obj" -name '*.d' -print0)
exit $st
