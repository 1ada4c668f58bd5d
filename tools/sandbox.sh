#!/usr/bin/env bash
# sandbox.sh - where a student's code runs when it is graded (docs/grading.md, "Threat model").
#
#   sandbox.sh check                 exit 0 when bubblewrap works here (user namespaces), else why;
#                                    says which memory budget it uses
#   sandbox.sh cleanup               remove the cgroups of sandboxes that are gone
#   sandbox.sh build DIR CMD...      CMD in DIR (read-write, seen as /kit, its working folder):
#                                    the compiler and the system's programs read-only, no GPU
#   sandbox.sh run BINARY ARGS...    BINARY (read-only, seen as /runner) with ARGS; fd 3 stays
#                                    open (the judge's channel); the GPU's device files when the
#                                    machine has them
#
# Both: bubblewrap (bwrap) with every namespace unshared (no network, its own PIDs: whatever the
# code starts dies with it), a private /tmp and /var/tmp of GRADE_TMP_MB each, no capabilities, a
# clean environment, no descriptor of the caller's above 2 (fd 3 too, for run), and limits:
# GRADE_MEM_MB of memory for the sandbox as a whole (every process it starts, its tmpfs pages
# included: a memory cgroup, see below), GRADE_CPU_S CPU seconds, GRADE_NPROC processes,
# GRADE_FSIZE_MB largest file.  Nothing of the repository, solutions/, the grades or other
# students is visible: only /usr (compilers, libraries, CUDA) and what is named above.
#
# The memory budget, in this order (`sandbox.sh check` says which one it uses):
#   GRADE_CGROUP=DIR   a cgroup (v2, memory enabled in its subtree_control, or a v1 memory
#                      hierarchy's folder) the administrator delegated: a child per sandbox;
#   cgroup v2          the cgroup2 mount's root, when memory is enabled there and it is writable;
#   cgroup v1          the memory hierarchy (/sys/fs/cgroup/memory), when writable (root);
#   rlimit             none of those: GRADE_MEM_MB is split over the processes, so that the
#                      per-process address-space limit times the process limit fits in it (a GPU
#                      run, whose CUDA context reserves terabytes of address space, then has
#                      no memory bound: the grader says so).
# Each sandbox's cgroup is named after the process that made it; it is removed when that process
# is gone (by the next sandbox, or sandbox.sh cleanup).  Also a pids limit there when the pids
# controller is (GRADE_NPROC; a root user ignores RLIMIT_NPROC).
set -uo pipefail

cpu=${GRADE_CPU_S:-600} mem=${GRADE_MEM_MB:-16384} nproc=${GRADE_NPROC:-4096} fsize=${GRADE_FSIZE_MB:-512}
# /tmp and /var/tmp: the compilers keep their intermediate files there; the kit's largest file
# (chapter 05's s5_onesweep.cu, two architectures with line info) keeps about 400 MB at once, and
# make runs several compilers at a time
tmpmb=${GRADE_TMP_MB:-2048}
die() { echo "sandbox: $*" >&2; exit 125; }
command -v bwrap >/dev/null || die "bubblewrap (bwrap) is not installed (apt-get install bubblewrap)"
command -v prlimit >/dev/null || die "prlimit (util-linux) is not installed"

# the system, read-only; /etc only for the loader and the compilers' alternatives (never
# /etc/shadow: under a user namespace the outside owner's rights apply)
base=(--unshare-all --die-with-parent --new-session --cap-drop ALL --clearenv
      --ro-bind /usr /usr --proc /proc --dev /dev
      --size $((tmpmb * 1024 * 1024)) --tmpfs /tmp --size $((tmpmb * 1024 * 1024)) --tmpfs /var/tmp
      --setenv PATH /usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin --setenv HOME /tmp
      --setenv LANG C.UTF-8 --setenv TMPDIR /tmp)
for d in /bin /sbin /lib /lib32 /lib64 /libx32; do
  if [ -L "$d" ]; then base+=(--symlink "$(readlink "$d")" "$d"); elif [ -d "$d" ]; then base+=(--ro-bind "$d" "$d"); fi
done
for f in /etc/ld.so.cache /etc/ld.so.conf /etc/ld.so.conf.d /etc/alternatives /etc/localtime; do
  [ -e "$f" ] && base+=(--ro-bind "$f" "$f")
done
# a CUDA toolkit outside /usr (CUDA=...)
cuda=${CUDA:-/usr/local/cuda}
if [ -d "$cuda" ]; then
  real=$(readlink -f "$cuda")
  case $real in /usr/*) ;; *) base+=(--ro-bind "$real" "$real");; esac
  [ "$cuda" != "$real" ] && [ "${cuda#/usr/}" = "$cuda" ] && base+=(--symlink "$real" "$cuda")
fi

# the loader's extra folders (a GPU node's driver libraries) and the GPU the task was given:
# read-only, and nothing else of the environment
if [ -n "${LD_LIBRARY_PATH:-}" ]; then
  IFS=: read -r -a libdirs <<<"$LD_LIBRARY_PATH"
  for d in "${libdirs[@]}"; do
    [ -d "$d" ] || continue
    case $(readlink -f "$d") in /usr/*) ;; *) base+=(--ro-bind "$d" "$d");; esac
  done
  base+=(--setenv LD_LIBRARY_PATH "$LD_LIBRARY_PATH")
fi
[ -n "${CUDA_VISIBLE_DEVICES:-}" ] && base+=(--setenv CUDA_VISIBLE_DEVICES "$CUDA_VISIBLE_DEVICES")

# ------------------------------------------------------------ the memory budget
# cg_mode: "v2 DIR", "v1 DIR [PIDS-DIR]" or "rlimit" (DIR: where each sandbox's cgroup goes)
cg_writable() { [ -d "$1" ] && [ -w "$1" ] && mkdir "$1/.kit-probe.$$" 2>/dev/null && rmdir "$1/.kit-probe.$$"; }
cg_mode() {
  local d pids=""
  [ -d /sys/fs/cgroup/pids ] && cg_writable /sys/fs/cgroup/pids && pids=/sys/fs/cgroup/pids/kit-grade
  if [ -n "${GRADE_CGROUP:-}" ]; then
    d=$GRADE_CGROUP
    if [ -f "$d/cgroup.subtree_control" ] && grep -qw memory "$d/cgroup.subtree_control" && cg_writable "$d"; then echo "v2 $d"; return; fi
    if [ -f "$d/memory.limit_in_bytes" ] && cg_writable "$d"; then echo "v1 $d $pids"; return; fi
    die "GRADE_CGROUP=$d: not a writable cgroup with the memory controller (v2: memory in its cgroup.subtree_control)"
  fi
  for d in /sys/fs/cgroup /sys/fs/cgroup/unified; do
    if [ "$(stat -fc %T "$d" 2>/dev/null)" = cgroup2fs ] && grep -qw memory "$d/cgroup.subtree_control" 2>/dev/null &&
       cg_writable "$d"; then echo "v2 $d/kit-grade"; return; fi
  done
  if [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ] && cg_writable /sys/fs/cgroup/memory; then
    echo "v1 /sys/fs/cgroup/memory/kit-grade $pids"; return
  fi
  echo rlimit
}
cgm=$(cg_mode) || exit 125
read -r cgv cgdir cgpids <<<"$cgm"
# the per-process limits when there is no cgroup: GRADE_MEM_MB over at most 16 processes (the
# largest a build runs at once: make, the shells, nvcc and its stages), 1 GB each at least
rl_nproc=$nproc rl_mem=$mem
if [ "$cgv" = rlimit ]; then
  rl_nproc=$(( nproc < 16 ? nproc : 16 ))
  rl_mem=$(( mem / rl_nproc )); [ $rl_mem -ge 1024 ] || rl_mem=1024
  [ $((rl_mem * rl_nproc)) -le $mem ] || rl_nproc=$(( mem / rl_mem )); [ $rl_nproc -ge 1 ] || rl_nproc=1
fi
mem_says() {
  case $cgv in
    v2|v1) echo "memory: ${mem} MB for each sandbox as a whole (cgroup $cgv under ${cgdir%/kit-grade})${cgpids:+, $nproc processes (pids cgroup)}";;
    *) echo "memory: no cgroup here: ${rl_mem} MB of address space per process x ${rl_nproc} processes (GRADE_MEM_MB=$mem; GPU runs: no memory bound, GRADE_CGROUP= delegates one)";;
  esac
}
# the cgroups of sandboxes whose process is gone (one that still holds processes stays)
cg_cleanup() {
  local d p
  for d in "$cgdir"/[0-9]* ${cgpids:+"$cgpids"/[0-9]*}; do
    [ -d "$d" ] || continue
    p=${d##*/}
    kill -0 "$p" 2>/dev/null || rmdir "$d" 2>/dev/null
  done
}
# this process (and so everything it execs) into a cgroup of its own, limited; fails closed
cg_enter() {
  local g=$cgdir/$$ b=$((mem * 1024 * 1024))
  [ "$cgv" = rlimit ] && return 0
  cg_cleanup
  mkdir -p "$cgdir" 2>/dev/null
  if [ "$cgv" = v2 ]; then
    grep -qw memory "$cgdir/cgroup.subtree_control" 2>/dev/null || echo "+memory +pids" >"$cgdir/cgroup.subtree_control" 2>/dev/null ||
      echo "+memory" >"$cgdir/cgroup.subtree_control" || die "cannot enable the memory controller in $cgdir"
    mkdir "$g" && echo "$b" >"$g/memory.max" || die "cannot make the sandbox's cgroup $g"
    [ -f "$g/memory.swap.max" ] && echo 0 >"$g/memory.swap.max"
    [ -f "$g/pids.max" ] && echo "$nproc" >"$g/pids.max"
    echo $$ >"$g/cgroup.procs" || die "cannot enter $g"
  else
    mkdir "$g" && echo "$b" >"$g/memory.limit_in_bytes" || die "cannot make the sandbox's cgroup $g"
    [ -f "$g/memory.memsw.limit_in_bytes" ] && echo "$b" >"$g/memory.memsw.limit_in_bytes" 2>/dev/null
    echo $$ >"$g/cgroup.procs" || die "cannot enter $g"
    if [ -n "$cgpids" ]; then
      mkdir -p "$cgpids" "$cgpids/$$" && echo "$nproc" >"$cgpids/$$/pids.max" && echo $$ >"$cgpids/$$/cgroup.procs" ||
        die "cannot make the sandbox's pids cgroup $cgpids/$$"
    fi
  fi
}

limits() { # prlimit arguments; address space only where CUDA is not (it reserves terabytes)
  local l=(--cpu="$cpu" --nproc="$rl_nproc" --fsize=$((fsize * 1024 * 1024)) --core=0)
  [ "$1" = cpu ] && l+=(--as=$((rl_mem * 1024 * 1024)))
  printf '%s\n' "${l[@]}"
}

# no descriptor of the caller's reaches the sandbox but 0, 1, 2 (and fd 3, the judge's channel,
# for run): the grader's lock above all
close_fds() { # KEEP...
  local f n keep=" 0 1 2 $* "
  for f in /proc/$$/fd/*; do
    n=${f##*/}
    [[ $keep == *" $n "* || $n == 255 ]] && continue   # 255: bash's own script, close-on-exec
    [[ $n =~ ^[0-9]+$ ]] && eval "exec $n>&-" 2>/dev/null
  done
}

mode=${1:-}; shift || true
case $mode in
  check)
    out=$(bwrap "${base[@]}" --chdir /tmp /bin/sh -c 'test ! -e /root/.profile 2>/dev/null; echo ok' 2>&1)
    [ "$out" = ok ] || { echo "sandbox: bubblewrap does not work here: ${out:-no output}" >&2; exit 1; }
    mem_says
    exit 0;;
  cleanup) [ "$cgv" = rlimit ] || cg_cleanup; exit 0;;
  build)
    dir=${1:?sandbox.sh build DIR CMD...}; shift
    [ -d "$dir" ] || die "no folder $dir"
    mapfile -t lim < <(limits cpu)
    close_fds
    cg_enter
    exec prlimit "${lim[@]}" -- bwrap "${base[@]}" --bind "$dir" /kit --chdir /kit "$@";;
  run)
    bin=${1:?sandbox.sh run BINARY ARGS...}; shift
    [ -f "$bin" ] || die "no program $bin"
    gpu=()
    for f in /dev/nvidiactl /dev/nvidia-uvm /dev/nvidia-uvm-tools /dev/nvidia-modeset /dev/nvidia[0-9]*; do
      [ -e "$f" ] && gpu+=(--dev-bind "$f" "$f")
    done
    kind=cpu
    if [ ${#gpu[@]} -gt 0 ]; then kind=gpu; gpu+=(--ro-bind /sys /sys); fi
    mapfile -t lim < <(limits $kind)
    close_fds 3
    cg_enter
    exec prlimit "${lim[@]}" -- bwrap "${base[@]}" "${gpu[@]}" --ro-bind "$bin" /runner --chdir /tmp /runner "$@";;
  *) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2;;
esac
