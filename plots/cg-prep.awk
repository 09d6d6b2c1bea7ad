# plots/cg-prep.awk - chapter 7's CG CSV (one device) into what plots/cg.gp
# draws: per precision, W/SLUG-cg-P.dat (rows, then ms per iteration of each
# solver that has a PASS row in that precision, then the compulsory bound) and
# W/SLUG-cg-P.plot (the plot command for those columns: no empty series, so
# gnuplot has nothing to warn about); W/SLUG-cg.meta (precs, device, dates,
# notes). Only fixed-size Poisson rows (matrix poisson:...) with a time and
# check PASS are drawn; a solver run twice at one size keeps its last row.
# The bound of a size: the compulsory bytes over the fastest probe of any row
# there (a bound must not be beatable).
# awk -F, -v W=dir -v slug=name -f cg-prep.awk cg-SLUG.csv
function kord(k) {   # the order of the key: the course's three, then the yardsticks
    if (k == "plain") return 1; if (k == "fused") return 2; if (k == "pipelined") return 2.5; if (k == "cusparse-graph") return 3
    if (k == "cusparse-cublas") return 4; if (k == "cupy") return 5; if (k == "scipy") return 6; if (k ~ /^petsc/) return 7
    return 8
}
function lt(k) {
    if (k == "plain") return 2; if (k == "fused") return 5; if (k == "pipelined") return 4; if (k == "cusparse-cublas") return 10
    if (k == "cusparse-graph") return 3
    if (k == "cupy") return 8; if (k == "scipy") return 1; if (k == "petsc-n2") return 6; if (k ~ /^petsc/) return 7; return 9
}
function label(k) {
    if (k == "plain") return "step7 plain"; if (k == "fused") return "step7 fused"; if (k == "pipelined") return "step7 pipelined"
    if (k == "cusparse-cublas") return "cuSPARSE + cuBLAS (CUDA sample)"; if (k == "cupy") return "CuPy cg"
    if (k == "cusparse-graph") return "cuSPARSE + cuBLAS (CUDA graph)"
    if (k == "scipy") return "SciPy cg (host)"; if (k ~ /^petsc-n/) return "PETSc KSPCG, " substr(k, 8) " ranks"
    return k
}
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["matrix"] !~ /^poisson:/ { next }
{
    k = $c["kernel"]; p = $c["precision"]; n = $c["rows"] + 0
    if ($c["check"] != "PASS" || $c["ms_per_iter"] == "") {
        if ($c["check"] != "SKIP") notes[++nn] = label(k) " " p " " $c["matrix"] " " $c["check"]
        next
    }
    ms[p, k, n] = $c["ms_per_iter"]
    if (!((p, k) in has)) { has[p, k] = 1; nk[p]++; ks[p, nk[p]] = k }
    if (!((p, n) in hasn)) { hasn[p, n] = 1; nn_[p]++; ns[p, nn_[p]] = n }
    bw = $c["bw_measured_gbs"] + 0; comp = $c["bytes_compulsory_per_iter"] + 0
    if ($c["kernel"] == "fused" && comp > 0) {   # the compulsory sweeps of the row: 10 before the pipelined version, 9 after
        v = $c["precision"] == "d" ? 8 : 4; sw[p] = sprintf("%.0f", 10 - ($c["bytes_per_iter"] - comp) / (v * $c["rows"]))
    }
    if (bw > 0 && comp > 0) { b = comp / (bw * 1e6); if (!((p, n) in bound) || b < bound[p, n]) bound[p, n] = b }
    if (dev == "" && $c["step"] == "step7") dev = $c["device"]
    if (dev0 == "") dev0 = $c["device"]
    d = substr($c["date"], 1, 10); if (d1 == "" || d < d1) d1 = d; if (d > d2) d2 = d
}
END {
    precs = ""
    for (pi = 1; pi <= 2; pi++) {
        p = pi == 1 ? "s" : "d"
        if (!nk[p]) continue
        precs = precs (precs == "" ? "" : " ") p
        # the solvers in the course's order, the sizes ascending
        for (i = 2; i <= nk[p]; i++) { t = ks[p, i]; for (j = i - 1; j >= 1 && kord(ks[p, j]) > kord(t); j--) ks[p, j + 1] = ks[p, j]; ks[p, j + 1] = t }
        for (i = 2; i <= nn_[p]; i++) { t = ns[p, i]; for (j = i - 1; j >= 1 && ns[p, j] > t; j--) ns[p, j + 1] = ns[p, j]; ns[p, j + 1] = t }
        hb = 0; for (i = 1; i <= nn_[p]; i++) if ((p, ns[p, i]) in bound) hb = 1
        f = W "/" slug "-cg-" p ".dat"
        printf "rows" > f
        for (i = 1; i <= nk[p]; i++) printf " \"%s\"", label(ks[p, i]) > f
        if (hb) printf(" \"compulsory bound (matrix + %s vector passes)\"", ((p in sw) ? sw[p] : 9)) > f
        print "" > f
        for (i = 1; i <= nn_[p]; i++) {
            n = ns[p, i]; printf "%d", n > f
            for (j = 1; j <= nk[p]; j++) printf " %s", ((p, ks[p, j], n) in ms) ? ms[p, ks[p, j], n] : "NaN" > f
            if (hb) printf " %s", ((p, n) in bound) ? sprintf("%.6g", bound[p, n]) : "NaN" > f
            print "" > f
        }
        close(f)
        g = W "/" slug "-cg-" p ".plot"
        cmd = "plot"
        for (j = 1; j <= nk[p]; j++)
            cmd = cmd sprintf("%s '%s' using 1:%d with linespoints lt %d title columnheader(%d)", j > 1 ? "," : "", f, j + 1, lt(ks[p, j]), j + 1)
        if (hb) cmd = cmd sprintf(", '%s' using 1:%d with lines lc rgb 'black' dt (12,6) lw 2 title columnheader(%d)", f, nk[p] + 2, nk[p] + 2)
        print cmd > g
        close(g)
    }
    m = W "/" slug "-cg.meta"
    print "precs\t" precs > m
    print "device\t" (dev != "" ? dev : dev0) > m
    print "dates\t" (d1 == d2 ? d1 : d1 " to " d2) > m
    s = ""
    for (i = 1; i <= nn && i <= 3; i++) s = s (i > 1 ? ", " : "") notes[i]
    if (nn > 3) s = s sprintf(" and %d more", nn - 3)
    print "notes\t" (nn ? "not plotted (no time): " s : "") > m
    close(m)
}
