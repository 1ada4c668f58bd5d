# plot_common.gp - shared gnuplot helpers; `make plots` loads this file before
# each chapter's plot.gp, with dir='plots/NN-topic' set on the command line.
# CSV columns (KIT_CSV_HEADER in reference/kit.h): 1 chapter, 2 step, 3 param, 4 n, 5 bytes,
# 6 ms_median, 7 ms_min, 8 gbps, 9 gelem_s, 10 pct_copy, 11 verified, 12 gpu.
# Rows that failed verification are never plotted: every selector keeps
# verified == ok only.

set datafile separator ','
set key inside right bottom box opaque
set grid xtics ytics mxtics
set style data linespoints

csv(name) = sprintf('%s/%s.csv', dir, name)
# the GPU that produced a CSV, and the copy bandwidth measured in the same run
gpu_of(f) = system(sprintf("awk -F, 'NR == 2 { print $12; exit }' %s", f))
copy_of(f) = real(system(sprintf("awk -F, '$2 == \"copy-bandwidth\" { print $8; f = 1; exit } END { if (!f) print 0 }' %s", f)))
# distinct verified step names, in file order (for `plot for [s in steps_of(f)]`)
steps_of(f) = system(sprintf("awk -F, 'NR > 1 && $2 != \"copy-bandwidth\" && $11 == \"ok\" && !seen[$2]++ { printf \"%%s \", $2 }' %s", f))
# the verified rows of one step
rows(f, s) = sprintf("< awk -F, '$2 == \"%s\" && $11 == \"ok\"' %s", s, f)
# the verified rows whose param contains a word (key=value)
rows_with(f, s, w) = sprintf("< awk -F, '$2 == \"%s\" && $11 == \"ok\" && index(\" \" $3 \" \", \" %s \")' %s", s, w, f)
# a number out of the param column: value of key in "key=value key2=value2"
pval(key) = (p = strcol(3), i = strstrt(p, key.'='), i == 0 ? NaN : real(substr(p, i + strlen(key) + 1, i + strlen(key) + 12)))

# the two outputs of every figure: FIG must be set to the base name first
png = "set terminal pngcairo size 1200,720 font ',11' noenhanced; set output sprintf('%s/%s.png', dir, FIG)"
svg = "set terminal svg size 1200,720 font ',11' noenhanced dynamic; set output sprintf('%s/%s.svg', dir, FIG)"

# throughput against n (log2 axis): one line per verified step, dashed copy line
sweep_setup = "set key inside left top; set logscale x 2; set format x '2^%L'; set xlabel 'n (elements)'; set ylabel 'GB/s (bytes moved / time)'; set yrange [0:*]"
