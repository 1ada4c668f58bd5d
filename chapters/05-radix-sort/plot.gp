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
            set key inside left top; set logscale x 2; set format x '2^%L'; set xlabel 'n (keys)'
            set logscale y 10; set ylabel 'keys per second'; set yrange [*:*]
            plot for [s in steps_of(f)] rows_in(f, s, inp) using N:RATE title s
            unset logscale x; unset logscale y; set format x '%g'; set key inside right bottom
        }
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
do for [E in 'srts_bits rowdask onesweep'] {
    if (have(E)) {
        f = csv(E); FIG = E
        cubs = val(f, 'step=cub_radix_sort verified=ok', 'items_s'); cub = cubs eq '' ? 0 : real(cubs) / 1e9
        stepname = E eq 'srts_bits' ? 's2_srts' : E eq 'rowdask' ? 's3_rowdask' : 's5_onesweep'
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            set title sprintf('Chapter 05, %s variants at n = %s on %s (dotted: CUB %.2f G keys/s)', stepname, val(f, 'step!=copy-bandwidth', 'n'), gpu_of(f), cub)
            set xlabel ''; set ylabel 'G keys per second'; set yrange [0:*]
            set xtics rotate by 90 right font ',8'; set bmargin 27; set key inside right bottom; set offsets 0.5, 0.5, 0, 0
            plot sel(f, sprintf("step=%s 'param~blocks/SM='", stepname)) using 0:(column(RATE) / 1e9):xtic(strcol(PARAM)) with linespoints title stepname.' variant', \
                 cub with lines dashtype 3 lc rgb 'red' title 'CUB'
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
