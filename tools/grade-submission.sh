#!/usr/bin/env bash
# grade-submission.sh [--ch NN] DIR         grade one student's exercises folder
# grade-submission.sh [--ch NN] --class DIR grade every sub-folder of DIR (one per student)
#
# DIR mirrors exercises/ (NN-topic/<file>); only files that exist in exercises/
# are taken.  Each student is graded in a scratch copy of the kit, so the
# repository is never touched; results go to build/grades/<student>/ and, for a
# class, build/grades/class.csv.  A file that does not compile is replaced by
# its skeleton (its exercise scores zero, the others are still graded); a kernel
# that crashes or hangs fails its own tests only (Criterion isolates each test).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ch="" class=0
while [ $# -gt 0 ]; do
  case $1 in
    --ch) ch=$2; shift 2;;
    --class) class=1; shift;;
    -*) echo "grade-submission: unknown option $1" >&2; exit 2;;
    *) break;;
  esac
done
target=${1:?usage: grade-submission.sh [--ch NN] [--class] DIR}
[ -d "$target" ] || { echo "grade-submission: no folder '$target'" >&2; exit 2; }
target=$(cd "$target" && pwd)
out=$root/build/grades
mkdir -p "$out"
# BUILDROOT=build: this script reads the scratch copy's build/exercises/...; a
# BUILDROOT exported by the Makefile (make grade BUILDROOT=..) must not move it
makeargs=(BUILDROOT=build IMPL=exercises ${ch:+CH=$ch} ${CRITERION_DIR:+"CRITERION_DIR=$CRITERION_DIR"})

# restore REL: the skeleton replaces the student's file REL (which did not compile)
restore() {
  local rel=$1 ex
  ex=$(grep -o 'exercise ex[0-9][0-9]_[a-z0-9_]*' "$root/exercises/$rel" | head -n1 | cut -d' ' -f2)
  echo "  $name: $rel does not compile; graded as the skeleton:"
  grep -m 3 'error' "$scratch/.one.log" | sed 's/^/    /'
  cp "$root/exercises/$rel" "$scratch/exercises/$rel"
  touch "$scratch/exercises/$rel"
  printf '%s\t%s did not compile: the skeleton was graded instead\n' "${ex:-unknown}" "$rel" >>"$notes"
}

grade_one() { # DIR NAME
  local sub=$1 rel f
  name=$2
  scratch=$(mktemp -d)
  notes=$scratch/.notes.tsv
  : >"$notes"
  tar -C "$root" --exclude=./build --exclude=./.git -cf - . | tar -C "$scratch" -xf -
  # reuse the kit's compiled skeletons when there are some: only the student's files rebuild
  [ -d "$root/build/exercises" ] && cp -a "$root/build/exercises" "$scratch/build/" 2>/dev/null
  while IFS= read -r -d '' f; do
    rel=${f#"$sub"/}
    if [ -f "$scratch/exercises/$rel" ]; then
      cp "$f" "$scratch/exercises/$rel" && touch "$scratch/exercises/$rel"
    else
      echo "  $name: ignoring $rel (not an exercise file)"
    fi
  done < <(find "$sub" -type f -print0)
  # a file that does not compile: put its skeleton back and note it for its exercise.
  # Sources first, one object at a time; then headers, one at a time.
  local targets=(all testbin) files=() hdrs=()
  if ! make -C "$scratch" --no-print-directory "${makeargs[@]}" "${targets[@]}" >"$scratch/.build.log" 2>&1; then
    while IFS= read -r -d '' f; do
      rel=${f#"$sub"/}
      [ -f "$root/exercises/$rel" ] || continue
      case $rel in *.h|*.cuh) hdrs+=("$rel");; *) files+=("$rel");; esac
    done < <(find "$sub" -type f -print0)
    for rel in "${files[@]}"; do
      make -C "$scratch" --no-print-directory "${makeargs[@]}" "build/exercises/obj/exercises/${rel%.*}.o" \
        >"$scratch/.one.log" 2>&1 && continue
      restore "$rel"
    done
    for rel in "${hdrs[@]}"; do
      make -C "$scratch" --no-print-directory "${makeargs[@]}" "${targets[@]}" >"$scratch/.one.log" 2>&1 && break
      cp "$scratch/exercises/$rel" "$scratch/.student"
      cp "$root/exercises/$rel" "$scratch/exercises/$rel"
      if make -C "$scratch" --no-print-directory "${makeargs[@]}" "${targets[@]}" >/dev/null 2>&1; then
        cp "$scratch/.student" "$scratch/exercises/$rel"; restore "$rel"
      else
        cp "$scratch/.student" "$scratch/exercises/$rel"; touch "$scratch/exercises/$rel"
      fi
    done
  fi
  mkdir -p "$out/$name"
  make -C "$scratch" --no-print-directory "${makeargs[@]}" testbin >"$out/$name/build.log" 2>&1
  (cd "$scratch" && KIT_RESULTS=$scratch/.results.tsv build/exercises/bin/tests${ch:+_$ch} --jobs "$(nproc)" >"$out/$name/tests.log" 2>&1)
  [ -f "$scratch/.results.tsv" ] || : >"$scratch/.results.tsv"
  echo "== $name"
  "$root/tools/grade.sh" "$scratch/.results.tsv" "$root/tests/points.tsv" "$out/$name/results.json" "$ch" "$notes"
  rm -rf "$scratch"
}

if [ $class = 0 ]; then
  grade_one "$target" "$(basename "$target")"
  exit 0
fi
csv=$out/class.csv
echo "student,score,max_score" >"$csv"
for d in "$target"/*/; do
  name=$(basename "$d")
  grade_one "${d%/}" "$name"
  awk -v n="$name" '/"score":/ && !s { gsub(/[^0-9]/, ""); s = $0 } /"max_score":/ && !m { gsub(/[^0-9]/, ""); m = $0 } END { print n "," s "," m }' \
    "$out/$name/results.json" >>"$csv"
done
echo "class: $csv"
