#!/usr/bin/env bash
# tests/grading/slurm.sh - make grade-cluster against a real Slurm on this machine.
#
# Starts munged, slurmctld and slurmd (Debian's slurm-wlm and munge) as root on
# localhost, each with its own files in a temporary folder (no system state
# touched, no cgroups: proctrack/linuxproc, task/none), one CPU-only node.
# Submits a class of 3 (a solutions copy, a compile error, an infinite loop
# that the time limit kills) with GRADE_GPUS=0, waits (bounded), checks the
# merged table, re-runs the killed student alone (fixed) and checks again.
# The daemons are stopped on exit.  Prints PASS/FAIL lines, then "N passed, N failed".
# Needs root.  CH=01 only; about 4 minutes on 2 cores.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
pass=0 fail=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
finish() { echo "$pass passed, $fail failed"; [ $fail = 0 ]; exit; }
check() { # DESCRIPTION COMMAND...
  local what=$1; shift
  if "$@"; then ok "$what"; else bad "$what"; fi
}

for b in munged slurmctld slurmd sbatch squeue scontrol; do
  command -v $b >/dev/null || PATH=$PATH:/usr/sbin
  command -v $b >/dev/null || { bad "$b not installed (apt-get install slurm-wlm munge)"; finish; }
done
[ "$(id -u)" = 0 ] || { bad "the Slurm test starts daemons as root: run it as root"; finish; }

tmp=$(mktemp -d /tmp/kit-slurm.XXXXXX)
chmod 755 "$tmp"
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  sleep 1
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  [ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ------------------------------------------------------------------ munge
mkdir -p "$tmp/munge" && chmod 700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
munged --force --foreground --socket="$tmp/munge/munge.sock" --key-file="$tmp/munge/munge.key" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
  --seed-file="$tmp/munge/munged.seed" >"$tmp/munge/out.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$tmp/munge/munge.sock" ] && break; sleep 0.2; done
[ -S "$tmp/munge/munge.sock" ] || { bad "munged did not start"; cat "$tmp/munge/"*.log; finish; }

# ------------------------------------------------------------------ slurm
host=$(hostname -s)
port=${SLURM_TEST_PORT:-$((16000 + RANDOM % 4000))}
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/out"
cat >"$tmp/slurm.conf" <<EOF
ClusterName=kittest
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
SlurmdParameters=config_overrides
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=5
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
KillWait=5
OverTimeLimit=0
InactiveLimit=0
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=grading Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
sleep 2
slurmd -D -f "$SLURM_CONF" -N "$host" >"$tmp/slurmd.out" 2>&1 &
pids+=($!)
up=0
for _ in $(seq 60); do
  if sinfo -h -N -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then up=1; break; fi
  sleep 1
done
if [ $up = 1 ]; then ok "slurmctld and slurmd up on $host (port $port)"; else
  bad "the Slurm node did not come up"; sinfo -N -l 2>&1; tail -n 20 "$tmp"/slurm*.log "$tmp"/*.out; finish
fi

# ------------------------------------------------------------------ the class
class=$tmp/class
S=solutions/01-copy
mkdir -p "$class"/{good,broken,loops}/01-copy
cp $S/* "$class/good/01-copy/"
cp $S/loadbalance.h "$class/broken/01-copy/"
sed -i 's/const uint64_t left = nblocks % nrows;/const uint64_t left = nblocks % nrows/' "$class/broken/01-copy/loadbalance.h"
cp $S/loadbalance.h "$class/loops/01-copy/"   # hangs on every call: each test runs into its time limit
sed -i 's|    const uint64_t base = nblocks / nrows;|    for (volatile int spin = 1; spin;) { }\n    const uint64_t base = nblocks / nrows;|' \
  "$class/loops/01-copy/loadbalance.h"
export BUILDROOT=$tmp/build GRADE_GPUS=0 GRADE_CPUS=1 GRADE_SPEED=0   # speed grading: tests/grading/run.sh
out=$BUILDROOT/grades/ch01   # the assignment folder of --ch 01
grade() { tools/grade-cluster.sh "$class" --ch 01 --partition grading --wait --timeout 900 "$@"; }

t0=$(date +%s)
# 2 minutes: the infinite loop (4 tests x 60 s, one CPU) cannot finish
grade --time 2 >"$tmp/out/submit1.log" 2>&1
st=$?
cat "$tmp/out/submit1.log"
echo "(class of 3 on Slurm: $(( $(date +%s) - t0 )) s)"
check "grade-cluster submitted the class and the merge job wrote the table" [ $st = 0 ]
check "good: full marks on the CPU exercises" grep -q '^"good",8,8,9,"graded"' "$out/class.csv"
check "broken: did not compile, with file and line" grep -q '^"broken",0,8,9,"did not compile","01-copy/loadbalance.h:[0-9]*: ' "$out/class.csv"
check "loops: killed by the scheduler (TIMEOUT), no score" grep -q '^"loops",,,,"killed by the scheduler","TIMEOUT' "$out/class.csv"
check "the table says how to re-run the killed student" grep -q 'loops.*ONLY=loops' "$out/class.txt"
check "each graded student has a results.json" eval '[ -s "$out/students/good/results.json" ] && [ -s "$out/students/broken/results.json" ]'
check "class.json merges the students' results" grep -q '"good": {"status": "graded", "results": ' "$out/class.json"

# the instructor fixes the cause (here: the student's loop) and re-runs that student alone
cp $S/loadbalance.h "$class/loops/01-copy/"
touch "$out/students/good/untouched"
grade --only loops --time 5 >"$tmp/out/submit2.log" 2>&1
st=$?
cat "$tmp/out/submit2.log"
check "re-running one student alone merged a new table" [ $st = 0 ]
check "loops: graded after the re-run" grep -q '^"loops",8,8,9,"graded"' "$out/class.csv"
check "the others kept their results" grep -q '^"good",8,8,9,"graded"' "$out/class.csv"
check "the re-run did not regrade the others" [ -f "$out/students/good/untouched" ]
check "the re-run was one array task" grep -q 'array job [0-9]* (2)' "$tmp/out/submit2.log"
check "every task ran in the sandbox (no UNSAFE warning)" eval '! grep -q UNSAFE "$out/class.txt" "$out"/students/*/table.txt'

# a broken Slurm (no configuration source): nothing is removed, and the reason is said
mkdir -p "$tmp/fakebin"
printf '#!/bin/sh\necho "sbatch: fatal: Could not establish a configuration source" >&2\nexit 1\n' >"$tmp/fakebin/sbatch"
chmod +x "$tmp/fakebin/sbatch"
before=$(cd "$out/students" && find . -type f | LC_ALL=C sort | xargs sha256sum | sha256sum)
PATH=$tmp/fakebin:$PATH grade --time 5 >"$tmp/out/submit3.log" 2>&1
st=$?
cat "$tmp/out/submit3.log"
check "a broken sbatch fails the submission, saying so" eval '[ $st != 0 ] && grep -q "sbatch (kit build) failed" "$tmp/out/submit3.log"'
check "... and removes no student's results" \
  [ "$(cd "$out/students" && find . -type f | LC_ALL=C sort | xargs sha256sum | sha256sum)" = "$before" ]
# requests no node can meet are refused before anything is queued
grade --cpus 999 >"$tmp/out/submit4.log" 2>&1
check "CPUS beyond the nodes' is refused with the number they have" grep -q "have at most $(nproc) CPUs" "$tmp/out/submit4.log"
GRADE_GPUS=1 grade >"$tmp/out/submit5.log" 2>&1
check "GPUS=1 on a partition without GPUs is refused with a hint" grep -q 'has no GPUs.*GPUS=0' "$tmp/out/submit5.log"

if [ $fail != 0 ]; then
  echo "--- logs"; tail -n 30 "$tmp"/slurmctld.log; for f in "$out"/cluster/logs/*; do echo "== $f"; tail -n 15 "$f"; done
fi
finish
