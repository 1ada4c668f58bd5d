# plot.gp - chapter 03 figures (run by `make plots`, after reference/plot_common.gp).
# The document's unit is the speed-up over one CPU core; the baseline here is nanoflann on one
# core (cpu-nanoflann), or the chapter's own CPU tree search (cpu-tree) when nanoflann was not
# built.  Speed-ups come from tools/speedup (same input, n, shape and phase); query phase only.
# CPU rows stop at n = 10^6 (bench.c), so the speed-up lines do too.

base_of(f) = (val(f, 'step=cpu-nanoflann verified=ok', 'n') eq '' ? 'cpu-tree' : 'cpu-nanoflann')
# the verified steps with query rows, the baseline left out
qsteps(f, b) = system(sprintf("tools/csvq %s %s verified=ok phase=query step!=copy-bandwidth step!=%s -- step | awk '!seen[$0]++' | tr '\\n' ' '", f, gf, b))
# speed-up rows of one step (columns: 1 step, 2 input, 3 n, 4 shape, 5 speed-up)
sp(f, b, shape, s) = sprintf("< tools/speedup %s %s query '%s' | awk -F, '$1 == \"%s\"'", f, b, shape, s)
# the k of a shape "queries=0 k=8 dim=3 all=queries"
kof(sh) = real(substr(word(sh, 2), 3, 9))

# vs n, one panel per dimension: speed-up over one core, then queries/s
do for [E in 'qnn allnn knn8 knn32 allknn'] {
    if (have(E)) {
        f = csv(E); b = base_of(f); inp = word(inputs_of(f), 1)
        FIG = E.'_speedup'
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            set multiplot layout 1,3 title sprintf('Chapter 03, %s (m = n, %s): speed-up over %s on one core, on %s', E, inp, b, gpu_of(f))
            do for [d = 2:4] {
                set title sprintf('%dD', d); set key inside left top font ',8'
                set logscale x 10; set format x '1e%L'; set xlabel 'n (points = queries)'
                set logscale y 10; set ylabel sprintf('x %s', b); set yrange [*:*]
                plot for [s in qsteps(f, b)] sp(f, b, sprintf('dim=%d', d), s) using 3:5 title s
            }
            unset multiplot
            unset logscale x; unset logscale y; set format x '%g'
        }
        FIG = E.'_rate'
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            set multiplot layout 1,3 title sprintf('Chapter 03, %s (m = n, %s): queries per second (query phase), on %s', E, inp, gpu_of(f))
            do for [d = 2:4] {
                set title sprintf('%dD', d); set key inside left bottom font ',8'
                set logscale x 10; set format x '1e%L'; set xlabel 'n (points = queries)'
                set logscale y 10; set ylabel 'queries per second'; set yrange [*:*]
                plot for [s in qsteps(f, '-')] sel(f, sprintf("step=%s phase=query 'shape~dim=%d '", s, d)) using N:RATE title s
            }
            unset multiplot
            unset logscale x; unset logscale y; set format x '%g'
        }
    }
}

# the bars: queries/s of every step per case at 10^6 (log scale), and the build of 10^7 points
if (have('bars')) {
    f = csv('bars'); FIG = 'bars'
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 03, n = m = 10^6 in 3D: queries per second (query phase), on %s', gpu_of(f))
        set xlabel ''; set ylabel 'queries per second'; set logscale y 10; set yrange [*:*]
        set xtics rotate by 30 right font ',9'; set bmargin 6; set key outside right top; set offsets 0.3, 0.3, 0, 0
        plot for [s in qsteps(f, '-')] sel(f, sprintf("step=%s phase=query n=1000000", s)) using 0:RATE:xtic(strcol(INPUT).' '.word(strcol(SHAPE), 2)) title s
        unset logscale y; set xtics norotate autofreq font ''; set bmargin; set key inside right bottom; set offsets 0, 0, 0, 0
    }
    FIG = 'bars_build'
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 03, building the tree of %s points (3D uniform): ms, on %s', val(f, 'phase=build step!=copy-bandwidth', 'n'), gpu_of(f))
        set xlabel ''; set ylabel 'ms (median)'; set logscale y 10; set yrange [*:*]; set style fill solid 0.6; set boxwidth 0.6
        set xtics rotate by 30 right font ',9'; set bmargin 6; set key off
        plot sprintf("< tools/csvq %s %s verified=ok phase=build 'n>1000000' -- step ms_median", f, gf) using 0:2:xtic(1) with boxes
        unset logscale y; set xtics norotate autofreq font ''; set bmargin; set key on; set style fill empty
    }
}

# every input at 10^6: queries/s per step
if (have('inputs')) {
    f = csv('inputs'); FIG = 'inputs'
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 03, kNN k=8 at n = m = 10^6 in 3D, per input: queries per second, on %s', gpu_of(f))
        set xlabel ''; set ylabel 'queries per second'; set logscale y 10; set yrange [*:*]
        set xtics rotate by 30 right font ',9'; set bmargin 6; set key outside right top; set offsets 0.3, 0.3, 0, 0
        plot for [s in qsteps(f, '-')] sel(f, sprintf('step=%s phase=query', s)) using 0:RATE:xtic(strcol(INPUT)) title s
        unset logscale y; set xtics norotate autofreq font ''; set bmargin; set key inside right bottom; set offsets 0, 0, 0, 0
    }
}

# k = 1 .. 32 at 10^6 (the document's Fig. 7.7 e-f)
if (have('k')) {
    f = csv('k'); b = base_of(f); FIG = 'k'
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set multiplot layout 1,2 title sprintf('Chapter 03, kNN at n = m = 10^6, 3D uniform, k = 1..32, on %s', gpu_of(f))
        set title sprintf('speed-up over %s on one core', b); set key inside right top font ',8'
        set xlabel 'k'; set ylabel sprintf('x %s', b); set logscale y 10; set yrange [*:*]
        plot for [s in qsteps(f, b)] sp(f, b, '', s) using (kof(strcol(4))):5 title s
        set title 'queries per second'; set ylabel 'queries per second'
        plot for [s in qsteps(f, '-')] sel(f, sprintf('step=%s phase=query', s)) using (kof(strcol(SHAPE))):RATE title s
        unset multiplot; unset logscale y
    }
}

# build time vs n: the steps' build phase and the CPU builds
if (have('build')) {
    f = csv('build'); FIG = 'build'
    bsteps = system(sprintf("tools/csvq %s %s verified=ok phase=build step!=copy-bandwidth -- step | awk '!seen[$0]++' | tr '\\n' ' '", f, gf))
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 03, building the tree vs n (3D uniform): ms, on %s', gpu_of(f))
        set key inside left top; set logscale x 10; set format x '1e%L'; set xlabel 'n (points)'
        set logscale y 10; set ylabel 'ms (median)'; set yrange [*:*]
        plot for [s in bsteps] sel(f, sprintf('step=%s phase=build', s)) using N:MS title s
        unset logscale x; unset logscale y; set format x '%g'; set key inside right bottom
    }
}

# s2's threads per block (the document's Fig. 7.7 a-c): queries/s per variant, QNN and kNN k=8
if (have('tpb')) {
    f = csv('tpb'); FIG = 'tpb'
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 03, s2 (shared-memory stack) per block size at n = m = 10^6, 3D uniform, on %s', gpu_of(f))
        set xlabel ''; set ylabel 'queries per second'; set yrange [0:*]
        set xtics rotate by 30 right font ',9'; set bmargin 8; set key inside right top; set offsets 0.3, 0.3, 0, 0
        plot sel(f, "phase=query 'param~blocks/SM=' 'shape~ k=1 '") using 0:RATE:xtic(sprintf('%s, %s', word(strcol(PARAM), 1), word(strcol(PARAM), words(strcol(PARAM))))) with linespoints title 'QNN (k=1)', \
             sel(f, "phase=query 'param~blocks/SM=' 'shape~ k=8 '") using 0:RATE with linespoints title 'kNN k=8'
        set xtics norotate autofreq font ''; set bmargin; set key inside right bottom; set offsets 0, 0, 0, 0
    }
}
