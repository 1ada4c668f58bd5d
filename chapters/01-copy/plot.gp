# plot.gp - chapter 01 figures (run by `make plots`, after reference/plot_common.gp)

# Fig. 5.1: throughput vs n for every step, cudaMemcpy and the CPU
if (have('sweep')) {
    f = csv('sweep'); FIG = 'sweep'; bw = copy_of(f)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        @sweep_setup
        set title sprintf('Chapter 01, copy: throughput vs n on %s (dashed: cudaMemcpy D2D %.0f GB/s)', gpu_of(f), bw)
        plot for [s in steps_of(f)] rows(f, s) using N:GBPS title s, bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
        unset logscale x; set format x '%g'; set key inside right bottom
    }
}

# Fig. 5.8: nWork x interleaved / batches at n = 2^24
if (have('ilp')) {
    f = csv('ilp'); FIG = 'ilp'; bw = copy_of(f)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 01, ILP: s3 kernel at n = 2^24, nWork x batch, on %s', gpu_of(f))
        set xlabel 'nWork (words per thread)'; set ylabel 'GB/s'; set xrange [0.5:16.5]; set yrange [0:*]; set xtics 1
        plot for [b in 'interleaved 2 4 8 16'] rows_with(f, 's3_batch', 'batch='.b) using (pval('nWork')):GBPS title (b eq 'interleaved' ? 'interleaved (what #pragma unroll gives)' : 'batch '.b), \
             bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
        set xrange [*:*]; set xtics autofreq
    }
}

# Fig. 5.10: block size 32..1024 with resident blocks per SM
if (have('blocksize')) {
    f = csv('blocksize'); FIG = 'blocksize'; bw = copy_of(f)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 01, TLP: s3 kernel at n = 2^24 vs block size, on %s', gpu_of(f))
        set xlabel 'threads per block'; set ylabel 'GB/s'; set y2label 'resident blocks per SM'
        set xrange [0:1056]; set xtics 64; set yrange [0:*]; set y2range [0:*]; set y2tics
        plot rows(f, 's3_batch') using (pval('tbs')):GBPS title 'GB/s', \
             rows(f, 's3_batch') using (pval('tbs')):(pval('blocks/SM')) axes x1y2 with steps dashtype 3 title 'resident blocks/SM', \
             bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
        unset y2tics; unset y2label; set xrange [*:*]; set xtics autofreq
    }
}

# Fig. 5.11: forced resident blocks per SM
if (have('residency')) {
    f = csv('residency'); FIG = 'residency'; bw = copy_of(f)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 01, TLP: s3 kernel (128 threads) at n = 2^24 vs resident blocks per SM, on %s', gpu_of(f))
        set xlabel 'resident blocks per SM (forced with unused shared memory)'; set ylabel 'GB/s'
        set xrange [0.5:16.5]; set xtics 1; set yrange [0:*]
        plot rows(f, 's3_batch') using (pval('blocks/SM')):GBPS title 'GB/s', \
             bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
        set xrange [*:*]; set xtics autofreq
    }
}

# s6 design space: vectors per thread x block size, at 2^24 and at the largest n
if (have('hopper')) {
    f = csv('hopper'); FIG = 'hopper'; bw = copy_of(f)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 01, s6 variants (16-byte accesses), on %s', gpu_of(f))
        set xlabel 'uint4 vectors per thread'; set ylabel 'GB/s'; set logscale x 2; set xrange [0.8:10]; set xtics (1, 2, 4, 8); set yrange [0:*]
        plot for [tb in '128 256 512 1024'] sel(f, sprintf("step=s6_hopper n=16777216 'param~^tbs=%s .*default'", tb)) using (pval('nvec')):GBPS title sprintf('n=2^24, %s threads', tb), \
             for [tb in '128 256 512 1024'] sel(f, sprintf("step=s6_hopper 'n>16777216' 'param~^tbs=%s .*default'", tb)) using (pval('nvec')):GBPS dashtype 4 title sprintf('largest n, %s threads', tb), \
             bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
        unset logscale x; set xtics autofreq
    }
}

# MAP primitives vs n
if (have('map')) {
    f = csv('map'); FIG = 'map'; bw = copy_of(f)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        @sweep_setup
        set title sprintf('Chapter 01, MAP primitives: fill, copy, gather, scatter vs n, on %s', gpu_of(f))
        plot for [s in steps_of(f)] rows(f, s) using N:GBPS title s, bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
        unset logscale x; set format x '%g'; set key inside right bottom
    }
}

# The document's numbers beside ours (reference/published/01-copy.csv), both as % of the same
# GPU's cudaMemcpy D2D: ours is the pct_copy column (the copy-bandwidth row of the same CSV), the
# document's GB/s is divided by the cudaMemcpy of its Titan (about 231 GB/s, the text of Fig. 5.10)
# and its "% of peak" first multiplied by the Titan's peak.  Ours at n = 2^24, the document's n.
pub = 'reference/published/01-copy.csv'
pubv(fg, g, s) = pubval(sprintf("figure=%s 'gpu=%s' 'series=%s'", fg, g, s))
pubxy(fg, g, s) = pubrows(sprintf("figure=%s 'gpu=%s' 'series=%s'", fg, g, s))
if (have('sweep') && have('blocksize') && have('residency')) {
    fs = csv('sweep'); fb = csv('blocksize'); fr = csv('residency'); FIG = 'vs-document'
    memcpyT = pubv('fig5.10', 'GTX Titan', 'cudaMemcpy'); peakT = pubv('peak', 'GTX Titan', 'peak bandwidth')
    # the four copies: the document's headline (% of peak) and ours (step at 2^24)
    array DS[4] = ['simple copy', 'Block DASk', 'Column DASk', 'Row DASk']
    array OS[4] = ['s0_simple', 's3_batch', 's4_column_dask', 's5_row_dask']
    array DL[4] = ['simple', 'Block', 'Column', 'Row']
    set print $VSDOC01
    do for [i = 1:4] {
        o = val(fs, sprintf('step=%s n=16777216 verified=ok', OS[i]), 'pct_copy')
        print sprintf('%d %s %.2f "%s\n%s"', i, o eq '' ? 'NaN' : o, pubv('headline', 'GTX Titan', DS[i]) * peakT / memcpyT, DL[i], substr(OS[i], 1, 2))
    }
    unset print
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set multiplot layout 1,3 title sprintf("Chapter 01, copy: the document (Brown ch. 4-5, GTX Titan) beside ours (%s),\nboth as %% of the same GPU's cudaMemcpy D2D (document: GB/s / 231 GB/s, its cudaMemcpy in Fig. 5.10)", gpu_of(fs))
        set datafile separator whitespace
        set title '(a) the four copies (document: sec. 4 headline)'
        set ylabel '% of cudaMemcpy D2D (same GPU)'; set yrange [0:115]; set xrange [0.4:4.6]; set key inside left top font ',9'
        set style fill solid 0.4; set boxwidth 0.35; set xtics font ',8'
        plot $VSDOC01 using ($1 - 0.18):2:xtic(4) with boxes lc 1 title 'ours, n = 2^24', \
             '' using ($1 + 0.18):3 with boxes lc 2 title 'document: % of peak x 288.4 / 231'
        set datafile separator ','
        set style fill empty; set xtics autofreq font ''
        set title '(b) block size (Fig. 5.10), n = 2^24'
        set xlabel 'threads per block'; set xrange [0:1056]; set xtics 256; set key inside right bottom font ',8'
        plot rows(fb, 's3_batch') using (pval('tbs')):PCT with linespoints lc 1 title 'ours: s3_batch', \
             pubxy('fig5.10', 'GTX Titan', 'best block size') using 1:(100 * $2 / memcpyT) with points pt 7 ps 1.5 lc 2 title 'document: its best, 216 GB/s at 128'
        set title '(c) blocks per SM, forced (Fig. 5.11)'
        set xlabel 'resident blocks per SM'; set xrange [0.5:16.5]; set xtics 0, 2
        plot rows(fr, 's3_batch') using (pval('blocks/SM')):PCT with linespoints lc 1 title 'ours: s3_batch, 128 threads, 2^24', \
             pubxy('fig5.11', 'GTX Titan', 'forced residency') using 1:(100 * $2 / memcpyT) with points pt 7 ps 1.5 lc 2 title 'document: about 20 and 214 GB/s'
        unset multiplot
        set xrange [*:*]; set yrange [*:*]; set xtics autofreq; set xlabel; set ylabel; set key inside right bottom
    }
}
