#!/usr/bin/env bash
# ncu-table.sh NCU.csv - pivot Nsight Compute's --csv output (one row per
# kernel launch and metric) into one row per kernel launch.
set -euo pipefail
f=${1:?usage: ncu-table.sh NCU.csv}
grep -q '"Metric Name"' "$f" || { echo "ncu-table: no metrics in $f (did ncu read the counters? see ${f%.csv}.log)"; exit 1; }
awk -F'","' '
  /"Metric Name"/ { for (i = 1; i <= NF; i++) { h = $i; gsub(/"/, "", h); col[h] = i }; next }
  /^"[0-9]/ {
    id = $col["ID"]; gsub(/"/, "", id)
    if (!(id in kname)) { order[++n] = id; k = $col["Kernel Name"]; sub(/\(.*/, "", k); kname[id] = k }
    m = $col["Metric Name"]; v = $col["Metric Value"]; gsub(/[",]/, "", v); u = $col["Metric Unit"]
    val[id, m] = v; unit[m] = u
  }
  function mb(m,   b, bu) {
    b = val[id, m]; bu = unit[m]
    return b * (bu == "Gbyte" ? 1000 : bu == "Mbyte" ? 1 : bu == "Kbyte" ? 0.001 : bu == "byte" ? 1e-6 : 1)
  }
  END {
    printf "%-4s %-44s %10s %9s %9s %12s %6s %12s %6s\n", "id", "kernel", "time", "DRAM rd MB", "wr MB", "instructions", "IPC", "bank confl.", "occ %"
    for (i = 1; i <= n; i++) {
      id = order[i]
      t = val[id, "gpu__time_duration.sum"]; tu = unit["gpu__time_duration.sum"]
      printf "%-4s %-44s %7s %-2s %9.1f %9.1f %12s %6s %12s %6s\n", id, substr(kname[id], 1, 44), t, tu,
        mb("dram__bytes_read.sum"), mb("dram__bytes_write.sum"),
        val[id, "sm__inst_executed.sum"], val[id, "sm__inst_executed.avg.per_cycle_active"],
        val[id, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"], val[id, "sm__warps_active.avg.pct_of_peak_sustained_active"]
    }
  }' "$f"
