# plot.gp - chapter 06 figures (run by `make plots`, after reference/plot_common.gp)
# GB/s figures carry the dashed copy-bandwidth line; the per-block experiments run on
# register-resident data and are drawn in calls (or keys) per second, where a bandwidth
# line has no meaning.

have_csv(name) = system(sprintf('test -f %s && echo 1 || echo 0', csv(name))) == 1

# flags -> offsets: throughput (5 bytes per flag) vs n, every step, CUB and the CPU
if (have_csv('sweep')) {
    f = csv('sweep'); FIG = 'sweep'; bw = copy_of(f)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        @sweep_setup
        set title sprintf('Chapter 06, binary prefix sum (1-byte flags -> int32 offsets, 5 B/flag) vs n on %s (dashed: cudaMemcpy D2D %.0f GB/s)', gpu_of(f), bw)
        plot for [s in steps_of(f)] rows(f, s) using 4:8 title s, bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
        unset logscale x; set format x '%g'; set key inside right bottom
    }
}

# the s3 design space at the largest n, against CUB and s3 as shipped (same run)
if (have_csv('lookback')) {
    f = csv('lookback'); FIG = 'lookback'; bw = copy_of(f)
    cub = real(system(sprintf("awk -F, '$2 == \"cub_exclusive_sum\" && $11 == \"ok\" { print $8; f = 1; exit } END { if (!f) print 0 }' %s", f)))
    nn = system(sprintf("awk -F, 'NR > 2 { print $4; exit }' %s", f))
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 06, s3 variants at n = %s on %s (dashed: copy bandwidth; dotted: CUB ExclusiveSum %.0f GB/s)', nn, gpu_of(f), cub)
        set xlabel ''; set ylabel 'GB/s (5 bytes per flag / time)'; set yrange [0:*]
        set xtics rotate by 60 right font ',9'; set bmargin 11; set key inside right bottom; set offsets 0.5, 0.5, 0, 0
        # label: block x rows, row scan, store, resident blocks per SM
        plot sprintf("< awk -F, '$2 == \"s3_lookback\" && $11 == \"ok\" && index($3, \"blocks/SM\") { l = $3; sub(/^tbs=/, \"\", l); sub(/ rows=/, \"x\", l); gsub(/scan=|store=/, \"\", l); sub(/blocks\\/SM=/, \"occ \", l); print $0 \",\" l }' %s", f) using 0:8:xtic(13) with linespoints title 's3 variant (tbs x rows, row scan, store, blocks/SM)', \
             bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth', \
             cub with lines dashtype 3 lc rgb 'red' title 'CUB'
        set xtics norotate autofreq font ''; set bmargin; set xlabel; set offsets 0, 0, 0, 0
    }
}

# Fig. 3.1: block reduce of 1-bit values vs grid size (512 threads, 32 calls per thread)
if (have_csv('reduce')) {
    f = csv('reduce'); FIG = 'reduce'
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 06, block reduce of 1-bit values vs grid size on %s (cf. Fig. 3.1)', gpu_of(f))
        set logscale x 2; set format x '2^%L'; set xlabel 'thread blocks in the launch (512 threads, 32 reductions per thread)'
        set ylabel 'G element-reductions / s'; set yrange [0:*]; set key inside left top
        plot for [s in steps_of(f)] rows(f, s) using ($4 / (512 * 32)):9 title s
        unset logscale x; set format x '%g'; set key inside right bottom
    }
}

# Fig. 3.2: block scan of 1-bit values vs grid size
if (have_csv('blockscan')) {
    f = csv('blockscan'); FIG = 'blockscan'
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 06, block exclusive scan of 1-bit values vs grid size on %s (cf. Fig. 3.2)', gpu_of(f))
        set logscale x 2; set format x '2^%L'; set xlabel 'thread blocks in the launch (512 threads, 32 scans per thread)'
        set ylabel 'G element-scans / s'; set yrange [0:*]; set key inside left top
        plot for [s in steps_of(f)] rows(f, s) using ($4 / (512 * 32)):9 title s
        unset logscale x; set format x '%g'; set key inside right bottom
    }
}

# bit planes vs generic warp scans for values of 1..8 bits
if (have_csv('bitplane')) {
    f = csv('bitplane'); FIG = 'bitplane'
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 06, warp exclusive scan of b-bit values: bit planes vs 32-bit scans, on %s', gpu_of(f))
        set xlabel 'bits per value'; set ylabel 'G element-scans / s'; set xrange [0.5:8.5]; set xtics 1; set yrange [0:*]
        set key inside right top
        plot for [s in 'warp_bitplane warp_shfl warp_smem'] rows(f, s) using (pval('bits')):9 title s
        set xrange [*:*]; set xtics autofreq; set key inside right bottom
    }
}

# poster 000: block radix sort, one bit per pass, ballot vs 32-bit scans, per block size
if (have_csv('radixsort')) {
    f = csv('radixsort'); FIG = 'radixsort'
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 06, block radix sort (32 one-bit splits, 1 key per thread) vs n on %s', gpu_of(f))
        set logscale x 2; set format x '2^%L'; set xlabel 'n (keys)'; set ylabel 'G keys / s'; set yrange [0:*]
        set key inside left top
        plot for [s in 'sort_ballot sort_scan32_shfl sort_scan32_smem'] for [tb in '256 512'] rows_with(f, s, 'tbs='.tb) using 4:9 title s.' tbs='.tb
        unset logscale x; set format x '%g'; set key inside right bottom
    }
}
