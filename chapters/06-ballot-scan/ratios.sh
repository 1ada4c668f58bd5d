#!/usr/bin/env bash
# ratios.sh [DIR] - the chapter's headline ratios from the CSVs of one bench run (default
# plots/06-ballot-scan), as markdown for the README's measured and reproduction sections.
# Ratios are of median times (ms_median) of verified rows; "x faster" = slower / faster.
set -euo pipefail
dir=${1:-plots/06-ballot-scan}
cd "$(dirname "$0")/../.."
have() { [ -f "$dir/$1.csv" ] || { echo "- $1: no $dir/$1.csv (make bench CH=06 EXP=$1)"; return 1; }; }

if have sweep; then
  awk -F, '
    NR == 1 { next }
    $2 == "copy-bandwidth" { bw = $8; gpu = $12; next }
    $11 == "ok" { t[$2, $4] = $6; g[$2, $4] = $8; if ($4 > top) top = $4 }
    END {
      printf "Device-wide binary prefix sum on %s (copy bandwidth %.0f GB/s):\n\n", gpu, bw
      printf "| n | s3_lookback GB/s | CUB GB/s | s3 / CUB | s1 vs s0 (time) | s3 %% of copy |\n|---|---:|---:|---:|---:|---:|\n"
      for (k = 20; k <= 28; k += 4) {
        n = sprintf("%.0f", 2 ^ k)
        if (!((("s3_lookback", n) in t) && (("cub_exclusive_sum", n) in t))) continue
        printf "| 2^%d | %.0f | %.0f | %.3fx | %s | %.1f%% |\n", k, g["s3_lookback", n], g["cub_exclusive_sum", n],
          t["cub_exclusive_sum", n] / t["s3_lookback", n],
          ((("s0_rts32", n) in t) && (("s1_rts_ballot", n) in t)) ? sprintf("%.3fx", t["s0_rts32", n] / t["s1_rts_ballot", n]) : "-",
          100 * g["s3_lookback", n] / bw
      }
      print ""
    }' "$dir/sweep.csv"
fi

if have lookback; then
  awk -F, '
    NR == 1 { next }
    $11 != "ok" { next }
    $2 == "cub_exclusive_sum" { cub = $6; cubg = $8; n = $4 }
    $2 == "s3_lookback" && index($3, "blocks/SM") { if (best == "" || $6 < bt) { bt = $6; bg = $8; best = $3 } }
    $2 == "s3_lookback" && !index($3, "blocks/SM") { ship = $6; shipg = $8 }
    END {
      if (best == "" || cub == "") { print "- lookback: incomplete CSV"; exit }
      printf "s3 tuning table at n = %s: best `%s` %.0f GB/s = %.3fx CUB (%.0f GB/s); s3 as shipped %.0f GB/s = %.3fx CUB.\n\n", n, best, bg, cub / bt, cubg, shipg, cub / ship
    }' "$dir/lookback.csv"
fi

# geometric mean over the grid sizes, and the largest grid, of t(variant) / t(reference)
micro() { # CSV REFERENCE TITLE
  awk -F, -v ref="$2" -v title="$3" '
    NR == 1 || $2 == "copy-bandwidth" { next }
    $11 == "ok" { t[$2, $4] = $6; if (!($2 in seen)) { seen[$2] = 1; order[++ns] = $2 } ; if ($4 > top) top = $4; ns_[$4] = 1 }
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
    }' "$1"
}
have reduce && micro "$dir/reduce.csv" count_syncthreads "Block reduce of 1-bit values, 512 threads (Fig. 3.1; document: 2x)"
have blockscan && micro "$dir/blockscan.csv" bin_scan_smem "Block scan of 1-bit values, 512 threads (Fig. 3.2; document: scan32_smem 1.24x)"

if have bitplane; then
  awk -F, '
    NR == 1 { next }
    $11 == "ok" { b = $3; sub(/^bits=/, "", b); sub(/ .*/, "", b); t[$2, b] = $6 }
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
    }' "$dir/bitplane.csv"
fi

if have radixsort; then
  awk -F, '
    NR == 1 || $2 == "copy-bandwidth" { next }
    $11 == "ok" { tb = $3; sub(/^tbs=/, "", tb); sub(/ .*/, "", tb); t[$2, tb, $4] = $6; if ($4 > top) top = $4; tbs[tb] = 1 }
    END {
      n = sprintf("%.0f", top)
      printf "Block radix sort at n = %s (time / time of sort_ballot; poster 000: 1.8x):\n\n| block | sort_scan32_smem | sort_scan32_shfl |\n|---:|---:|---:|\n", n
      for (b = 128; b <= 1024; b *= 2)
        if (("sort_ballot", b, n) in t)
          printf "| %d | %.3fx | %.3fx |\n", b, t["sort_scan32_smem", b, n] / t["sort_ballot", b, n], t["sort_scan32_shfl", b, n] / t["sort_ballot", b, n]
      print ""
    }' "$dir/radixsort.csv"
fi
