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
# file), flags (per precision seven digits, 1 where the panel has values of
# it: scalar, vector, adaptive, cuSPARSE, and the three kernels' bounds),
# nmat, ymin, ymax, skips, dev, dates, out, foot.
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
if (!exists("flags")) { flags = "" }
has(i, k) = substr(word(flags, i), k, k) eq "1"
anyv = 0
do for [i=1:words(flags)] { if (has(i, 4)) { anyv = 1 } }
# the plot, piece by piece: a kernel's bars, a bound or cuSPARSE only where the
# panel has a value of it (a column of NaN alone makes gnuplot warn); f is the
# panel's file; the matrix names under the groups from an invisible point
bw = 0.8 / 3
ticks = 'f using 1:(sqrt(ymin * ymax)):xtic(strcol(2)) with points ps 0 notitle'
kbar(c, lt, x0, name) = sprintf(', f using 1:%d:($1 + %g * bw):($1 + %g * bw):(ymin):%d with boxxyerror lt %d title "%s"', \
    c, x0 - 0.5, x0 + 0.5, c, lt, name)
kbound(c, x0, t) = sprintf(', f using ($1 + %g * bw):%d:(bw):(0) with vectors nohead lc rgb "black" %s lw 2 %s', \
    x0 - 0.5, c, bounddt, t ? 'title "compulsory bound"' : 'notitle')
vend = ', f using ($1 - 0.4):7:(0.8):(0) with vectors nohead lc rgb "#d62728" lw 3 title "cuSPARSE (reference)"'
do for [fmt in "png svg"] {
    eval term(fmt)
    set output out.".".fmt
    set multiplot layout np, 1 title sprintf("step6 CSR on %s, each kernel on the grid and the real matrices%s, per precision\ndata %s%s", \
        dev, anyv ? ", cuSPARSE as the reference" : "", dates, \
        strlen(skips) > 0 ? "; skipped (device lacks the type): ".skips : "")
    do for [i=1:np] {
        f = word(files, i)
        set title pname(word(precs, i)) offset 0,-0.5
        if (i == 1) { set key } else { unset key }
        if (i == np) { set bmargin (strlen(foot) > 0 ? 8 : 7) } else { set bmargin 5 }
        cmd = ticks.(has(i, 1) ? kbar(3, 2, -1, "scalar") : "").(has(i, 2) ? kbar(4, 8, 0, "vector") : "") \
            .(has(i, 3) ? kbar(8, 3, 1, "adaptive") : "")
        nb = 0
        if (has(i, 5)) { cmd = cmd.kbound(5, -1, nb == 0); nb = nb + 1 }
        if (has(i, 6)) { cmd = cmd.kbound(6, 0, nb == 0); nb = nb + 1 }
        if (has(i, 7)) { cmd = cmd.kbound(9, 1, nb == 0); nb = nb + 1 }
        eval "plot ".cmd.(has(i, 4) ? vend : "")
    }
    unset multiplot
    unset output
}
