#!/usr/bin/env bash
# step8-mpi/model/model.sh - chapter 8's model of an iteration, from the
# parts step8 measured, checked against the iterations it timed, then carried
# past these machines: P = 1 to 1024 ranks, weak and strong scaling.
#
#   step8-mpi/model/model.sh plots/data/mpi/nvidia-h200.csv [FIGURE.png]
#
# The rows of one device and one precision and version at a time (chapter
# 8's CSV: the timed loop's median, and the profiled loop's parts, each
# measured alone). For each such group, four fits:
#   one rank   T1(m) = t0 + t1 m       the timed iteration of the one-rank
#                                       rows against their rows m: a latency
#                                       (launches, the reductions' reads) and
#                                       a time a row (the bandwidth). The
#                                       parts alone add up to more (a kernel
#                                       waited for loses what the next found
#                                       in the cache), so not these.
#   halo       H(g) = h0 + h1 g         the profiled halo (read, MPI, write)
#                                       of the rows of 2 ranks or more, g the
#                                       largest rank's ghosts
#   allreduce  a a step of its tree     the profiled allreduce over
#                                       ceil(log2 P), the rows of 2 ranks or more
# and the iteration on P ranks of m rows each (R reductions an iteration):
#   T = T1(m) + max(0, H(g) - Pi(m)) + R a ceil(log2 P)
# where Pi(m), the interior rows' product, hides the halo: the product's
# time (product_ms, the one-rank rows' fit of it) for m rows.
# It prints each measured row beside T (the error in %), then T for P = 1,
# 2, 4 ... 1024 ranks: weak (every rank the rows of a one-rank run: ROWS,
# default 4096^2, else the largest) and strong (those rows split P ways),
# the efficiency and the speed-up. Ghosts past the runs: a 2-D grid split in
# rows gives each of 2 ranks one neighbour and nx ghosts, and every inner
# rank of more 2 neighbours and 2 nx (nx from the matrix name). FIGURE: the weak and strong curves (gnuplot, if found).
set -u
csv=${1:?usage: model.sh CHAPTER8.csv [FIGURE.png]}
fig=${2:-}
[ -s "$csv" ] || { echo "model: $csv: no rows" >&2; exit 2; }
dat=$(mktemp)
trap 'rm -f "$dat"' EXIT
awk -F, -v dat="$dat" -v want="${ROWS:-16777216}" '
function lg2(p,   s) { s = 0; while (2 ^ s < p) s++; return s }
function nx_of(name) { if (match(name, /nx=[0-9]+/)) return substr(name, RSTART + 3, RLENGTH - 3) + 0; return 0 }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["check"] != "PASS" || $c["ms_per_iter"] == "" { next }
{
    kname = $c["kernel"]; sub(/-n[0-9]+$/, "", kname)
    g = $c["device"] "|" $c["precision"] "|" kname
    if (!(g in ng)) { groups[++ngroups] = g }
    k = ++ng[g]
    P[g, k] = $c["ranks"]; M[g, k] = $c["rows_max"]; G[g, k] = $c["ghosts_max"]; R[g, k] = $c["reductions"]
    T[g, k] = $c["ms_per_iter"]; PR[g, k] = $c["product_ms"]
    H[g, k] = $c["halo_read_ms"] + $c["halo_mpi_ms"] + $c["halo_write_ms"]
    AR[g, k] = $c["allreduce_ms"] / $c["reductions"]
    NX[g, k] = nx_of($c["matrix"]); N[g, k] = $c["rows"]
}
# least squares y = a + b x over the points kept in xs, ys (n of them)
function fit(n,   i, sx, sy, sxx, sxy, d) {
    sx = sy = sxx = sxy = 0
    for (i = 1; i <= n; i++) { sx += xs[i]; sy += ys[i]; sxx += xs[i] * xs[i]; sxy += xs[i] * ys[i] }
    d = n * sxx - sx * sx
    if (n < 2 || d == 0) { fb = 0; fa = n ? sy / n : 0; return }
    fb = (n * sxy - sx * sy) / d; fa = (sy - fb * sx) / n
}
function model(p, m, gh, r) {
    hh = p > 1 ? h0 + h1 * gh : 0; pi = p0 + p1 * m
    exposed = hh - pi; if (exposed < 0) exposed = 0
    return t0 + t1 * m + exposed + r * ar * lg2(p)
}
END {
    worst = 0
    for (q = 1; q <= ngroups; q++) {
        g = groups[q]; n = ng[g]; split(g, part, "|")
        n1 = 0
        for (i = 1; i <= n; i++) if (P[g, i] == 1) { n1++; xs[n1] = M[g, i]; ys[n1] = T[g, i] }
        fit(n1); t0 = fa; t1 = fb
        n1 = 0
        for (i = 1; i <= n; i++) if (P[g, i] == 1) { n1++; xs[n1] = M[g, i]; ys[n1] = PR[g, i] }
        fit(n1); p0 = fa; p1 = fb
        nh = 0; na = 0; sa = 0
        for (i = 1; i <= n; i++)
            if (P[g, i] > 1) { nh++; xs[nh] = G[g, i]; ys[nh] = H[g, i]; sa += AR[g, i] / lg2(P[g, i]); na++ }
        fit(nh); h0 = fa; h1 = fb; ar = na ? sa / na : 0
        printf "model    %s, %s, %s: one rank %.4g ms + %.4g ms a million rows; halo %.4g ms + %.4g ms a thousand " \
               "ghosts; the interior product %.4g ms a million rows; allreduce %.4g ms a step\n", part[1], part[2],
               part[3], t0, t1 * 1e6, h0, h1 * 1e3, p1 * 1e6, ar
        printf "%-7s %5s %10s %8s %10s %10s %8s\n", "ranks", "nx", "rows/rank", "ghosts", "measured", "model", "error"
        base = 0
        for (i = 1; i <= n; i++) {
            t = model(P[g, i], M[g, i], G[g, i], R[g, i])
            e = 100 * (t - T[g, i]) / T[g, i]; if (e < 0 ? -e > worst : e > worst) worst = e < 0 ? -e : e
            printf "%-7d %5d %10d %8d %10.4f %10.4f %7.1f%%\n", P[g, i], NX[g, i], M[g, i], G[g, i], T[g, i], t, e
            if (P[g, i] == 1 && (M[g, i] == want || (base != want && M[g, i] > base))) { base = M[g, i]; bnx = NX[g, i] }
        }
        if (!base) continue
        printf "%-7s %12s %10s %12s %10s   (%d rows a rank weak, %d in all strong; ghosts nx = %d on 2 ranks, 2 nx = %d past)\n",
               "ranks", "weak ms", "efficiency", "strong ms", "speed-up", base, base, bnx, 2 * bnx
        t1r = model(1, base, 0, R[g, 1])
        for (i = 1; i <= n; i++) {   # the measured points of the figure: weak (base rows a rank), strong (base in all)
            if (P[g, i] > 1 && M[g, i] == base) printf "w %s %s %d %.6g\n", part[2], part[3], P[g, i], 100 * t1r / T[g, i] >> dat
            if (P[g, i] > 1 && M[g, i] * P[g, i] == base) printf "s %s %s %d %.6g\n", part[2], part[3], P[g, i], t1r / T[g, i] >> dat
        }
        for (p = 1; p <= 1024; p *= 2) {
            gh = p > 2 ? 2 * bnx : p == 2 ? bnx : 0   # 2 ranks: one neighbour each
            tw = model(p, base, gh, R[g, 1]); ts = model(p, base / p, gh, R[g, 1])
            printf "%-7d %12.4f %9.1f%% %12.4f %9.2fx\n", p, tw, 100 * t1r / tw, ts, t1r / ts
            printf "m %s %s %d %.6g %.6g %.6g %.6g\n", part[2], part[3], p, tw, 100 * t1r / tw, ts, t1r / ts >> dat
        }
    }
    printf "worst   %.1f%% between the model and a measured iteration\n", worst
}' "$csv"
st=$?
if [ -n "$fig" ] && [ -s "$dat" ]; then
    if ! command -v gnuplot >/dev/null; then
        echo "model: no gnuplot: no figure (apt-get install gnuplot-nox)"
    else
        dev=$(awk -F, 'NR == 2 { print $4 }' "$csv")
        # only the series there are data for (a plot of none would warn):
        # lines of the model, dots of the measured points
        plotcmd() { # MODELCOLUMN POINTKIND
            awk -v col="$1" -v pk="$2" -v f="$dat" '
                $1 == "m" && !(($2, $3) in m) { m[$2, $3] = 1; ml[++nm] = $2 " " $3 }
                $1 == pk && !(($2, $3) in q) { q[$2, $3] = 1; pl[++np] = $2 " " $3 }
                END {
                    for (i = 1; i <= nm; i++) { split(ml[i], a, " ")
                        printf "%s\"< awk '"'"'\\$1 == \\\"m\\\" && \\$2 == \\\"%s\\\" && \\$3 == \\\"%s\\\"'"'"' %s\" using 4:%d with lines title \"%s %s\"", s, a[1], a[2], f, col, a[2], a[1]; s = ", " }
                    for (i = 1; i <= np; i++) { split(pl[i], a, " ")
                        printf "%s\"< awk '"'"'\\$1 == \\\"%s\\\" && \\$2 == \\\"%s\\\" && \\$3 == \\\"%s\\\"'"'"' %s\" using 4:5 with points pt 7 notitle", s, pk, a[1], a[2], f; s = ", " }
                }' "$dat"
        }
        gnuplot <<EOF || st=2
set terminal pngcairo size 1100,450 font ",10"
set output "$fig"
set multiplot layout 1,2 title "Chapter 8's model, $dev: an iteration on P ranks (lines: the model; dots: measured)"
set logscale x 2
set xlabel "ranks P"
set key top left
set grid
set title "weak scaling: efficiency T(1) / T(P), %"
set yrange [0:105]
plot $(plotcmd 6 w)
set title "strong scaling: speed-up T(1) / T(P)"
set yrange [*:*]
set logscale y 2
plot $(plotcmd 8 s), x with lines dt 2 title "ideal"
unset multiplot
EOF
        [ "$st" = 0 ] && echo "model: drew $fig"
    fi
fi
exit $st
