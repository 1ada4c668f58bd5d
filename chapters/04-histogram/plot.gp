# plot.gp - chapter 04 figures (run by `make plots`, after reference/plot_common.gp).
# Columns are read by name (tools/csvq through sel(), rows(), rows_in()); sizes are bytes.

# the inputs in the order of the `inputs` figure's x axis, and the position of one of them
order = 'uniform zeros linear low-entropy image-gradient image-dark image-rgba0'
pos(s, i) = i > words(order) ? NaN : (word(order, i) eq s ? i : pos(s, i + 1))

# Fig. 8.9: throughput vs n on the three synthetic data sets
if (have('sweep')) {
    f = csv('sweep'); bw = copy_of(f)
    do for [inp in 'uniform zeros linear'] {
        FIG = 'sweep-'.inp
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            @sweep_setup
            set xlabel 'n (bytes)'; set ylabel 'GB/s of input'; set logscale y; set yrange [*:*]
            set title sprintf('Chapter 04, histogram: throughput vs n, %s input, on %s (dashed: cudaMemcpy D2D %.0f GB/s)', inp, gpu_of(f), bw)
            plot for [s in steps_of(f)] rows_in(f, s, inp) using N:GBPS title s, bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
            unset logscale x; unset logscale y; set format x '%g'
        }
    }
}

# Figs. 8.10-8.11: the synthetic images, 256^2 .. 4096^2 bytes
if (have('images')) {
    f = csv('images'); bw = copy_of(f)
    do for [inp in 'image-gradient image-dark image-rgba0'] {
        FIG = inp
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            @sweep_setup
            set xlabel 'n (bytes: 256^2 .. 4096^2)'; set ylabel 'GB/s of input'; set logscale y; set yrange [*:*]
            set title sprintf('Chapter 04, histogram of a synthetic image (%s) vs size, on %s', inp, gpu_of(f))
            plot for [s in steps_of(f)] rows_in(f, s, inp) using N:GBPS title s, bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
            unset logscale x; unset logscale y; set format x '%g'
        }
    }
}

# the chapter's bar: every step on every input at the largest n
if (have('inputs')) {
    f = csv('inputs'); FIG = 'inputs'; bw = copy_of(f)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 04, every step on every input at 2^30 bytes, on %s (missing points: skipped, too slow)', gpu_of(f))
        set xlabel 'input'; set ylabel 'GB/s of input'; set logscale y; set yrange [*:*]; set xrange [0.5:7.5]
        set xtics ('uniform' 1, 'zeros' 2, 'linear' 3, 'low-entropy' 4, 'image-gradient' 5, 'image-dark' 6, 'image-rgba0' 7)
        set key outside right top
        plot for [s in steps_of(f)] rows(f, s) using (pos(strcol(INPUT), 1)):GBPS with linespoints title s, bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
        unset logscale y; set xrange [*:*]; set xtics autofreq; set key inside right bottom
    }
}

# Fig. 8.7: s4's k sweep and the row-sum efficiency floor(63/k) k / 63
if (have('k')) {
    f = csv('k'); FIG = 'k'; bw = copy_of(f)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 04, TRISH (s4) vs k words per thread per data block, on %s', gpu_of(f))
        set xlabel 'k'; set ylabel 'GB/s of input'; set y2label 'row-sum efficiency floor(63/k) k / 63'
        set xrange [0:64]; set yrange [0:*]; set y2range [0:1.05]; set y2tics; set xtics 4
        plot rows(f, 's4_trish') using (pval('k')):GBPS title 's4 GB/s', \
             rows(f, 's4_trish') using (pval('k')):(floor(63 / pval('k')) * pval('k') / 63) axes x1y2 with lines dashtype 3 title 'row-sum efficiency'
        unset y2tics; unset y2label; set xrange [*:*]; set xtics autofreq
    }
}

# TLP: s4 with 1..13 resident blocks per SM
if (have('tlp')) {
    f = csv('tlp'); FIG = 'tlp'; bw = copy_of(f)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 04, TRISH (s4, 64 threads) vs resident blocks per SM, on %s', gpu_of(f))
        set xlabel 'resident blocks per SM (forced with unused shared memory)'; set ylabel 'GB/s of input'
        set xrange [0.5:13.5]; set xtics 1; set yrange [0:*]
        plot rows(f, 's4_trish') using (pval('blocks/SM')):GBPS title 's4 GB/s'
        set xrange [*:*]; set xtics autofreq
    }
}

# the row-sum cost: the timing-only rows (verified "timing-only:ok" or "timing-only:wrong")
# are drawn here, and only here, labelled as such
if (have('rowsum')) {
    f = csv('rowsum'); FIG = 'rowsum'; bw = copy_of(f)
    rs(s, inp) = sprintf("< tools/csvq %s %s step=%s input=%s 'verified~^(ok|timing-only:)' -- %s", f, gf, s, inp, proj)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 04, cost of the row-sums (row-sum=off is TIMING ONLY: counts wrap past 255), on %s', gpu_of(f))
        set xlabel ''; set ylabel 'GB/s of input'; set xrange [0.5:2.5]; set yrange [0:*]
        set xtics ('periodic row-sums' 1, 'row-sums off (timing only)' 2)
        plot for [s in 's4_trish s5_trish_hopper'] for [inp in 'uniform zeros'] rs(s, inp) using (strstrt(strcol(PARAM), 'rowsum=off') ? 2 : 1):GBPS with linespoints title s.' ('.inp.')'
        set xrange [*:*]; set xtics autofreq
    }
}

# the s5 and s6 design spaces, one point per variant in table order, at 2^28 and 2^30 bytes
do for [e in 'hopper wide'] {
    if (have(e)) {
        f = csv(e); FIG = e; bw = copy_of(f); s = (e eq 'hopper') ? 's5_trish_hopper' : 's6_wide_ilp'
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            set title sprintf('Chapter 04, %s variants on uniform data, on %s', s, gpu_of(f))
            set xlabel ''; set ylabel 'GB/s of input'; set yrange [0:*]; set xtics rotate by 90 right font ',8'
            set bmargin 16
            plot sel(f, sprintf('step=%s input=uniform n=268435456', s)) using ($0 + 1):GBPS:xtic(PARAM) with points pt 7 title 'n = 2^28', \
                 sel(f, sprintf('step=%s input=uniform n=1073741824', s)) using ($0 + 1):GBPS with points pt 5 title 'n = 2^30', \
                 bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
            set xtics norotate autofreq font ''; set bmargin
        }
    }
}

# the s7 design space: every variant (param "k=<number> ...": the ladder's s7 says
# "k=8x16B") on every input at the largest n of the `runs` experiment (s7 is
# data-dependent by design); the ladder's s7 and CUB are in the CSV (tools/ratios), not here
if (have('runs')) {
    f = csv('runs'); FIG = 'runs'; bw = copy_of(f)
    big = real(system(sprintf("tools/csvq %s %s step=s7_runs -- n | sort -n | tail -n 1", f, gf)))
    runs_at(n, inp) = sel(f, sprintf("step=s7_runs n=%.0f input=%s 'param~(^| )k=[0-9]+ '", n, inp))
    # the param less its " blocks/SM=R"
    knobs(p) = substr(p, 1, strstrt(p.' blocks/SM', ' blocks/SM') - 1)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 04, s7_runs variants on every input at n = %.0f bytes, on %s', big, gpu_of(f))
        set xlabel ''; set ylabel 'GB/s of input'; set yrange [0:*]; set xtics rotate by 90 right font ',7'
        set bmargin 21; set key outside right top
        plot runs_at(big, 'uniform') using ($0 + 1):GBPS:xtic(knobs(strcol(PARAM))) with points pt 7 title 'uniform', \
             for [inp in 'zeros linear low-entropy image-gradient image-dark image-rgba0'] runs_at(big, inp) using ($0 + 1):GBPS with points title inp, \
             bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
        set xtics norotate autofreq font ''; set bmargin; set key inside right bottom
    }
}

# The document's numbers beside ours (reference/published/04-histogram.csv).  (a) Both as % of the
# same GPU's copy: ours is the pct_copy column (cudaMemcpy D2D, the copy-bandwidth row of the same
# CSV); the document's GB/s (GTX 580, n = 2^26 bytes) over its own best copy on a GTX 580 (175.0
# GB/s, ch. 6 Table 6.4).  (b), (c) Both relative to one point of the same run: k = 31 words per
# thread, and 3 resident blocks per SM (the document's configuration).
pub = 'reference/published/04-histogram.csv'
pubv(fg, s, x) = pubval(sprintf("figure=%s 'series=%s' 'x=%s'", fg, s, x))
pubxy(fg, s) = pubrows(sprintf("figure=%s 'series=%s'", fg, s))
if (have('sweep') && have('k') && have('tlp')) {
    f = csv('sweep'); fk = csv('k'); ft = csv('tlp'); FIG = 'vs-document'
    c580 = pubv('table6.4', 'copy bandwidth', '')
    k31 = real(val(fk, 'step=s4_trish verified=ok param=k=31', 'gbps'))
    b3 = real(val(ft, "step=s4_trish verified=ok 'param~ blocks/SM=3$'", 'gbps'))
    dk31 = pubv('fig8.7', 'TRISH k sweep', '31'); db3 = pubv('sec8.4.2', 'TRISH blocks per SM', '3')
    array HS[5] = ['s4_trish', 's3_thread16', 's2_warp_atomics', 's2_warp_atomics', 's2_warp_atomics']
    array HI[5] = ['uniform', 'uniform', 'uniform', 'linear', 'zeros']
    array HD[5] = ['TRISH', 'NUG', 'POD uniform', 'POD linear', 'POD zeros']
    array HC[5] = [1, 2, 3, 4, 7]
    array HL[5] = ['s4 (TRISH), uniform', 's3 (NUG), uniform', 's2 (POD), uniform', 's2 (POD), linear', 's2 (POD), zeros']
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set multiplot title sprintf("Chapter 04, 256-bin histogram: the document (Brown ch. 8, GTX 580) beside ours (%s)\n(a) %% of the same GPU's copy (document: GB/s / 175.0, its best copy on a GTX 580, Table 6.4); (b), (c) relative to the same run's k = 31, 3 blocks/SM", gpu_of(f))
        set size 0.44, 0.9; set origin 0, 0
        set title '(a) vs n (Fig. 8.9; document at n = 2^26)'
        set logscale x 2; set format x '2^%L'; set xlabel 'n (bytes)'; set xrange [2**13:2**31]; set xtics 2**4
        set logscale y 10; set ylabel "% of the same GPU's copy"; set yrange [0.1:3000]
        set key inside left top font ',8' maxrows 5 width -3
        plot for [i = 1:5] rows_in(f, HS[i], HI[i]) using N:PCT with linespoints lc HC[i] pt 7 ps 0.6 title 'ours: '.HL[i], \
             for [i = 1:5] pubxy('fig8.9', HD[i]) using 1:(100 * $2 / c580) with points lc HC[i] pt 9 ps 2 title 'document: '.HD[i]
        unset logscale x; unset logscale y; set format x '%g'; set xtics autofreq
        set size 0.28, 0.9; set origin 0.44, 0
        set title '(b) s4 (TRISH) vs k (Fig. 8.7)'
        set xlabel 'k (words per thread per loop)'; set xrange [0:64]; set xtics 16
        set ylabel 'GB/s / GB/s at k = 31 (same run)'; set yrange [0:1.4]
        set key inside right bottom font ',8' maxrows -1
        plot rows(fk, 's4_trish') using (pval('k')):(column(GBPS) / k31) with linespoints lc 1 pt 7 ps 0.5 title 'ours: s4_trish, n = 2^28', \
             pubxy('fig8.7', 'TRISH k sweep') using 1:($2 / dk31) with points lc 2 pt 9 ps 2 title 'document (n not stated)'
        set size 0.28, 0.9; set origin 0.72, 0
        set title '(c) s4 vs blocks per SM (sec. 8.4.2)'
        set xlabel 'resident blocks per SM (forced)'; set xrange [0.5:13.5]; set xtics 2
        set ylabel 'GB/s / GB/s at 3 blocks per SM (same run)'; set yrange [0:3.5]
        set key inside left top font ',8'
        plot rows(ft, 's4_trish') using (pval('blocks/SM')):(column(GBPS) / b3) with linespoints lc 1 pt 7 ps 0.5 title 'ours: s4, k = 31, 2^28', \
             pubxy('sec8.4.2', 'TRISH blocks per SM') using 1:($2 / db3) with points lc 2 pt 9 ps 2 title 'document'
        unset multiplot
        set size 1, 1; set origin 0, 0
        set xrange [*:*]; set yrange [*:*]; set xtics autofreq; set xlabel; set ylabel; set key inside right bottom
    }
}
