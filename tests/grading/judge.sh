#!/usr/bin/env bash
# tests/grading/judge.sh JUDGE - the judge against runners that misbehave on purpose
# (tests/grading/fake_runner.c), and the secret seed (KIT_GRADE_SEED) against the inputs it sends.
#
# JUDGE: a judge built with chapters 01 and 06 (BUILDROOT/grades/kit/build/exercises/bin/judge_01_06,
# which make test-grading builds; or `make IMPL=exercises CH=01,06 judge`).  No sandbox is needed:
# the runner here is this kit's own fake, started directly.  CPU only, a few seconds.
# PASS/FAIL lines, then "N passed, N failed".
set -uo pipefail
judge=${1:?usage: judge.sh JUDGE}
cd "$(dirname "$0")/../.."
. tests/grading/checks.sh
[ -x "$judge" ] || { bad "no judge at $judge"; echo "$pass passed, $fail failed"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
gcc -std=c11 -O2 -Wall -Wextra -Werror -o "$tmp/bin/fake" tests/grading/fake_runner.c || { bad "fake_runner.c builds"; exit 1; }
for c in 01 06; do ln -s fake "$tmp/bin/runner_$c"; done

# judge_with MODE FILTER [SEED]: the judge's results file for those tests, with the fake runner
judge_with() {
  local res=$tmp/res.$1.${3:-none}
  rm -f "$res"
  env -u KIT_SANDBOX KIT_RUNNER_DIR="$tmp/bin" KIT_RESULTS="$res" FAKE_RUNNER="$1" FAKE_RECORD="$tmp/rec" \
    ${3:+KIT_GRADE_SEED=$3} "$judge" --jobs 1 --filter "$2" >"$tmp/log.$1" 2>&1
  cat "$res" 2>/dev/null
}

# ------------------------------------------------------- answers out of step
t=ex01_loadbalance/example_23_over_5
while IFS='|' read -r mode want what; do
  got=$(judge_with "$mode" "$t" | awk -F'\t' '$2 == "example_23_over_5" { print $3 "\t" $4 }')
  if [[ $got =~ $want ]]; then ok "runner that answers $what: $(cut -f1 <<<"$got")"
  else bad "runner that answers $what: want /$want/, got '$got'"; fi
done <<'EOF'
right|^pass	|as asked (the fake's answers are right)
short|^fail	.*sent 32 bytes as message 0, want 40|with a header that claims 8 bytes too few (the bytes themselves right)
long|^fail	.*sent 48 bytes as message 0, want 40|8 bytes too long
swapped|^fail	.*out of step \(message 0: got a header for message 1\)|its second message first
replay|^fail	.*out of step \(message 1: got a header for message 0\)|its first message twice
magic|^fail	.*out of step|with a wrong magic number
cut|^crash	.*in the middle of its answer|half a message and goes
silent|^crash	.*exited before answering|nothing
EOF

# ------------------------------------------------------------ the secret seed
# every graded test that sends inputs (chapter 06's CPU exercise: all four) sends other inputs
# under another KIT_GRADE_SEED, the same under the same one, and none that a student could
# compute from the public seeds
mkdir -p "$tmp/rec"
rec() { rm -f "$tmp/rec"/*; judge_with record 'ex06_bitplane/*' "${1:-}" >/dev/null; mkdir -p "$tmp/$2"; cp "$tmp/rec"/* "$tmp/$2/" 2>/dev/null; }
rec 11 a; rec 11 a2; rec 12 b; rec "" public
tests=$(cd "$tmp/a" && ls 2>/dev/null | tr '\n' ' ')
n=$(wc -w <<<"$tests")
if [ "$n" = 4 ]; then ok "the judge sent inputs in each of ex06_bitplane's 4 tests"; else bad "inputs recorded for 4 tests, got $n ($tests)"; fi
for t in $tests; do
  if cmp -s "$tmp/a/$t" "$tmp/a2/$t" && [ -s "$tmp/a/$t" ]; then ok "$t: the same seed sends the same inputs"
  else bad "$t: the same seed sent other inputs (or none)"; fi
  for other in b public; do
    same=$(join -j1 <(sort "$tmp/a/$t") <(sort "$tmp/$other/$t") 2>/dev/null | awk '$2 == $4 && $3 == $5' | wc -l)
    if [ "$same" = 0 ] && [ -s "$tmp/$other/$t" ]; then
      ok "$t: every message differs under another seed ($other)"
    else
      bad "$t: $same message(s) the same under seed 11 and $other"
    fi
  done
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
