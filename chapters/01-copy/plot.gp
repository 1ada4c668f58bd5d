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
