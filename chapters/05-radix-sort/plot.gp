# plot.gp - chapter 05 figures (run by `make plots`, after reference/plot_common.gp)
# Sorts are drawn in keys (or pairs) per second, the unit the documents use; the GB/s
# column of the CSVs is the Onesweep traffic model (radix.h, steps.c) over the time.

input_of(f) = word(inputs_of(f), 1)
shape_of(f) = val(f, 'step!=copy-bandwidth', 'shape')

# keys/s vs n, one line per step, yardstick and CPU baseline
do for [E in 'sort_keys sort_pairs keys64'] {
    if (have(E)) {
        f = csv(E); FIG = E; inp = input_of(f)
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            set title sprintf('Chapter 05, LSD radix sort (%s), %s keys, vs n on %s', shape_of(f), inp, gpu_of(f))
            set key outside right top; set logscale x 2; set format x '2^%L'; set xlabel 'n (keys)'
            set logscale y 10; set ylabel 'keys per second'; set yrange [*:*]
            plot for [s in steps_of(f)] rows_in(f, s, inp) using N:RATE title s
            unset logscale x; unset logscale y; set format x '%g'; set key inside right bottom
        }
    }
}

# small sorts: time against n up to 2^20 for the steps that add small-n paths (s12, s13, s14), the
# pass-per-digit steps below them and CUB; keys, pairs and 64-bit keys side by side.  Each of s12 to
# s14 hands every n it has no path for to the step before it, so where a step's line leaves the one
# below, its path takes over.  Drawn for a GPU whose runs have s12.
small_steps = 's5_onesweep s11_msd_hybrid s12_small_sort s13_sort_network s14_cluster_network cub_radix_sort'
small_steps64 = 's5_onesweep s12_small_sort s13_sort_network s14_cluster_network cub_radix_sort'
small_lt64 = '1 3 4 5 6' # each step keeps its colour from the 32-bit panels
if (have('sort_keys') && have('sort_pairs') && have('keys64') && val(csv('sort_keys'), 'step=s12_small_sort', 'n') ne '') {
    FIG = 'small_n'
    array SM_E[3] = ['sort_keys', 'sort_pairs', 'keys64']
    array SM_T[3] = ['(a) 32-bit keys', '(b) pairs of 32-bit keys and values', '(c) 64-bit keys']
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set multiplot layout 1, 3 title sprintf('Chapter 05, small sorts: time against n on %s, uniform keys (each step hands the sizes it has no path for to the step before it)', gpu_of(csv('sort_keys')))
        set logscale x 2; set format x '2^%L'; set xrange [2**10:2**20]; set xtics 2**10, 4, 2**20; set xlabel 'n'
        set logscale y 10; set yrange [*:*]; set key inside right bottom font ',9'
        do for [k = 1:3] {
            f = csv(SM_E[k])
            set title SM_T[k]; set ylabel k == 1 ? 'time, microseconds (median)' : ''
            L = k == 3 ? small_steps64 : small_steps
            plot for [i = 1:words(L)] rows_in(f, word(L, i), 'uniform') using N:(column(MS) * 1000) lt (k == 3 ? word(small_lt64, i) + 0 : i) title word(L, i)
        }
        unset multiplot
        unset logscale x; unset logscale y; set format x '%g'; set xrange [*:*]; set xtics autofreq; set xlabel; set ylabel; set key inside right bottom font ''
    }
}

# every named input at the largest n: one line per step over the inputs
if (have('inputs')) {
    f = csv('inputs'); FIG = 'inputs'
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 05, keys/s per input at n = %s on %s (keys only and pairs)', val(f, 'step=s5_onesweep', 'n'), gpu_of(f))
        set xlabel ''; set ylabel 'G keys per second'; set yrange [0:*]; set logscale y 10; set yrange [*:*]
        set xtics rotate by 45 right font ',9'; set bmargin 8; set key outside right top
        plot for [s in steps_of(f)] rows(f, s) using 0:(column(RATE) / 1e9):xtic(strcol(INPUT).' '.(strstrt(strcol(SHAPE), 'pairs=pairs') ? 'pairs' : 'keys')) title s
        unset logscale y; set xtics norotate autofreq font ''; set bmargin; set key inside right bottom
    }
}

# a tuning table at the largest n (x: the variant's param), with CUB's keys/s dotted
# (onesweep_pairs.csv: the onesweep table run with --pairs 1, in G pairs per second; onesweep_sorted,
# onesweep_pairs_sorted, _reverse and _f32-normal: the table run with --input NAME).  The onesweep
# labels leave out the ladder's defaults (os_defaults, named in the title): drop(s, w) is s without
# its first w, dropall every default from the k-th on; os_sed does the same in the shell (for the
# longest label, which sets the margin)
os_defaults = 'tbs=384 bits=8 match=ballot counts=early'
drop(s, w) = (i = strstrt(s, w), i == 0 ? s : (i > 1 ? s[1:i - 1] : '').s[i + strlen(w):])
dropall(s, k) = k > words(os_defaults) ? s : dropall(drop(s, word(os_defaults, k).' '), k + 1)
short(s) = dropall(s, 1)
os_sed = ''
do for [w in os_defaults] { os_sed = os_sed.sprintf('s/%s //; ', w) }
# the u64 table (onesweep64): its rows name their 8-byte tile (kpt = 3/4 of the 4-byte count) and
# the bench appends the u64 kernel's blocks per SM (twice where the row's label names a register
# budget: dedup keeps one); the ladder's defaults (os64_defaults) are left out
dedup(s) = (i = strstrt(s, ' blocks/SM='), i == 0 ? s : (j = strstrt(s[i + 1:], ' blocks/SM='), j == 0 ? s : s[1:i + j - 1]))
short64(s) = dedup(drop(drop(drop(drop(drop(drop(drop(s, 'tbs=512 '), 'kpt=12 '), 'bits=8 '), 'match=ballot '), 'counts=early '), 'lookback=4 '), 'stores=generic '))
os64_sed = 's/tbs=512 //; s/kpt=12 //; s/bits=8 //; s/match=ballot //; s/counts=early //; s/lookback=4 //; s/stores=generic //; s/ blocks\/SM=\([0-9]*\) blocks\/SM=[0-9]*/ blocks\/SM=\1/; '
tall_png = "set terminal pngcairo size 1200,TALL font ',11' noenhanced; set output sprintf('%s/%s%s.png', dir, FIG, SUFFIX)"
tall_svg = "set terminal svg size 1200,TALL font ',11' noenhanced dynamic; set output sprintf('%s/%s%s.svg', dir, FIG, SUFFIX)"
os64_defaults = 'tbs=512 kpt=12 (u64) bits=8 match=ballot counts=early lookback=4 stores=generic'
do for [E in 'srts_bits rowdask onesweep onesweep_pairs onesweep64 onesweep_sorted onesweep_pairs_sorted onesweep_pairs_reverse onesweep_pairs_f32-normal'] {
    if (have(E)) {
        f = csv(E); FIG = E
        cubs = val(f, 'step=cub_radix_sort verified=ok', 'items_s'); cub = cubs eq '' ? 0 : real(cubs) / 1e9
        stepname = E eq 'srts_bits' ? 's2_srts' : E eq 'rowdask' ? 's3_rowdask' : 's5_onesweep'
        if (stepname eq 's5_onesweep') { # the longest (shortened) label, rotated below the plot
            lmax = real(system(sprintf("tools/csvq %s %s verified=ok step=%s 'param~blocks/SM=' -- param | sed '%s' | awk '{ if (length > m) m = length } END { print m + 0 }'", f, gf, stepname, E eq 'onesweep64' ? os64_sed : os_sed)))
            # the table's msd_hybrid row (msd_hybrid.cu), drawn after the s5 rows: its x, its label's length
            nos = real(system(sprintf("tools/csvq %s %s verified=ok step=%s 'param~blocks/SM=' -- param | wc -l", f, gf, stepname)))
            nmh = real(system(sprintf("tools/csvq %s %s verified=ok step=msd_hybrid -- param | wc -l", f, gf)))
            lmh = real(system(sprintf("tools/csvq %s %s verified=ok step=msd_hybrid -- param | awk '{ if (length + 12 > m) m = length + 12 } END { print m + 0 }'", f, gf)))
            lmax = lmh > lmax ? lmh : lmax
        } else { nmh = 0 }
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            if (stepname eq 's5_onesweep') { # a taller canvas by the labels' height, so the plot keeps its own
                TALL = 720 + int(lmax * 6.5)
                if (t eq 'png') { @tall_png } else { @tall_svg }
            }
            what = strstrt(E, 'onesweep_pairs') ? 'pairs' : 'keys'
            ttl = sprintf('Chapter 05, %s variants at n = %s, %s %s, on %s (dotted: CUB %.2f G %s/s)', stepname, val(f, 'step!=copy-bandwidth', 'n'), val(f, 'step!=copy-bandwidth', 'input'), what, gpu_of(f), cub, what)
            set title stepname eq 's5_onesweep' ? ttl."\nunless a label says otherwise: ".(E eq 'onesweep64' ? os64_defaults : os_defaults) : ttl
            set xlabel ''; set ylabel sprintf('G %s per second', what); set yrange [0:*]
            set xtics rotate by 90 right font ',8'; set bmargin 27; set key inside right bottom; set offsets 0.5, 0.5, 0, 0
            if (stepname eq 's5_onesweep') { set bmargin (lmax * 0.36 + 3 > 10 ? int(lmax * 0.36) + 3 : 10) }
            if (nmh > 0) {
                plot sel(f, sprintf("step=%s 'param~blocks/SM='", stepname)) using 0:(column(RATE) / 1e9):xtic(short(strcol(PARAM))) with linespoints title stepname.' variant', \
                     sel(f, 'step=msd_hybrid') using (nos):(column(RATE) / 1e9):xtic('msd_hybrid: '.strcol(PARAM)) with points pt 7 ps 1.5 lc rgb 'dark-green' title 'msd_hybrid (split on the top 16 bits, then on chip)', \
                     cub with lines dashtype 3 lc rgb 'red' title 'CUB'
            } else {
                plot sel(f, sprintf("step=%s 'param~blocks/SM='", stepname)) using 0:(column(RATE) / 1e9):xtic(E eq 'onesweep64' ? short64(strcol(PARAM)) : stepname eq 's5_onesweep' ? short(strcol(PARAM)) : strcol(PARAM)) with linespoints title stepname.' variant', \
                     cub with lines dashtype 3 lc rgb 'red' title 'CUB'
            }
            set xtics norotate autofreq font ''; set bmargin; set offsets 0, 0, 0, 0; set key inside right bottom
        }
    }
}

# u32 / i32 / f32 keys per input at the largest n
if (have('types')) {
    f = csv('types'); FIG = 'types'
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 05, key types per input at the largest n on %s', gpu_of(f))
        set xlabel ''; set ylabel 'G keys per second'; set yrange [0:*]
        set xtics rotate by 45 right font ',9'; set bmargin 9; set key outside right top
        plot for [s in steps_of(f)] rows(f, s) using 0:(column(RATE) / 1e9):xtic(strcol(INPUT).' '.strcol(SHAPE)) title s
        set xtics norotate autofreq font ''; set bmargin; set key inside right bottom
    }
}

# DRAM bytes per key and pass, measured by Nsight Compute (traffic.csv, written by traffic.sh when
# `make profile CH=05 N=2^26` runs), against the model of each design: 3n per pass for count +
# scatter, 2n for Onesweep
if (have('traffic')) {
    f = csv('traffic'); FIG = 'traffic'
    tq = sprintf("< tools/csvq %s %s -- measured_per_pass model_per_pass step type pct_copy", f, gf)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set title sprintf('Chapter 05, DRAM traffic per pass in key sizes (n = %s, %s, Nsight Compute) on %s', val(f, 'step!=', 'n'), val(f, 'step!=', 'input'), val(f, 'step!=', 'gpu'))
        set xlabel ''; set ylabel 'bytes moved per pass / (n x key bytes)'; set yrange [0:4.5]
        set style fill solid 0.5; set boxwidth 0.6
        set xtics rotate by 30 right font ',10'; set bmargin 7; set key inside right top
        plot tq using 0:1:xtic(strcol(3).' '.strcol(4)) with boxes title 'measured (histogram pass shared out)', \
             '' using 0:2 with points pt 7 ps 1.5 lc rgb 'red' title 'model: 3n count+scatter, 2n one sweep', \
             '' using 0:1:(sprintf('%.0f%% of copy', column(5))) with labels offset 0,1 font ',9' notitle
        set xtics norotate autofreq font ''; set bmargin; set style fill empty; set yrange [*:*]; set key inside right bottom
    }
}

# The document's numbers beside ours (reference/published/05-radix-sort.csv), each normalised
# within its own run: (a) the speed-up of the SRTS sort over the CUDPP-style sort (Satish et al.)
# on the same GPU - Merrill & Grimshaw's per-device table, ours s2_srts over s1_satish, uniform
# 32-bit keys at the largest n of `inputs`; (b) Brown's Row-DASk sort per (nWarps, nWork), as a
# fraction of the best cell of its own table - Table 9.11 (GTX Titan, key-value pairs) and ours
# (s3_rowdask, keys only, `rowdask`).
pub = 'reference/published/05-radix-sort.csv'
pubv(fg, g, s, x) = pubval(sprintf("figure=%s 'gpu=%s' 'series=%s' 'x=%s'", fg, g, s, x))
# drawn for a GPU that has both runs (the two CSVs' rows of the same GPU, never one of each)
if (have('inputs') && have('rowdask') && gpu_of(csv('inputs')) eq gpu_of(csv('rowdask'))) {
    f = csv('inputs'); fr = csv('rowdask'); FIG = 'vs-document'
    devs = system(sprintf("tools/csvq %s figure=mg-fig9 -- gpu | awk '!s[$0]++' | tr ' ' '_' | tr '\\n' ' '", pub))
    rate(s, kind) = real(val(f, sprintf("step=%s input=uniform verified=ok 'shape~pairs=%s '", s, kind), 'items_s'))
    set print $VSDOC05
    do for [i = 1:words(devs)] {
        g = word(devs, i); gs = system(sprintf("echo '%s' | tr '_' ' '", g))
        print sprintf('%d %.3f %.3f "%s"', i, pubv('mg-fig9', gs, 'SRTS keys', '') / pubv('mg-fig9', gs, 'CUDPP keys', ''), \
                      pubv('mg-fig9', gs, 'SRTS pairs', '') / pubv('mg-fig9', gs, 'CUDPP pairs', ''), gs)
    }
    print sprintf('%d %.3f %.3f "%s"', words(devs) + 1, rate('s2_srts', 'keys') / rate('s1_satish', 'keys'), rate('s2_srts', 'pairs') / rate('s1_satish', 'pairs'), 'ours: '.gpu_of(f))
    unset print
    nd = words(devs) + 1
    # Brown's table and ours, each over its best cell
    dbest = real(system(sprintf("tools/csvq %s figure=table9.11 -- value | sort -g | tail -n 1", pub)))
    obest = real(system(sprintf("tools/csvq %s %s verified=ok step=s3_rowdask 'param~blocks/SM=' -- items_s | sort -g | tail -n 1", fr, gf)))
    docw(w) = sprintf("< tools/csvq %s figure=table9.11 series=nWarps=%d -- x value", pub, w)
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set multiplot title sprintf("Chapter 05, LSD radix sort: the documents (Merrill & Grimshaw: GT200 and G80 GPUs; Brown ch. 9: GTX Titan) beside ours (%s), 32-bit keys,\neach as a ratio within one run: (a) SRTS over a CUDPP-style sort on the same GPU; (b) each (nWarps, nWork) over the best of its own table", gpu_of(f))
        set size 0.55, 0.9; set origin 0, 0
        set datafile separator whitespace
        set title '(a) SRTS / CUDPP-style, uniform keys (M&G, table with Figs. 8-9; ours: s2_srts / s1_satish)'
        set ylabel 'speed-up over the CUDPP-style sort'; set yrange [0:4.5]; set xrange [0.4:nd + 0.6]
        set xtics rotate by 30 right font ',8'; set style fill solid 0.5; set boxwidth 0.35; set key inside right top font ',8'
        plot $VSDOC05 using ($1 - 0.18):2:xtic(4) with boxes lc 1 title 'keys only', \
             '' using ($1 + 0.18):3 with boxes lc 2 title 'key-value pairs', \
             '' using ($1 - 0.18):2:(sprintf('%.1f', $2)) with labels offset 0,0.6 font ',7' notitle, \
             '' using ($1 + 0.18):3:(sprintf('%.1f', $3)) with labels offset 0,0.6 font ',7' notitle
        set datafile separator ','
        set style fill empty; set xtics norotate autofreq font ''
        set size 0.45, 0.9; set origin 0.55, 0
        set title "(b) Row DASk: rate / the table's best (Brown Table 9.11)"
        set xlabel 'nWork (keys per thread)'; set ylabel "rate / best rate of the same table"; set xrange [0.5:16.5]; set xtics 1, 1, 16; set yrange [0:1.1]
        set key inside right bottom font ',8'
        plot for [w in '2 4 8'] sel(fr, sprintf("step=s3_rowdask 'param~^nWarps=%s .*blocks/SM='", w)) using (pval('nWork')):(column(RATE) / obest) with linespoints lc (w / 2) pt 7 lw 2 title sprintf('ours: nWarps = %s (keys)', w), \
             for [w in '2 4 8'] docw(w + 0) using 1:($2 / dbest) with linespoints lc (w / 2) pt 6 dashtype 2 title sprintf('Titan: nWarps = %s (pairs)', w)
        unset multiplot
        set size 1, 1; set origin 0, 0
        set xrange [*:*]; set yrange [*:*]; set xtics autofreq; set xlabel; set ylabel; set key inside right bottom
    }
}
