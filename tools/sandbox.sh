#!/usr/bin/env bash
# sandbox.sh - where a student's code runs when it is graded (docs/grading.md, "Threat model").
#
#   sandbox.sh check                 exit 0 when bubblewrap works here (user namespaces), else why
#   sandbox.sh build DIR CMD...      CMD in DIR (read-write, seen as /kit, its working folder):
#                                    the compiler and the system's programs read-only, no GPU
#   sandbox.sh run BINARY ARGS...    BINARY (read-only, seen as /runner) with ARGS; fd 3 stays
#                                    open (the judge's channel); the GPU's device files when the
#                                    machine has them
#
# Both: bubblewrap (bwrap) with every namespace unshared (no network, its own PIDs: whatever the
# code starts dies with it), a private /tmp, no capabilities, a clean environment, and rlimits
# (GRADE_CPU_S CPU seconds, GRADE_MEM_MB address space for CPU runs and builds, GRADE_NPROC
# processes, GRADE_FSIZE_MB largest file).  Nothing of the repository, solutions/, the grades or
# other students is visible: only /usr (compilers, libraries, CUDA) and what is named above.
set -uo pipefail

cpu=${GRADE_CPU_S:-600} mem=${GRADE_MEM_MB:-16384} nproc=${GRADE_NPROC:-4096} fsize=${GRADE_FSIZE_MB:-512}
die() { echo "sandbox: $*" >&2; exit 125; }
command -v bwrap >/dev/null || die "bubblewrap (bwrap) is not installed (apt-get install bubblewrap)"
command -v prlimit >/dev/null || die "prlimit (util-linux) is not installed"

# the system, read-only; /etc only for the loader and the compilers' alternatives (never
# /etc/shadow: under a user namespace the outside owner's rights apply)
base=(--unshare-all --die-with-parent --new-session --cap-drop ALL --clearenv
      --ro-bind /usr /usr --proc /proc --dev /dev --tmpfs /tmp --tmpfs /var/tmp
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

limits() { # prlimit arguments; address space only where CUDA is not (it reserves terabytes)
  local l=(--cpu="$cpu" --nproc="$nproc" --fsize=$((fsize * 1024 * 1024)) --core=0)
  [ "$1" = cpu ] && l+=(--as=$((mem * 1024 * 1024)))
  printf '%s\n' "${l[@]}"
}

mode=${1:-}; shift || true
case $mode in
  check)
    out=$(bwrap "${base[@]}" --chdir /tmp /bin/sh -c 'test ! -e /root/.profile 2>/dev/null; echo ok' 2>&1)
    [ "$out" = ok ] || { echo "sandbox: bubblewrap does not work here: ${out:-no output}" >&2; exit 1; }
    exit 0;;
  build)
    dir=${1:?sandbox.sh build DIR CMD...}; shift
    [ -d "$dir" ] || die "no folder $dir"
    mapfile -t lim < <(limits cpu)
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
    exec prlimit "${lim[@]}" -- bwrap "${base[@]}" "${gpu[@]}" --ro-bind "$bin" /runner --chdir /tmp /runner "$@";;
  *) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2;;
esac
