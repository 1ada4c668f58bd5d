#!/usr/bin/env bash
# tests/numbers.sh - tools/numbers on known answers, in a throwaway tree: the values a marker
# computes, every error it must name FILE:LINE for (a changed digit, no row, several rows, a bare
# measured number), what it must leave alone (code, sizes, bit widths), the "tried" table, and a
# copy of a real chapter README with one digit changed.  Run by tools/check.sh (make check).
set -uo pipefail
kit=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 checks=0
ok() { checks=$((checks + 1)); }
no() { checks=$((checks + 1)); fails=$((fails + 1)); printf 'numbers test: FAILED: %s\n' "$*"; }

t=$tmp/kit
mkdir -p "$t/tools" "$t/plots/99-t" "$t/chapters/99-t" "$t/reference/published" "$t/docs"
cp "$kit/tools/numbers" "$t/tools/"
echo 'chapters/99-t/README.md' >"$t/tools/numbers.enforce"
{
  echo "chapter,step,param,input,n,shape,phase,bytes,ms_median,ms_min,gbps,items_s,unit,pct_copy,verified,gpu"
  echo "99,s1_a,tbs=128 nWork=4,uniform,1024,,run,8192,2.0,1.9,4.1,5e8,elements/s,1.0,ok,NVIDIA H200"
  echo "99,s1_a,tbs=256 nWork=4,uniform,1024,,run,8192,1.0,0.9,8.2,1e9,elements/s,2.0,ok,NVIDIA H200"
  echo "99,cub_a,,uniform,1024,,run,8192,1.5,1.5,5.5,7e8,elements/s,1.5,ok,NVIDIA H200"
  echo "99,s1_a,tbs=128 nWork=4,uniform,1048576,,run,8388608,0.5,0.5,16777.2,2e12,elements/s,90.0,ok,NVIDIA H200"
  echo "99,cub_a,,uniform,1048576,,run,8388608,0.4,0.4,20971.5,2.6e12,elements/s,95.0,ok,NVIDIA H200"
  echo "99,s2_b,,uniform,1048576,,run,8388608,,,,,elements/s,,FAILED,NVIDIA H200"
  echo "99,s1_a,tbs=128 nWork=4,uniform,1024,,run,8192,3.0,3.0,2.7,3e8,elements/s,0.5,ok,NVIDIA H100 80GB HBM3"
} >"$t/plots/99-t/t.csv"
printf 'figure,gpu,series,x,value,unit,what\nfig1,GTX 580,copy,,175.0,GB/s,the document'"'"'s best copy\n' \
  >"$t/reference/published/99-t.csv"
printf 'variant\tcsv\tvariant row\tstep row\twhy\n# a comment\nblocks of 128\tt.csv\tstep=s1_a param="tbs=128 nWork=4" n=2^10\tstep=s1_a param="tbs=256 nWork=4" n=1024\thalf the threads in flight\n' \
  >"$t/chapters/99-t/tried.tsv"
readme=$t/chapters/99-t/README.md
cat >"$readme" <<'EOF'
# Chapter 99
The best block: <!--n t.csv step=s1_a param="tbs=256 nWork=4" n=2^10 col=gbps fmt=%.1f-->0<!--/n--> GB/s.
Over CUB at 2^20: <!--n t.csv step=s1_a param="tbs=128 nWork=4" vs=cub_a vs.param= n=2^20 fmt=%.2f-->0<!--/n-->x, gain <!--n t.csv step=s1_a param="tbs=128 nWork=4" vs=cub_a vs.param= n=2^20 op=gain fmt=%.0f-->0<!--/n--> %.
From 2^20: <!--n t.csv step=s1_a param="tbs=128 nWork=4" vs=cub_a vs.param= n=2^20..2^30 agg=min fmt=%.3f-->0<!--/n-->.
Worst over n: <!--n t.csv step=s1_a param="tbs=128 nWork=4" vs=cub_a vs.param= n=* agg=min fmt=%.3f-->0<!--/n-->x; best <!--n t.csv step=s1_a param="tbs=128 nWork=4" vs=cub_a vs.param= n=* agg=max fmt=%.3f-->0<!--/n-->x.
H100: <!--n t.csv step=s1_a n=2^10 gpu=h100 col=ms_median fmt=%.1f-->0<!--/n--> ms; diff <!--n t.csv step=cub_a vs=s1_a vs.param="tbs=128 nWork=4" n=1048576 op=diff col=gbps fmt=%+.1f-->0<!--/n--> GB/s.
The document: <!--n published/99-t.csv figure=fig1 col=value fmt=%.0f-->0<!--/n--> GB/s, or <!--doc-->175 GB/s<!--/doc--> in its words.
Not measured: 2^28 keys, 32-bit words, sm_90, 4 x 128 threads, section 6.11, 0x1F, 4x fewer loads, H100 80GB HBM3.
An example is not read: `<!--n t.csv step=nope col=gbps-->1<!--/n-->`, nor `9 GB/s` in code.
```
12 ms in a code block
```
<!-- tried:begin -->
<!-- tried:end -->
EOF
run() { "$t/tools/numbers" -C "$t" "$@" 2>"$tmp/err"; }
want() { # DESCRIPTION LINE-PATTERN: the last check failed with a message matching it
  if [ "$st" = 0 ]; then no "$1: check passed"; elif grep -q -- "$2" "$tmp/err"; then ok; else no "$1: no message '$2' in: $(cat "$tmp/err")"; fi
}

run fill; st=$?
[ $st = 0 ] && ok || no "fill failed: $(cat "$tmp/err")"
run check; st=$?
[ $st = 0 ] && ok || no "check after fill failed: $(cat "$tmp/err")"
expect() { # TEXT: appears in the filled README
  if grep -qF -- "$1" "$readme"; then ok; else no "the filled README lacks '$1'"; fi
}
expect '%.1f-->8.2<!--/n--> GB/s.'
expect 'fmt=%.2f-->0.80<!--/n-->x'
expect 'op=gain fmt=%.0f-->-20<!--/n--> %'
expect 'agg=min fmt=%.3f-->0.750<!--/n-->x'
expect 'agg=max fmt=%.3f-->0.800<!--/n-->x'
expect 'n=2^20..2^30 agg=min fmt=%.3f-->0.800<!--/n-->'
expect 'gpu=h100 col=ms_median fmt=%.1f-->3.0<!--/n--> ms'
expect 'op=diff col=gbps fmt=%+.1f-->+4194.3<!--/n-->'
expect 'fmt=%.0f-->175<!--/n--> GB/s, or'
expect '`<!--n t.csv step=nope col=gbps-->1<!--/n-->`'
expect '| blocks of 128 | `s1_a tbs=256 nWork=4` | n=2^10 | 2.00x | half the threads in flight |'
cp "$readme" "$tmp/good.md"
next=$(($(wc -l <"$readme") + 1)) # the line a test appends

# one changed digit inside a marker: named with its line
sed -i '2s/-->8\.2</-->8.3</' "$readme"; run check; st=$?; want "a changed digit" 'README.md:2: .* says 8.3, its CSV says 8.2'
cp "$tmp/good.md" "$readme"
# a bare measured number, and one in an enforced file's prose only
echo 'We measured 123 GB/s here.' >>"$readme"; run check; st=$?; want "a bare number" "README.md:$next: measured number \"123 GB/s\""
cp "$tmp/good.md" "$readme"
echo 'We measured 123 GB/s here.' >"$t/docs/free.md"; run check; st=$?
[ $st = 0 ] && ok || no "a file outside tools/numbers.enforce was held to the bare-number rule: $(cat "$tmp/err")"
rm "$t/docs/free.md"
# several rows, no row, a failed row, an unknown column
for c in 'step=s1_a n=2^10 col=gbps|2 rows of plots/99-t/t.csv' 'step=s9 n=2^10 col=gbps|no row of' \
         'step=s2_b n=2^20 col=gbps|is FAILED' 'step=s1_a n=2^10 col=speed|has no column speed' \
         'step=s1_a param="tbs=256 nWork=4" n=2^10 vs=s2_b|the vs row must be one'; do
  cp "$tmp/good.md" "$readme"
  echo "Bad: <!--n t.csv ${c%%|*}-->1<!--/n-->" >>"$readme"
  run check; st=$?; want "marker ${c%%|*}" "README.md:$next: .*${c#*|}"
  run fill; st=$?; want "fill with marker ${c%%|*}" "README.md:$next: "
done
cp "$tmp/good.md" "$readme"
# a stale tried table
sed -i 's/| 2\.00x |/| 2.01x |/' "$readme"; run check; st=$?; want "a stale tried table" 'tried table (line 13) differs'
cp "$tmp/good.md" "$readme"
# a source file: its header comment only
mkdir -p "$t/solutions/99-t"; printf '/* s1 - 5.6x faster */\nint x; // 7 GB/s below the header\n' >"$t/solutions/99-t/s1.cu"
echo 'solutions/99-t/*.cu' >>"$t/tools/numbers.enforce"
run check; st=$?; want "a step header" 's1.cu:1: measured number "5.6x"'
if grep -q 's1.cu:2' "$tmp/err"; then no "a number below the header comment was read"; else ok; fi
rm -r "$t/solutions"

# a real chapter README with one digit inside a marker changed
real=$(cd "$kit" && grep -l '<!--n [^ ]*\.csv' chapters/*/README.md | head -n 1)
if [ -n "$real" ]; then
  c=$(dirname "$real"); c=${c#chapters/}
  mkdir -p "$t/chapters/$c" "$t/plots/$c"
  cp "$kit/$real" "$t/$real"; cp "$kit/plots/$c/"*.csv "$t/plots/$c/"; cp "$kit/reference/published/"*.csv "$t/reference/published/"
  [ -f "$kit/chapters/$c/tried.tsv" ] && cp "$kit/chapters/$c/tried.tsv" "$t/chapters/$c/"
  run check "$real"; st=$?
  [ $st = 0 ] && ok || no "$real fails as committed: $(cat "$tmp/err")"
  line=$(grep -n '<!--n [^ ]*\.csv[^>]*-->[^<]*[0-9][^<]*<!--/n-->' "$t/$real" | head -n 1 | cut -d: -f1)
  # the first digit inside the first marker's text, one more (9 -> 0)
  awk -v l="$line" 'NR == l { p = index($0, "-->"); s = substr($0, p + 3); match(s, /[0-9]/); d = substr(s, RSTART, 1)
    $0 = substr($0, 1, p + 2) substr(s, 1, RSTART - 1) ((d + 1) % 10) substr(s, RSTART + 1) } { print }' \
    "$t/$real" >"$tmp/changed" && cp "$tmp/changed" "$t/$real"
  run check "$real"; st=$?; want "$real with one digit changed" "$real:$line: "
fi

if [ $fails = 0 ]; then echo "numbers test: $checks checks pass"; else echo "numbers test: $fails of $checks checks FAILED"; fi
[ $fails = 0 ]
