# plots/rowlengths.gp - row-length histograms, one panel per matrix
# (plots/rowlengths.sh writes dat: blocks "bin_low rows index", one per matrix).
W = 1100; H = 700
load "plots/style.gp"
set logscale y
set xrange [0.5:131072]
set logscale x 2
set format x "%.0f"
set xtics ("0" 0.5, "1" 1, "4" 4, "16" 16, "64" 64, "256" 256, "1k" 1024, "4k" 4096, "16k" 16384, "64k" 65536)
set xlabel "row length (bins 0, 1, 2-3, 4-7, ...)"
set ylabel "rows"
set style fill solid 0.6
do for [fmt in "png svg"] {
    eval term(fmt)
    set output out.".".fmt
    set multiplot layout 2, (n + 1) / 2 title "Row lengths of chapter 6's matrices (generated with --gen, seed 1; the grid for comparison)"
    do for [i = 0:n - 1] {
        set title word(titles, i + 1)
        plot dat index i using ($1 > 0 ? $1 * 1.414 : 0.7):($2 > 0 ? $2 : NaN):($1 > 0 ? $1 : 0.5):($1 > 0 ? 2 * $1 : 1):(0.7):($2) \
            with boxxyerror lt 7 notitle
    }
    unset multiplot
}
