# plots/cg.gp - chapter 7 on one device: ms per CG iteration against rows of the
# Poisson matrix (log-log), step7 plain and fused and each yardstick that ran,
# under the compulsory bound (the matrix once + 10 vector passes at the probe's
# bandwidth); a panel per precision that has data (plots/cg-prep.awk writes the
# data and each panel's plot command). Variables (draw.sh sets them): plots
# (the .plot files, one per panel), precs, dev, dates, out, foot.
W = 1200
H = 620
load dir."style.gp"
np = words(plots)
set logscale x 4
set logscale y 10
eval rowtics
set xlabel "rows (Poisson N x N, 5 nonzeros a row)" offset 0,-0.6
set ylabel "ms per iteration (median, fixed iterations)"
set key top left Left reverse font ",9"
set bmargin 6
set offsets graph 0.03, graph 0.03, 0, 0
pname(p) = p eq "s" ? "float" : "double"
do for [fmt in "png svg"] {
    eval term(fmt)
    set output out.".".fmt
    set multiplot layout 1, np title sprintf("CG on the Poisson matrix, %s\ndata %s", dev, dates)
    do for [i=1:np] {
        set title pname(word(precs, i))
        load word(plots, i)
    }
    unset multiplot
    unset output
}
