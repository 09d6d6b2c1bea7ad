#!/usr/bin/env bash
# plots/blocks/pcg-table.sh SLUG [iter] - chapter 9's time-to-solution table from
# plots/data/pcg/SLUG.csv (plots/pcg-sweep.sh): for each system, each
# version's total time to solution (setup + solve, ms) and its iterations;
# the yardsticks beside them (cusparse-ic0 on a GPU; PETSc's KSPCG with
# PCNONE, PCJACOBI, PCICC on a CPU). Where the file holds several rounds, each
# cell is the median of the rounds' totals; beside it, cg's over it. A cell that did not pass: its
# check (MAXITER: no solution in its --maxiter; FAIL). With `iter`: each
# cell the ms an iteration, the apply's alone (z = M^-1 r, ms) and the
# setup's (ms), step9's versions only. Exit 2: no such file.
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ] || { [ $# = 2 ] && [ "$2" != iter ]; }; then
    echo "usage: plots/blocks/pcg-table.sh SLUG [iter]" >&2; exit 2
fi
mode=${2:-total}
f=plots/data/pcg/$1.csv
[ -s "$f" ] || { echo "pcg-table: no $f (plots/pcg-sweep.sh on that device writes it)" >&2; exit 2; }
awk -F, -v file="$f" -v mode="$mode" '
    function median(s,    n, a, i, j, t) {
        n = split(s, a, " ")
        for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    {
        m = $c["matrix"]; sub(/ ny=.*/, "", m); k = m SUBSEP $c["precision"]
        if (!(k in seen)) { seen[k] = 1; order[++n] = k }
        v = $c["kernel"]; sub(/-n1$/, "", v)
        if (mode == "iter" && $c["step"] != "step9") next
        if (!(v in vseen)) { vseen[v] = 1; vorder[++nv] = v }
        ck = $c["check"]   # a row that met no tolerance is no solution, whatever its tool called it
        if (ck == "PASS" && $c["converged"] == 0 && $c["tol"] + 0 > 0) ck = "MAXITER"
        it[k, v] = $c["iterations"]; chk[k, v] = ck; if ($c["step"] == "step9") dev = $c["device"]; rev[$c["git_rev"]] = 1
        if (ck == "PASS") {
            tot[k, v] = tot[k, v] " " $c["total_ms"]; r[k, v]++
            per[k, v] = per[k, v] " " $c["ms_per_iter"]; set[k, v] = set[k, v] " " $c["setup_ms"]
            if ($c["apply_ms_per_iter"] != "") app[k, v] = app[k, v] " " $c["apply_ms_per_iter"]
        }
        else if (ck == "MAXITER" && $c["total_ms"] != "") { mx[k, v] = mx[k, v] " " $c["total_ms"] }
    }
    END {
        if (mode == "iter")
            printf "%s, the same runs: ms an iteration; in brackets the apply alone (z = M^-1 r, ms on the device'"'"'s clock: events) and the setup (ms); the median where a cell has several runs:\n\n", dev
        else
            printf "%s, each system to its tolerance (1e-5 in float, 1e-10 in double), x0 = 0: ms to solution (setup + solve; the median where a cell has several runs), in brackets the iterations and the cg time over the cell time (above 1x: faster than cg; >: cg stopped at --maxiter):\n\n", dev
        head = "| system | precision |"; rule = "| --- | --- |"
        for (j = 1; j <= nv; j++) { head = head " " vorder[j] " |"; rule = rule " ---: |" }
        print head; print rule
        for (i = 1; i <= n; i++) {
            k = order[i]; split(k, q, SUBSEP)
            line = sprintf("| `%s` | %s |", q[1], q[2] == "d" ? "double" : "float")
            for (j = 1; j <= nv; j++) {
                v = vorder[j]
                if (mode == "iter" && ((k, v) in r))
                    cell = sprintf("%.4f (%s; %.1f)", median(per[k, v]), ((k, v) in app) ? sprintf("%.4f", median(app[k, v])) : "-", median(set[k, v]))
                else if ((k, v) in r) {
                    t = median(tot[k, v])
                    base = ((k, "cg") in r) ? median(tot[k, "cg"]) : ((k, "cg") in mx) ? median(mx[k, "cg"]) : 0
                    cell = sprintf("%.1f (%d)", t, it[k, v])
                    if (base > 0 && v != "cg")
                        cell = sprintf("%.1f (%d; %s%.2fx)", t, it[k, v], ((k, "cg") in r) ? "" : "> ", base / t)
                }
                else if (mode == "iter" && ((k, v) in mx)) cell = "MAXITER"
                else if ((k, v) in mx) cell = sprintf("> %.1f (MAXITER %d)", median(mx[k, v]), it[k, v])
                else if ((k, v) in chk) cell = chk[k, v]
                else cell = "-"
                line = line " " cell " |"
            }
            print line
        }
        revs = ""; for (x in rev) revs = revs (revs == "" ? "" : ", ") x
        printf "\nRows: `%s`, git_rev %s.\n", file, revs
    }' "$f"
