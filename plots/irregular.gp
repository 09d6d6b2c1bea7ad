# plots/irregular.gp - step6 on chapter 6's generated irregular matrices, one
# device: a panel per precision, per matrix (power-law by mean, then the arrow)
# a bar for each kernel (scalar, vector, adaptive) with its % of the compulsory
# bound above it; the dashed line over a group: the highest of its kernels'
# compulsory bounds; solid red across a group: cuSPARSE on the same matrix,
# where it ran; a black triangle over the kernel step6 itself chooses for the
# matrix (its `choice` line, recorded by the sweep). GFLOP/s on a log axis.
# Variables: files (.dat per precision: idx family size matrix scalar vector
# adaptive pct_scalar pct_vector pct_adaptive cusparse choice_x choice_y bound),
# precs, flags (per precision two digits: cuSPARSE drawn, a choice marked),
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
chas(i) = substr(word(flags, i), 2, 2) eq "1"
bw = 0.27
anyv = 0
do for [i=1:words(flags)] { if (vhas(i)) { anyv = 1 } }
# the bars, their % of the compulsory bound, the bound; f is the panel's file
bars = 'f using ($1 - bw):5:($1 - 1.5 * bw):($1 - 0.5 * bw):(ymin):5:xtic(strcol(2)."\n".strcol(3)) with boxxyerror lt 2 title "scalar", \
    f using 1:6:($1 - 0.5 * bw):($1 + 0.5 * bw):(ymin):6 with boxxyerror lt 8 title "vector", \
    f using ($1 + bw):7:($1 + 0.5 * bw):($1 + 1.5 * bw):(ymin):7 with boxxyerror lt 3 title "adaptive", \
    f using ($1 - bw):($5 * 1.45):(sprintf("%.0f%%", $8)) with labels font ",8" notitle, \
    f using 1:($6 * 1.45):(sprintf("%.0f%%", $9)) with labels font ",8" notitle, \
    f using ($1 + bw):($7 * 1.45):(sprintf("%.0f%%", $10)) with labels font ",8" notitle, \
    f using ($1 - 1.5 * bw):14:(3 * bw):(0) with vectors nohead lc rgb "black" '.bounddt.' lw 2 title "compulsory bound"'
vend = 'f using ($1 - 1.5 * bw):11:(3 * bw):(0) with vectors nohead lc rgb "#d62728" lw 3 title "cuSPARSE (reference)"'
mark = 'f using 12:($13 * 3.2) with points pt 11 ps 1.5 lc rgb "black" title "chosen by step6"'
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
        # cuSPARSE and the choice only where they are: a column of NaN alone makes gnuplot warn
        if (vhas(i) && chas(i)) { plot @bars, @vend, @mark }
        if (vhas(i) && !chas(i)) { plot @bars, @vend }
        if (!vhas(i) && chas(i)) { plot @bars, @mark }
        if (!vhas(i) && !chas(i)) { plot @bars }
    }
    unset multiplot
    unset output
}
