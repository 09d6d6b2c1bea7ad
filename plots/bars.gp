# plots/bars.gp - one device, one grid size (the largest every DIA step ran with all its kernels):
# a bar per step, GFLOP/s, the % of the compulsory bound written on the bar;
# the bounds as dashed marks across each bar.
# Variables: file (idx label gflops model compulsory pct), size, dev, host, dates, out, foot.
load dir."style.gp"
set title sprintf("Every step at %s on %s\ndata %s%s", size, dev, dates, strlen(host) > 0 ? "; step0 is C on the host, ".host : "")
set ylabel "GFLOP/s (2 per nonzero, median time)"
set yrange [0:*]
set offsets 0.6, 0.6, graph 0.1, 0
set style fill solid 0.85 border -1
set boxwidth 0.7
set xtics scale 0
set key outside right top vertical Left reverse
set bmargin 5
nl(s) = (p = strstrt(s, " "), p > 0 ? s[1:p-1]."\n".s[p+1:] : s)   # "step1 naive" on two lines
col(l) = (s = word(l, 1), s eq "step0" ? 1 : s eq "step1" ? 2 : s eq "step2" ? 3 : s eq "step3" ? 4 : s eq "step4" ? 5 : s eq "step5" ? 6 : 7)
do for [fmt in "png svg"] {
    eval term(fmt)
    set output out.".".fmt
    plot file using 1:3:(col(strcol(2))):xtic(nl(strcol(2))) with boxes lc variable notitle, \
         file using ($1 - 0.42):4:(0.84):(0) with vectors nohead lc rgb "#444444" dt 2 lw 2 title "model bound", \
         file using ($1 - 0.42):5:(0.84):(0) with vectors nohead lc rgb "black" @bounddt lw 2 title "compulsory bound", \
         file using 1:3:(sprintf("%.1f%%", $6)) with labels offset 0,0.8 font ",10" title "% of compulsory bound"
    unset output
}
