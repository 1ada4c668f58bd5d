#!/usr/bin/env bash
# grade-uses.sh record|check - the kit functions a student's build calls that the skeletons' do not.
#
#   record  (in the kit, after its build; trusted objects): build/exercises/.uses/ gets the kit's
#           defined symbols and, per object, its checksum and undefined symbols
#   check   (in a student's copy, inside the sandbox: nm reads the student's objects): for every
#           object that differs from the kit's, print "SOURCE<TAB>SYMBOL" for each symbol it now
#           needs from the kit's libraries that the kit's own object did not (e.g. the kit's
#           radix_image32 called from an exercise that asks for one: the answer, borrowed)
# Run from the kit copy's root.  docs/grading.md, "Threat model".
set -uo pipefail
b=build/exercises
u=$b/.uses
case ${1:-} in
  record)
    rm -rf "$u"; mkdir -p "$u/obj"
    nm -g --defined-only $b/lib/*.a 2>/dev/null | awk 'NF >= 3 { print $3 }' | LC_ALL=C sort -u >"$u/defined"
    (cd $b/obj && find . -name '*.o' -print0) | while IFS= read -r -d '' o; do
      mkdir -p "$u/obj/$(dirname "$o")"
      nm -u "$b/obj/$o" 2>/dev/null | awk '{ print $NF }' | LC_ALL=C sort -u >"$u/obj/$o.u"
      sha256sum <"$b/obj/$o" | cut -d' ' -f1 >"$u/obj/$o.sha"
    done;;
  check)
    [ -f "$u/defined" ] || { echo "grade-uses: no record in $u" >&2; exit 1; }
    (cd $b/obj && find . -name '*.o' -print0) | while IFS= read -r -d '' o; do
      [ -f "$u/obj/$o.sha" ] || continue
      [ "$(sha256sum <"$b/obj/$o" | cut -d' ' -f1)" = "$(cat "$u/obj/$o.sha")" ] && continue
      src=${o#./}; src=${src%.o}
      for ext in .c .cu; do [ -f "$src$ext" ] && { src=$src$ext; break; }; done
      case $src in runner/*) src=${src#runner/};; judge/*) continue;; esac
      nm -u "$b/obj/$o" 2>/dev/null | awk '{ print $NF }' | LC_ALL=C sort -u |
        LC_ALL=C comm -23 - "$u/obj/$o.u" | LC_ALL=C comm -12 - "$u/defined" |
        while IFS= read -r s; do printf '%s\t%s\t%s\n' "$src" "$s" "$b/obj/${o#./}"; done
    done;;
  *) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 2;;
esac
