# plots/dia.gp - every DIA step on one device: GFLOP/s against rows. Dashed in
# a step's colour: its model bound; black dashes: the compulsory bound.
# Variables: files, lts (as step.gp), comp (compulsory .dat), comp0 (step0's,
# on the host; may be ""), dev, host, dates, out, foot.
load dir."style.gp"
set title sprintf("DIA steps on %s\ndata %s%s", dev, dates, strlen(host) > 0 ? "; step0 is C on the host, ".host : "")
set xlabel "rows (radius-5 grid, 81 diagonals)" offset 0,-0.6
set ylabel "GFLOP/s (2 per nonzero, median time)"
set logscale x 4
eval rowtics
set yrange [0:*]
set offsets graph 0.05, graph 0.05, graph 0.08, 0
set key outside right top vertical Left reverse
set bmargin 6
n = words(files)
# step0's bound only where step0 ran (a file with no points would warn)
c0 = strlen(comp0) > 0 ? sprintf(", '%s' using 1:2 with lines lc rgb '#888888' %s lw 2 title columnheader(2)", comp0, bounddt) : ""
do for [fmt in "png svg"] {
    eval term(fmt)
    set output out.".".fmt
    plot for [i=1:n] word(files, i) using 1:2 with linespoints lt word(lts, i)+0 title columnheader(2), \
         for [i=1:n] word(files, i) using 1:3 with lines lt word(lts, i)+0 dt 2 lw 1 notitle, \
         comp using 1:2 with lines lc rgb "black" @bounddt lw 2 title columnheader(2), \
         NaN with lines lc rgb "#444444" dt 2 lw 1 title "model bound of each step (its colour)" @c0
    unset output
}
