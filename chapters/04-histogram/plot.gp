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
