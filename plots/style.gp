# plots/style.gp - loaded by every figure script: terminals, colours, grid.
# Each figure is drawn twice, PNG (README) and SVG (slides):
#   do for [fmt in "png svg"] { eval term(fmt); set output out.".".fmt; plot ... }
# One colour per step, the same in every figure.
if (!exists("W")) W = 1000
if (!exists("H")) H = 600
pngterm = strstrt(GPVAL_TERMINALS, "pngcairo") > 0 ? "pngcairo" : "png"
term(fmt) = fmt eq "png" \
    ? sprintf("set terminal %s size %d,%d font 'sans,10' noenhanced", pngterm, W, H) \
    : sprintf("set terminal svg size %d,%d font 'sans,10' noenhanced background rgb 'white'", W, H)
set linetype 1 lc rgb "#666666" lw 2 pt 7 ps 1.1   # step0 (host C)
set linetype 2 lc rgb "#1f77b4" lw 2 pt 5 ps 1.1   # step1
set linetype 3 lc rgb "#ff7f0e" lw 2 pt 9 ps 1.3   # step2
set linetype 4 lc rgb "#2ca02c" lw 2 pt 11 ps 1.3  # step3
set linetype 5 lc rgb "#d62728" lw 2 pt 13 ps 1.3  # step4
set linetype 6 lc rgb "#9467bd" lw 2 pt 7 ps 1.1   # step5
set linetype 7 lc rgb "#8c564b" lw 2 pt 5 ps 1.1   # step6
set linetype 8 lc rgb "#e377c2" lw 2 pt 9 ps 1.3   # more kernels of one step
set linetype 9 lc rgb "#17becf" lw 2 pt 11 ps 1.3
set linetype 10 lc rgb "#bcbd22" lw 2 pt 13 ps 1.3
set grid ytics lc rgb "#dddddd" lw 1 dt 1
set border 3
set tics nomirror
set datafile missing "NaN"
# rows on a log axis, ticked at the grid sizes the sweep runs: 4k (64x64), 16k (128x128), ...
rowtics = 'set xtics ()' . sprintf('; do for [k=3:13] { set xtics add (gprintf("%%.0s%%c", 4**k) . "\n" . sprintf("%%dx%%d", 2**k, 2**k) 4**k) }')
bounddt = "dt (12,6)"
# the footnote: FAIL and ERROR rows, which are never drawn as speeds
if (!exists("foot")) foot = ""
if (strlen(foot) > 0) set label 100 foot at screen 0.01, screen 0.02 left font ",8" tc rgb "#aa0000"
