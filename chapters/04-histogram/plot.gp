# plot.gp - chapter 04 figures (run by `make plots`, after reference/plot_common.gp).
# Every row's param starts with "input=<kind>"; sizes are bytes.

have_csv(name) = system(sprintf('test -f %s && echo 1 || echo 0', csv(name))) == 1
# verified rows of step s on one input kind
rows_in(f, s, inp) = rows_with(f, s, 'input='.inp)
# "x y" for step s: x = the position of the row's input kind in `order`, y = GB/s
order = 'uniform zeros linear low-entropy image-gradient image-dark image-rgba0'
by_input(f, s) = sprintf("< awk -F, -v o='%s' 'BEGIN { n = split(o, k, \" \"); for (i = 1; i <= n; i++) pos[k[i]] = i } $2 == \"%s\" && $11 == \"ok\" { split($3, a, \" \"); sub(\"input=\", \"\", a[1]); if (a[1] in pos) print pos[a[1]] \",\" $8 }' %s", order, s, f)
# rows of a tuning table in file order at one n: "index GB/s label" (label = param less the input)
table_at(f, s, n) = sprintf("< awk -F, '$2 == \"%s\" && $4 == %d && $11 == \"ok\" { p = $3; sub(/^input=[^ ]* /, \"\", p); print ++i \",\" $8 \",\" p }' %s", s, n, f)

# Fig. 8.9: throughput vs n on the three synthetic data sets
if (have_csv('sweep')) {
    f = csv('sweep'); bw = copy_of(f)
    do for [inp in 'uniform zeros linear'] {
        FIG = 'sweep-'.inp
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            @sweep_setup
            set xlabel 'n (bytes)'; set ylabel 'GB/s of input'; set logscale y; set yrange [*:*]
            set title sprintf('Chapter 04, histogram: throughput vs n, %s input, on %s (dashed: cudaMemcpy D2D %.0f GB/s)', inp, gpu_of(f), bw)
            plot for [s in steps_of(f)] rows_in(f, s, inp) using 4:8 title s, bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
            unset logscale x; unset logscale y; set format x '%g'
        }
    }
}

# Figs. 8.10-8.11: the synthetic images, 256^2 .. 4096^2 bytes
if (have_csv('images')) {
    f = csv('images'); bw = copy_of(f)
    do for [inp in 'image-gradient image-dark image-rgba0'] {
        FIG = inp
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            @sweep_setup
            set xlabel 'n (bytes: 256^2 .. 4096^2)'; set ylabel 'GB/s of input'; set logscale y; set yrange [*:*]
            set title sprintf('Chapter 04, histogram of a synthetic image (%s) vs size, on %s', inp, gpu_of(f))
            plot for [s in steps_of(f)] rows_in(f, s, inp) using 4:8 title s, bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
            unset logscale x; unset logscale y; set format x '%g'
        }
    }
}

# the chapter's bar: every step on every input kind at the largest n
if (have_csv('inputs')) {
    f = csv('inputs'); FIG = 'inputs'; bw = copy_of(f)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 04, every step on every input kind at 2^30 bytes, on %s (missing points: skipped, too slow)', gpu_of(f))
        set xlabel 'input'; set ylabel 'GB/s of input'; set logscale y; set yrange [*:*]; set xrange [0.5:7.5]
        set xtics ('uniform' 1, 'zeros' 2, 'linear' 3, 'low-entropy' 4, 'image-gradient' 5, 'image-dark' 6, 'image-rgba0' 7)
        set key outside right top
        plot for [s in steps_of(f)] by_input(f, s) using 1:2 with linespoints title s, bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
        unset logscale y; set xrange [*:*]; set xtics autofreq; set key inside right bottom
    }
}

# Fig. 8.7: s4's k sweep and the row-sum efficiency floor(63/k) k / 63
if (have_csv('k')) {
    f = csv('k'); FIG = 'k'; bw = copy_of(f)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 04, TRISH (s4) vs k words per thread per data block, on %s', gpu_of(f))
        set xlabel 'k'; set ylabel 'GB/s of input'; set y2label 'row-sum efficiency floor(63/k) k / 63'
        set xrange [0:64]; set yrange [0:*]; set y2range [0:1.05]; set y2tics; set xtics 4
        plot rows(f, 's4_trish') using (pval('k')):8 title 's4 GB/s', \
             rows(f, 's4_trish') using (pval('k')):(floor(63 / pval('k')) * pval('k') / 63) axes x1y2 with lines dashtype 3 title 'row-sum efficiency'
        unset y2tics; unset y2label; set xrange [*:*]; set xtics autofreq
    }
}

# TLP: s4 with 1..13 resident blocks per SM
if (have_csv('tlp')) {
    f = csv('tlp'); FIG = 'tlp'; bw = copy_of(f)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 04, TRISH (s4, 64 threads) vs resident blocks per SM, on %s', gpu_of(f))
        set xlabel 'resident blocks per SM (forced with unused shared memory)'; set ylabel 'GB/s of input'
        set xrange [0.5:13.5]; set xtics 1; set yrange [0:*]
        plot rows(f, 's4_trish') using (pval('blocks/SM')):8 title 's4 GB/s'
        set xrange [*:*]; set xtics autofreq
    }
}

# the row-sum cost: timing-only rows are drawn, and labelled as such
if (have_csv('rowsum')) {
    f = csv('rowsum'); FIG = 'rowsum'; bw = copy_of(f)
    rs(s, inp) = sprintf("< awk -F, '$2 == \"%s\" && index($3, \"input=%s \") == 1 && ($11 == \"ok\" || index($11, \"timing-only\") == 1) { print (index($3, \"rowsum=off\") ? 2 : 1) \",\" $8 }' %s", s, inp, f)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 04, cost of the row-sums (row-sum=off is TIMING ONLY: counts wrap past 255), on %s', gpu_of(f))
        set xlabel ''; set ylabel 'GB/s of input'; set xrange [0.5:2.5]; set yrange [0:*]
        set xtics ('periodic row-sums' 1, 'row-sums off (timing only)' 2)
        plot for [s in 's4_trish s5_trish_hopper'] for [inp in 'uniform zeros'] rs(s, inp) using 1:2 with linespoints title s.' ('.inp.')'
        set xrange [*:*]; set xtics autofreq
    }
}

# the s5 and s6 design spaces, one point per variant, at 2^28 and 2^30 bytes
do for [e in 'hopper wide'] {
    if (have_csv(e)) {
        f = csv(e); FIG = e; bw = copy_of(f); s = (e eq 'hopper') ? 's5_trish_hopper' : 's6_wide_ilp'
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            set title sprintf('Chapter 04, %s variants on uniform data, on %s', s, gpu_of(f))
            set xlabel ''; set ylabel 'GB/s of input'; set yrange [0:*]; set xtics rotate by 90 right font ',8'
            set bmargin 16
            plot table_at(f, s, 268435456) using 1:2:xtic(3) with points pt 7 title 'n = 2^28', \
                 table_at(f, s, 1073741824) using 1:2 with points pt 5 title 'n = 2^30', \
                 bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
            set xtics norotate autofreq font ''; set bmargin
        }
    }
}

# the s7 design space: every variant on every input kind at the largest n of
# the `runs` experiment (s7 is data-dependent by design); the ladder's s7 row
# (param with "x16B") and CUB are in the CSV and the stderr summary, not here
if (have_csv('runs')) {
    f = csv('runs'); FIG = 'runs'; bw = copy_of(f)
    big = real(system(sprintf("awk -F, '$2 == \"s7_runs\" && $4 + 0 > m { m = $4 + 0 } END { printf \"%%.0f\", m }' %s", f)))
    runs_at(f, n, inp) = sprintf("< awk -F, '$2 == \"s7_runs\" && $4 + 0 == %.0f && index($3, \"input=%s \") == 1 && index($3, \"x16B\") == 0 && $11 == \"ok\" { p = $3; sub(/^input=[^ ]* /, \"\", p); sub(/ blocks.*$/, \"\", p); print ++i \",\" $8 \",\" p }' %s", n, inp, f)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 04, s7_runs variants on every input kind at n = %.0f bytes, on %s', big, gpu_of(f))
        set xlabel ''; set ylabel 'GB/s of input'; set yrange [0:*]; set xtics rotate by 90 right font ',7'
        set bmargin 21; set key outside right top
        plot runs_at(f, big, 'uniform') using 1:2:xtic(3) with points pt 7 title 'uniform', \
             for [inp in 'zeros linear low-entropy image-gradient image-dark image-rgba0'] runs_at(f, big, inp) using 1:2 with points title inp, \
             bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
        set xtics norotate autofreq font ''; set bmargin; set key inside right bottom
    }
}
