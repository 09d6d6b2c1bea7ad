# plots/devices.gp - the honest comparison between devices: each step's
# GFLOP/s as a % of the compulsory bound measured on the same device (100%:
# every byte read once at the measured bandwidth), one bar group per device,
# each at the largest grid every DIA step ran with all its kernels on that device.
# Variables: file (device "step0" "step1" ... per row: a % per step, NaN where
# the step has no data), ncol (columns in file), lts (a linetype per step
# column), dates, out.
load dir."style.gp"
set title sprintf("GFLOP/s as %% of the compulsory bound, per device\n(each at the largest grid every step ran there with all its kernels; data %s)", dates)
set ylabel "% of the compulsory bound (measured bandwidth)"
set yrange [0:*]
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set xtics scale 0
set key outside right top vertical Left reverse
set bmargin 5
do for [fmt in "png svg"] {
    eval term(fmt)
    set output out.".".fmt
    plot for [i=2:ncol] file using i:xtic(1) lt word(lts, i - 1)+0 title columnheader(i), \
         100 with lines lc rgb "black" @bounddt lw 2 title "compulsory bound (100%)"
    unset output
}
