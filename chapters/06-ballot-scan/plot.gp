# plot.gp - chapter 06 figures (run by `make plots`, after reference/plot_common.gp)
# GB/s figures carry the dashed copy-bandwidth line; the per-block experiments run on
# register-resident data and are drawn in calls (or keys) per second, where a bandwidth
# line has no meaning.  Columns are read by name (the selectors of plot_common.gp).

# a word out of the param column: value of key in "key=value key2=value2"
pword(key) = (p = strcol(PARAM), i = strstrt(p, key.'='), i == 0 ? '' : word(substr(p, i + strlen(key) + 1, strlen(p)), 1))
# the first input of a CSV (the experiment's; --input may have named others)
input_of(f) = word(inputs_of(f), 1)

# flags -> offsets: throughput (5 bytes per flag) vs n, every step, CUB and the CPU
if (have('sweep')) {
    f = csv('sweep'); FIG = 'sweep'; bw = copy_of(f); inp = input_of(f)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        @sweep_setup
        set title sprintf('Chapter 06, binary prefix sum (1-byte flags -> int32 offsets, 5 B/flag), %s flags, vs n on %s (dashed: cudaMemcpy D2D %.0f GB/s)', inp, gpu_of(f), bw)
        plot for [s in steps_of(f)] rows_in(f, s, inp) using N:GBPS title s, bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
        unset logscale x; set format x '%g'; set key inside right bottom
    }
}

# the s3 design space at the largest n, against CUB and s3 as shipped (same run)
if (have('lookback')) {
    f = csv('lookback'); FIG = 'lookback'; bw = copy_of(f)
    cubs = val(f, 'step=cub_exclusive_sum verified=ok', 'gbps'); cub = cubs eq '' ? 0 : real(cubs)
    nn = val(f, 'step=s3_lookback', 'n')
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 06, s3 variants at n = %s on %s (dashed: copy bandwidth; dotted: CUB ExclusiveSum %.0f GB/s)', nn, gpu_of(f), cub)
        set xlabel ''; set ylabel 'GB/s (5 bytes per flag / time)'; set yrange [0:*]
        set xtics rotate by 60 right font ',9'; set bmargin 11; set key inside right bottom; set offsets 0.5, 0.5, 0, 0
        # label: block x rows, row scan, store, resident blocks per SM
        plot sel(f, "step=s3_lookback 'param~blocks/SM='") using 0:GBPS:xtic(pword('tbs').'x'.pword('rows').' '.pword('scan').' '.pword('store').' occ '.pword('blocks/SM')) with linespoints title 's3 variant (tbs x rows, row scan, store, blocks/SM)', \
             bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth', \
             cub with lines dashtype 3 lc rgb 'red' title 'CUB'
        set xtics norotate autofreq font ''; set bmargin; set xlabel; set offsets 0, 0, 0, 0
    }
}

# Fig. 3.1: block reduce of 1-bit values vs grid size (512 threads, 32 calls per thread)
if (have('reduce')) {
    f = csv('reduce'); FIG = 'reduce'
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 06, block reduce of 1-bit values vs grid size on %s (cf. Fig. 3.1)', gpu_of(f))
        set logscale x 2; set format x '2^%L'; set xlabel 'thread blocks in the launch (512 threads, 32 reductions per thread)'
        set ylabel 'G element-reductions / s'; set yrange [0:*]; set key inside left top
        plot for [s in steps_of(f)] rows(f, s) using (column(N) / (512 * 32)):(column(RATE) / 1e9) title s
        unset logscale x; set format x '%g'; set key inside right bottom
    }
}

# Fig. 3.2: block scan of 1-bit values vs grid size
if (have('blockscan')) {
    f = csv('blockscan'); FIG = 'blockscan'
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 06, block exclusive scan of 1-bit values vs grid size on %s (cf. Fig. 3.2)', gpu_of(f))
        set logscale x 2; set format x '2^%L'; set xlabel 'thread blocks in the launch (512 threads, 32 scans per thread)'
        set ylabel 'G element-scans / s'; set yrange [0:*]; set key inside left top
        plot for [s in steps_of(f)] rows(f, s) using (column(N) / (512 * 32)):(column(RATE) / 1e9) title s
        unset logscale x; set format x '%g'; set key inside right bottom
    }
}

# bit planes vs generic warp scans for values of 1..8 bits
if (have('bitplane')) {
    f = csv('bitplane'); FIG = 'bitplane'
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 06, warp exclusive scan of b-bit values: bit planes vs 32-bit scans, on %s', gpu_of(f))
        set xlabel 'bits per value'; set ylabel 'G element-scans / s'; set xrange [0.5:8.5]; set xtics 1; set yrange [0:*]
        set key inside right top
        plot for [s in 'warp_bitplane warp_shfl warp_smem'] rows(f, s) using (pval('bits')):(column(RATE) / 1e9) title s
        set xrange [*:*]; set xtics autofreq; set key inside right bottom
    }
}

# poster 000: block radix sort, one bit per pass, ballot vs 32-bit scans, per block size
if (have('radixsort')) {
    f = csv('radixsort'); FIG = 'radixsort'
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 06, block radix sort (32 one-bit splits, 1 key per thread) vs n on %s', gpu_of(f))
        set logscale x 2; set format x '2^%L'; set xlabel 'n (keys)'; set ylabel 'G keys / s'; set yrange [0:*]
        set key inside left top
        plot for [s in 'sort_ballot sort_scan32_shfl sort_scan32_smem'] for [tb in '256 512'] rows_with(f, s, 'tbs='.tb) using N:(column(RATE) / 1e9) title s.' tbs='.tb
        unset logscale x; set format x '%g'; set key inside right bottom
    }
}

# The documents' numbers beside ours (reference/published/06-ballot-scan.csv), both as the speed-up
# of the binary (ballot/popc, __syncthreads_count) version over the same code with 32-bit primitives,
# in the same run: ours the ratio of median times at every size, the documents' single numbers
# (001 on a GTX 480, 000 on a Fermi GPU) as horizontal lines.  On Fermi the 32-bit warp primitives
# went through shared memory (no shuffles before Kepler), so the smem variants are the document's
# baseline; the shuffle (and REDUX) variants are Hopper's own 32-bit baseline, drawn dashed.
pub = 'reference/published/06-ballot-scan.csv'
pubv(fg, s) = pubval(sprintf("figure=%s 'series=%s'", fg, s))
# "n,t(slow)/t(fast)" for every n where both steps have a verified row (rows matching filt)
tratio(f, slow, fast, filt) = sprintf("< tools/csvq %s %s verified=ok %s -- step n ms_median | awk -F, -v a=%s -v b=%s '$1 == a { s[$2] = $3 } $1 == b { t[$2] = $3; o[++k] = $2 } END { for (i = 1; i <= k; i++) if ((o[i] in s) && t[o[i]] > 0) print o[i] \",\" s[o[i]] / t[o[i]] }'", f, gf, filt, slow, fast)
if (have('reduce') && have('blockscan') && have('sweep') && have('radixsort')) {
    fr = csv('reduce'); fb = csv('blockscan'); fs = csv('sweep'); fx = csv('radixsort'); FIG = 'vs-document'
    dred = pubv('fig3.1', 'block binary count over 32-bit reduction'); dscan = pubv('fig3.2', 'block binary scan over 32-bit warp scans')
    dlarge = pubv('conclusion3.3', 'large binary prefix sums'); dsort = pubv('conclusion3.3', 'intra-block radix sort')
    dposter = pubv('poster', 'block radix sort with ballot scans over a CUDPP-style one')
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set multiplot layout 1,2 title sprintf("Chapter 06, ballot-based binary scan: the documents (Harris & Garland, GTX 480; Skjellum et al., Fermi) beside ours (%s),\nboth as the speed-up of the binary version over the same code with 32-bit primitives (ours: time ratio in one run; documents: lines)", gpu_of(fr))
        set title '(a) block level, 512 threads, vs grid size (Figs. 3.1, 3.2)'
        set logscale x 2; set format x '2^%L'; set xlabel 'thread blocks in the launch'
        set ylabel 'speed-up of the binary version'; set yrange [0:4.4]; set ytics 0.5; set key inside right top font ',8' maxrows -1
        plot tratio(fr, 'reduce32_smem', 'count_syncthreads', '') using ($1 / (512 * 32)):2 with linespoints lc 1 pt 7 ps 0.6 title 'ours: reduce, smem tree / __syncthreads_count', \
             tratio(fr, 'reduce32_shfl', 'count_syncthreads', '') using ($1 / (512 * 32)):2 with linespoints lc 1 pt 6 ps 0.6 dashtype 2 title 'ours: reduce, shuffles / __syncthreads_count', \
             tratio(fb, 'scan32_smem', 'bin_scan_smem', '') using ($1 / (512 * 32)):2 with linespoints lc 2 pt 7 ps 0.6 title 'ours: scan, smem warp scans / ballot warp scans', \
             tratio(fb, 'scan32_shfl', 'bin_scan_shfl', '') using ($1 / (512 * 32)):2 with linespoints lc 2 pt 6 ps 0.6 dashtype 2 title 'ours: scan, shuffle warp scans / ballot warp scans', \
             dred with lines lc 1 lw 3 dashtype 3 title sprintf('document (001 Fig. 3.1): reduce %.2fx, average', dred), \
             dscan with lines lc 2 lw 3 dashtype 3 title sprintf('document (001 Fig. 3.2): scan %.2fx, average', dscan)
        set title '(b) applications vs n'
        set xlabel 'n (flags; keys)'
        plot tratio(fs, 's0_rts32', 's1_rts_ballot', '') using 1:2 with linespoints lc 3 pt 7 ps 0.6 title 'ours: device prefix sum, s0_rts32 / s1_rts_ballot', \
             tratio(fx, 'sort_scan32_smem', 'sort_ballot', "'param~^tbs=256 '") using 1:2 with linespoints lc 4 pt 7 ps 0.6 title 'ours: block radix sort (256 threads), smem scans / ballot', \
             tratio(fx, 'sort_scan32_shfl', 'sort_ballot', "'param~^tbs=256 '") using 1:2 with linespoints lc 4 pt 6 ps 0.6 dashtype 2 title 'ours: block radix sort (256 threads), shuffle scans / ballot', \
             dlarge with lines lc 3 lw 3 dashtype 3 title sprintf('document (001 sec. 3.3): large prefix sums %.2fx, average', dlarge), \
             dsort with lines lc 4 lw 3 dashtype 3 title sprintf('document (001 sec. 3.3): intra-block radix sort up to %.2fx', dsort), \
             dposter with lines lc 4 lw 3 dashtype 4 title sprintf('document (000 poster): block radix sort %.1fx', dposter)
        unset multiplot
        unset logscale x; set format x '%g'; set yrange [*:*]; set ytics autofreq; set xlabel; set ylabel; set key inside right bottom
    }
}
