#!/usr/bin/env bash
# grade-cluster.sh DIR [--ch NN,..] [--exercises exNN_a,..] [--assignment NAME] [--partition P]
#                      [--time T] [--gpus N] [--cpus N] [--only NAME,...] [--wait [--timeout S]]
# (every student's code is built and run in the sandbox on its node: tools/sandbox.sh)
# Grade a class (DIR: one sub-folder per student) on a Slurm cluster:
#   1. one job builds the kit with the skeletons (the shared build), on a node
#      like the graders' (same partition and GPU request, so the same GPU target);
#   2. one array task per student (after 1) grades that student on its own node
#      with --gres=gpu:N (N = --gpus, GRADE_GPUS, default 1; 0 asks for none);
#   3. a job that runs when every task has ended (afterany) merges the class
#      table; a student whose task was killed (time limit, node failure,
#      scancel) or never ran is shown as such, never as 0 points.
# --ch, --exercises and --assignment select what is graded and where the results go, as for
# grade-submission.sh (BUILDROOT/grades/<assignment>/).
# --only re-runs those students alone; the merge keeps everyone else's results.
# Nothing is deleted up front: a student's folder is replaced when their new
# grading is complete, and the table shows only results of this run (an older
# one stays on disk but counts as "not run" until it is replaced).
# Settings: GRADE_PARTITION, GRADE_TIME (minutes or D-HH:MM:SS, default 30),
# GRADE_GPUS, GRADE_CPUS (default 4), GRADE_MAX_PARALLEL (array throttle),
# GRADE_SBATCH_ARGS (more sbatch options: account, qos, constraint ...).
# Results: BUILDROOT/grades/ (must be on a file system the nodes share), job
# logs in BUILDROOT/grades/cluster/logs/.  docs/grading.md.
set -uo pipefail
. "$(dirname "$0")/grade-lib.sh"
self=$root/tools/grade-cluster.sh
usage() { sed -n '2,3p' "$0" | sed 's/^# //'; exit 2; }

# ----------------------------------------------------------- inside the jobs
# the run folder holds: env (the settings), students.txt, state/<name>.{job,started},
# kit.ok / kit.failed, logs/
if [ "${1:-}" = --prepare ] || [ "${1:-}" = --task ] || [ "${1:-}" = --merge ]; then
  mode=$1 run=${2:?}
  . "$run/env"
  out=$(dirname "$run") kit=$(dirname "$run")/kit
  rerun_sel="${ch:+ CH=$ch}${exercises:+ EXERCISES=$exercises} ASSIGNMENT=$assignment"
  select_init "$ch" "$exercises" "$assignment"
  export GRADE_RUN_ID=$run_id
  [ "$mode" = --merge ] || sandbox_init
fi

# the scheduler's word on a job (array task): sacct with accounting, else
# scontrol (it keeps ended jobs for MinJobAge), else what slurmstepd wrote in its log
job_state() { # JOBID LOG
  local s
  s=$(sacct -n -P -X -j "$1" -o State 2>/dev/null | head -n1 | awk '{ print $1 }')
  [ -n "$s" ] || s=$(scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -n1 | cut -d= -f2)
  if [ -z "$s" ] && [ -f "$2" ]; then
    if grep -q 'DUE TO TIME LIMIT' "$2"; then s=TIMEOUT
    elif grep -q 'DUE TO NODE FAILURE' "$2"; then s=NODE_FAIL
    elif grep -q 'CANCELLED' "$2"; then s=CANCELLED; fi
  fi
  echo "${s:-UNKNOWN}"
}

# status <TAB> detail of a student with no result (write_class asks)
missing_status() {
  local name=$1 job log st rerun
  rerun="re-run alone: make grade-cluster SUBMISSIONS=$class$rerun_sel ONLY=$name"
  if [ -f "$run/kit.failed" ]; then
    printf 'not run\tthe kit did not build on the cluster (%s)' "$(ls "$run"/logs/kit-*.log 2>/dev/null | tail -n1)"; return
  fi
  if [ -s "$studs/$name/status.tsv" ]; then   # a result of an earlier run only
    printf 'not run\tonly an earlier result exists (%s); %s' "$studs/$name/" "$rerun"; return
  fi
  job=$(cat "$run/state/$name.job" 2>/dev/null)
  [ -n "$job" ] || { printf 'not run\tnever submitted; %s' "$rerun"; return; }
  log=$run/logs/task-${job/_/-}.log
  st=$(job_state "$job" "$log")
  if [ -f "$run/state/$name.started" ]; then
    printf 'killed by the scheduler\t%s (job %s on %s); %s' "$st" "$job" "$(cut -d' ' -f2 "$run/state/$name.started")" "$rerun"
  else
    printf 'not run\t%s (job %s); %s' "$st" "$job" "$rerun"
  fi
}

case ${mode:-} in
--prepare)
  rm -f "$run/kit.ok" "$run/kit.failed"
  if prepare_kit; then touch "$run/kit.ok"; exit 0; fi
  touch "$run/kit.failed"; exit 1;;
--task)
  name=$(sed -n "$((SLURM_ARRAY_TASK_ID + 1))p" "$run/students.txt")
  [ -n "$name" ] || { echo "grade-cluster: no student at index $SLURM_ARRAY_TASK_ID" >&2; exit 1; }
  echo "$SLURM_ARRAY_JOB_ID"_"$SLURM_ARRAY_TASK_ID $(hostname -s)" >"$run/state/$name.started"
  export TMPDIR=${TMPDIR:-/tmp}/grade-$SLURM_JOB_ID
  mkdir -p "$TMPDIR"; trap 'rm -rf "$TMPDIR"' EXIT
  export GRADE_MAKE_JOBS=${SLURM_CPUS_PER_TASK:-$nproc_} GRADE_TEST_JOBS=${SLURM_CPUS_PER_TASK:-$nproc_}
  gpu_lock=""                       # Slurm gives the task its own GPU
  echo "grade-cluster: $name on $(hostname -s), job $SLURM_ARRAY_JOB_ID index $SLURM_ARRAY_TASK_ID"
  grade_one "$class/$name" "$name"
  cat "$studs/$name/table.txt"; cat "$studs/$name/status.tsv"
  exit 0;;
--merge)
  write_class "$run/students.txt" missing_status "$run/state"
  cat "$adir/class.txt"
  date +%s >"$run/merged"
  exit 0;;
esac

# --------------------------------------------------------------- submitting
ch="" exercises="" assignment="" class="" only="" wait=0 timeout=86400
partition=${GRADE_PARTITION:-} time=${GRADE_TIME:-30} gpus=${GRADE_GPUS:-1} cpus=${GRADE_CPUS:-4}
while [ $# -gt 0 ]; do
  case $1 in
    --ch) ch=${2:-}; shift; shift;;
    --exercises) exercises=${2:-}; shift; shift;;
    --assignment) assignment=${2:-}; shift; shift;;
    --partition) partition=${2:-}; shift; shift;;
    --time) time=${2:-}; shift; shift;;
    --gpus) gpus=${2:-}; shift; shift;;
    --cpus) cpus=${2:-}; shift; shift;;
    --timeout=*) timeout=${1#*=}; shift;;
    --only) only=${2:-}; shift; shift;;
    --wait) wait=1; shift;;
    --timeout) timeout=${2:-}; shift; shift;;
    -h|--help) usage;;
    -*) die "unknown option $1";;
    *) [ -z "$class" ] || die "one class folder only (got '$class' and '$1')"; class=$1; shift;;
  esac
done
[ -n "$class" ] || usage
[ -d "$class" ] || die "no folder '$class'"
class=$(cd "$class" && pwd)
ch_given=$ch   # the jobs select again from what was given (select_init sets ch to make's CH)
select_init "$ch" "$exercises" "$assignment"
command -v sbatch >/dev/null || die "sbatch not found: grade-cluster needs a Slurm submit host (make grade SUBMISSIONS=... grades on this machine)"
[[ $gpus =~ ^[0-9]+$ ]] || die "--gpus $gpus: not a number"
[[ $cpus =~ ^[1-9][0-9]*$ ]] || die "--cpus $cpus: not a number of CPUs (CPUS=N)"
[[ $timeout =~ ^[1-9][0-9]*$ ]] || die "--timeout $timeout: not a number of seconds (WAIT_S=N)"
sandbox_init
# what the partition's nodes have: a request no node can meet would wait forever
if command -v sinfo >/dev/null; then
  p=${partition:+-p "$partition"}
  # shellcheck disable=SC2086
  ncpu=$(sinfo -h $p -o '%c' 2>/dev/null | tr -d '+' | sort -n | tail -n1)
  if [[ $ncpu =~ ^[0-9]+$ ]] && [ "$ncpu" -lt "$cpus" ]; then
    die "the nodes of ${partition:-the default partition} have at most $ncpu CPUs; each task asks for $cpus: CPUS=$ncpu (or --cpus $ncpu)"
  fi
  # shellcheck disable=SC2086
  gres=$(sinfo -h $p -o '%G' 2>/dev/null | sort -u | tr '\n' ' ')
  if [ "$gpus" -gt 0 ] && [ -n "$gres" ] && ! grep -q 'gpu' <<<"$gres"; then
    die "${partition:-the default partition} has no GPUs (its nodes' GRES: ${gres% }); GPUS=0 grades the CPU tests only (the GPU ones are then not graded), or PARTITION= a GPU partition"
  fi
fi
run=$out/cluster
mkdir -p "$run/logs" "$run/state"
# the jobs of an earlier run share the kit build and the run folder: let them end first
if [ -f "$run/jobs" ]; then
  busy=$(. "$run/jobs"; squeue -h -j "$prep,$array,$merge" -o '%i' 2>/dev/null | tr '\n' ' ')
  [ -z "$busy" ] || die "an earlier grading run is still queued or running (jobs $busy): wait for it, or scancel them"
fi
class_students "$class" >"$run/students.new"
[ -s "$run/students.new" ] || die "no student folders in '$class' (one sub-folder per student)"
mv "$run/students.new" "$run/students.txt"
run_id=$(date +%s).$$
{
  printf 'class=%q\nrun_id=%q\n' "$class" "$run_id"
  printf 'ch=%q\nexercises=%q\nassignment=%q\n' "$ch_given" "$exercises" "$assignment"
  printf 'GRADE_UNSAFE=%q\n' "${GRADE_UNSAFE:-0}"
  printf 'ARCH=%q\nCRITERION_DIR=%q\n' "${ARCH:-}" "${CRITERION_DIR:-}"
  printf 'GRADE_TEST_TIMEOUT=%q\n' "${GRADE_TEST_TIMEOUT:-}"
} >"$run/env"

# the array indices: every student, or the --only ones
idx="" names=()
if [ -n "$only" ]; then
  IFS=',' read -r -a names <<<"$only"
  for n in "${names[@]}"; do
    i=$(grep -nxF -- "$n" "$run/students.txt" | cut -d: -f1)
    [ -n "$i" ] || die "--only $n: no such student folder in $class"
    idx=${idx:+$idx,}$((i - 1))
  done
else
  mapfile -t names <"$run/students.txt"
  idx=0-$((${#names[@]} - 1))
fi
for n in "${names[@]}"; do   # this run's bookkeeping only: no result is removed
  rm -f "$run/state/$n.started" "$run/state/$n.job"
  printf '%s\n' "$run_id" >"$run/state/$n.run"   # the run whose result counts for this student
done
rm -f "$run/merged"

common=(--parsable ${partition:+--partition="$partition"} --time="$time")
gres=(); [ "$gpus" -gt 0 ] && gres=(--gres=gpu:"$gpus")
# shellcheck disable=SC2206
extra=(${GRADE_SBATCH_ARGS:-})
for m in prepare task merge; do
  printf '#!/bin/bash\nexec %q --%s %q\n' "$self" "$m" "$run" >"$run/$m.sh"
done
prep=$(sbatch "${common[@]}" "${gres[@]}" "${extra[@]}" --cpus-per-task="$cpus" --job-name=grade-kit \
       --output="$run/logs/kit-%j.log" "$run/prepare.sh") || die "sbatch (kit build) failed"
array=$(sbatch "${common[@]}" "${gres[@]}" "${extra[@]}" --cpus-per-task="$cpus" --job-name=grade \
        --array="$idx${GRADE_MAX_PARALLEL:+%$GRADE_MAX_PARALLEL}" \
        --dependency=afterok:"$prep" --kill-on-invalid-dep=yes \
        --output="$run/logs/task-%A-%a.log" "$run/task.sh") || die "sbatch (students) failed"
array=${array%%;*}
for n in "${names[@]}"; do
  i=$(grep -nxF -- "$n" "$run/students.txt" | cut -d: -f1)
  echo "${array}_$((i - 1))" >"$run/state/$n.job"
done
merge=$(sbatch "${common[@]}" "${extra[@]}" --cpus-per-task=1 --job-name=grade-merge \
        --dependency=afterany:"$array" --output="$run/logs/merge-%j.log" "$run/merge.sh") ||
  die "sbatch (merge) failed"
merge=${merge%%;*}
printf 'prep=%s\narray=%s\nmerge=%s\n' "${prep%%;*}" "$array" "$merge" >"$run/jobs"
echo "grade-cluster: ${#names[@]} students: kit job ${prep%%;*}, array job $array ($idx), merge job $merge"
echo "grade-cluster: assignment $assignment (${sel:-every exercise}): the class table will be in $adir/class.txt (logs: $run/logs/)"
[ $wait = 1 ] || exit 0

t0=$(date +%s)
while [ ! -f "$run/merged" ]; do
  if [ $(( $(date +%s) - t0 )) -ge "$timeout" ]; then
    echo "grade-cluster: no class table after $timeout s; jobs still queued or running:" >&2
    squeue -j "${prep%%;*},$array,$merge" 2>&1 >&2
    exit 1
  fi
  sleep 5
  # a job the scheduler will never start (its request fits no node): say so rather than wait
  never=$(squeue -h -j "${prep%%;*},$array,$merge" -o '%i %T %r' 2>/dev/null |
          awk '$2 == "PENDING" && $3 ~ /^(PartitionConfig|PartitionNodeLimit|PartitionTimeLimit|ReqNodeNotAvail|BadConstraints|InvalidAccount|InvalidQOS|QOSMaxCpuPerJobLimit)/ { print $1 " (" $3 ")"; exit }')
  if [ -n "$never" ]; then
    echo "grade-cluster: job $never will not start with these settings (partition, CPUS, GPUS, TIME); scancel ${prep%%;*} $array $merge and submit again" >&2
    exit 1
  fi
  if [ $(( ($(date +%s) - t0) % 60 )) -lt 5 ]; then
    echo "grade-cluster: waiting ($(( $(date +%s) - t0 )) s): $(squeue -h -j "${prep%%;*},$array,$merge" -o '%T' 2>/dev/null | sort | uniq -c | awk '{ printf "%s%s %s", s, $1, tolower($2); s = ", " }')"
  fi
  # the merge job has left the queue without a table: say so rather than wait on
  if [ ! -f "$run/merged" ] && ! squeue -h -j "$merge" 2>/dev/null | grep -q .; then
    sleep 5; [ -f "$run/merged" ] && break
    echo "grade-cluster: the merge job $merge ended without a class table ($(job_state "$merge" "$run/logs/merge-$merge.log")); see $run/logs/" >&2
    exit 1
  fi
done
cat "$adir/class.txt"
