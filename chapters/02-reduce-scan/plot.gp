# plot.gp - chapter 02 figures (run by `make plots`, after reference/plot_common.gp)

pub = 'reference/published/02-reduce-scan.csv'
# the document's numbers (table, GPU, series) as "x,value" rows, and its GPU's datasheet peak
doc(t, g, s) = sprintf("< tools/csvq %s figure=%s 'gpu=%s' series=%s -- x value", pub, t, g, s)
DX = 1; DV = 2
peak(g) = real(system(sprintf("tools/csvq %s figure=peak 'gpu=%s' -- value", pub, g)))
# the verified rows of one step at n, and at the largest n of the file
at_n(f, s, n) = sel(f, sprintf('step=%s n=%d', s, n))
max_n(f, s) = system(sprintf("tools/csvq %s %s verified=ok step=%s -- n | sort -n | tail -n 1", f, gf, s))
at_max(f, s) = sel(f, sprintf('step=%s n=%s', s, max_n(f, s)))

# throughput vs n, one line per step: reduce, scan, float, affine
array SW[4] = ['reduce', 'scan', 'float', 'affine']
array ST[4] = ['reduce, uint32 sum (4n bytes)', 'exclusive scan, uint32 sum (8n bytes)', 'reduce, float sum (4n bytes)', 'exclusive scan of affine maps, 8-byte elements (16n bytes)']
do for [k = 1:4] {
    if (have(SW[k])) {
        f = csv(SW[k]); FIG = SW[k]; bw = copy_of(f)
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            @sweep_setup
            set title sprintf('Chapter 02, %s: throughput vs n on %s (dashed: cudaMemcpy D2D %.0f GB/s)', ST[k], gpu_of(f), bw)
            plot for [s in steps_of(f)] rows(f, s) using N:GBPS title s, bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
            unset logscale x; set format x '%g'; set key inside right bottom
        }
    }
}

if (have('pairs')) {
    f = csv('pairs'); bw = copy_of(f)
    # Table 6.15: every (nWarps, nWork) pair, one line per nWarps
    do for [p in 'reduce scan'] {
        FIG = 'pairs-'.p; s = (p eq 'reduce') ? 'r7_row_dask' : 's3_row_dask'
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            set title sprintf("Chapter 02, Row DASk (Brown) %s (%s): nWarps x nWork at the largest n, on %s", p, s, gpu_of(f))
            set xlabel 'nWork (elements per thread per data block)'; set ylabel 'GB/s'; set xrange [0.5:8.5]; set xtics 1; set yrange [0:*]
            set key outside right top
            plot for [w = 1:8] rows_with(f, s, sprintf('nWarps=%d', w)) using (pval('nWork')):GBPS title sprintf('nWarps = %d', w), \
                 bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
            set xrange [*:*]; set xtics autofreq; set key inside right bottom
        }
    }
    # Tables 6.13 and 6.14: TLP (nWork = 1) and ILP (nWarps = 1); ours as % of copy, the document as % of peak
    do for [e in 'tlp ilp'] {
        FIG = e; fixed = (e eq 'tlp') ? 'nWork=1' : 'nWarps=1'; knob = (e eq 'tlp') ? 'nWarps' : 'nWork'
        tab = (e eq 'tlp') ? 'table6.13' : 'table6.14'
        pk580 = peak('GTX 580'); pkTitan = peak('GTX Titan')
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            set title sprintf('Chapter 02, %s sweep (%s): ours on %s as %% of cudaMemcpy, the document as %% of peak', (e eq 'tlp') ? 'TLP' : 'ILP', fixed, gpu_of(f))
            set xlabel knob; set ylabel 'percent'; set xrange [0.5:8.5]; set xtics 1; set yrange [0:*]
            set key outside right top
            plot rows_with(f, 'r7_row_dask', fixed) using (pval(knob)):PCT lw 2 title 'ours: reduce', \
                 rows_with(f, 's3_row_dask', fixed) using (pval(knob)):PCT lw 2 title 'ours: scan (2n bytes)', \
                 doc(tab, 'GTX Titan', 'reduce') using DX:(100 * column(DV) / pkTitan) dashtype 3 title 'GTX Titan: reduce', \
                 doc(tab, 'GTX Titan', 'scan') using DX:(100 * column(DV) / pkTitan) dashtype 3 title 'GTX Titan: scan', \
                 doc(tab, 'GTX 580', 'reduce') using DX:(100 * column(DV) / pk580) dashtype 4 title 'GTX 580: reduce', \
                 doc(tab, 'GTX 580', 'scan') using DX:(100 * column(DV) / pk580) dashtype 4 title 'GTX 580: scan'
            set xrange [*:*]; set xtics autofreq; set key inside right bottom
        }
    }
}

# Fig. 6.18 / Table 6.16 (bank-conflict strategies) and Fig. 6.5 (five curves): vs n
array VF[4] = ['bank', 'bank-reduce', 'curves-scan', 'curves-reduce']
array VC[4] = ['bank', 'bank', 'curves', 'curves']
array VS[4] = ['s3_row_dask', 'r7_row_dask', 's3_row_dask', 'r7_row_dask']
array VK[4] = ['bc', 'bc', 'curve', 'curve']
array VL[4] = ['pad vec4 odd low high', 'pad vec4 odd low high', 'baseline ilp tlp mitigates avoids', 'baseline ilp tlp mitigates avoids']
array BT[5] = ['avoid: pad & rake (4,8)', 'mitigate: 16-byte vectors (4,8)', 'avoid: odd runs (3,5)', 'live with 2-way conflicts (6,6)', 'live with 8-way conflicts (4,8)']
array CT[5] = ['baseline (1,1)', 'ILP-focused (1,8)', 'TLP-focused (4,1)', 'mitigates bank conflicts: 16-byte vectors', 'avoids bank conflicts: pad & rake']
array VT[4] = ['scan, bank-conflict strategies (Fig. 6.18)', 'reduce, bank-conflict strategies', 'scan, baseline / ILP / TLP / mitigate / avoid (Fig. 6.5)', 'reduce, baseline / ILP / TLP / mitigate / avoid (Fig. 6.5)']
do for [k = 1:4] {
    if (have(VC[k])) {
        f = csv(VC[k]); FIG = VF[k]; bw = copy_of(f)
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            @sweep_setup
            set title sprintf("Chapter 02, Row DASk (Brown) %s, on %s", VT[k], gpu_of(f))
            plot for [i = 1:5] sel(f, sprintf("step=%s 'param~^%s=%s '", VS[k], VK[k], word(VL[k], i))) using N:GBPS title (VK[k] eq 'bc' ? BT[i] : CT[i]), \
                 bw with lines dashtype 2 lc rgb 'black' title 'copy bandwidth'
            unset logscale x; set format x '%g'; set key inside right bottom
        }
    }
}

# the best steps' knobs beside CUB, at 2^20 and at the largest n
if (have('tune')) {
    f = csv('tune')
    do for [p in 'reduce scan'] {
        FIG = 'tune-'.p; s = (p eq 'reduce') ? 'r8_hopper' : 's4_lookback'; y = (p eq 'reduce') ? 'cub_reduce' : 'cub_scan'
        do for [t in 'png svg'] {
            if (t eq 'png') { @png } else { @svg }
            set title sprintf('Chapter 02, %s knobs (bars) vs %s (lines), on %s', s, y, gpu_of(f))
            set xlabel ''; set ylabel 'GB/s'; set yrange [0:*]; set xtics rotate by -35 font ',9'; set style fill solid 0.5; set boxwidth 0.4
            set key outside right top
            nv = words(system(sprintf("tools/csvq %s %s verified=ok step=%s n=1048576 -- n", f, gf, s)))
            plot at_n(f, s, 1048576) using ($0 - 0.2):GBPS:xticlabels(PARAM) with boxes title 'n = 2^20', \
                 at_max(f, s) using ($0 + 0.2):GBPS with boxes title 'largest n', \
                 at_n(f, y, 1048576) using (-0.5):GBPS:(nv):(0) with vectors nohead lw 2 title y.', n = 2^20', \
                 at_max(f, y) using (-0.5):GBPS:(nv):(0) with vectors nohead lw 2 dashtype 2 title y.', largest n'
            set xtics norotate font ',11' autofreq; set key inside right bottom
        }
    }
}

# The document's numbers beside ours, both as % of the same GPU's copy: ours is the pct_copy
# column (cudaMemcpy D2D, the copy-bandwidth row of the same CSV); the document's GB/s are divided
# by its own best copy on the same GPU (Table 6.4: 175.0 GB/s GTX 580, 236.3 Titan), which is how
# its Table 6.15 computes "% of copy".  Bytes: n words for a reduce, 2n for a scan, on both sides.
copyof(g) = real(system(sprintf("tools/csvq %s figure=table6.4 'gpu=%s' series=copy x=best -- value", pub, g)))
if (have('pairs') && have('bank')) {
    f = csv('pairs'); fk = csv('bank'); FIG = 'vs-document'
    c580 = copyof('GTX 580'); cTitan = copyof('GTX Titan')
    log2s(n) = sprintf('2^%.0f', log(real(n)) / log(2))
    bigp = system(sprintf("tools/csvq %s %s verified=ok step=s3_row_dask -- n | sort -n | tail -n 1", f, gf))
    bigk = system(sprintf("tools/csvq %s %s verified=ok step=s3_row_dask -- n | sort -n | tail -n 1", fk, gf))
    # Table 6.16 (Titan scan) and ours at the largest n of `bank`, strategy by strategy
    array BK[5] = ['pad', 'vec4', 'odd', 'low', 'high']
    array BL[5] = ['pad & rake', '16-byte vectors', 'odd runs', '2-way conflicts', '8-way conflicts']
    set print $VSDOC02
    do for [i = 1:5] {
        o = val(fk, sprintf("step=s3_row_dask n=%s verified=ok 'param~^bc=%s '", bigk, BK[i]), 'pct_copy')
        d = real(system(sprintf("tools/csvq %s figure=table6.16 'gpu=GTX Titan' series=%s -- value", pub, BK[i])))
        print sprintf('%d %s %.2f "%s"', i, o eq '' ? 'NaN' : o, 100 * d / cTitan, BL[i])
    }
    unset print
    do for [t in 'png svg'] {
        if (t eq 'png') { @png } else { @svg }
        set multiplot layout 1,3 title sprintf("Chapter 02, Row-DASk reduce and scan: the document (Brown ch. 6: GTX 580, GTX Titan, n = 2^28) beside ours (%s, n = %s),\nboth as %% of the same GPU's copy (document: GB/s / its best copy of Table 6.4; ours: / cudaMemcpy D2D)", gpu_of(f), log2s(bigp))
        set ylabel "% of the same GPU's copy"; set yrange [0:120]; set xrange [0.5:8.5]; set xtics 1
        set key inside right bottom font ',8' maxrows 6
        do for [e in 'tlp ilp'] {
            fixed = (e eq 'tlp') ? 'nWork=1' : 'nWarps=1'; knob = (e eq 'tlp') ? 'nWarps' : 'nWork'; tab = (e eq 'tlp') ? 'table6.13' : 'table6.14'
            set title sprintf('(%s) %s: %s = 1 (Table %s)', (e eq 'tlp') ? 'a' : 'b', (e eq 'tlp') ? 'TLP' : 'ILP', (e eq 'tlp') ? 'nWork' : 'nWarps', substr(tab, 6, 9))
            set xlabel knob
            plot rows_with(f, 'r7_row_dask', fixed) using (pval(knob)):PCT lw 2 lc 1 pt 7 title 'ours: reduce', \
                 rows_with(f, 's3_row_dask', fixed) using (pval(knob)):PCT lw 2 lc 2 pt 7 title 'ours: scan', \
                 doc(tab, 'GTX Titan', 'reduce') using DX:(100 * column(DV) / cTitan) dashtype 2 lc 1 pt 6 title 'Titan: reduce', \
                 doc(tab, 'GTX Titan', 'scan') using DX:(100 * column(DV) / cTitan) dashtype 2 lc 2 pt 6 title 'Titan: scan', \
                 doc(tab, 'GTX 580', 'reduce') using DX:(100 * column(DV) / c580) dashtype 3 lc 1 pt 4 title 'GTX 580: reduce', \
                 doc(tab, 'GTX 580', 'scan') using DX:(100 * column(DV) / c580) dashtype 3 lc 2 pt 4 title 'GTX 580: scan'
        }
        set datafile separator whitespace
        set title sprintf('(c) scan: bank conflicts (Table 6.16), n = %s', log2s(bigk))
        set xlabel ''; set xrange [0.4:5.6]; set xtics font ',8' rotate by 20 right; set style fill solid 0.4; set boxwidth 0.35
        set key inside left top font ',8' maxrows -1
        plot $VSDOC02 using ($1 - 0.18):2:xtic(4) with boxes lc 2 title 'ours: s3_row_dask', \
             '' using ($1 + 0.18):3 with boxes fs pattern 4 lc 2 title 'document: GTX Titan'
        set datafile separator ','
        unset multiplot
        set style fill empty; set xtics norotate autofreq font ''; set xrange [*:*]; set yrange [*:*]; set xlabel; set ylabel; set key inside right bottom
    }
}
