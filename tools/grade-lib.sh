# grade-lib.sh - shared by grade-submission.sh and grade-cluster.sh (sourced, not run).
#
# Trust (docs/grading.md, "Threat model"): a student's files are compiled only into the runners
# (build/exercises/bin/runner_NN), inside the sandbox (tools/sandbox.sh build); the runners run
# only inside the sandbox (tools/sandbox.sh run), started by the judge.  The judge (the graded
# suites built with the skeletons, in the kit) generates the inputs, checks the outputs and
# writes the results; nothing of the student's is ever linked into it.
#
# Layout under $out (BUILDROOT/grades):
#   kit/                 a copy of the kit without solutions/, with the exercise skeletons;
#                        built once: the judge, and the objects every student starts from
#   <assignment>/        one folder per assignment (ASSIGNMENT=name, or named after what it
#                        grades: all, ch01, ch01-ch06, ex01_loadbalance-ex06_bitplane ...):
#     students/<student>/  results.json, table.txt, status.tsv, build.log, tests.log, runner.log,
#                          notes.tsv (replaced only once a new grading of that student is complete)
#     class.txt class.csv class.json   the class table (one row per student)
# status.tsv: student <TAB> score <TAB> max <TAB> not-graded points <TAB> status <TAB> detail
# with status one of: graded, did not compile, did not link, did not build,
# nothing submitted, tests did not run, killed by the scheduler, not run.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
broot=${BUILDROOT:-build}
case $broot in /*) ;; *) broot=$root/$broot;; esac
out=${GRADE_OUT:-$broot/grades}
kit=$out/kit
trusted=$out/trusted   # the kit with solutions/ as its exercises: the reference of speed tests
studs=""   # $out/<assignment>/students, once select_work has said what is graded
nproc_=$(nproc 2>/dev/null || echo 2)
# the judge is built outside the sandbox: a relative Criterion prefix would not be found
if [ -n "${CRITERION_DIR:-}" ] && [ -d "$CRITERION_DIR" ]; then CRITERION_DIR=$(cd "$CRITERION_DIR" && pwd); fi
build_limit=${GRADE_BUILD_TIMEOUT:-900}   # seconds, one make of one student
load_limit=${GRADE_LOAD_TIMEOUT:-30}       # seconds, a runner's load probe
compile_s=${GRADE_COMPILE_S:-600}          # seconds, one compiler run of a student's build
compile_mb=${GRADE_COMPILE_MB:-8192}       # MB of address space, one compiler run
log_max=1048576                            # bytes kept of build.log and runner.log

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

# the graded exercises (suites of tests/points.tsv), one a line, in the table's order
all_exercises() {
  awk -F'\t' 'NR > 1 { split($1, p, "::"); if (!(p[1] in seen)) { seen[p[1]] = 1; print p[1] } }' "$root/tests/points.tsv"
}

# select_work CHAPTERS EXERCISES [ASSIGNMENT]: what this grading grades (an assignment): every
# exercise of the chapters (CH=01,06: 1, 01 and 01-copy alike) and the exercises named
# (EXERCISES=ex01_loadbalance,ex06_bitplane); both empty: everything.  The maximum is what is
# selected.  Prints four lines: make's CH (the chapters to build, "01,06"; empty: all), grade.sh's
# selection ("01,ex06_bitplane"; empty: all), the assignment's folder name (ASSIGNMENT, else made
# from the selection) and the judge's test filter.
select_work() {
  local chs=() exs=() c e t have name filter
  local IFS=,
  for c in $1; do
    [ -n "$c" ] || continue
    c=$(norm_ch "$c") || exit 2
    chs+=("$c")
  done
  have=$(all_exercises | tr '\n' ' ')
  for e in $2; do
    [ -n "$e" ] || continue
    [[ " $have" == *" $e "* ]] || die "EXERCISES: no exercise '$e' (have: ${have% })"
    exs+=("$e")
  done
  unset IFS
  mapfile -t chs < <(printf '%s\n' "${chs[@]}" | sed '/^$/d' | sort -u)
  mapfile -t exs < <(printf '%s\n' "${exs[@]}" | sed '/^$/d' | sort -u)
  # an exercise of a chapter already selected whole adds nothing
  t=(); for e in "${exs[@]}"; do [[ " ${chs[*]} " == *" ${e:2:2} "* ]] || t+=("$e"); done; exs=("${t[@]}")
  # the chapters to build: the selected ones and those of the exercises
  t=$(printf '%s\n' "${chs[@]}" "${exs[@]/#ex/}" | cut -c1-2 | sed '/^$/d' | sort -u | paste -sd, -)
  [ ${#chs[@]} = 0 ] && [ ${#exs[@]} = 0 ] && t=""
  echo "$t"
  printf '%s\n' "${chs[@]}" "${exs[@]}" | sed '/^$/d' | paste -sd, -
  name=${3:-}
  if [ -n "$name" ]; then
    [[ $name =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] && [ "$name" != kit ] && [ "$name" != cluster ] ||
      die "ASSIGNMENT=$name: a name of letters, digits, '.', '_' and '-' (not kit or cluster), starting with a letter or digit"
  elif [ ${#chs[@]} = 0 ] && [ ${#exs[@]} = 0 ]; then
    name=all
  else
    name=$(printf '%s\n' "${chs[@]/#/ch}" "${exs[@]}" | sed '/^ch$/d; /^$/d' | paste -sd- -)
  fi
  echo "$name"
  # Criterion's filter: every graded suite, or the selected chapters' and exercises' only
  filter='ex*/*'
  if [ ${#chs[@]} -gt 0 ] || [ ${#exs[@]} -gt 0 ]; then
    filter="@($(printf '%s\n' "${chs[@]/#/ex}" "${exs[@]}" | sed '/^ex$/d; /^$/d; s/^ex[0-9][0-9]$/&_*/' | paste -sd'|' -))/*"
  fi
  echo "$filter"
}

# select_init CHAPTERS EXERCISES [ASSIGNMENT]: select_work into the globals ch (make's CH), sel
# (grade.sh's selection), assignment, judge_filter, adir (the assignment's folder) and studs
select_init() {
  local lines
  lines=$(select_work "$@") || exit 2
  { IFS= read -r ch; IFS= read -r sel; IFS= read -r assignment; IFS= read -r judge_filter; } <<<"$lines"
  adir=$out/$assignment
  studs=$adir/students
}

# ------------------------------------------------------------------ sandbox
# box: tools/sandbox.sh, or empty when grading without one (GRADE_UNSAFE=1, said in every table)
box="" unsafe=0
sandbox_init() {
  if [ "${GRADE_UNSAFE:-0}" = 1 ]; then
    unsafe=1
    echo "grade: UNSAFE=1: students' code runs WITHOUT a sandbox, with your rights (the tables say so)" >&2
    return 0
  fi
  local why
  if ! why=$("$root/tools/sandbox.sh" check 2>&1); then
    die "no sandbox here, so no student code runs: $why
  Grading compiles and runs students' code only inside bubblewrap (apt-get install bubblewrap; user
  namespaces must be allowed). UNSAFE=1 grades without it, at your own risk (docs/grading.md)."
  fi
  box=$root/tools/sandbox.sh
  echo "grade: sandbox: $why" >&2
}

# the GPU of this machine (trusted: asked here, never inside the sandbox), and the target
gpu_here=0
nvidia-smi -L 2>/dev/null | grep -q '^GPU' && gpu_here=1
grade_arch() {
  local cc
  if [ -n "${ARCH:-}" ]; then echo "$ARCH"; return; fi
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d ' .')
  echo "sm_${cc:-90}"
}

arch=$(grade_arch)

# in_box DIR SECONDS CMD...: CMD in DIR, sandboxed (DIR is /kit inside), killed after SECONDS
in_box() {
  local dir=$1 t=$2; shift 2
  if [ -n "$box" ]; then
    timeout -k 10 "$t" "$box" build "$dir" "$@"
  else
    (cd "$dir" && timeout -k 10 "$t" "$@")
  fi
}

# make in a kit copy DIR, sandboxed: the runners (the students' side); no Criterion needed.
# GRADING=1: full dependency files (includes_check); each compiler run bounded (tools/compile-limit.sh).
# CRITERION_DIR as the judge's build has it: every make rewrites the flag stamp build/.testflags
# from it, so a make without it would make the judge stale and every grading rebuild it
kit_make() { # DIR ARGS...
  local dir=$1; shift
  in_box "$dir" "$build_limit" env LC_ALL=C make --no-print-directory BUILDROOT=build IMPL=exercises GRADING=1 \
    COMPILE_LIMIT="tools/compile-limit.sh $compile_s $compile_mb" ARCH="$arch" ${ch:+CH=$ch} \
    ${CRITERION_DIR:+"CRITERION_DIR=$CRITERION_DIR"} "$@"
}

# FILE cut to its first log_max bytes, saying so
cut_log() {
  [ -f "$1" ] && [ "$(stat -c %s "$1")" -gt $log_max ] || return 0
  head -c $log_max "$1" >"$1.cut"; echo "[... cut at 1 MB]" >>"$1.cut"; mv "$1.cut" "$1"
}

# ----------------------------------------------------------------- students
# the student folders of a class folder, one name a line, in natural order (bob9 before
# bob10); hidden folders and names with a newline are not graded: each is said on stderr and
# listed in $adir/refused.txt (shown in the class table)
class_students() {
  local d name n=0
  [ -d "$1" ] || die "no folder '$1'"
  mkdir -p "$adir"; : >"$adir/refused.txt"
  while IFS= read -r -d '' d; do
    name=${d##*/}
    if [[ $name == *$'\n'* ]]; then
      printf 'grade: not graded: folder %q: a newline in a student folder name (rename it)\n' "$name" >&2
      printf '%q\tnot graded: the folder name has a newline (rename it)\n' "$name" >>"$adir/refused.txt"
    elif [[ $name == .* ]]; then
      printf 'grade: not graded: hidden folder %q (rename it without the leading dot to grade it)\n' "$name" >&2
      printf '%q\tnot graded: a hidden folder (rename it without the leading dot)\n' "$name" >>"$adir/refused.txt"
    else
      printf '%s\n' "$name"; n=$((n + 1))
    fi
  done < <(find "$1" -mindepth 1 -maxdepth 1 -type d -print0) | LC_ALL=C sort -V
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

# --------------------------------------------------------------------- kit
# $kit: the kit's sources (no .git, no solutions/, no build outputs) with the true skeletons in
# exercises/, its judge built outside the sandbox (it needs Criterion; nothing of a student's
# is in it) and the skeleton runners inside it (the objects every student's build starts from).
# Sources keep their times, so an unchanged kit rebuilds nothing.
prepare_kit() {
  local tmp f rel st t
  mkdir -p "$kit" "$studs"
  # what an interrupted grading left behind (never a finished result)
  find "$studs" -mindepth 1 -maxdepth 1 \( -name '.new.*' -o -name '.old.*' \) -exec rm -rf {} +
  tmp=$(mktemp -d)
  [ -d "$kit/build" ] && mv "$kit/build" "$tmp/build"
  find "$kit" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
  # what a build needs, with its times: git's list when there is one, else the folders
  if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$root" && git ls-files -z -co --exclude-standard -- Makefile reference chapters exercises tests tools |
       grep -zv "^${broot#"$root"/}/" | tar --null -T - --ignore-failed-read -cf - 2>/dev/null)
  else
    (cd "$root" && tar --exclude="./${broot#"$root"/}" --exclude=./build -cf - Makefile reference chapters exercises tests tools)
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
  rm -rf "$tmp" "$kit/solutions"
  # the programs themselves (make -q of a phony target always says "not up to date")
  local progs=() t
  for t in $(printf "$kit/tests/test_%s_exercises.c " ${ch:+${ch//,/ }} ${ch:-[0-9][0-9]}); do
    [ -f "$t" ] && t=${t##*/test_} && progs+=("build/exercises/bin/runner_${t%%_*}")
  done
  if [ ${#progs[@]} -gt 0 ] && kit_make "$kit" -q "${progs[@]}" >/dev/null 2>&1 &&
     (cd "$kit" && make -q --no-print-directory BUILDROOT=build IMPL=exercises GRADING=1 ARCH="$arch" ${ch:+CH=$ch} \
        ${CRITERION_DIR:+"CRITERION_DIR=$CRITERION_DIR"} "build/exercises/bin/judge${ch:+_${ch//,/_}}") >/dev/null 2>&1; then
    echo "grade: the kit with the skeletons is built already (shared by every student): $kit"
    [ -f "$kit/build/exercises/.uses/defined" ] || (cd "$kit" && tools/grade-uses.sh record)
    [ -f "$kit/build/exercises/.includes/.stamp" ] || in_box "$kit" 600 bash tools/grade-includes.sh record
    prepare_trusted
    return
  fi
  kit_build_says
  : >"$out/kit-build.log"
  t=$(date +%s)
  # the kit's own sources (trusted, the skeletons) compile without the per-file limits
  if kit_make "$kit" -j"$nproc_" COMPILE_LIMIT= runners >>"$out/kit-build.log" 2>&1 &&
     (cd "$kit" && LC_ALL=C make --no-print-directory -j"$nproc_" BUILDROOT=build IMPL=exercises GRADING=1 ARCH="$arch" \
        ${ch:+CH=$ch} ${CRITERION_DIR:+"CRITERION_DIR=$CRITERION_DIR"} judge-program &&
        tools/grade-uses.sh record) >>"$out/kit-build.log" 2>&1 &&
     in_box "$kit" 600 bash tools/grade-includes.sh record >>"$out/kit-build.log" 2>&1; then
    # this build's pace, for the next one's estimate: core-seconds per compile or link step
    [ "${kit_steps:-0}" -gt 0 ] && echo "$(( ($(date +%s) - t) * nproc_ / kit_steps ))" >"$out/kit-build.pace"
    prepare_trusted
    return
  fi
  echo "grade: the kit itself does not build; see $out/kit-build.log" >&2
  tail -n 20 "$out/kit-build.log" >&2
  return 1
}

# $trusted: the kit's build with the solutions in exercises/ (only what they change rebuilds):
# its runners are the reference that speed tests time the students' against.  Without
# solutions/ or with GRADE_SPEED=0 there is none, and the speed tests say "not graded".
prepare_trusted() {
  local f rel
  [ "${GRADE_SPEED:-1}" = 0 ] && return 0
  [ -d "$root/solutions" ] || { echo "grade: no solutions/ here: speed tests are not graded"; return 0; }
  mkdir -p "$trusted/exercises"
  (cd "$kit" && tar --exclude=./build --exclude=./exercises -cf - .) | tar -C "$trusted" -xf -
  [ -d "$trusted/build" ] || cp -a "$kit/build" "$trusted/build"
  while IFS= read -r -d '' f; do
    rel=${f#"$root/solutions/"}
    cmp -s "$f" "$trusted/exercises/$rel" && continue
    mkdir -p "$(dirname "$trusted/exercises/$rel")" && cp "$f" "$trusted/exercises/$rel" && touch "$trusted/exercises/$rel"
  done < <(find "$root/solutions" -type f -print0)
  echo "grade: the reference runners for speed tests (the solutions): $trusted"
  if ! kit_make "$trusted" -j"$nproc_" runners >"$out/trusted-build.log" 2>&1; then
    echo "grade: the solutions do not build; see $out/trusted-build.log" >&2
    return 1
  fi
}

# the speed tests of a student, alone on the machine (one student's at a time: GRADE_SPEED_LOCK),
# after the other tests; their lines replace the first pass's (which skipped them)
run_speed() { # JUDGE SCRATCH DIR SEED
  local judge=$1 scratch=$2 dir=$3 seed=$4
  [ "${GRADE_SPEED:-1}" = 0 ] || [ ! -d "$trusted/build/exercises/bin" ] && return 0
  rm -f "$scratch/.speed-results.tsv" "$scratch/.speed.tsv"
  ${gpu_lock:+flock "$gpu_lock"} flock "${GRADE_SPEED_LOCK:-/tmp/kit-speed-$(id -u).lock}" env KIT_RESULTS="$scratch/.speed-results.tsv" \
    KIT_RUNNER_DIR="$scratch/build/exercises/bin" KIT_TRUSTED_DIR="$trusted/build/exercises/bin" KIT_SANDBOX="$box" \
    KIT_RUNNER_LOG="$dir/runner.log" KIT_SPEED="$scratch/.speed.tsv" KIT_GRADE_SEED="$seed" \
    timeout -k 30 "${GRADE_TEST_TIMEOUT:-3600}" "$judge" --jobs 1 --filter 'ex*/speed' >>"$dir/tests.log" 2>&1
  [ -f "$scratch/.speed-results.tsv" ] && awk -F'\t' '$2 == "speed"' "$scratch/.speed-results.tsv" >>"$scratch/.results.tsv"
  return 0
}

# what the kit build is about to do, said before it starts (it can take many minutes): the
# chapters, how many compile and link steps (make -n), an estimate from the last build's pace on
# this machine when there was one, and the log's path; sets kit_steps
kit_build_says() {
  local pace est=""
  kit_steps=$( (cd "$kit" && LC_ALL=C make -n --no-print-directory BUILDROOT=build IMPL=exercises ARCH="$arch" \
                 ${ch:+CH=$ch} ${CRITERION_DIR:+"CRITERION_DIR=$CRITERION_DIR"} runner-programs judge-program) 2>/dev/null |
               grep -cE '(^|/)(nvcc|gcc) ')
  pace=$(cat "$out/kit-build.pace" 2>/dev/null)
  if [[ $pace =~ ^[0-9]+$ ]] && [ "$kit_steps" -gt 0 ]; then
    est="; about $(( (pace * kit_steps / nproc_ + 59) / 60 )) min at the last build's pace on these $nproc_ cores"
  else
    est="; no earlier build here to estimate the time from"
  fi
  echo "grade: building the kit with the skeletons, shared by every student: chapters ${ch:-$(cd "$kit/chapters" && echo [0-9][0-9]-* | sed 's/-[^ ]*//g')}," \
       "the judge and the runners ($kit_steps compile and link steps$est); log: $out/kit-build.log"
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
  grep -m1 -E '(error|Error|undefined reference|multiple definition|Terminated|Killed)' "$1" | cut -c1-200
}

# revert SCRATCH REL: the skeleton of REL back in the scratch copy SCRATCH
revert() { cp -p "$kit/exercises/$2" "$1/exercises/$2"; touch "$1/exercises/$2"; }

# changed_in SCRATCH NN REL...: the files REL (relative to exercises/) of chapter NN that differ
# from their skeletons in SCRATCH, one a line
changed_in() {
  local sc=$1 c=$2 rel; shift 2
  for rel in "$@"; do
    [ "${rel%%-*}" = "$c" ] || continue
    cmp -s "$sc/exercises/$rel" "$kit/exercises/$rel" || printf '%s\n' "$rel"
  done
}

# probe SCRATCH NN: the runner of chapter NN in SCRATCH loads (every constructor ran) and says so in
# time; sandboxed, with no descriptor of the grader's but the probe's own fd 3
probe() {
  local bin=$1/build/exercises/bin/runner_$2 p=$1/.probe
  [ -x "$bin" ] || return 1
  rm -f "$p"
  if [ -n "$box" ]; then
    timeout -k 5 "$load_limit" "$box" run "$bin" --probe 3>"$p" >/dev/null 2>&1 </dev/null 9>&-
  else
    timeout -k 5 "$load_limit" "$bin" --probe 3>"$p" >/dev/null 2>&1 </dev/null 9>&-
  fi
  [ "$(head -c 12 "$p" 2>/dev/null)" = "runner ready" ]
}

# refuse NOTE REL...: each student file REL gets NOTE ("compile" note text after "REL: ") and its
# skeleton back, once per grading (the files already refused are in $refused)
refuse() {
  local why=$1 rel; shift
  for rel in "$@"; do
    [[ $refused == *" $rel "* ]] && continue
    refused="$refused$rel "
    printf '%s\tcompile\t%s: %s\n' "$(exercise_of "$rel")" "$rel" "$why" >>"$dir/notes.tsv"
    revert "$scratch" "$rel"
  done
}

# the changed student files that the object of dependency file D (relative to SCRATCH) read
readers_of() { # SCRATCH D REL...
  local sc=$1 d=$2 rel; shift 2
  for rel in "$@"; do
    cmp -s "$sc/exercises/$rel" "$kit/exercises/$rel" && continue
    grep -qF -- "exercises/$rel" "$sc/$d" 2>/dev/null && printf '%s\n' "$rel"
  done
}

# What the compiler read decides (tools/grade-includes.sh, inside the sandbox, after a build): a
# student file whose object read a file its skeleton's did not, outside what a student may use (the
# kit's other files, where its answers live; CCCL's ready-made reductions, scans and sorts; anything
# off the allow-list), is refused like a compile error, naming the file; 0 when one was refused,
# 1 when none, 2 when the check itself failed (nothing is graded then: it fails closed)
includes_check() {
  local lines d path why rel blamed=1
  if ! lines=$(in_box "$scratch" 300 bash tools/grade-includes.sh check 2>>"$dir/build.log"); then
    printf '*\tbuild\tthe check of what the compiler read failed (see build.log)\n' >>"$dir/notes.tsv"
    st="did not build"; detail="the check of what the compiler read failed (see build.log)"
    return 2
  fi
  [ -n "$lines" ] || return 1
  while IFS=$'\t' read -r d path why; do
    while IFS= read -r rel; do
      [ -n "$rel" ] || continue
      refuse "#include of $(printf '%s' "$path" | tr -c '[:print:]' '?' | cut -c1-120): $why" "$rel"; blamed=0
    done < <(readers_of "$scratch" "$d" "${files[@]}")
  done <<<"$lines"
  return $blamed
}

# after a build: a changed object that now calls a function of the kit its skeleton-built twin
# did not (tools/grade-uses.sh) blames the student files behind it; 0 when one was blamed
uses_check() {
  local lines src sym obj rel cands blamed=1
  lines=$(in_box "$scratch" 300 bash tools/grade-uses.sh check 2>>"$dir/build.log")
  [ -n "$lines" ] || return 1
  while IFS=$'\t' read -r src sym obj; do
    case $src in
      exercises/*) cands=("${src#exercises/}");;
      *) mapfile -t cands < <(readers_of "$scratch" "${obj%.o}.d" "${files[@]}");;
    esac
    for rel in "${cands[@]}"; do
      [ -n "$rel" ] || continue
      refuse "calls the kit's $(printf '%s' "$sym" | c++filt 2>/dev/null | tr -c '[:print:]' '?' | cut -c1-120), which this exercise does not use (write the code yourself)" "$rel"
      blamed=0
    done
  done <<<"$lines"
  return $blamed
}

# build the runners until they build: each failure blames a file and puts its skeleton back
build_runners() {
  local attempt rel err sym f blamed d
  for ((attempt = 1; attempt <= ${#files[@]} + 2; attempt++)); do
    echo "=== build $attempt" >>"$dir/build.log"
    if kit_make "$scratch" -k ${GRADE_MAKE_JOBS:+-j$GRADE_MAKE_JOBS} runners >"$scratch/.log" 2>&1; then
      cat "$scratch/.log" >>"$dir/build.log"
      # a file the compiler read that the exercise may not use, or a borrowed answer: that file's
      # skeleton, and build again
      includes_check
      case $? in 0) continue;; 2) return;; esac
      uses_check && continue
      built=1; return
    fi
    cat "$scratch/.log" >>"$dir/build.log"
    blamed=0
    for rel in "${files[@]}"; do                 # compiler errors naming a student file
      cmp -s "$scratch/exercises/$rel" "$kit/exercises/$rel" && continue
      err=$(compile_error "$rel" "$scratch/.log")
      [ -n "$err" ] || continue
      printf '%s\tcompile\t%s\n' "$(exercise_of "$rel")" "$err" >>"$dir/notes.tsv"
      revert "$scratch" "$rel"; blamed=1
    done
    [ $blamed = 1 ] && continue
    # a kit file that includes a student's and ran past the compiler's limits
    # (tools/compile-limit.sh names it): the student files its object reads
    while IFS= read -r err; do
      f=${err%%:1:1: *}
      case $f in tests/*) d=build/exercises/obj/runner/${f%.*}.d;; *) d=build/exercises/obj/${f%.*}.d;; esac
      while IFS= read -r rel; do
        [ -n "$rel" ] || continue
        refuse "compiling $f, which includes it, ${err#*: error: compiling this file }" "$rel"; blamed=1
      done < <(readers_of "$scratch" "$d" "${files[@]}")
    done < <(grep -E '^[A-Za-z0-9_./-]+:1:1: error: compiling this file (ran past|needed more)' "$scratch/.log" | sort -u)
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
          revert "$scratch" "$rel"; blamed=1; break 2
        done
      done
      [ $blamed = 1 ] && continue
      printf '*\tlink\t%s\n' "$err" >>"$dir/notes.tsv"; st="did not link"; detail=$err; return
    fi
    # nothing names a file (a compiler killed by the time limit, a crash): try each student file
    # alone as the skeleton
    for rel in "${files[@]}"; do
      cmp -s "$scratch/exercises/$rel" "$kit/exercises/$rel" && continue
      cp "$scratch/exercises/$rel" "$scratch/.student"
      revert "$scratch" "$rel"
      if kit_make "$scratch" runners >"$scratch/.one" 2>&1; then
        err=$(first_error "$scratch/.log"); err=${err:-the build of this file failed or ran past ${build_limit} s}
        printf '%s\tcompile\t%s: %s\n' "$(exercise_of "$rel")" "$rel" "$err" >>"$dir/notes.tsv"
        blamed=1; break
      fi
      cp "$scratch/.student" "$scratch/exercises/$rel"; touch "$scratch/exercises/$rel"
    done
    [ $blamed = 1 ] && continue
    err=$(first_error "$scratch/.log"); err=${err:-see build.log}
    printf '*\tbuild\t%s\n' "$err" >>"$dir/notes.tsv"; st="did not build"; detail=$err; return
  done
}

# every runner loads; one that crashes, exits or hangs at load costs only the exercises of the
# file that makes it do so (its skeleton goes back, the others are graded)
check_loads() {
  local c rel bad
  for c in $(cd "$scratch/build/exercises/bin" 2>/dev/null && ls runner_* 2>/dev/null | sed 's/runner_//'); do
    probe "$scratch" "$c" && continue
    bad=""
    while IFS= read -r rel; do
      revert "$scratch" "$rel"
      kit_make "$scratch" ${GRADE_MAKE_JOBS:+-j$GRADE_MAKE_JOBS} runners >>"$dir/build.log" 2>&1
      if probe "$scratch" "$c"; then bad=$rel; break; fi
      cp "$sub/$rel" "$scratch/exercises/$rel"; touch "$scratch/exercises/$rel"
    done < <(changed_in "$scratch" "$c" "${files[@]}")
    if [ -n "$bad" ]; then
      printf '%s\tload\t%s: the program stopped, crashed or hung while loading (before any test)\n' \
        "$(exercise_of "$bad")" "$bad" >>"$dir/notes.tsv"
    else
      # no single file: every changed file of the chapter goes back
      while IFS= read -r rel; do
        revert "$scratch" "$rel"
        printf '%s\tload\t%s: the program stopped, crashed or hung while loading (before any test)\n' \
          "$(exercise_of "$rel")" "$rel" >>"$dir/notes.tsv"
      done < <(changed_in "$scratch" "$c" "${files[@]}")
      kit_make "$scratch" ${GRADE_MAKE_JOBS:+-j$GRADE_MAKE_JOBS} runners >>"$dir/build.log" 2>&1
    fi
  done
}

# selected EXERCISE: the exercise is graded in this assignment ($sel: chapters and exercises)
selected() {
  local t IFS=,
  [ -z "$sel" ] && return 0
  for t in $sel; do [ "$t" = "$1" ] || [ "ex${t}_" = "${1:0:5}" ] && return 0; done
  return 1
}

# place_upload REL SUBMISSION NOTES: the exercise file that a submitted file REL, not at its place
# in exercises/, stands for, or nothing (said in NOTES).  A flat upload (Gradescope puts every file
# at the top of the submission) is placed by its name when exactly one exercise file has it; a
# deeper one by its end (exercises/01-copy/loadbalance.h, a zip of the folder); neither when the
# submission has that place filled already.  Anything else is ignored, with the places it may
# have meant.
place_upload() {
  local rel=$1 sub=$2 notes=$3 base=${1##*/} cands c hit="" shown
  shown=$(printf '%s' "$rel" | tr -c '[:print:]' '?')
  cands=$(cd "$kit/exercises" && find . -type f -name "$base" 2>/dev/null | sed 's|^\./||' | LC_ALL=C sort)
  if [ -z "$cands" ] || [[ $base == .* ]]; then
    printf '*\tnote\tignored %s (not an exercise file)\n' "$shown" >>"$notes"; return
  fi
  if [[ $rel != */* ]]; then
    [ "$(wc -l <<<"$cands")" = 1 ] && hit=$cands
  else
    while IFS= read -r c; do [[ $rel == */"$c" ]] && hit=$c; done <<<"$cands"
  fi
  if [ -n "$hit" ] && [ -e "$sub/$hit" ]; then
    printf '*\tnote\tignored %s (%s is submitted too; it is graded)\n' "$shown" "$hit" >>"$notes"
  elif [ -n "$hit" ]; then
    printf '*\tnote\ttook %s as %s\n' "$shown" "$hit" >>"$notes"
    printf '%s\n' "$hit"
  else
    printf '*\tnote\tignored %s (not an exercise file; did you mean %s?)\n' "$shown" "$(paste -sd' ' - <<<"$cands" | sed 's/ / or /g')" >>"$notes"
  fi
}

# grade_one DIR NAME: grade one student's folder; results in $studs/NAME, replaced only
# when this grading is complete
grade_one() {
  local sub=$1 name=$2 final=$studs/$2 dir scratch rel f t0 st=graded detail="" n
  local files=() others=() built=0 guard=${GRADE_TEST_TIMEOUT:-3600} filter judge res seed refused=" "
  t0=$(date +%s)
  mkdir -p "$studs"
  dir=$(mktemp -d "$studs/.new.XXXXXX")
  : >"$dir/notes.tsv"; : >"$dir/build.log"; : >"$dir/runner.log"
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/grade.XXXXXX")
  # the shared build, copied with its times: only what the student changes rebuilds
  cp -a "$kit/." "$scratch/"
  while IFS= read -r -d '' f; do
    rel=${f#"$sub"/}
    if [[ $rel == *$'\n'* ]]; then
      printf '*\tnote\tignored a file whose name has a newline\n' >>"$dir/notes.tsv"; continue
    fi
    [ -f "$f" ] && [ ! -L "$f" ] || rel=""
    [ -n "$rel" ] && [ ! -f "$kit/exercises/$rel" ] && rel=$(place_upload "$rel" "$sub" "$dir/notes.tsv")
    [ -n "$rel" ] || continue
    if [[ " ${files[*]} " == *" $rel "* ]]; then   # two uploads for one place: the first counts
      printf '*\tnote\tignored %s (%s is submitted already)\n' "$(printf '%s' "${f#"$sub"/}" | tr -c '[:print:]' '?')" "$rel" >>"$dir/notes.tsv"
      continue
    fi
    if ! selected "$(exercise_of "$rel")"; then   # another assignment's file: its skeleton stays
      [[ " ${others[*]} " == *" $(exercise_of "$rel") "* ]] || others+=("$(exercise_of "$rel")")
      continue
    fi
    files+=("$rel")
    cmp -s "$f" "$kit/exercises/$rel" && continue   # the skeleton as it is: nothing to rebuild
    cp "$f" "$scratch/exercises/$rel" && touch "$scratch/exercises/$rel"
  done < <(find "$sub" \( -type f -o -type l \) -print0 | LC_ALL=C sort -z)
  [ ${#others[@]} = 0 ] ||
    printf '*\tnote\tleft as the skeletons: the files of %s (not part of this assignment)\n' "$(IFS=,; echo "${others[*]}" | sed 's/,/, /g')" >>"$dir/notes.tsv"
  [ ${#files[@]} = 0 ] && { st="nothing submitted"; detail="no exercise files in the folder (the skeletons were graded)"; }

  build_runners
  [ $built = 1 ] && check_loads

  : >"$scratch/.results.tsv"
  judge=$kit/build/exercises/bin/judge${ch:+_${ch//,/_}}
  filter=$judge_filter
  if [ $built = 1 ]; then
    # the judge (trusted, outside the sandbox) starts a sandboxed runner per test; GPU test
    # runs of parallel students take turns on the device (GRADE_GPU_LOCK)
    rm -f "$scratch/.results.tsv" "$scratch/.progress"
    seed=${GRADE_SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}
    ${gpu_lock:+flock "$gpu_lock"} env KIT_RESULTS="$scratch/.results.tsv" KIT_PROGRESS="$scratch/.progress" \
      KIT_RUNNER_DIR="$scratch/build/exercises/bin" KIT_SANDBOX="$box" KIT_RUNNER_LOG="$dir/runner.log" \
      KIT_GRADE_SEED="$seed" \
      timeout -k 30 "$guard" "$judge" --jobs "${GRADE_TEST_JOBS:-$nproc_}" --filter "$filter" >"$dir/tests.log" 2>&1
    n=$?
    [ -s "$scratch/.results.tsv" ] && run_speed "$judge" "$scratch" "$dir" "$seed"
    if [ ! -s "$scratch/.results.tsv" ]; then
      # stopped from outside: the tests that ended keep their results, the rest are "not run"
      [ -f "$scratch/.progress" ] && cp "$scratch/.progress" "$scratch/.results.tsv"
      : >>"$scratch/.results.tsv"
      st="tests did not run"
      [ $n = 124 ] && detail="the test run exceeded ${guard} s" || detail="the judge exited with $n and wrote no results; see tests.log"
      [ -s "$scratch/.results.tsv" ] && { st=graded; detail=""; }
      printf '*\tnote\t%s\n' "${detail:-the test run exceeded ${guard} s; the tests that had ended keep their results}" >>"$dir/notes.tsv"
    fi
  fi
  # the compiler's and the runners' output, bounded
  cut_log "$dir/build.log"; cut_log "$dir/runner.log"
  if [ "$st" = graded ] || [ "$st" = "nothing submitted" ]; then
    detail=${detail:-}
    local e
    e=$(awk -F'\t' '$2 == "compile" { printf "%s%s", s, $3; s = "; " }' "$dir/notes.tsv")
    [ -n "$e" ] && { st="did not compile"; detail=$e; }
    e=$(awk -F'\t' '$2 == "link" { printf "%s%s", s, $3; s = "; " }' "$dir/notes.tsv")
    [ -n "$e" ] && [ "$st" = graded ] && { st="did not link"; detail=$e; }
    e=$(awk -F'\t' '$2 == "load" { printf "%s%s", s, $3; s = "; " }' "$dir/notes.tsv")
    [ -n "$e" ] && [ "$st" = graded ] && { st="crashed at load"; detail=$e; }
  fi
  [ -f "$scratch/.speed.tsv" ] && cp "$scratch/.speed.tsv" "$dir/speed.tsv"
  GRADE_HAVE_GPU=$gpu_here GRADE_SPEED_TSV="$scratch/.speed.tsv" "$root/tools/grade.sh" "$scratch/.results.tsv" "$root/tests/points.tsv" "$dir/results.json" "$sel" \
    "$dir/notes.tsv" "$scratch/.summary" >"$dir/table.txt" 2>&1
  [ $unsafe = 1 ] && echo "WARNING: graded without a sandbox (UNSAFE=1)" >>"$dir/table.txt"
  IFS=$'\t' read -r score max ungraded _ <"$scratch/.summary" || { score=0 max=0 ungraded=0; }
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(printf '%s' "$name" | tr '\t\n' '  ')" "$score" "$max" "$ungraded" "$st" \
    "$(printf '%s' "$detail" | tr '\t\n' '  ')" >"$dir/status.tsv"
  echo "$((  $(date +%s) - t0 ))" >"$dir/seconds"
  printf '%s\n' "${GRADE_RUN_ID:-}" >"$dir/run"
  rm -rf "$scratch"
  # complete: the new result replaces the old one
  res=$(mktemp -d "$studs/.old.XXXXXX")
  [ -e "$final" ] && mv "$final" "$res/x"
  mv "$dir" "$final"
  rm -rf "$res"
  local tt; tt=$(<"$final/table.txt"); printf '%s\n' "${tt//"$dir"/"$final"}" >"$final/table.txt"
}

# The class table: one row per student (in the order of the NAMES file) from
# $studs/NAME/status.tsv; a missing one is "not run" (or what $2, a function NAME ->
# "status<TAB>detail", says about it); then the folders that were not graded.
write_class() { # NAMES-FILE [FUNCTION [STATE-DIR]]
  local names=$1 fn=${2:-} sdir=${3:-} name st i=0 rid
  local txt=$adir/class.txt csv=$adir/class.csv js=$adir/class.json tsv
  tsv=$(mktemp)
  [ -f "$adir/refused.txt" ] || : >"$adir/refused.txt"
  while IFS= read -r name; do
    i=$((i + 1))
    # on a cluster, the result of the run that last graded this student, not an older one
    rid=""; [ -n "$sdir" ] && rid=$(cat "$sdir/$name.run" 2>/dev/null)
    if [ -s "$studs/$name/status.tsv" ] && { [ -z "$rid" ] || [ "$(cat "$studs/$name/run" 2>/dev/null)" = "$rid" ]; }; then
      printf '%s\t' "$i" >>"$tsv"; cut -f2- "$studs/$name/status.tsv" >>"$tsv"
    else
      st=$'not run\tno result (see the logs)'
      [ -n "$fn" ] && st=$("$fn" "$name")
      printf '%s\t\t\t\t%s\n' "$i" "$st" >>"$tsv"
    fi
  done <"$names"
  # a column per speed test (the ratio measured; empty where it did not run)
  local spx=""
  [ "${GRADE_SPEED:-1}" = 0 ] || spx=$(awk -F'\t' -v ch="${ch:-}" 'NR > 1 && $3 == "speed" { split($1, p, "::")
    if ((ch == "" || substr(p[1], 3, 2) == ch) && !seen[p[1]]++) printf "%s ", p[1] }' "$root/tests/points.tsv")
  # the names go to awk as a file of their own: any byte but a newline is safe
  awk -F'\t' -v csv="$csv.new" -v js="$js.new" -v studs="$studs" -v unsafe="$unsafe" -v spx="$spx" '
    function q(s) { gsub(/"/, "\"\"", s); return "\"" s "\"" }
    function esc(s,   r, i, c) {
      r = ""
      for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c == "\\" || c == "\"") r = r "\\" c
        else if (c == "\t") r = r "\\t"
        else if (c ~ /[\001-\037]/) r = r sprintf("\\u%04x", index("\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017\020\021\022\023\024\025\026\027\030\031\032\033\034\035\036\037", c))
        else r = r c
      }
      return r
    }
    function shown(s) { gsub(/[\001-\037]/, "?", s); return s }
    FILENAME == ARGV[1] { nm[FNR] = $0; next }
    FILENAME == ARGV[2] { ref[++nref] = $0; next }
    {
      k++; name = nm[$1]
      row[k] = $0; rn[k] = name
    }
    END {
      nsx = split(spx, sx, " "); hdr = ""
      for (x = 1; x <= nsx; x++) hdr = hdr ",speed:" sx[x]
      print "student,score,max_score,not_graded_points,status,detail" hdr > csv
      if (unsafe == 1) print "WARNING: this class was graded WITHOUT a sandbox (UNSAFE=1)"
      printf "%-20s %9s  %s\n", "student", "score", "status"
      print "{" > js
      for (j = 1; j <= k; j++) {
        split(row[j], f, "\t"); name = rn[j]
        delete ratio; file = studs "/" name "/speed.tsv"
        while ((getline line < file) > 0) { split(line, sf, "\t"); ratio[sf[1]] = sf[2] }
        close(file); cols = ""
        for (x = 1; x <= nsx; x++) cols = cols "," ((sx[x] in ratio) ? ratio[sx[x]] : "")
        print q(name) "," f[2] "," f[3] "," f[4] "," q(f[5]) "," q(f[6]) cols > csv
        sc = (f[2] == "") ? "-" : f[2] "/" f[3]
        s = f[5]; if (f[6] != "") s = s ": " f[6]
        if (f[5] == "graded" && f[4] > 0) s = s " (" f[4] " points not graded here: no GPU)"
        printf "%-20s %9s  %s\n", shown(name), sc, substr(s, 1, 160)
        printf "%s  \"%s\": {\"status\": \"%s\", \"results\": ", (j > 1 ? ",\n" : ""), esc(name), esc(f[5]) > js
        file = studs "/" name "/results.json"; got = 0
        while ((getline line < file) > 0) { printf "%s%s", (got ? "\n  " : ""), line > js; got = 1 }
        close(file)
        if (!got) printf "null" > js
        printf "}" > js
      }
      for (j = 1; j <= nref; j++) {
        split(ref[j], f, "\t")
        printf "%-20s %9s  %s\n", shown(f[1]), "-", f[2]
        print q(f[1]) ",,,," q("not graded") "," q(f[2]) > csv
      }
      print "\n}" > js
    }' "$names" "$adir/refused.txt" "$tsv" >"$txt.new"
  mv "$txt.new" "$txt"; mv "$csv.new" "$csv"; mv "$js.new" "$js"
  rm -f "$tsv"
}
