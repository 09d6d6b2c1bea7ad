# plots/irregular.gp - step6 on chapter 6's generated irregular matrices, one
# device: a panel per precision, per matrix (power-law by mean, then the arrow)
# a bar for each kernel (scalar, vector, adaptive) with its % of the compulsory
# bound above it; the dashed line over a group: the highest of its kernels'
# compulsory bounds; solid red across a group: cuSPARSE on the same matrix,
# where it ran; a black triangle over the kernel step6 itself chooses for the
# matrix (its `choice` line, recorded by the sweep). GFLOP/s on a log axis.
# Variables: files (.dat per precision: idx family size matrix scalar vector
# adaptive pct_scalar pct_vector pct_adaptive cusparse choice_x choice_y bound),
# precs, flags (per precision six digits, 1 where the panel has it: cuSPARSE,
# a choice, scalar, vector, adaptive, a compulsory bound),
# nmat, ymin, ymax, dev, dates, out, foot.
load dir."style.gp"
np = words(files)
H = 250 * np + 150
pname(p) = p eq "s" ? "s: float" : p eq "d" ? "d: double" : p eq "c" ? "c: complex float" : "z: complex double"
set logscale y 10
set yrange [ymin:ymax]
set xrange [-0.6:nmat - 0.4]
set style fill solid 0.85 border -1
set ylabel "GFLOP/s"
set xtics scale 0
set key outside right top vertical Left reverse
set format y "%g"
set rmargin 22   # the same in every panel, with or without the key
if (!exists("flags")) { flags = "" }
vhas(i) = substr(word(flags, i), 1, 1) eq "1"
bw = 0.27
anyv = 0
do for [i=1:words(flags)] { if (vhas(i)) { anyv = 1 } }
# the plot, piece by piece: a kernel, cuSPARSE or the choice only where the
# panel has a value of it (a column of NaN alone makes gnuplot warn); f is the
# panel's file; the matrix and its size under the group's middle (an invisible point)
# (its % of the bound above each bar only where there is a bound)
kb(c, lt, x0, name, pct) = sprintf('f using ($1 + %g * bw):%d:($1 + %g * bw):($1 + %g * bw):(ymin):%d with boxxyerror lt %d title "%s", ', \
    x0, c, x0 - 0.5, x0 + 0.5, c, lt, name) \
    .(pct ? sprintf('f using ($1 + %g * bw):($%d * 1.45):(sprintf("%%.0f%%%%", $%d)) with labels font ",8" notitle, ', x0, c, c + 3) : "")
ticks = 'f using 1:(sqrt(ymin * ymax)):xtic(strcol(2)."\n".strcol(3)) with points ps 0 notitle'
bound = ', f using ($1 - 1.5 * bw):14:(3 * bw):(0) with vectors nohead lc rgb "black" '.bounddt.' lw 2 title "compulsory bound"'
vend = ', f using ($1 - 1.5 * bw):11:(3 * bw):(0) with vectors nohead lc rgb "#d62728" lw 3 title "cuSPARSE (reference)"'
mark = ', f using 12:($13 * 3.2) with points pt 11 ps 1.5 lc rgb "black" title "chosen by step6"'
has(i, k) = substr(word(flags, i), k, k) eq "1"
do for [fmt in "png svg"] {
    eval term(fmt)
    set output out.".".fmt
    set multiplot layout np, 1 title sprintf("step6 CSR on %s, the irregular matrices of chapter 6 (--gen)\n%% of the compulsory bound above each bar%s; data %s", \
        dev, anyv ? "; cuSPARSE as the reference" : "", dates)
    do for [i=1:np] {
        f = word(files, i)
        set title pname(word(precs, i)) offset 0,-0.5
        if (i == 1) { set key } else { unset key }
        if (i == np && strlen(foot) > 0) { set bmargin 5 } else { set bmargin 3 }
        cmd = (has(i, 3) ? kb(5, 2, -1, "scalar", has(i, 6)) : "").(has(i, 4) ? kb(6, 8, 0, "vector", has(i, 6)) : "") \
            .(has(i, 5) ? kb(7, 3, 1, "adaptive", has(i, 6)) : "").ticks.(has(i, 6) ? bound : "").(has(i, 1) ? vend : "").(has(i, 2) ? mark : "")
        eval "plot ".cmd
    }
    unset multiplot
    unset output
}
