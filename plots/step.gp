# plots/step.gp - one DIA step on one device: GFLOP/s against rows, with the
# step's model bound and the compulsory bound (the article's Figures 7-11).
# Variables (draw.sh sets them): files (.dat paths, one per kernel: rows gflops
# model compulsory), lts (a linetype per file), what, dev, dates, out, foot.
load dir."style.gp"
set title sprintf("%s on %s\ndata %s", what, dev, dates)
set xlabel "rows (radius-5 grid, 81 diagonals)" offset 0,-0.6
set ylabel "GFLOP/s (2 per nonzero, median time)"
set logscale x 4
eval rowtics
set yrange [0:*]
set offsets graph 0.05, graph 0.05, graph 0.08, 0
set key outside right top vertical Left reverse
set bmargin 6
n = words(files)
do for [fmt in "png svg"] {
    eval term(fmt)
    set output out.".".fmt
    plot for [i=1:n] word(files, i) using 1:2 with linespoints lt word(lts, i)+0 title columnheader(2), \
         for [i=1:n] word(files, i) using 1:3 with lines lt word(lts, i)+0 dt 2 lw 1.5 title columnheader(3), \
         word(files, 1) using 1:4 with lines lc rgb "black" @bounddt lw 2 title columnheader(4)
    unset output
}
