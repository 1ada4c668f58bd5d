#!/usr/bin/env bash
# ratios.sh [DIR] - the chapter's headline ratios from the CSVs of one bench run (default
# plots/06-ballot-scan), as markdown for the README's measured and reproduction sections.
# Best step vs CUB comes from tools/ratios (the one place that ratio is computed); the
# chapter's own ratios below read columns by name (tools/csvq), verified rows only, and are
# ratios of median times (ms_median): "x faster" = slower / faster.
set -euo pipefail
dir=${1:-plots/06-ballot-scan}
cd "$(dirname "$0")/../.."
have() { [ -f "$dir/$1.csv" ] || { echo "- $1: no $dir/$1.csv (make bench CH=06 EXP=$1)"; return 1; }; }
q() { tools/csvq "$@"; } # q FILE FILTER... -- COLUMN...

if have sweep; then
  f=$dir/sweep.csv
  echo "Best step vs CUB, flags -> offsets (tools/ratios):"; echo
  tools/ratios "$f"; echo
  inp=$(q "$f" verified=ok step!=copy-bandwidth -- input | awk 'NR == 1')
  { q "$f" step=copy-bandwidth -- gbps gpu; q "$f" verified=ok input="$inp" -- step n ms_median gbps pct_copy; } |
  awk -F, -v inp="$inp" '
    NR == 1 { bw = $1; gpu = $2; next }
    { t[$1, $2] = $3; g[$1, $2] = $4; p[$1, $2] = $5 }
    END {
      printf "Device-wide binary prefix sum on %s, %s flags (copy bandwidth %.0f GB/s):\n\n", gpu, inp, bw
      printf "| n | s3_lookback GB/s | CUB GB/s | s3 / CUB | s1 vs s0 (time) | s3 %% of copy |\n|---|---:|---:|---:|---:|---:|\n"
      for (k = 20; k <= 28; k += 4) {
        n = sprintf("%.0f", 2 ^ k)
        if (!((("s3_lookback", n) in t) && (("cub_exclusive_sum", n) in t))) continue
        printf "| 2^%d | %.0f | %.0f | %.3fx | %s | %.1f%% |\n", k, g["s3_lookback", n], g["cub_exclusive_sum", n],
          t["cub_exclusive_sum", n] / t["s3_lookback", n],
          ((("s0_rts32", n) in t) && (("s1_rts_ballot", n) in t)) ? sprintf("%.3fx", t["s0_rts32", n] / t["s1_rts_ballot", n]) : "-",
          p["s3_lookback", n]
      }
      print ""
    }'
fi

if have lookback; then
  f=$dir/lookback.csv
  echo "Best step vs CUB at the lookback size (tools/ratios):"; echo
  tools/ratios "$f"; echo
  # tuning variants carry their resident blocks per SM in param; the shipped s3 does not
  q "$f" verified=ok -- step param n ms_median gbps |
  awk -F, '
    $1 == "cub_exclusive_sum" { cub = $4; cubg = $5; n = $3 }
    $1 == "s3_lookback" && index($2, "blocks/SM") { if (best == "" || $4 < bt) { bt = $4; bg = $5; best = $2 } }
    $1 == "s3_lookback" && !index($2, "blocks/SM") { ship = $4; shipg = $5 }
    END {
      if (best == "" || cub == "" || ship == "") { print "- lookback: incomplete CSV"; exit }
      printf "s3 tuning table at n = %s: best `%s` %.0f GB/s = %.3fx CUB (%.0f GB/s); s3 as shipped %.0f GB/s = %.3fx CUB.\n\n", n, best, bg, cub / bt, cubg, shipg, cub / ship
    }'
fi

# geometric mean over the grid sizes, and the largest grid, of t(variant) / t(reference)
micro() { # CSV REFERENCE TITLE
  q "$1" verified=ok step!=copy-bandwidth -- step n ms_median |
  awk -F, -v ref="$2" -v title="$3" '
    { t[$1, $2] = $3; if (!($1 in seen)) { seen[$1] = 1; order[++ns] = $1 }; if ($2 + 0 > top) top = $2 + 0; ns_[$2] = 1 }
    END {
      printf "%s (time of each variant / time of `%s`; >1: `%s` is faster):\n\n| variant | geometric mean over grids | at the largest grid |\n|---|---:|---:|\n", title, ref, ref
      for (i = 1; i <= ns; i++) {
        s = order[i]; if (s == ref) continue
        lg = 0; c = 0
        for (n in ns_) if (((s, n) in t) && ((ref, n) in t)) { lg += log(t[s, n] / t[ref, n]); c++ }
        top_s = sprintf("%.0f", top)
        printf "| `%s` | %s | %s |\n", s, c ? sprintf("%.3fx", exp(lg / c)) : "-", (((s, top_s) in t) && ((ref, top_s) in t)) ? sprintf("%.3fx", t[s, top_s] / t[ref, top_s]) : "-"
      }
      print ""
    }'
}
have reduce && micro "$dir/reduce.csv" count_syncthreads "Block reduce of 1-bit values, 512 threads (Fig. 3.1; document: 2x)"
have blockscan && micro "$dir/blockscan.csv" bin_scan_smem "Block scan of 1-bit values, 512 threads (Fig. 3.2; document: scan32_smem 1.24x)"

if have bitplane; then
  q "$dir/bitplane.csv" verified=ok step!=copy-bandwidth -- step param ms_median |
  awk -F, '
    { b = $2; sub(/^bits=/, "", b); sub(/ .*/, "", b); t[$1, b] = $3 }
    END {
      print "Warp scan of b-bit values (time / time of warp_bitplane; >1: bit planes faster):\n"
      print "| bits | warp_shfl | warp_smem |\n|---:|---:|---:|"
      for (b = 1; b <= 8; b++)
        if (("warp_bitplane", b) in t) {
          printf "| %d | %.3fx | %.3fx |\n", b, t["warp_shfl", b] / t["warp_bitplane", b], t["warp_smem", b] / t["warp_bitplane", b]
          if (t["warp_shfl", b] > t["warp_bitplane", b]) xs = b
          if (t["warp_smem", b] > t["warp_bitplane", b]) xm = b
        }
      printf "\nBit planes are faster than the shuffle scan up to %s bit(s) and than the smem scan up to %s bit(s) (document: about 4).\n\n", xs ? xs : "0", xm ? xm : "0"
    }'
fi

if have radixsort; then
  q "$dir/radixsort.csv" verified=ok step!=copy-bandwidth -- step param n ms_median |
  awk -F, '
    { tb = $2; sub(/^tbs=/, "", tb); sub(/ .*/, "", tb); t[$1, tb, $3] = $4; if ($3 + 0 > top) top = $3 + 0 }
    END {
      n = sprintf("%.0f", top)
      printf "Block radix sort at n = %s (time / time of sort_ballot; poster 000: 1.8x):\n\n| block | sort_scan32_smem | sort_scan32_shfl |\n|---:|---:|---:|\n", n
      for (b = 128; b <= 1024; b *= 2)
        if (("sort_ballot", b, n) in t)
          printf "| %d | %.3fx | %.3fx |\n", b, t["sort_scan32_smem", b, n] / t["sort_ballot", b, n], t["sort_scan32_shfl", b, n] / t["sort_ballot", b, n]
      print ""
    }'
fi
