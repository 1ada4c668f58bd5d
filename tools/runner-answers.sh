#!/usr/bin/env bash
# runner-answers.sh BUILD [NN...] - no runner holds an answer (tests/runner-answers.tsv): for each
# chapter's unstripped runner (BUILD/obj/runner/runner_NN, what bin/runner_NN is stripped from), the
# functions and objects it defines, and a line "runner_NN defines SYMBOL (answers EXERCISE)" for each
# one of the list.  Exit 1 when there is one, 2 when a runner is missing.  Run by make check.
set -uo pipefail
b=${1:?usage: runner-answers.sh BUILD [NN...]}; shift
list=$(dirname "$0")/../tests/runner-answers.tsv
[ $# -gt 0 ] || set -- $(cd "$b/obj/runner" 2>/dev/null && ls runner_[0-9][0-9] 2>/dev/null | sed 's/runner_//')
[ $# -gt 0 ] || { echo "runner-answers: no runner in $b/obj/runner" >&2; exit 2; }
st=0
for c in "$@"; do
  r=$b/obj/runner/runner_$c
  [ -f "$r" ] || { echo "runner-answers: no $r" >&2; st=2; continue; }
  # defined symbols (local ones too, and a static's "name.part.0" clones), against the list
  found=$(nm "$r" | awk 'NF == 3 && $2 ~ /^[tTwWdDrRbB]$/ { s = $3; sub(/\..*$/, "", s); print s }' | LC_ALL=C sort -u |
          LC_ALL=C join -t $'\t' - <(grep -v '^#' "$list" | cut -f1,3 | LC_ALL=C sort -u))
  [ -z "$found" ] && continue
  while IFS=$'\t' read -r s ex; do echo "runner_$c defines $s (answers $ex)"; done <<<"$found"
  [ $st = 0 ] && st=1
done
exit $st
