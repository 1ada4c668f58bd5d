#!/usr/bin/env bash
# grade-includes.sh record|check - what the compiler read for a student's build, file by file.
#
#   record  (in the grader's kit, inside the sandbox, after its build with the skeletons): keep each
#           object's dependency file (the compiler's own list of every file it read, system
#           headers included: the kit's graded build uses -MD) as the object's allowed set
#   check   (in a student's copy, inside the sandbox, after its build): for every object whose
#           dependency file changed, each file the compiler now read that its skeleton-built twin
#           did not is resolved to its real path (symlinks, "..", /kit) and judged:
#             the exercises' own files (exercises/...)           allowed
#             CCCL (CUB, Thrust, libcu++, nv/, cooperative groups) refused: a library's ready-made code
#             on the allow-list (tools/grade-includes.allow)     allowed
#             any other file of the kit                          refused: the kit's own code
#             a system header outside the CUDA toolkit           allowed
#             anything else (the CUDA toolkit, /tmp ...)         refused
#           and prints "OBJECT-DEPFILE<TAB>PATH<TAB>WHY" for each refused one (grade-lib.sh blames
#           the student files that object read)
# Run from the kit copy's root (/kit).  docs/grading.md, "Threat model".
set -uo pipefail
b=build/exercises
r=$b/.includes
cuda=$(readlink -f "${CUDA:-/usr/local/cuda}" 2>/dev/null || echo /usr/local/cuda)
here=$(pwd -P)
allow=tools/grade-includes.allow

# the files a dependency file lists (its first rule; -MP's empty rules add nothing new), one a line
deps_of() {
  awk '{ sub(/\\$/, "") } { for (i = 1; i <= NF; i++) if ($i !~ /:$/) print $i }' "$1" | LC_ALL=C sort -u
}

# why PATH (a real path) is refused, or nothing when it is allowed
judge() {
  local p=$1 rel g
  case $p in "$here"/exercises/*) return;; esac
  case /$p/ in
    */cub/*|*/thrust/*|*/cccl/*|*/cooperative_groups/*|*/cooperative_groups.h/*|*/libcudacxx/*|*/include/cuda/*|*/include/nv/*)
      echo "a library's ready-made code (CCCL: CUB, Thrust, libcu++): write the code yourself"; return;;
  esac
  rel=$p
  case $p in "$cuda"/*) rel=CUDA/${p#"$cuda"/};; "$here"/*) rel=KIT/${p#"$here"/};; esac
  while IFS= read -r g; do
    case $g in ''|'#'*) continue;; esac
    # shellcheck disable=SC2254
    case $rel in $g) return;; esac
  done <"$allow"
  case $p in
    "$here"/*) echo "a file of the kit this exercise does not include (write the code yourself)";;
    "$cuda"/*) echo "a header of the CUDA toolkit this exercise does not use";;
    /usr/*) ;;
    *) echo "a file outside the kit and the system";;
  esac
}

case ${1:-} in
  record)
    rm -rf "$r"; mkdir -p "$r"
    (cd $b/obj && find . -name '*.d' -print0) | while IFS= read -r -d '' d; do
      mkdir -p "$r/$(dirname "$d")"
      deps_of "$b/obj/$d" >"$r/$d"
      xargs -r -d '\n' realpath -m -- <"$r/$d" | LC_ALL=C sort -u >"$r/$d.real"
    done
    touch "$r/.stamp";;
  check)
    [ -f "$r/.stamp" ] || { echo "grade-includes: no record in $r" >&2; exit 1; }
    # the dependency files the student's build rewrote (the copy of the kit keeps the others' times)
    (cd $b/obj && find . -name '*.d' -newer "$OLDPWD/$r/.stamp" -print0) | while IFS= read -r -d '' d; do
      if [ -f "$r/$d" ]; then
        new=$(deps_of "$b/obj/$d" | LC_ALL=C comm -23 - "$r/$d")
      else
        new=$(deps_of "$b/obj/$d"); : >"$r/$d.real"
      fi
      [ -n "$new" ] || continue
      # the shortest paths first: the header a student named rather than what it includes
      while IFS= read -r p; do
        why=$(judge "$p")
        [ -n "$why" ] && printf '%s\t%s\t%s\n' "$b/obj/${d#./}" "${p#"$here"/}" "$why"
      done < <(xargs -r -d '\n' realpath -m -- <<<"$new" | LC_ALL=C sort -u | LC_ALL=C comm -23 - "$r/$d.real" |
               awk '{ print length($0) "\t" $0 }' | sort -n -s | cut -f2-)
    done
    exit 0;;
  *) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 2;;
esac
