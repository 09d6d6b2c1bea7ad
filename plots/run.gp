# plots/run.gp - the chart of one `make run` (scripts/run-chart.sh draws it):
# a bar per step and kernel, GFLOP/s at the median time, with its % of the
# compulsory bound (the bandwidth probed in the same run) written on the bar.
# Drawn as PNG and SVG (the terminal's text chart is scripts/run-chart.sh's).
# Variables: file (idx label gflops pct lt; the label's lines split at '|'),
# n (bars), dev, out.
W = n > 9 ? 100 * n : 900   # room for each bar's label
H = 480
load dir."style.gp"
set title sprintf("make run on %s: GFLOP/s per step and kernel, %% of the compulsory bound on each bar", dev)
set ylabel "GFLOP/s"
set yrange [0:*]
set xrange [-0.6:n - 0.4]
set offsets 0, 0, graph 0.15, 0
set style fill solid 0.85 border -1
set boxwidth 0.7
set xtics scale 0
set key off
set bmargin 5
nl(s) = (p = strstrt(s, "|"), p > 0 ? s[1:p-1]."\n".nl(s[p+1:]) : s)   # "step0|row-t1|host C": three lines
do for [fmt in "png svg"] {
    eval term(fmt)
    set output out.".".fmt
    plot file using 1:3:5:xtic(nl(strcol(2))) with boxes lc variable, \
         file using 1:3:(sprintf("%.3g (%.0f%%)", $3, $4)) with labels offset 0,0.8 font ",9"
    unset output
}
