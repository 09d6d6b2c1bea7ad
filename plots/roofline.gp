# plots/roofline.gp - the roofline of one device: GFLOP/s against arithmetic
# intensity (FLOPs per byte), both on log axes. A kernel that reads I FLOPs'
# worth per byte from memory at B GB/s cannot beat B * I GFLOP/s: the slope.
# Each step (the bars' grid, its best kernel) is drawn twice at its measured
# GFLOP/s: hollow at the article's model intensity (2 FLOPs per 12, 8 or 4
# bytes), filled at its compulsory intensity (every byte read once); a point
# above its slope moved fewer bytes from memory than that count (caches).
# step6 (CSR) once per precision, at its compulsory intensity.
# The slopes: the probe's read and copy medians (bwr, bwc) where the data has
# them, two lines; else the one measured bandwidth (bw, the faster of the
# two), labelled as such; step0's host probe in grey (bw0).
# Variables: file (a block per point, its label the block's header: x model_I
# comp_I gflops bw lt tag), n (blocks), nm (the first nm have a model intensity; step6's not), bw (the OpenCL steps' probe, GB/s),
# bwr, bwc (their read and copy medians, GB/s, or "" both), bw0
# (step0's host probe, or ""), xr, yr ("lo hi"), dev, host, dates, out, foot;
# rangefile (optional): where to print the ranges drawn, and the slopes, for the tests.
W = 1250
H = 650
load dir."style.gp"
set title sprintf("Roofline of %s\ndata %s%s", dev, dates, strlen(host) > 0 ? "; step0 is C on the host, ".host : "")
set xlabel "arithmetic intensity (FLOPs per byte moved from memory)"
set ylabel "GFLOP/s (2 per nonzero, median time)"
set logscale xy
set format x "%g"
set format y "%g"
set xrange [word(xr, 1)+0:word(xr, 2)+0]
set yrange [word(yr, 1)+0:word(yr, 2)+0]
set grid xtics ytics mxtics mytics lc rgb "#dddddd" lw 1 dt 1, lc rgb "#eeeeee" lw 1 dt 1
set key outside right top vertical Left reverse
set samples 200
# the article's three models, as vertical guides: 12, 8 and 4 bytes per 2 FLOPs
do for [b in "12 8 4"] {
    set arrow from 2.0/b, graph 0 to 2.0/b, graph 1 nohead lc rgb "#bbbbbb" dt 3 lw 1
    set label sprintf("%s B / 2 FLOPs", b) at 2.0/b, graph 0.98 right rotate by 90 offset -0.4,0 font ",8" tc rgb "#888888"
}
if (!exists("bwr")) bwr = ""
if (!exists("bwc")) bwc = ""
two = strlen(bwr) > 0 && strlen(bwc) > 0
roofr(x) = bwr * x
roofc(x) = bwc * x
roof(x) = bw * x
roof0(x) = bw0 * x
# read (what SpMV mostly does) dashed as every bound line; copy dash-dot (dotted: the guides)
roofs = two ? sprintf("roofr(x) with lines lc rgb 'black' %s lw 2 title sprintf('read probe: %%.4g GB/s', bwr+0), ", bounddt) \
            . "roofc(x) with lines lc rgb 'black' dt (8,4,2,4) lw 2 title sprintf('copy probe: %.4g GB/s (read + written)', bwc+0)" \
    : sprintf("roof(x) with lines lc rgb 'black' %s lw 2 ", bounddt) \
      . "title sprintf('measured bandwidth: %.4g GB/s (the faster of copy, read)', bw+0)"
host0 = strlen(bw0) > 0 ? sprintf(", roof0(x) with lines lc rgb '#888888' %s lw 2 title sprintf('host probe (step0): %%.4g GB/s', bw0+0)", bounddt) : ""
# step6's points carry their precision's letter (a loop over no blocks would warn)
tags = n > nm ? sprintf(", for [i=%d:%d] file index i using 3:4:7 with labels offset 1.2,0 font ',9' notitle", nm, n - 1) : ""
do for [fmt in "png svg"] {
    eval term(fmt)
    set output out.".".fmt
    plot @roofs @host0, \
         for [i=0:nm-1] file index i using 2:4:($3 - $2):(0):6 with vectors nohead lc variable dt 3 lw 1 notitle, \
         for [i=0:nm-1] file index i using 2:4:6 with points lc variable pt 6 ps 1.4 notitle, \
         for [i=0:n-1] file index i using 3:4:6 with points lc variable pt 7 ps 1.4 title columnheader(1), \
         NaN with points lc rgb "#444444" pt 6 ps 1.4 title "hollow: at the model intensity", \
         NaN with points lc rgb "#444444" pt 7 ps 1.4 title "filled: at the compulsory intensity" @tags
    unset output
}
if (exists("rangefile")) {
    set print rangefile
    print sprintf("%.6g %.6g %.6g %.6g", GPVAL_X_MIN, GPVAL_X_MAX, GPVAL_Y_MIN, GPVAL_Y_MAX)
    print two ? sprintf("read %.6g copy %.6g", bwr+0, bwc+0) : sprintf("measured %.6g", bw+0)
    unset print
}
