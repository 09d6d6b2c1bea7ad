# plots/thenandnow.gp - then and now: per DIA step (1-5), the article's
# published figure for its 2010 GPU beside today's measured devices, as % of a
# bound. Top: % of the article's model bound (12, 8 or 4 bytes per 2 FLOPs;
# the article's at its peak bandwidth, today's at the bandwidth measured in the
# same run); over 100% means the caches served bytes the model counted as
# memory traffic. Bottom: % of the compulsory bound (every byte read once),
# which the article did not publish. The article's bars are hatched: published
# figures, not measurements.
# The 100% lines spell out style.gp's bounddt: its @ macro is not expanded in
# this multiplot loop.
# Variables: model, comp (.dat: idx step, then a % column per device, the
# article's first; NaN where a device has no row), nd (devices), dates, out.
W = 1100
H = 760
load dir."style.gp"
colours = "#bbbbbb #76b900 #1f77b4 #ff7f0e #9467bd"
bw = 0.8 / nd
xpos(j) = $1 + (j - 1 - (nd - 1) / 2.0) * bw
set xrange [-0.6:4.6]
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set xtics scale 0 ("step1 naive" 0, "step2 aligned" 1, "step3 local" 2, "step4 float4" 3, "step5 image" 4)
set style fill solid 0.85 border -1
set boxwidth bw
set key outside right top vertical Left reverse
set rmargin 36
set lmargin 10
do for [fmt in "png svg"] {
    eval term(fmt)
    set output out.".".fmt
    set multiplot layout 2, 1 title sprintf("Then and now: each DIA step as %% of its bound\nthe article's published figures (2010, hatched; not measurements) beside today's measurements (data %s)", dates)
    set title "% of the article's model bound (12, 8, 4 bytes per 2 FLOPs); over 100%: caches served what the model counts as memory traffic" offset 0,-0.5 font ",9"
    set ylabel "% of model bound"
    plot model using (xpos(1)):3 with boxes lc rgb word(colours, 1) fs pattern 4 border -1 title columnheader(3), \
         for [j=2:nd] model using (xpos(j)):(column(j + 2)) with boxes lc rgb word(colours, j) title columnheader(j + 2), \
         for [j=1:nd] model using (xpos(j)):(column(j + 2)):(sprintf("%.0f%%", column(j + 2))) with labels offset 0,0.7 font ",8" notitle, \
         100 with lines lc rgb "black" dt (12,6) lw 2 title "the bound (100%)"
    set title "% of the compulsory bound (every byte read once, at the bandwidth measured in the same run; the article gave none)" offset 0,-0.5 font ",9"
    set ylabel "% of compulsory bound"
    plot for [j=2:nd] comp using (xpos(j)):(column(j + 2)) with boxes lc rgb word(colours, j) title columnheader(j + 2), \
         for [j=2:nd] comp using (xpos(j)):(column(j + 2)):(sprintf("%.0f%%", column(j + 2))) with labels offset 0,0.7 font ",8" notitle, \
         100 with lines lc rgb "black" dt (12,6) lw 2 title "the bound (100%)"
    unset multiplot
    unset output
}
