# demo.gp - the ladder figure of `make demo` and `make walk` (tools/demo-figure.sh runs it):
# throughput per step as bars (the CPU baselines grey, labelled), the yardsticks and cudaMemcpy as
# lines.  Set on the command line: f (the program's build/demo/chNN.csv), L (a ladder id of it),
# out (the figure's path without .png/.svg).
set datafile separator ','
set style fill solid 0.85 border -1
set boxwidth 0.7
set key inside left top box opaque noenhanced
set grid ytics
set bmargin 9
set xtics noenhanced nomirror font ',9' rotate by 30 right
set ylabel 'GB/s (bytes the step must move / time)'
set offsets 0.5, 0.5, 0, 0
q(filt, cols) = sprintf("< tools/csvq %s ladder=%s %s -- %s", f, L, filt, cols)
first(filt, col) = system(sprintf("tools/csvq %s ladder=%s %s -- %s | head -n 1", f, L, filt, col))
copy = real(first('', 'copy_gbps'))
set yrange [0:copy * 1.2]
title = first('', 'title')
gpu = first('', 'gpu')
n = first('', 'n')
ynames = system(sprintf("tools/csvq %s ladder=%s kind=yardstick 'gbps>0' -- step | tr '\\n' ' '", f, L))
yvals = system(sprintf("tools/csvq %s ladder=%s kind=yardstick 'gbps>0' -- gbps | tr '\\n' ' '", f, L))
bars = q('kind!=yardstick', 'step gbps kind mark')
ycolours = '#d95f02 #1b9e77 #7570b3 #e7298a' # one per yardstick line
colour(k) = k eq 'cpu' ? 0x999999 : 0x2f6db5
label(g) = g <= 0 ? '' : sprintf(g < 10 ? '%.2f' : '%.0f', g)
# the x label: the step, and under it how its number came about (- : measured now)
tic(step, m) = m eq '-' ? step : sprintf("%s\n(%s)", step, m)
do for [t in 'png svg'] {
    if (t eq 'png') { set terminal pngcairo size 1200,720 font ',11' noenhanced; set output out.'.png' }
    else { set terminal svg size 1200,720 font ',11' noenhanced dynamic; set output out.'.svg' }
    set title sprintf("%s\n%s, n = %s: each step (bars), the yardsticks and cudaMemcpy (lines)", title, gpu, n)
    if (words(ynames) > 0) {
        plot bars using 0:2:(colour(strcol(3))):xtic(tic(strcol(1), strcol(4))) with boxes lc rgb variable notitle, \
             bars using 0:2:(label($2)) with labels offset 0,0.8 notitle, \
             copy with lines dashtype 2 lw 2 lc rgb 'black' title sprintf('cudaMemcpy D2D %.0f GB/s', copy), \
             for [k = 1:words(ynames)] real(word(yvals, k)) with lines lw 2 dashtype 3 lc rgb word(ycolours, (k - 1) % 4 + 1) title sprintf('%s %.0f GB/s', word(ynames, k), real(word(yvals, k)))
    } else {
        plot bars using 0:2:(colour(strcol(3))):xtic(tic(strcol(1), strcol(4))) with boxes lc rgb variable notitle, \
             bars using 0:2:(label($2)) with labels offset 0,0.8 notitle, \
             copy with lines dashtype 2 lw 2 lc rgb 'black' title sprintf('cudaMemcpy D2D %.0f GB/s', copy)
    }
}
