#!/usr/bin/env bash
# traffic.sh NCU.csv BIN [N] [INPUT] [COPY.csv] - chapter 05's DRAM traffic per pass, the CSV
# plotted as traffic.png (plot.gp), from Nsight Compute's --csv output of one `BIN profile`
# run (`make profile CH=05 N=2^26` runs it and writes plots/05-radix-sort/traffic.csv).
#   NCU.csv   what `ncu --csv ... ch05 profile` printed: one row per kernel launch and metric
#             (gpu__time_duration.sum, dram__bytes_read.sum, dram__bytes_write.sum), and the
#             profile's own lines, one per step in ladder order ("radix  s0_split1  ok")
#   BIN       the ch05 program that ran (its help gives the defaults of N and INPUT)
#   N         the --n the profile ran with (2^26, 1<<26 or a number; empty: the demo's size)
#   INPUT     the --input it ran with (empty: the problem's first input, the profile's default)
#   COPY.csv  a bench CSV of the same GPU whose copy-bandwidth row gives pct_copy (default:
#             plots/05-radix-sort/sort_keys.csv)
# Writes on stdout: step,type,input,n,passes,kernels,dram_read,dram_write,ms,model_per_pass,
# measured_per_pass,us_per_pass,gbps,pct_copy,gpu - per step, the DRAM bytes read and written and
# the kernel time summed over its launches; passes = key bits / digit bits (steps.c's digit_bits:
# 1 for s0, 4 for s1 .. s3, 8 for the others); measured_per_pass = bytes / passes / (n x key
# bytes), against model_per_pass (3: count + scatter, 2: one sweep); gbps = bytes / time.
# The launches are cut into steps where the kernel family changes (the prefix of its name: s0_,
# s1_, srts_, rd_, s4_, os_ (s11's mh_ with them); CUB's DeviceRadixSort* kernels and os_, a new call
# at each histogram kernel; blk_scan_u32, shared, stays with its step) and matched, in order, with
# the profile's lines.
set -euo pipefail
ncu=${1:?usage: traffic.sh NCU.csv BIN [N] [INPUT] [COPY.csv] > traffic.csv}
bin=${2:?usage: traffic.sh NCU.csv BIN [N] [INPUT] [COPY.csv] > traffic.csv}
nspec=${3:-}
input=${4:-}
copy=${5:-plots/05-radix-sort/sort_keys.csv}
here=$(cd "$(dirname "$0")/../.." && pwd)
help=$("$bin" help)
[ -n "$nspec" ] || nspec=$(printf '%s\n' "$help" |
  awk '/^ *demo / { d = 1 } d && match($0, /\(default [0-9]+\)/) { print substr($0, RSTART + 9, RLENGTH - 10); exit }')
[ -n "$input" ] || input=$(printf '%s\n' "$help" | awk '/^inputs of sort32/ { getline; print $1; exit }')
n=$(awk -v s="$nspec" 'BEGIN {
  if (s ~ /^[0-9]+$/) { printf "%.0f", s; exit }
  if (match(s, /^2\^[0-9]+$/)) { printf "%.0f", 2 ^ substr(s, 3); exit }
  if (match(s, /^1<<[0-9]+$/)) { printf "%.0f", 2 ^ substr(s, 4); exit }
  exit 1 }') || { echo "traffic.sh: give N as a number, 2^K or 1<<K (not '$nspec')" >&2; exit 2; }
[ -n "$n" ] && [ -n "$input" ] || { echo "traffic.sh: no size or input (from '$bin help')" >&2; exit 2; }
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || true)
bw='' cgpu=''
if [ -f "$copy" ]; then
  IFS=, read -r bw cgpu < <("$here/tools/csvq" "$copy" step=copy-bandwidth -- gbps gpu | head -1) || true
fi
[ -n "$gpu" ] || gpu=$cgpu
if [ -z "$bw" ] || [ "$cgpu" != "$gpu" ]; then
  echo "traffic.sh: no copy bandwidth of ${gpu:-this GPU} in $copy: pct_copy left empty" >&2
  bw=''
fi
grep -q '"Metric Name"' "$ncu" || { echo "traffic.sh: no metrics in $ncu" >&2; exit 1; }
awk -F'","' -v n="$n" -v input="$input" -v bw="$bw" -v gpu="$gpu" '
  function family(k) {
    gsub(/\(anonymous namespace\)::/, "", k)
    sub(/^void /, "", k); sub(/[<(].*/, "", k); sub(/.*::/, "", k)
    if (k ~ /^DeviceRadixSort/) return "cub"
    if (k ~ /^mh_/) return "os" # the groups sorted on chip by s11, after its onesweep passes
    sub(/_.*/, "", k)
    return k
  }
  function scale(v, u) { # to bytes, or to milliseconds
    return v * (u == "Gbyte" ? 1e9 : u == "Mbyte" ? 1e6 : u == "Kbyte" ? 1e3 : \
                u == "second" ? 1e3 : u == "msecond" ? 1 : u == "usecond" ? 1e-3 : u == "nsecond" ? 1e-6 : 1)
  }
  # the profile lines: LADDER STEP ok (in ladder order)
  !/^"/ && NF == 1 && split($0, w, " ") >= 3 && w[1] ~ /^radix/ { nsteps++; lad[nsteps] = w[1]; name[nsteps] = w[2]; next }
  /"Metric Name"/ { for (i = 1; i <= NF; i++) { h = $i; gsub(/"/, "", h); col[h] = i }; next }
  /^"[0-9]/ {
    id = $col["ID"]; gsub(/"/, "", id)
    if (!(id in kname)) { order[++nk] = id; k = $col["Kernel Name"]; kname[id] = k }
    m = $col["Metric Name"]; v = $col["Metric Value"]; gsub(/[",]/, "", v); u = $col["Metric Unit"]; gsub(/"/, "", u)
    val[id, m] = scale(v, u)
  }
  END {
    g = 0; cur = ""
    for (i = 1; i <= nk; i++) {
      id = order[i]; f = family(kname[id])
      hist = kname[id] ~ /DeviceRadixSortHistogramKernel|os_hist_kernel/
      if (f != "blk" && (f != cur || ((f == "cub" || f == "os") && hist && seen_hist[g]))) { g++; cur = f }
      if (g == 0) g = 1
      if (hist) seen_hist[g] = 1
      kernels[g]++
      rd[g] += val[id, "dram__bytes_read.sum"]; wr[g] += val[id, "dram__bytes_write.sum"]
      ms[g] += val[id, "gpu__time_duration.sum"]
    }
    if (g != nsteps) {
      printf "traffic.sh: %d groups of kernel launches, but the profile ran %d steps\n", g, nsteps > "/dev/stderr"
      exit 1
    }
    print "step,type,input,n,passes,kernels,dram_read,dram_write,ms,model_per_pass,measured_per_pass,us_per_pass,gbps,pct_copy,gpu"
    for (s = 1; s <= nsteps; s++) {
      kb = lad[s] == "radix64" ? 8 : 4
      dbits = name[s] == "s0_split1" ? 1 : name[s] ~ /^s[123]_/ ? 4 : 8
      passes = 8 * kb / dbits
      model = name[s] ~ /^(s5_onesweep|s6_skip_digits|s7_lookback_first|s8_reserve_first|s9_lop3_ballots|s10_wide_tile|s11_msd_hybrid|cub_radix_sort|thrust_sort)$/ ? 2 : 3
      bytes = rd[s] + wr[s]
      gbps = ms[s] > 0 ? bytes / ms[s] / 1e6 : 0
      pct = bw != "" ? sprintf("%.1f", 100 * gbps / bw) : ""
      printf "%s,%s,%s,%.0f,%d,%d,%.0f,%.0f,%.4f,%d,%.3f,%.1f,%.1f,%s,%s\n", name[s], kb == 8 ? "u64" : "u32", input,
             n, passes, kernels[s], rd[s], wr[s], ms[s], model, bytes / passes / (n * kb), 1000 * ms[s] / passes, gbps, pct, gpu
    }
  }' "$ncu"
