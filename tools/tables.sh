#!/usr/bin/env bash
# tables.sh update|check [CHAPTERS...] - keep the README step tables generated
# from the step tables (chNN steps --markdown) between the marker lines
#   <!-- steps:begin --> ... <!-- steps:end -->     in chapters/NN-topic/README.md
#   <!-- chapters:begin --> ... <!-- chapters:end --> in README.md
# and the measured tables drawn from committed CSVs (tools/csvtable.sh):
#   <!-- measured:begin CSV LOG2 [LOG2...] --> ... <!-- measured:end -->
#   (CSV is the file's base name in plots/NN-topic/)
# and, on update, every <!--n ...--> number and <!-- tried:begin --> table (tools/numbers fill)
set -euo pipefail
cd "$(dirname "$0")/.."
broot=${BUILDROOT:-build}
mode=${1:?usage: tables.sh update|check [CHAPTERS...]}
shift
# every chapter (a folder with a bench.c, as the Makefile finds them)
mapfile -t all_chapters < <(cd chapters && ls -d [0-9][0-9]-*/bench.c | cut -d/ -f1 | sort)
chapters=("$@")
[ ${#chapters[@]} -gt 0 ] || chapters=("${all_chapters[@]}")
bin=$broot/solutions/bin
status=0

# every chapter's program, in one make call (the top README needs them all)
progs=()
for c in "${all_chapters[@]}"; do progs+=("$bin/ch${c%%-*}"); done
make --no-print-directory BUILDROOT="$broot" IMPL=solutions "${progs[@]}" >/dev/null

# replace the lines between <!-- NAME:begin --> and <!-- NAME:end --> of FILE by stdin
splice() {
  local file=$1 name=$2 body
  body=$(cat)
  # the body through the environment: awk -v would expand its backslashes
  body=$body awk -v name="$name" '
    $0 ~ "<!-- " name ":begin -->" { print; print ENVIRON["body"]; skip = 1; next }
    $0 ~ "<!-- " name ":end -->" { skip = 0 }
    !skip { print }' "$file"
}

apply() { # FILE NAME (new body on stdin)
  local file=$1 name=$2 new
  new=$(splice "$file" "$name")
  if ! grep -q "<!-- $name:begin -->" "$file"; then echo "tables: $file has no <!-- $name:begin --> marker" >&2; status=1; return; fi
  if [ "$mode" = update ]; then
    printf '%s\n' "$new" >"$file"
  elif [ "$new" != "$(cat "$file")" ]; then
    echo "tables: $file: the $name table differs from the step table (make tables)" >&2; status=1
  fi
}

# every measured:begin block of FILE regenerated from plots/CHAPTER/<csv>.csv
measured() { # FILE CHAPTER
  awk -v dir="plots/$2" '
    /<!-- measured:begin / {
      print; n = split($0, w, " "); args = ""
      for (i = 4; i < n; i++) args = args " " w[i]
      cmd = "tools/csvtable.sh " dir "/" w[3] ".csv" args
      while ((cmd | getline line) > 0) print line
      close(cmd); skip = 1; next
    }
    /<!-- measured:end -->/ { skip = 0 }
    !skip { print }' "$1"
}

for c in "${chapters[@]}"; do
  prog=$bin/ch${c%%-*}
  readme=chapters/$c/README.md
  table=$("$prog" steps --markdown) # set -e: a failing program stops here, not with an empty table
  apply "$readme" steps <<<"$table"
  if grep -q '<!-- measured:begin ' "$readme"; then
    new=$(measured "$readme" "$c")
    if [ "$mode" = update ]; then printf '%s\n' "$new" >"$readme"
    elif [ "$new" != "$(cat "$readme")" ]; then echo "tables: $readme: a measured table differs from its CSV (make tables)" >&2; status=1; fi
  fi
done

# the top README's chapter table always covers every chapter
rows=""
for c in "${all_chapters[@]}"; do
  id=${c%%-*}
  prog=$bin/ch$id
  exercises=$(awk -F'\t' -v id="ex$id" 'NR > 1 { split($1, p, "::"); if (substr(p[1], 1, 4) == id && !seen[p[1]]++) printf "%s`%s`", n++ ? ", " : "", p[1] }' tests/points.tsv)
  summary=$("$prog" steps --summary)
  rows+="| [$id](chapters/$c/README.md) | $summary | ${exercises:-none} |"$'\n'
done
apply README.md chapters < <(printf '| chapter | topic | ladder | exercises |\n|---|---|---|---|\n%s' "$rows")
# the inline numbers and "tried" tables of every README (make check verifies them: tools/numbers check)
[ "$mode" = update ] && { tools/numbers fill || status=1; }
exit $status
