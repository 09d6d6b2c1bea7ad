# plots/csr.gp - step6 (CSR) on one device: a panel per precision, per matrix
# (the grid and the real ones, fewest nonzeros first) a bar for the scalar
# kernel (row per work-item), one for the vector kernel (work-group per row)
# and one for the adaptive kernel (equal nonzeros per work-group); dashed:
# each bar's compulsory bound; solid red across the bars: cuSPARSE on the same
# matrix (vendor/cusparse, the faster of its two CSR algorithms), where it ran.
# GFLOP/s on a log axis: the matrices span four decades. The matrix names are
# turned 40 degrees, so that twenty of them fit a panel without overprinting.
# Variables: files (.dat per precision: idx matrix scalar vector scalar_bound
# vector_bound cusparse adaptive adaptive_bound), precs (s d c z, one per
# file), vendors (1 or 0 per file: has cuSPARSE values; absent: none), nmat,
# ymin, ymax, skips, dev, dates, out, foot.
load dir."style.gp"
np = words(files)
H = 260 * np + 160
pname(p) = p eq "s" ? "s: float" : p eq "d" ? "d: double" : p eq "c" ? "c: complex float" : "z: complex double"
set logscale y 10
set yrange [ymin:ymax]
set xrange [-0.6:nmat - 0.4]
set style fill solid 0.85 border -1
set ylabel "GFLOP/s"
set xtics scale 0 rotate by 40 right offset 1,0
set key outside right top vertical Left reverse
set format y "%g"
set rmargin 27   # the same in every panel, with or without the key
if (!exists("vendors")) { vendors = "" }
vend = 'f using ($1 - 0.4):7:(0.8):(0) with vectors nohead lc rgb "#d62728" lw 3 title "cuSPARSE (reference)"'
vhas(i) = word(vendors, i) eq "1"
# the bars and their bounds, in every panel; f is the panel's file
bw = 0.8 / 3
bars = sprintf('f using 1:3:($1 - 1.5 * bw):($1 - 0.5 * bw):(ymin):3:xtic(strcol(2)) with boxxyerror lt 2 title "scalar", \
    f using 1:4:($1 - 0.5 * bw):($1 + 0.5 * bw):(ymin):4 with boxxyerror lt 8 title "vector", \
    f using ($1 - 1.5 * bw):5:(bw):(0) with vectors nohead lc rgb "black" %s lw 2 title "compulsory bound", \
    f using ($1 - 0.5 * bw):6:(bw):(0) with vectors nohead lc rgb "black" %s lw 2 notitle', bounddt, bounddt)
adapt = sprintf('f using 1:8:($1 + 0.5 * bw):($1 + 1.5 * bw):(ymin):8 with boxxyerror lt 3 title "adaptive", \
    f using ($1 + 0.5 * bw):9:(bw):(0) with vectors nohead lc rgb "black" %s lw 2 notitle', bounddt)
if (!exists("adaptives")) { adaptives = "" }
ahas(i) = word(adaptives, i) eq "1"
do for [fmt in "png svg"] {
    eval term(fmt)
    set output out.".".fmt
    set multiplot layout np, 1 title sprintf("step6 CSR on %s, each kernel on the grid and the real matrices%s, per precision\ndata %s%s", \
        dev, strstrt(vendors, "1") > 0 ? ", cuSPARSE as the reference" : "", dates, \
        strlen(skips) > 0 ? "; skipped (device lacks the type): ".skips : "")
    do for [i=1:np] {
        f = word(files, i)
        set title pname(word(precs, i)) offset 0,-0.5
        if (i == 1) { set key } else { unset key }
        if (i == np) { set bmargin (strlen(foot) > 0 ? 8 : 7) } else { set bmargin 5 }
        # cuSPARSE only where it ran: a column of NaN alone makes gnuplot warn (no valid points)
        # ... and the adaptive kernel only where it ran (data from before it was swept has none)
        if (vhas(i) && ahas(i)) { plot @bars, @adapt, @vend }
        if (vhas(i) && !ahas(i)) { plot @bars, @vend }
        if (!vhas(i) && ahas(i)) { plot @bars, @adapt }
        if (!vhas(i) && !ahas(i)) { plot @bars }
    }
    unset multiplot
    unset output
}
