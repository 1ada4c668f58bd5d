# plot_common.gp - shared gnuplot helpers; `make plots` loads this file before
# each chapter's plot.gp, with dir='plots/NN-topic' set on the command line.
# CSVs are read through tools/csvq, which finds columns by header name (KIT_CSV_HEADER in
# reference/kit.h).  Every row selector below prints the same projection, so plots say
# `using N:GBPS` and never count CSV columns.  Rows that failed verification are never
# plotted: every selector keeps verified == ok only.

set datafile separator ','
set key inside right bottom box opaque
set grid xtics ytics mxtics
set style data linespoints
# gnuplot's default colours repeat after 8 line types, so a ladder with its yardsticks (chapter 07's
# select: 12 series) drew two steps in one colour; 8 more colours, each with its usual point type
array LTC[8] = ['#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf', '#ff7f0e', '#2ca02c', '#d62728']
do for [i = 1:8] { set linetype (8 + i) lc rgb LTC[i] pt (8 + i) }

# G = K (make plots sets it): only the K-th GPU's rows of each CSV (csvq's gpu#=K); its figures
# get SUFFIX in their names ('' for the first GPU, '@' and the GPU's name for the others)
if (!exists('G')) G = 0
if (!exists('SUFFIX')) SUFFIX = ''
gf = G > 0 ? sprintf('gpu#=%d', G) : ''
csv(name) = sprintf('%s/%s.csv', dir, name)
# the CSV exists and has rows of the GPU being drawn
have(name) = system(sprintf('test -f %s && tools/csvq %s %s -- step 2>/dev/null | head -n 1 | grep -q . && echo 1 || echo 0', csv(name), csv(name), gf)) == 1
# the projection of every selector: its column numbers for `using`
N = 1; GBPS = 2; PARAM = 3; INPUT = 4; RATE = 5; PCT = 6; MS = 7; SHAPE = 8; PHASE = 9
proj = 'n gbps param input items_s pct_copy ms_median shape phase'
# rows of f matching the space-separated csvq filters (e.g. "step=s0 input=uniform")
sel(f, filt) = sprintf("< tools/csvq %s %s verified=ok %s -- %s", f, gf, filt, proj)
# one value of a column (first row matching filt), as a string
val(f, filt, col) = system(sprintf("tools/csvq %s %s %s -- %s | awk 'NR == 1'", f, gf, filt, col))
# the GPU that produced a CSV, and the copy bandwidth measured in the same run
gpu_of(f) = val(f, 'step!=', 'gpu')
copy_of(f) = (v = val(f, 'step=copy-bandwidth', 'gbps'), v eq '' ? 0 : real(v))
# distinct verified step names, in file order (for `plot for [s in steps_of(f)]`)
steps_of(f) = system(sprintf("tools/csvq %s %s verified=ok step!=copy-bandwidth -- step | awk '!seen[$0]++' | tr '\\n' ' '", f, gf))
inputs_of(f) = system(sprintf("tools/csvq %s %s verified=ok step!=copy-bandwidth -- input | awk '!seen[$0]++' | tr '\\n' ' '", f, gf))
# the verified rows of one step, and of one step on one input
rows(f, s) = sel(f, 'step='.s)
rows_in(f, s, inp) = sel(f, sprintf('step=%s input=%s', s, inp))
# the verified rows whose param contains a word (key=value)
rows_with(f, s, w) = sel(f, sprintf("step=%s 'param~(^| )%s( |$)'", s, w))
# a number out of the param column: value of key in "key=value key2=value2"
pval(key) = (p = strcol(PARAM), i = strstrt(p, key.'='), i == 0 ? NaN : real(substr(p, i + strlen(key) + 1, i + strlen(key) + 12)))


# the two outputs of every figure: FIG must be set to the base name first
png = "set terminal pngcairo size 1200,720 font ',11' noenhanced; set output sprintf('%s/%s%s.png', dir, FIG, SUFFIX)"
svg = "set terminal svg size 1200,720 font ',11' noenhanced dynamic; set output sprintf('%s/%s%s.svg', dir, FIG, SUFFIX)"

# throughput against n (log2 axis): one line per verified step, dashed copy line
sweep_setup = "set key inside left top; set logscale x 2; set format x '2^%L'; set xlabel 'n (elements)'; set ylabel 'GB/s (bytes moved / time)'; set yrange [0:*]"

# The documents' numbers (reference/published/NN-topic.csv, the chapter sets pub): the first value
# of the rows that match csvq filters filt, and the "x,value" rows that do
pubval(filt) = real(system(sprintf("tools/csvq %s %s -- value | head -n 1", pub, filt)))
pubrows(filt) = sprintf("< tools/csvq %s %s -- x value", pub, filt)
