# plots/cg-residual.gp - chapter 7: the relative residual |r_k| / |b|
# (the true one, or the solver's recurrence, as the legend says) against the
# iteration k of CG on one real SPD matrix, a line per solver and precision
# (plots/cg-draw.sh writes plotfile, the plot command). Variables: plotfile,
# matrix, dates, out, foot.
W = 1000
H = 560
load dir."style.gp"
set title sprintf("CG on %s (no preconditioner, x0 = 0, seeded b): the residual per iteration\ndata %s", matrix, dates)
set xlabel "iteration"
set ylabel "relative residual |r| / |b|"
set logscale y 10
set format y "1e%L"
set key top right
do for [fmt in "png svg"] {
    eval term(fmt)
    set output out.".".fmt
    load plotfile
    unset output
}
