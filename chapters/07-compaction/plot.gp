# plot.gp - chapter 07 figures (run by `make plots`, after reference/plot_common.gp)
# Rows are read by name (tools/csvq through sel()); the input column names p ("p=0.30"),
# the shape column the mode ("pred=if output=index").  Throughput is in elements per second
# (the GB/s column counts what a step must move: the values it reads, the flags, the
# selected elements it writes and the count).

# distinct values of a column among the verified rows matching filt
values_of(f, filt, col) = system(sprintf("tools/csvq %s verified=ok step!=copy-bandwidth %s -- %s | awk '!seen[$0]++' | tr '\\n' ' '", f, filt, col))
steps_where(f, filt) = values_of(f, filt, 'step')
log2(x) = int(log(x) / log(2) + 0.5)
pof(s) = real(substr(s, 3, 6)) # "p=0.30" -> 0.3
plural(o) = o eq 'index' ? 'indices' : 'values'

# Fig. 11: time and elements/s vs p, per output kind and n
if (have('select_p')) {
    f = csv('select_p')
    do for [o in 'index value'] {
        do for [n in values_of(f, "'shape~output=".o."'", 'n')] {
            filt = sprintf("n=%s 'shape~output=%s' 'input~^p=[01][.]'", n, o)
            do for [what in 'time rate'] {
                FIG = sprintf('select_p-%s-2^%d%s', o, log2(real(n)), what eq 'time' ? '' : '-rate')
                do for [t in 'png svg'] {
                    if (t eq 'png') { @png } else { @svg }
                    set title sprintf('Chapter 07, select (%s out, If) vs the fraction selected p, n = 2^%d, on %s', plural(o), log2(real(n)), gpu_of(f))
                    set xlabel 'p (fraction selected)'; set xrange [-0.05:1.05]; set key outside right top
                    if (what eq 'time') { set ylabel 'ms per run'; set logscale y; set yrange [*:*] } else { set ylabel 'G elements per second'; unset logscale y; set yrange [0:*] }
                    plot for [s in steps_where(f, filt)] sel(f, sprintf('step=%s %s', s, filt)) using (pof(strcol(INPUT))):(what eq 'time' ? column(MS) : column(RATE) / 1e9) title s
                    unset logscale y; set xrange [*:*]; set key inside right bottom
                }
            }
        }
    }
}

# Fig. 12: elements/s vs n at p = 0.5 (and the CPU baselines), indices and values
if (have('select_n')) {
    f = csv('select_n')
    do for [o in 'index value'] {
        filt = sprintf("'shape~output=%s'", o); FIG = 'select_n-'.o
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            @sweep_setup
            set ylabel 'G elements per second'; set logscale y; set yrange [*:*]
            set title sprintf('Chapter 07, select (%s out, If) vs n at p = 0.5, on %s', plural(o), gpu_of(f))
            plot for [s in steps_where(f, filt)] sel(f, sprintf('step=%s %s', s, filt)) using N:(column(RATE) / 1e9) title s
            unset logscale x; unset logscale y; set format x '%g'; set key inside right bottom
        }
    }
}

# every named input at the largest n, If and Flagged (values out)
if (have('select_inputs')) {
    f = csv('select_inputs')
    do for [pr in 'if flagged'] {
        filt = sprintf("'shape~pred=%s '", pr); FIG = 'select_inputs-'.pr
        ins = values_of(f, filt, 'input')
        pos(s, i) = i > words(ins) ? NaN : (word(ins, i) eq s ? i : pos(s, i + 1))
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            set title sprintf('Chapter 07, select (values out, %s) on every input at the largest n, on %s', pr, gpu_of(f))
            set xlabel ''; set ylabel 'G elements per second'; set logscale y; set yrange [*:*]; set xrange [0.5:words(ins) + 0.5]
            set xtics rotate by 45 right font ',9'; set bmargin 8; set key outside right top
            set xtics (); do for [i = 1:words(ins)] { set xtics add (word(ins, i) i) }
            plot for [s in steps_where(f, filt)] sel(f, sprintf('step=%s %s', s, filt)) using (pos(strcol(INPUT), 1)):(column(RATE) / 1e9) with linespoints title s
            unset logscale y; set xrange [*:*]; set xtics norotate autofreq font ''; set bmargin; set key inside right bottom
        }
    }
}

# partition and unique vs n
do for [E in 'partition unique'] {
    if (have(E)) {
        f = csv(E)
        do for [inp in inputs_of(f)] {
            FIG = E.'-'.inp
            do for [t in 'png svg'] {
                if (t eq 'png') { @png } else { @svg }
                @sweep_setup
                set ylabel 'G elements per second'; set logscale y; set yrange [*:*]
                set title sprintf('Chapter 07, %s (values out) vs n on input %s, on %s', E, inp, gpu_of(f))
                plot for [s in steps_of(f)] rows_in(f, s, inp) using N:(column(RATE) / 1e9) title s
                unset logscale x; unset logscale y; set format x '%g'; set key inside right bottom
            }
        }
    }
}

# Fig. 13: the kernels of the multi-kernel steps, one bar per (step, phase), per n
if (have('phases')) {
    f = csv('phases'); ph = 'count scan write'
    do for [n in values_of(f, '', 'n')] {
        FIG = sprintf('phases-2^%d', log2(real(n))); st = steps_where(f, 'n='.n)
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            set title sprintf('Chapter 07, time per kernel of the multi-kernel steps (indices out, p = 0.5), n = 2^%d, on %s', log2(real(n)), gpu_of(f))
            set xlabel ''; set ylabel 'ms'; set yrange [0:*]; set xrange [0.5:words(st) + 0.5]; set key outside right top
            set style fill solid 0.6 border -1; set boxwidth 0.25
            set xtics (); do for [i = 1:words(st)] { set xtics add (word(st, i) i) }
            plot for [j = 1:3] sel(f, sprintf('n=%s phase=%s', n, word(ph, j))) using (NaN):MS with boxes title word(ph, j), \
                 for [i = 1:words(st)] for [j = 1:3] sel(f, sprintf('step=%s n=%s phase=%s', word(st, i), n, word(ph, j))) using (i + 0.27 * (j - 2)):MS with boxes lc j notitle
            set style fill empty; set xrange [*:*]; set xtics autofreq; set key inside right bottom
        }
    }
}

# the tuning tables (when built): every variant's param on x, CUB's elements/s dotted
do for [E in 'tpb'] {
    if (have(E)) {
        f = csv(E); FIG = E
        cubs = val(f, 'step=cub_select verified=ok', 'items_s'); cub = cubs eq '' ? 0 : real(cubs) / 1e9
        stepname = E eq 'tpb' ? 's4_three_phase' : 's6_single_pass'
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            set title sprintf('Chapter 07, %s variants at n = %s on %s (dotted: CUB %.2f G elements/s)', stepname, val(f, 'step!=copy-bandwidth', 'n'), gpu_of(f), cub)
            set xlabel ''; set ylabel 'G elements per second'; set yrange [0:*]
            set xtics rotate by 60 right font ',9'; set bmargin 12; set key inside right top; set offsets 0.5, 0.5, 0, 0
            plot sel(f, sprintf("step=%s 'param~blocks/SM='", stepname)) using 0:(column(RATE) / 1e9):xtic(strcol(PARAM)) with linespoints title stepname.' variant', \
                 cub with lines dashtype 3 lc rgb 'red' title 'CUB'
            set xtics norotate autofreq font ''; set bmargin; set offsets 0, 0, 0, 0; set key inside right bottom
        }
    }
}

# s6's single-pass table, one figure per output: a line per p over the table's rows (in table order;
# a run that lacks the last rows ends early), CUB's rate at that p dotted in the same colour.  The
# labels drop what every row shares.
sp_sed = 's/ ([0-9]*\/4 x 16-byte loads)//; s/lookback=warp //; s/stage=smem //; s/tile=blockIdx/bidx/; s/minblocks=/minb=/; s/walker=own warp/walker/; s/prefetch=L2 ahead=resident/pf=R/; s/\(minb=\([0-9]*\).*\) blocks\/SM=\2$/\1/; s/,[^,]*$//'
if (have('single_pass')) {
    f = csv('single_pass')
    sp_ps = system(sprintf("tools/csvq %s %s verified=ok step=s6_single_pass -- input | awk '!seen[$0]++' | tr '\n' ' '", f, gf))
    do for [o in 'value index'] {
        FIG = 'single_pass-'.o
        # the labels: the p with the most rows; every p's rows are placed at their param's label
        sp_most = system(sprintf("tools/csvq %s %s verified=ok step=s6_single_pass 'shape~output=%s' 'param~blocks/SM=' -- input | sort | uniq -c | sort -k1,1nr | awk 'NR == 1 { print $2 }'", f, gf, o))
        spr(p) = sprintf("tools/csvq %s %s verified=ok step=s6_single_pass input=%s 'shape~output=%s' 'param~blocks/SM=' -- param items_s", f, gf, p, o)
        spq(p) = sprintf("< { %s | sed 's/^/M,/'; %s | sed 's/^/P,/'; } | awk -F, '$1 == \"M\" { i[$2] = n++; next } ($2 in i) { print i[$2] \",\" $3 }'", spr(sp_most), spr(p))
        spc(p) = (v = val(f, sprintf("step=cub_select verified=ok input=%s 'shape~output=%s'", p, o), 'items_s'), v eq '' ? NaN : real(v) / 1e9)
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            set title sprintf("Chapter 07, s6_single_pass variants, %s output, n = %s on %s\ndotted: CUB at the same p; bidx: the tile from blockIdx; minb: blocks per SM of the launch bounds (blocks/SM shown where it differs);\nwalker: a look-back warp of its own; pf=R/k: L2 prefetch of the tile R/k ahead (R: the resident blocks)\nevery row: lookback=warp stage=smem, items/4 16-byte loads", o eq 'value' ? 'value' : 'index', val(f, 'step!=copy-bandwidth', 'n'), gpu_of(f))
            set xlabel ''; set ylabel 'G elements per second'; set yrange [0:*]
            set xtics rotate by 90 right font ',8'; set bmargin 23; set key outside right top; set offsets 0.5, 0.5, 0, 0
            plot '< '.spr(sp_most) using 0:(NaN):xtic(system(sprintf("echo '%s' | sed '%s'", strcol(1), sp_sed))) notitle, \
                 for [i = 1:words(sp_ps)] spq(word(sp_ps, i)) using 1:($2 / 1e9) with linespoints lc i title word(sp_ps, i), \
                 for [i = 1:words(sp_ps)] spc(word(sp_ps, i)) with lines dashtype 3 lc i notitle
            set xtics norotate autofreq font ''; set bmargin; set offsets 0, 0, 0, 0; set key inside right bottom
        }
    }
}

# The document's number beside ours (reference/published/07-compaction.csv), both as the speed-up
# over Thrust copy_if in the same run: ours t(thrust_copy_if) / t(step) at every p (indices out,
# uniform data), the paper's 3.67x for its three phases (K40m, CUDA 7.0) as a line.  The paper gives
# its other results only as charts; its five kernels are our s0..s4.
pub = 'reference/published/07-compaction.csv'
pubv(fg, s) = pubval(sprintf("figure=%s 'series=%s'", fg, s))
# "p,t(thrust)/t(step)" at n for one output kind
overthrust(f, s, n, o) = sprintf("< tools/csvq %s %s verified=ok n=%s 'shape~output=%s' 'input~^p=[01][.]' -- step input ms_median | awk -F, -v s=%s '$1 == \"thrust_copy_if\" { t[$2] = $3 } $1 == s { m[$2] = $3; o[++k] = $2 } END { for (i = 1; i <= k; i++) if ((o[i] in t) && m[o[i]] > 0) print substr(o[i], 3) \",\" t[o[i]] / m[o[i]] }'", f, gf, n, o, s)
if (have('select_p')) {
    f = csv('select_p'); FIG = 'vs-document'
    d3 = pubv('fig11', 'three phases over Thrust copy_if')
    ns = system(sprintf("tools/csvq %s %s verified=ok step=thrust_copy_if 'shape~output=index' -- n | awk '!seen[$0]++' | tr '\\n' ' '", f, gf))
    array CS[7] = ['s0_atomic_global', 's1_atomic_block', 's2_warp_atomic', 's3_ballot_rank', 's4_three_phase', 's9_prefetch', 'cub_select']
    array CL[7] = ['s0: one global counter', 's1: a counter per block', "s2: warp-aggregated atomics (Adinetz)", "s3: ballot list ranking (the paper's [12])", "s4: the paper's three phases", 's9: our best order-keeping step', 'CUB DeviceSelect::If']
    array CC[7] = [1, 2, 3, 4, 7, 6, 8]
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set multiplot layout 1,words(ns) title sprintf("Chapter 07, stream compaction (indices out, uniform data): the paper (Bakunas-Milanowski et al., Tesla K40m) beside ours (%s),\nboth as the speed-up over Thrust copy_if in the same run (ours: t(thrust) / t(step) at each p; the paper: its 3.67x for the three phases, a line)", gpu_of(f))
        do for [n in ns] {
            set title sprintf('n = 2^%d', log2(real(n)))
            set xlabel 'p (fraction selected)'; set xrange [-0.02:1.02]; set xtics 0.2
            set logscale y 2; set ylabel 'speed-up over thrust::copy_if (same run)'; set yrange [0.0625:40]
            set key inside right top font ',8' maxrows -1
            plot for [i = 1:7] overthrust(f, CS[i], n, 'index') using 1:2 with linespoints lc CC[i] pt 7 ps 0.6 title CL[i], \
                 d3 with lines lc 7 lw 3 dashtype 3 title sprintf('paper (Fig. 11 text): three phases %.2fx', d3), \
                 1 with lines lc rgb 'black' dashtype 2 notitle
        }
        unset multiplot
        unset logscale y; set xrange [*:*]; set yrange [*:*]; set xtics autofreq; set xlabel; set ylabel; set key inside right bottom
    }
}
