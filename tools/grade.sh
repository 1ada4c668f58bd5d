#!/usr/bin/env bash
# grade.sh RESULTS.tsv POINTS.tsv RESULTS.json [SELECTION] [NOTES.tsv] [SUMMARY.tsv]
# Join the test results (tests/kit_test.c writes them) with the points table:
# print a score table (chapters in order) and write a Gradescope results.json.
# SELECTION: what is graded, a comma-separated list of chapters (1, 01, 01-copy: every
# exercise of it) and exercises (ex06_bitplane); empty: everything.  The maximum is
# the selection's.
#
# Status of a graded test (docs/grading.md):
#   passed / failed / crashed / timed out      the test ran; points only if passed
#   not graded here (no GPU)                   a GPU test on a machine without one:
#                                              in no total; shown in the table, left out
#                                              of results.json's tests[] (Gradescope would
#                                              show a test of max_score 0 as passed) and
#                                              named in its top-level output instead
#   did not compile / did not link             from NOTES.tsv: 0 points, counted
#   crashed at load                            from NOTES.tsv: the runner did not load: 0, counted
#   not run                                    the test program never reached it: 0, counted
# Which tests count never depends on the submission: points.tsv's device column says
# which need a GPU, and with GRADE_HAVE_GPU=0 in the environment those are "not graded
# here (no GPU)" whatever the results file says.
# NOTES.tsv (optional): exercise <TAB> kind <TAB> message, kind = compile, link,
# load or build (the exercise scores 0 with that message; exercise "*" = all of
# them) or note (shown in the top-level output only).
# SUMMARY.tsv (optional) gets one line: score max not-graded-points, then the
# number of tests per status.
# Speed rows (level speed, test exNN_name::speed_PP): PP % of the reference's throughput earns
# the row's points; the judge's test exNN_name::speed says whether the timing ran and held, and
# the file GRADE_SPEED_TSV (tests/kit_speed.c's lines) what it measured.  GRADE_SPEED=0: no
# speed rows at all (in no table and no maximum).
set -euo pipefail
results=${1:?usage: grade.sh RESULTS.tsv POINTS.tsv RESULTS.json [SELECTION] [NOTES.tsv] [SUMMARY.tsv]}
points=${2:?}
json=${3:?}
sel=${4:-}
notes=${5:-/dev/null}
summary=${6:-/dev/null}
[ -f "$results" ] || { echo "grade: no results file $results (did the tests build and run?)" >&2; exit 1; }
[ -n "$notes" ] || notes=/dev/null
speed=${GRADE_SPEED_TSV:-}
[ -n "$speed" ] && [ -f "$speed" ] || speed=/dev/null
awk -F'\t' -v json="$json" -v sel="$sel" -v summary="$summary" -v have_gpu="${GRADE_HAVE_GPU:-}" \
    -v speed_on="${GRADE_SPEED:-1}" -v speedfile="$speed" '
# JSON string escape, one character at a time (gawk and mawk differ on "\\" in gsub)
function esc(s,   r, i, c) {
  r = ""
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (c == "\\" || c == "\"") r = r "\\" c
    else if (c ~ /[\001-\037]/) r = r " "
    else r = r c
  }
  return r
}
FILENAME == ARGV[1] {
  if ($2 == "note") { general = general (general == "" ? "" : "; ") $3; next }
  if (!($1 in why)) { kind[$1] = $2; why[$1] = $3 }      # first reason per exercise
  k = ($2 == "compile") ? "did not compile" : ($2 == "link") ? "did not link" : ($2 == "load") ? "crashed at load" : "did not build"
  reasons = reasons (reasons == "" ? "" : "; ") ($1 == "*" ? "" : $1 " ") k ": " $3
  next
}
FILENAME == ARGV[2] { key = $1 "::" $2; status[key] = $3; msg[key] = $4; next }
FILENAME == ARGV[3] {
  # exercise, ratio, noise, credited ratio, throughput, unit, reference, device, rounds, K, note
  sp_ratio[$1] = $2; sp_noise[$1] = $3; sp_cred[$1] = $4; sp_rate[$1] = $5; sp_unit[$1] = $6
  sp_ref[$1] = $7; sp_dev[$1] = $8; sp_note[$1] = $11; next
}
FNR == 1 {                                               # points.tsv header
  ntok = split(sel, tok, ","); nsel = 0
  for (i = 1; i <= ntok; i++) {
    t = tok[i]; sub(/-.*/, "", t)
    if (t ~ /^[0-9]+$/) { chosen_ch[sprintf("%02d", t + 0)] = 1; nsel++ } else if (t != "") { chosen_ex[t] = 1; nsel++ }
  }
  next
}
{
  split($1, part, "::"); ex = part[1]
  if (nsel && !(substr(ex, 3, 2) in chosen_ch) && !(ex in chosen_ex)) next
  if ($3 == "speed" && speed_on == "0") next
  n++; test[n] = $1; pts[n] = $2 + 0; level[n] = $3; exer[n] = ex; chap[n] = substr(ex, 3, 2); dev[n] = $4
}
END {
  # chapters in order, the points table order within a chapter (stable insertion sort)
  for (i = 1; i <= n; i++) ord[i] = i
  for (i = 2; i <= n; i++) {
    v = ord[i]
    for (j = i - 1; j >= 1 && chap[ord[j]] > chap[v]; j--) ord[j + 1] = ord[j]
    ord[j + 1] = v
  }
  printf "%-20s %-28s %-9s %7s  %s\n", "exercise", "test", "level", "points", "result"
  rule = "-----------------------------------------------------------------------------------------"
  print rule
  for (o = 1; o <= n; o++) {
    i = ord[o]; k = test[i]; e = exer[i]
    split(k, part, "::")
    tier = -1
    if (level[i] == "speed") { tier = substr(part[2], 7) + 0; k = e "::speed" }
    st = (k in status) ? status[k] : "missing"; m = msg[k]
    w = (e in why) ? e : (("*" in why) ? "*" : "")
    graded = 1; got = 0
    if (have_gpu == "0" && dev[i] == "gpu") {
      # never in the maximum on a machine without a GPU, whatever the submission did
      graded = 0; kst = "not graded here (no GPU)"; out = kst ": no CUDA device on the grading machine"
      if (w != "") out = out " (" (kind[w] == "compile" ? "did not compile" : kind[w] == "link" ? "did not link" : kind[w] == "load" ? "crashed at load" : "did not build") ": " why[w] ")"
    }
    else if (w != "") {
      if (kind[w] == "compile") kst = "did not compile"
      else if (kind[w] == "link") kst = "did not link"
      else if (kind[w] == "load") kst = "crashed at load"
      else kst = "did not build"
      out = kst ": " why[w]
    }
    else if (st == "pass" && tier >= 0 && !(e in sp_ratio)) { kst = "failed"; out = "failed: the speed test wrote no measurement" }
    else if (st == "pass" && tier >= 0) {
      # a result inside the noise counts for the student (credited = ratio times 1 + noise, capped)
      reached = sp_cred[e] * 100 + 1e-9 >= tier
      kst = reached ? "passed" : "failed"; got = reached ? pts[i] : 0
      out = sprintf("%s: %d %% of %s (noise %d %%), %s %d %%", reached ? "passed" : "failed", int(sp_ratio[e] * 100 + 0.5),
                    sp_ref[e], int(sp_noise[e] * 100 + 0.5), reached ? "reached" : "short of", tier)
      if (sp_note[e] != "") out = out " (" sp_note[e] ")"
      if (!reached && !(e in more_at)) more_at[e] = tier
      if (!reached && more_at[e] == tier) more_pts[e] += pts[i]
      if (!(e in sp_seen)) { sp_seen[e] = 1; sp_list[++nsp] = e }
      extra[o] = sprintf(", \"extra_data\": {\"ratio\": %.4f, \"noise\": %.4f, \"device\": \"%s\"}", sp_ratio[e], sp_noise[e], esc(sp_dev[e]))
    }
    else if (st == "pass") { kst = "passed"; got = pts[i]; out = "passed" }
    else if (st == "fail") { kst = "failed"; out = "failed: " m }
    else if (st == "crash") { kst = "crashed"; sub(/^crashed: /, "", m); out = "crashed: " m }
    else if (st == "timeout") { kst = "timed out"; out = "timed out: " m }
    else if (st == "skip") {
      graded = 0
      kst = (m ~ /^no CUDA device/) ? "not graded here (no GPU)" : "not graded"
      out = kst ": " m
    }
    else { kst = "not run"; out = "not run: the test program did not reach this test" }
    count[kst]++
    if (graded) { score += got; max += pts[i]; lv[level[i]] += got; lvmax[level[i]] += pts[i] }
    else ungraded += pts[i]
    shown = graded ? sprintf("%d/%d", got, pts[i]) : sprintf("-/%d", pts[i])
    printf "%-20s %-28s %-9s %7s  %s\n", e, part[2], level[i], shown, substr(out, 1, 200)
    if (!graded) {
      # not in tests[]: the top-level output names it, once per exercise and reason
      r = kst; if (e SUBSEP r in ng_n) ng_n[e, r]++; else { ng_n[e, r] = 1; ng_order[++nng] = e SUBSEP r }
      ng_pts[e, r] += pts[i]
      continue
    }
    row[++nrow] = sprintf("    {\"name\": \"%s\", \"score\": %d, \"max_score\": %d, \"status\": \"%s\", \"tags\": [\"%s\", \"%s\", \"%s\"], \"output\": \"%s\"%s}",
                          esc(test[i]), got, pts[i], kst == "passed" ? "passed" : "failed", esc(e), level[i], kst, esc(out), extra[o])
  }
  # "not graded here (no GPU): ex01_block_dask (4 tests, 9 points), ex06_lanemask (...)"
  for (j = 1; j <= nng; j++) {
    split(ng_order[j], p2, SUBSEP)
    if (!(p2[2] in ng_by)) { ng_why[++nwhy] = p2[2]; ng_by[p2[2]] = "" } else ng_by[p2[2]] = ng_by[p2[2]] ", "
    ng_by[p2[2]] = ng_by[p2[2]] sprintf("%s (%d test%s, %d points)", p2[1],
                   ng_n[ng_order[j]], ng_n[ng_order[j]] == 1 ? "" : "s", ng_pts[ng_order[j]])
  }
  for (j = 1; j <= nwhy; j++) ng = ng (j > 1 ? "; " : "") ng_why[j] ": " ng_by[ng_why[j]]
  print rule
  # what each speed test measured, one line per exercise
  for (q = 1; q <= nsp; q++) {
    e = sp_list[q]
    sl = sprintf("%s: %.4g %s/s = %d %% of %s on %s (noise %d %%)", e, sp_rate[e], sp_unit[e], int(sp_ratio[e] * 100 + 0.5),
                 sp_ref[e], sp_dev[e], int(sp_noise[e] * 100 + 0.5))
    if (e in more_at) sl = sl sprintf(" (%d more point%s at %d %%)", more_pts[e], more_pts[e] == 1 ? "" : "s", more_at[e])
    print "speed: " sl
    speedline = speedline (speedline == "" ? "" : "; ") sl
  }
  line = sprintf("total: %d/%d graded points (required %d/%d, extra %d/%d)", score, max, lv["required"], lvmax["required"], lv["extra"], lvmax["extra"])
  if (lvmax["speed"]) line = line sprintf(" (speed %d/%d)", lv["speed"], lvmax["speed"])
  if (ungraded) line = line sprintf("; %d points not graded here (no GPU)", ungraded)
  print line
  if (general != "") print "notes: " general
  if (reasons != "") print "build: " reasons
  if (ng != "") print ng
  top = line (speedline != "" ? "; " speedline : "") (reasons != "" ? "; " reasons : "") (general != "" ? "; " general : "") (ng != "" ? "; " ng : "")
  printf "{\n  \"score\": %d,\n  \"max_score\": %d,\n  \"output\": \"%s\",\n  \"tests\": [\n", score, max, esc(top) > json
  for (o = 1; o <= nrow; o++) printf "%s%s\n", row[o], o < nrow ? "," : "" > json
  printf "  ]\n}\n" > json
  printf "%d\t%d\t%d\tpassed=%d failed=%d crashed=%d timed_out=%d not_graded=%d did_not_compile=%d did_not_link=%d not_run=%d\n",
         score, max, ungraded, count["passed"], count["failed"], count["crashed"], count["timed out"],
         count["not graded here (no GPU)"] + count["not graded"], count["did not compile"],
         count["did not link"] + count["did not build"] + count["crashed at load"], count["not run"] > summary
  print "results: " json
}' "$notes" "$results" "$speed" "$points"
