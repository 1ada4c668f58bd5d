# tests/grading/checks.sh - what every grading test script shares (sourced): PASS/FAIL lines,
# counted in pass and fail, and the two file checks they use most.
pass=0 fail=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }   # WHAT COMMAND...
has() { grep -qE -- "$2" "$1"; }       # FILE REGEX
hasnt() { ! grep -qE -- "$2" "$1"; }
