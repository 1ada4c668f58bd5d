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

# The document's numbers beside ours, both as the speed-up of the GPU search over the same tree
# search on one CPU core: ours s2_tree_shared (the document's design: one thread per query, the
# stack in shared memory) over cpu-tree (the document's tree and search on one core), same CSV, same
# input, n, shape; the document's GTX 285 over one core of an i7-920 (reference/published/03-kdtree.csv,
# only the values whose n or k the text states).  Log scale: the two differ by two orders of magnitude.
pub = 'reference/published/03-kdtree.csv'
pubxy(fg, s) = pubrows(sprintf("figure=%s 'series=%s'", fg, s))
# "n,k,speed-up" of step s over cpu-tree, query phase, the GPU being drawn (gf), shapes matching re
vsb(f, re, s) = sprintf("< tools/csvq %s %s verified=ok phase=query 'shape~%s' -- step input n shape ms_median | awk -F, -v s=%s '{ key = $2 SUBSEP $3 SUBSEP $4 } $1 == \"cpu-tree\" { b[key] = $5 } $1 == s { m[key] = $5; o[++k] = key; nn[k] = $3; split($4, w, \" \"); kk[k] = substr(w[2], 3) } END { for (i = 1; i <= k; i++) if ((o[i] in b) && m[o[i]] > 0) print nn[i] \",\" kk[i] \",\" b[o[i]] / m[o[i]] }'", f, gf, re, s)
if (have('qnn') && have('allnn') && have('knn32') && have('allknn') && have('knn8') && have('k')) {
    FIG = 'vs-document'; fq = csv('qnn')
    array VE[5] = ['qnn', 'allnn', 'knn32', 'allknn', 'knn8']
    array VO[5] = ['QNN', 'All-NN', 'kNN k=32', 'All-kNN k=8', 'kNN k=8']
    array VD[5] = ['QNN', 'All-NN', 'kNN k=32', 'All-kNN k=32', 'kNN k=8']
    array VF[5] = ['fig7.7a fig7.7c', 'fig7.7a fig7.7c', 'fig7.7b', 'fig7.7b', 'fig7.7d']
    array VC[5] = [1, 2, 3, 4, 7]
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set multiplot layout 1,2 title sprintf("Chapter 03, kd-tree search: the document (Brown ch. 7, GTX 285 vs one i7-920 core) beside ours (%s vs one core of its host),\nboth as the speed-up over the same tree search on one CPU core (ours: s2_tree_shared / cpu-tree; points: the document's stated values)", gpu_of(fq))
        set title '(a) 2D, m = n, vs n (Fig. 7.7 a-d)'
        set key inside left top font ',8' maxrows 5
        set logscale x 10; set format x '1e%L'; set xlabel 'n (points = queries)'; set xrange [500:2e7]
        set logscale y 10; set ylabel 'speed-up over one CPU core'; set yrange [5:3e4]
        plot for [i = 1:5] vsb(csv(VE[i]), 'dim=2 ', 's2_tree_shared') using 1:3 with linespoints lc VC[i] pt 7 title 'ours: '.VO[i], \
             for [i = 1:5] for [fg in VF[i]] pubxy(fg, VD[i]) using 1:2 with points lc VC[i] pt 9 ps 1.8 title (fg eq word(VF[i], 1) ? 'document: '.VD[i] : '')
        fk = csv('k')
        set title '(b) kNN, n = 10^6, vs k (Fig. 7.7 f)'
        set logscale x 2; set format x '%g'; set xlabel 'k'; set xrange [0.8:40]
        plot vsb(fk, '.', 's2_tree_shared') using 2:3 with linespoints lc 3 pt 7 title sprintf('ours: kNN, 3D uniform, on %s', gpu_of(fk)), \
             pubxy('fig7.7f', 'kNN') using 1:2 with points lc 3 pt 9 ps 1.8 title 'document: kNN, 2D', \
             pubxy('fig7.7f', 'All-kNN') using 1:2 with points lc 4 pt 9 ps 1.8 title 'document: All-kNN, 2D'
        unset multiplot
        unset logscale x; unset logscale y; set format x '%g'; set xrange [*:*]; set yrange [*:*]; set xlabel; set ylabel; set key inside right bottom
    }
}
