#!/usr/bin/env bash
# step8-mpi/model/model.sh - chapter 8's model of an iteration, fitted to
# some of the runs step8 made (the fit rows), checked against the ones it
# never saw (the held-out rows), then carried past these machines: P = 1
# to 1024 ranks, weak and strong scaling.
#
#   step8-mpi/model/model.sh plots/data/mpi/nvidia-h200.csv [FIGURE.png]
#   FIT='ranks <= 2 && dim == 2 && ny >= nx' PER=row model.sh CSV
#
# Which rows it fits: FIT, a condition (awk's < <= == != >= > && || ! ( )
# + - * / and numbers) on a row's ranks, dim (2: poisson:, 3: poisson3d: or
# stencil27:, 0: any other matrix), nx, ny, nz (the grid, 0 where none),
# rows (the matrix's), m (the largest rank's rows) and ghosts (the largest
# rank's). Default: ranks <= 2 && dim == 2 && ny >= nx and 2 ranks of
# the square and tall 2-D grids. Every other row is held out: more than 2
# ranks, 3-D boxes, thin grids (ny < nx: few grid lines a rank, the halo
# longer than the product). A held-out row's times enter no fit: it is
# only compared. The table marks each row fit or held-out; the summary
# gives the fit's residuals and the held-out error apart (worst and mean
# |error|), for each group, for each kind of held-out row, and overall.
#
# The rows of one device and one precision and version at a time (chapter
# 8's CSV: the timed loop's median, and the profiled loop's parts, each
# measured alone). For each such group, from its fit rows only:
#   one rank   T1(x) = t0 + t1 x       the timed iteration of the one-rank
#                                       fit rows, x their rows (PER=row, the
#                                       default) or nonzeros (PER=nonzero):
#                                       a latency (launches, the reductions'
#                                       reads) and a time a row (bandwidth).
#                                       Not the parts alone: they add up to
#                                       more (a kernel waited for loses what
#                                       the next found in the cache).
#   product    Pi(x) = p0 + p1 x        the profiled product of the same rows
#   halo       H(g) = h0 + h1 g         the profiled halo (read, MPI, write)
#                                       of the fit rows of 2 ranks or more,
#                                       g the largest rank's ghosts
#   allreduce  a a step of its tree     the profiled allreduce over
#                                       ceil(log2 P), the mean over those rows
# and the iteration on P ranks, x a rank's rows (or nonzeros), g its ghosts
# and R the reductions an iteration:
#   T = T1(x) + max(0, H(g) - Pi(x)) + R a ceil(log2 P)
# the halo hidden behind the interior rows' product, what is longer
# exposed. For a held-out row the ghosts are the CSV's (ghosts_max, as
# measured: nx a neighbour on a 2-D grid, nx ny on a 3-D box). PER=row or
# PER=nonzero: a row of a 3-D box has 7 entries, of a 2-D grid 5; only the
# held-out boxes tell which is nearer (the fit's 2-D rows cannot).
#
# It prints each row beside T (the error in %), the summary, then T for
# P = 1, 2, 4 ... 1024 ranks: weak (every rank the rows of a one-rank fit
# row: ROWS, default 4096^2, else the largest) and strong (those rows split
# P ways), the efficiency and the speed-up, and which of its inputs are
# assumptions past the ranks measured: the allreduce's step between nodes
# is the one measured inside one node, the halo over a network is not
# measured, the ghosts are those of a 2-D grid split in rows (nx on 2
# ranks, 2 nx an inner rank past). FIGURE: the weak and strong curves
# (gnuplot, if found).
set -u
csv=${1:?usage: model.sh CHAPTER8.csv [FIGURE.png]}
fig=${2:-}
[ -s "$csv" ] || { echo "model: $csv: no rows" >&2; exit 2; }
FIT=${FIT:-'ranks <= 2 && dim == 2 && ny >= nx'}
PER=${PER:-row}
case $PER in row | nonzero) ;; *) echo "model: PER=$PER: row or nonzero" >&2; exit 2 ;; esac
# FIT is spliced into the program: only the names and operators above
if ! [[ $FIT =~ ^[][a-z0-9\ \<\>=!\&\|\(\)+*/.-]+$ ]] ||
    [ -n "$(echo "$FIT" | grep -oE '[a-z]+' | grep -vxE 'ranks|dim|nx|ny|nz|rows|m|ghosts')" ]; then
    echo "model: FIT='$FIT': a condition on ranks, dim, nx, ny, nz, rows, m and ghosts (awk's operators, numbers)" >&2
    exit 2
fi
dat=$(mktemp)
trap 'rm -f "$dat"' EXIT
awk -F, -v dat="$dat" -v want="${ROWS:-16777216}" -v fitrule="$FIT" -v per="$PER" '
function isfit(ranks, dim, nx, ny, nz, rows, m, ghosts) { return ('"$FIT"') }
function lg2(p,   s) { s = 0; while (2 ^ s < p) s++; return s }
function dimn(name, k) { if (match(name, k "=[0-9]+")) return substr(name, RSTART + length(k) + 1, RLENGTH - length(k) - 1) + 0; return 0 }
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
    nm = $c["matrix"]; NX[g, k] = dimn(nm, "nx"); NY[g, k] = dimn(nm, "ny"); NZ[g, k] = dimn(nm, "nz")
    D[g, k] = nm ~ /^poisson:/ ? 2 : nm ~ /^(poisson3d|stencil27):/ ? 3 : 0
    ZR[g, k] = $c["rows"] > 0 ? $c["nnz"] / $c["rows"] : 1   # nonzeros a row
    GRID[g, k] = D[g, k] == 2 ? NX[g, k] "x" NY[g, k] : D[g, k] == 3 ? NX[g, k] "x" NY[g, k] "x" NZ[g, k] : substr(nm, 1, 14)
    F[g, k] = isfit(P[g, k], D[g, k], NX[g, k], NY[g, k], NZ[g, k], $c["rows"], M[g, k], G[g, k]) ? 1 : 0
    KIND[g, k] = (D[g, k] == 3 ? "3-D boxes" : D[g, k] == 2 && NY[g, k] < NX[g, k] ? "thin 2-D grids (ny < nx)" : D[g, k] == 2 ? "2-D grids" : "other matrices") \
                 " on " P[g, k] (P[g, k] == 1 ? " rank" : " ranks")
}
# least squares y = a + b x over the points kept in xs, ys (n of them)
function fit(n,   i, sx, sy, sxx, sxy, d) {
    sx = sy = sxx = sxy = 0
    for (i = 1; i <= n; i++) { sx += xs[i]; sy += ys[i]; sxx += xs[i] * xs[i]; sxy += xs[i] * ys[i] }
    d = n * sxx - sx * sx
    if (n < 2 || d == 0) { fb = 0; fa = n ? sy / n : 0; return }
    fb = (n * sxy - sx * sy) / d; fa = (sy - fb * sx) / n
}
# x: a rank of m rows, zr nonzeros a row
function xof(m, zr) { return per == "row" ? m : m * zr }
function model(p, m, zr, gh, r,   x) {
    x = xof(m, zr)
    hh = p > 1 ? h0 + h1 * gh : 0; pi = p0 + p1 * x
    exposed = hh - pi; if (exposed < 0) exposed = 0
    return t0 + t1 * x + exposed + r * ar * lg2(p)
}
function tally(key, e,   a) {   # n, sum of |e|, the worst e (signed) of a set of rows
    a = e < 0 ? -e : e
    sn[key]++; ss[key] += a
    if (!(key in sw) || a > (sw[key] < 0 ? -sw[key] : sw[key])) sw[key] = e
}
function said(key) { return sprintf("%d row%s, worst %.1f%%, mean |error| %.1f%%", sn[key], sn[key] == 1 ? "" : "s", sw[key], ss[key] / sn[key]) }
END {
    printf "fit      the rows where %s (FIT; PER=%s: T1 and the product a %s); held out: every other row, in no fit\n",
           fitrule, per, per
    for (q = 1; q <= ngroups; q++) {
        g = groups[q]; n = ng[g]; split(g, part, "|")
        n1 = 0
        mfit = 0
        for (i = 1; i <= n; i++) if (F[g, i] && P[g, i] == 1) {
            n1++; xs[n1] = xof(M[g, i], ZR[g, i]); ys[n1] = T[g, i]
            if (!mfit || M[g, i] < mfit) mfit = M[g, i]
        }
        if (n1 == 0) { printf "model    %s, %s, %s: no one-rank fit row (FIT): no model, none of its %d rows checked\n", part[1], part[2], part[3], n; continue }
        fit(n1); t0 = fa; t1 = fb
        n1 = 0
        for (i = 1; i <= n; i++) if (F[g, i] && P[g, i] == 1) { n1++; xs[n1] = xof(M[g, i], ZR[g, i]); ys[n1] = PR[g, i] }
        fit(n1); p0 = fa; p1 = fb
        nh = 0; na = 0; sa = 0; pmax = 1
        for (i = 1; i <= n; i++) {
            if (P[g, i] > pmax) pmax = P[g, i]
            if (F[g, i] && P[g, i] > 1) { nh++; xs[nh] = G[g, i]; ys[nh] = H[g, i]; sa += AR[g, i] / lg2(P[g, i]); na++ }
        }
        fit(nh); h0 = fa; h1 = fb; ar = na ? sa / na : 0
        unit = per == "row" ? "rows" : "nonzeros"
        printf "model    %s, %s, %s: one rank %.4g ms + %.4g ms a million %s; halo %.4g ms + %.4g ms a thousand " \
               "ghosts; the interior product %.4g ms a million %s; allreduce %.4g ms a step\n", part[1], part[2],
               part[3], t0, t1 * 1e6, unit, h0, h1 * 1e3, p1 * 1e6, unit, ar
        if (!nh) printf "model    no fit row of 2 ranks or more: no halo, no allreduce (both 0)\n"
        if (t0 < 0 || p0 < 0) printf "note     a latency below zero: the one-rank fit rows are no line in their %s (the small ones in a cache?); " \
                                      "at fewer %s a rank the model falls below zero, where it means nothing\n", unit, unit
        printf "%-7s %-14s %10s %8s %10s %10s %8s  %s\n", "ranks", "grid", "rows/rank", "ghosts", "measured", "model", "error", "set"
        base = 0; nk = 0; b2 = 0; nb2 = 0
        for (i = 1; i <= n; i++) {
            t = model(P[g, i], M[g, i], ZR[g, i], G[g, i], R[g, i])
            e = 100 * (t - T[g, i]) / T[g, i]
            printf "%-7d %-14s %10d %8d %10.4f %10.4f %7.1f%%  %s\n", P[g, i], GRID[g, i], M[g, i], G[g, i], T[g, i], t, e,
                   F[g, i] ? "fit" : "held-out"
            if (F[g, i]) { tally(g SUBSEP "fit", e); tally("fit", e); if (P[g, i] > 1) { b2 += e; nb2++ } }
            else {
                tally(g SUBSEP "held", e); tally("held", e)
                if (!((g, KIND[g, i]) in sn)) kinds[++nk] = KIND[g, i]
                tally(g SUBSEP KIND[g, i], e)
            }
            if (F[g, i] && P[g, i] == 1 && D[g, i] == 2 && (M[g, i] == want || (base != want && M[g, i] > base))) {
                base = M[g, i]; bnx = NX[g, i]; bzr = ZR[g, i]
            }
        }
        printf "fit      %s (the one-rank rows: the residuals of T1; those of 2 ranks: T1 and their own profiled halo and allreduce)\n", said(g SUBSEP "fit")
        if ((g, "held") in sn) {
            printf "held-out %s\n", said(g SUBSEP "held")
            for (j = 1; j <= nk; j++) printf "held-out   %s: %s\n", kinds[j], said(g SUBSEP kinds[j])
        } else printf "held-out none in this group: nothing here tests the model past its own fit\n"
        if (!base) continue
        printf "%-7s %12s %10s %12s %10s   (%d rows a rank weak, %d in all strong; ghosts nx = %d on 2 ranks, 2 nx = %d past)\n",
               "ranks", "weak ms", "efficiency", "strong ms", "speed-up", base, base, bnx, 2 * bnx
        t1r = model(1, base, bzr, 0, R[g, 1])
        for (i = 1; i <= n; i++) {   # the measured points of the figure: weak (base rows a rank), strong (base in all)
            if (P[g, i] > 1 && M[g, i] == base) printf "w %s %s %d %.6g\n", part[2], part[3], P[g, i], 100 * t1r / T[g, i] >> dat
            if (P[g, i] > 1 && M[g, i] * P[g, i] == base) printf "s %s %s %d %.6g\n", part[2], part[3], P[g, i], t1r / T[g, i] >> dat
        }
        for (p = 1; p <= 1024; p *= 2) {
            gh = p > 2 ? 2 * bnx : p == 2 ? bnx : 0   # 2 ranks: one neighbour each
            tw = model(p, base, bzr, gh, R[g, 1]); ts = model(p, base / p, bzr, gh, R[g, 1])
            printf "%-7d %12.4f %9.1f%% %12.4f %9.2fx\n", p, tw, 100 * t1r / tw, ts, t1r / ts
            printf "m %s %s %d %.6g %.6g %.6g %.6g\n", part[2], part[3], p, tw, 100 * t1r / tw, ts, t1r / ts >> dat
        }
        printf "assume   the parts fitted on the FIT rows, the model checked on the held-out rows, up to %d ranks (the most measured here); past them, assumptions, not measurements:\n", pmax
        printf "assume   the allreduce step a = %.4g ms, measured between ranks of one node, for every step of the tree, those over a network too;\n", ar
        printf "assume   the halo H(g) of one node (over a network it is not measured); the ghosts of a 2-D grid split in rows (nx, 2 nx)\n"
        printf "assume   strong: T1 and the product carried to %d rows a rank at 1024 ranks, %.0fx below the smallest one-rank fit row (%d)\n",
               base / 1024, mfit / (base / 1024), mfit
        if (nb2) printf "assume   every P > 1: the mean error of the 2-rank fit rows, %+.1f%%%s, not corrected: the formula carries it\n",
                        b2 / nb2, (b2 / nb2 <= -0.05 ? " (too short)" : (b2 / nb2 >= 0.05 ? " (too long)" : ""))
    }
    if ("fit" in sn) printf "overall  fit: %s\n", said("fit")
    if ("held" in sn) printf "overall  held-out: %s\n", said("held")
    else if ("fit" in sn) printf "overall  held-out: none (FIT keeps every row): the model is checked only on its own fit\n"
    else printf "overall  no group has a one-rank fit row (FIT): no model\n"
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
