# grade-lib.sh - shared by grade-submission.sh and grade-cluster.sh (sourced, not run).
#
# Layout under $out (BUILDROOT/grades):
#   kit/                 a copy of the kit with the exercise skeletons, built once
#                        (the shared build: every student starts from it)
#   <student>/           results.json, table.txt, status.tsv, build.log, tests.log, notes.tsv
#   class.txt class.csv class.json   the class table (one row per student)
# status.tsv: student <TAB> score <TAB> max <TAB> not-graded points <TAB> status <TAB> detail
# with status one of: graded, did not compile, did not link, did not build,
# nothing submitted, tests did not run, killed by the scheduler, not run.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
broot=${BUILDROOT:-build}
case $broot in /*) ;; *) broot=$root/$broot;; esac
out=${GRADE_OUT:-$broot/grades}
kit=$out/kit
nproc_=$(nproc 2>/dev/null || echo 2)
# the student's make runs elsewhere: a relative Criterion prefix would not be found
if [ -n "${CRITERION_DIR:-}" ] && [ -d "$CRITERION_DIR" ]; then CRITERION_DIR=$(cd "$CRITERION_DIR" && pwd); fi

die() { echo "grade: $*" >&2; exit 2; }

# NN from 1, 01, 01-copy; empty stays empty
norm_ch() {
  local c=${1%%-*}
  [ -z "$c" ] && return 0
  [[ $c =~ ^[0-9]+$ ]] || die "CH=$1: not a chapter number"
  c=$(printf '%02d' "$((10#$c))")
  compgen -G "$root/chapters/$c-*" >/dev/null || die "CH=$1: no such chapter (have: $(cd "$root/chapters" && echo [0-9][0-9]-*))"
  echo "$c"
}

# the student folders of a class folder, one name a line, sorted; none is an error
class_students() {
  local d n=0
  [ -d "$1" ] || die "no folder '$1'"
  for d in "$1"/*/; do
    [ -d "$d" ] || continue
    basename "$d"; n=$((n + 1))
  done | LC_ALL=C sort
}

# the exercise (suite of tests/points.tsv) a file of exercises/ belongs to: the
# first exNN_name in the file that is a graded suite (the comment may wrap anywhere)
exercise_of() {
  local w
  for w in $(grep -o 'ex[0-9][0-9]_[a-z0-9_]*' "$kit/exercises/$1" 2>/dev/null); do
    if grep -q "^$w::" "$root/tests/points.tsv"; then echo "$w"; return; fi
  done
  echo unknown
}

kit_make() { # ARGS... in the directory $PWD (a kit copy)
  LC_ALL=C make --no-print-directory BUILDROOT=build IMPL=exercises ${ch:+CH=$ch} ${ARCH:+ARCH=$ARCH} \
    ${CRITERION_DIR:+"CRITERION_DIR=$CRITERION_DIR"} "$@"
}

# The shared build: $kit is the kit (no .git, no build outputs) with the true
# skeletons in exercises/ and its test program built.  Sources are copied with
# their times, so an unchanged kit rebuilds nothing.
prepare_kit() {
  local tmp f rel
  mkdir -p "$kit"
  tmp=$(mktemp -d)
  [ -d "$kit/build" ] && mv "$kit/build" "$tmp/build"
  find "$kit" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
  # the kit's files with their times: git's list when there is one, else all but build outputs
  if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$root" && git ls-files -z -co --exclude-standard | grep -zv "^${broot#"$root"/}/" |
       tar --null -T - --ignore-failed-read -cf - 2>/dev/null)
  else
    (cd "$root" && tar --exclude=./.git --exclude="./${broot#"$root"/}" --exclude=./build -cf - .)
  fi | tar -C "$kit" -xf -
  [ -d "$tmp/build" ] && mv "$tmp/build" "$kit/build"
  # skeletons generated from solutions/ (exercises/ of this clone may hold someone's work)
  if [ -d "$root/solutions" ] && "$root/tools/mkexercises.sh" "$root/solutions" "$tmp/ex" >/dev/null 2>&1; then
    while IFS= read -r -d '' f; do
      rel=${f#"$tmp/ex/"}
      cmp -s "$f" "$kit/exercises/$rel" && continue
      mkdir -p "$(dirname "$kit/exercises/$rel")"
      cp "$f" "$kit/exercises/$rel" && touch -r "$root/solutions/$rel" "$kit/exercises/$rel"
    done < <(find "$tmp/ex" -type f -print0)
  fi
  rm -rf "$tmp"
  echo "grade: building the kit with the skeletons (shared by every student): $kit"
  if ! (cd "$kit" && kit_make testbin >"$out/kit-build.log" 2>&1); then
    echo "grade: the kit itself does not build; see $out/kit-build.log" >&2
    tail -n 20 "$out/kit-build.log" >&2
    return 1
  fi
}

# first compiler error about exercises/REL in LOG, as "REL:LINE: message"
compile_error() {
  awk -v f="exercises/$1" -v rel="$1" '
    { i = index($0, f) }
    i && (i == 1 || substr($0, i - 1, 1) ~ /[ \/]/) {
      s = substr($0, i + length(f))
      # gcc: f:12:5: error: msg    nvcc: f(12): error: msg (error #20-D:, catastrophic error:)
      if (s !~ /^(:[0-9]+(:[0-9]+)?|\([0-9]+\)): (fatal |catastrophic )?error( #[0-9A-Za-z-]+)?: /) next
      match(s, /[0-9]+/); line = substr(s, RSTART, RLENGTH)
      m = s; sub(/^[^ ]* (fatal |catastrophic )?error( #[0-9A-Za-z-]+)?: /, "", m)
      print rel ":" line ": " substr(m, 1, 200); exit
    }' "$2"
}

# the first error line of a log (when no file can be blamed)
first_error() {
  grep -m1 -E '(error|Error|undefined reference|multiple definition)' "$1" | cut -c1-200
}

# grade_one DIR NAME: grade one student's folder; results in $out/NAME
grade_one() {
  local sub=$1 name=$2 dir=$out/$2 scratch rel f ex err sym attempt n t0 st=graded detail=""
  local files=() blamed left built=0 testbin guard=${GRADE_TEST_TIMEOUT:-3600}
  t0=$(date +%s)
  rm -rf "$dir"   # never leave an earlier result behind
  mkdir -p "$dir"
  : >"$dir/notes.tsv"; : >"$dir/build.log"
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/grade-$name.XXXXXX")
  # the shared build, copied with its times: only what the student changes rebuilds
  cp -a "$kit/." "$scratch/"
  while IFS= read -r -d '' f; do
    rel=${f#"$sub"/}
    if [ -f "$kit/exercises/$rel" ]; then
      files+=("$rel")
      cmp -s "$f" "$kit/exercises/$rel" && continue   # the skeleton as it is: nothing to rebuild
      cp "$f" "$scratch/exercises/$rel" && touch "$scratch/exercises/$rel"
    else
      printf '*\tnote\tignored %s (not an exercise file)\n' "$rel" >>"$dir/notes.tsv"
    fi
  done < <(find "$sub" -type f -print0 | LC_ALL=C sort -z)
  [ ${#files[@]} = 0 ] && { st="nothing submitted"; detail="no exercise files in the folder (the skeletons were graded)"; }

  # build; each failure blames a file and puts its skeleton back, until it builds
  for ((attempt = 1; attempt <= ${#files[@]} + 2; attempt++)); do
    echo "=== build $attempt" >>"$dir/build.log"
    if (cd "$scratch" && kit_make -k ${GRADE_MAKE_JOBS:+-j$GRADE_MAKE_JOBS} testbin) >"$scratch/.log" 2>&1; then
      cat "$scratch/.log" >>"$dir/build.log"; built=1; break
    fi
    cat "$scratch/.log" >>"$dir/build.log"
    blamed=0
    for rel in "${files[@]}"; do                 # compiler errors naming a student file
      cmp -s "$scratch/exercises/$rel" "$kit/exercises/$rel" && continue
      err=$(compile_error "$rel" "$scratch/.log")
      [ -n "$err" ] || continue
      printf '%s\tcompile\t%s\n' "$(exercise_of "$rel")" "$err" >>"$dir/notes.tsv"
      cp -p "$kit/exercises/$rel" "$scratch/exercises/$rel"; touch "$scratch/exercises/$rel"; blamed=1
    done
    [ $blamed = 1 ] && continue
    # the linker: the student file whose skeleton defines the missing symbol
    sym=$(grep -m1 -oE "(undefined reference to|multiple definition of) [\`'][^']*'" "$scratch/.log" | sed -E "s/^[^\`']*[\`']//; s/'\$//")
    if [ -n "$sym" ]; then
      if grep -q 'undefined reference' "$scratch/.log"; then err="undefined symbol $sym"; else err="multiple definition of $sym"; fi
      # the file whose skeleton defines it (renamed, removed), else one that uses it
      for f in defines uses; do
        for rel in "${files[@]}"; do
          cmp -s "$scratch/exercises/$rel" "$kit/exercises/$rel" && continue
          if [ $f = defines ]; then
            case $rel in *.c|*.cu) ;; *) continue;; esac
            grep -qw -- "${sym%%(*}" "$kit/exercises/$rel" || continue
          else
            grep -qw -- "${sym%%(*}" "$scratch/exercises/$rel" || continue
          fi
          printf '%s\tlink\t%s (%s)\n' "$(exercise_of "$rel")" "$err" "$rel" >>"$dir/notes.tsv"
          cp -p "$kit/exercises/$rel" "$scratch/exercises/$rel"; touch "$scratch/exercises/$rel"; blamed=1; break 2
        done
      done
      [ $blamed = 1 ] && continue
      printf '*\tlink\t%s\n' "$err" >>"$dir/notes.tsv"; st="did not link"; detail=$err; break
    fi
    # nothing names a file: try each student file alone as the skeleton
    for rel in "${files[@]}"; do
      cmp -s "$scratch/exercises/$rel" "$kit/exercises/$rel" && continue
      cp "$scratch/exercises/$rel" "$scratch/.student"
      cp "$kit/exercises/$rel" "$scratch/exercises/$rel"; touch "$scratch/exercises/$rel"
      if (cd "$scratch" && kit_make testbin) >"$scratch/.one" 2>&1; then
        printf '%s\tcompile\t%s: %s\n' "$(exercise_of "$rel")" "$rel" "$(first_error "$scratch/.log")" >>"$dir/notes.tsv"
        blamed=1; break
      fi
      cp "$scratch/.student" "$scratch/exercises/$rel"; touch "$scratch/exercises/$rel"
    done
    [ $blamed = 1 ] && continue
    err=$(first_error "$scratch/.log"); err=${err:-see build.log}
    printf '*\tbuild\t%s\n' "$err" >>"$dir/notes.tsv"; st="did not build"; detail=$err; break
  done

  : >"$scratch/.results.tsv"
  testbin=build/exercises/bin/tests${ch:+_$ch}
  if [ $built = 1 ]; then
    # Criterion isolates each test (crash, hang); the guard only stops a runner gone wrong.
    # GPU test runs of parallel students take turns on the device (GRADE_GPU_LOCK).
    (cd "$scratch" && rm -f .results.tsv &&
     ${gpu_lock:+flock "$gpu_lock"} env KIT_RESULTS="$scratch/.results.tsv" \
       timeout -k 30 "$guard" "$testbin" --jobs "${GRADE_TEST_JOBS:-$nproc_}" --filter 'ex*/*') >"$dir/tests.log" 2>&1
    n=$?
    if [ ! -s "$scratch/.results.tsv" ]; then
      : >"$scratch/.results.tsv"
      st="tests did not run"
      [ $n = 124 ] && detail="the test run exceeded ${guard} s" || detail="the test program exited with $n and wrote no results; see tests.log"
      printf '*\tnote\t%s\n' "$detail" >>"$dir/notes.tsv"
    fi
  fi
  if [ "$st" = graded ] || [ "$st" = "nothing submitted" ]; then
    err=$(awk -F'\t' '$2 == "compile" { printf "%s%s", s, $3; s = "; " }' "$dir/notes.tsv")
    [ -n "$err" ] && { st="did not compile"; detail=$err; }
    err=$(awk -F'\t' '$2 == "link" { printf "%s%s", s, $3; s = "; " }' "$dir/notes.tsv")
    [ -n "$err" ] && [ "$st" = graded ] && { st="did not link"; detail=$err; }
  fi
  "$root/tools/grade.sh" "$scratch/.results.tsv" "$root/tests/points.tsv" "$dir/results.json" "$ch" \
    "$dir/notes.tsv" "$scratch/.summary" >"$dir/table.txt" 2>&1
  IFS=$'\t' read -r score max ungraded counts <"$scratch/.summary" || { score=0 max=0 ungraded=0; }
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$score" "$max" "$ungraded" "$st" "$detail" >"$dir/status.tsv"
  echo "$((  $(date +%s) - t0 ))" >"$dir/seconds"
  rm -rf "$scratch"
}

# one line per student of $out/NAME/status.tsv; a missing one is "not run" (or
# what $2, a function NAME -> "status<TAB>detail", says about it)
write_class() { # STUDENTS-FILE [FUNCTION]
  local names=$1 fn=${2:-} name line st
  local txt=$out/class.txt csv=$out/class.csv js=$out/class.json
  : >"$out/.class.tsv"
  while IFS= read -r name; do
    if [ -s "$out/$name/status.tsv" ]; then
      cat "$out/$name/status.tsv" >>"$out/.class.tsv"
    else
      st=$'not run\tno result (see the logs)'
      [ -n "$fn" ] && st=$("$fn" "$name")
      printf '%s\t\t\t\t%s\n' "$name" "$st" >>"$out/.class.tsv"
    fi
  done <"$names"
  awk -F'\t' -v csv="$csv" '
    function q(s) { gsub(/"/, "\"\"", s); return "\"" s "\"" }
    BEGIN { print "student,score,max_score,not_graded_points,status,detail" > csv
            printf "%-20s %9s  %s\n", "student", "score", "status" }
    {
      print q($1) "," $2 "," $3 "," $4 "," q($5) "," q($6) > csv
      sc = ($2 == "") ? "-" : $2 "/" $3
      s = $5; if ($6 != "") s = s ": " $6
      if ($5 == "graded" && $4 > 0) s = s " (" $4 " points not graded here: no GPU)"
      printf "%-20s %9s  %s\n", $1, sc, substr(s, 1, 160)
    }' "$out/.class.tsv" >"$txt"
  # every student's results.json in one file (null where there is none)
  {
    echo "{"
    n=0
    while IFS= read -r name; do
      [ $n = 0 ] || echo ","
      n=$((n + 1))
      line=$(awk -F'\t' -v n="$name" '$1 == n { print $5 }' "$out/.class.tsv" | head -n1)
      printf '  "%s": {"status": "%s", "results": ' "$name" "$line"
      if [ -s "$out/$name/results.json" ]; then sed 's/^/  /' "$out/$name/results.json"; else printf 'null'; fi
      printf '}'
    done <"$names"
    echo; echo "}"
  } >"$js"
  rm -f "$out/.class.tsv"
}
