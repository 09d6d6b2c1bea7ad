#!/usr/bin/env bash
# plots/blocks/trsv-table.sh SLUG - chapter 9's triangular-solve table from
# plots/data/pcg/trsv-SLUG.csv (plots/pcg-sweep.sh): for each system, L's
# levels and the time of one L y = v solve alone (ms, and us a level) by
# each exact form of step9 (ic0: by levels; ic0-syncfree; ic0-color:
# the colored factor's own levels) and, where it ran, cuSPARSE's SpSV on the
# same factor in natural order; then the faster of step9's two natural-order
# solves against SpSV, and their geometric mean over the systems both solved.
# A cell of several runs: their median. Exit 2: no such file.
set -u
if [ $# -ne 1 ]; then echo "usage: plots/blocks/trsv-table.sh SLUG" >&2; exit 2; fi
f=plots/data/pcg/trsv-$1.csv
[ -s "$f" ] || { echo "trsv-table: no $f (plots/pcg-sweep.sh on that device writes it)" >&2; exit 2; }
awk -F, -v file="$f" '
    function median(s,    n, a, i, j, t) {
        n = split(s, a, " ")
        for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    function cell(k, v) {
        if (!((k SUBSEP v) in ms)) return "-"
        return sprintf("%.4f (%.2f)", median(ms[k, v]), median(ms[k, v]) * 1000 / lev[k, v])
    }
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["check"] != "PASS" { bad[$c["matrix"], $c["kernel"]] = $c["check"]; next }
    {
        m = $c["matrix"]; sub(/ ny=.*/, "", m); k = m SUBSEP $c["precision"]
        if (!(k in seen)) { seen[k] = 1; order[++n] = k }
        v = $c["kernel"]; ms[k, v] = ms[k, v] " " $c["ms_per_solve"]; lev[k, v] = $c["levels"]; dev = $c["device"]
        rev[$c["git_rev"]] = 1
    }
    END {
        printf "%s, one L y = v alone, ms on the device'"'"'s clock (step9: OpenCL events, its first command'"'"'s start to its last one'"'"'s end; SpSV: CUDA events; us a level in brackets; the median of its runs):\n\n", dev
        print "| system | precision | levels | ic0 (by levels) | ic0-syncfree | cuSPARSE SpSV | step9 (the faster) against SpSV | ic0-color: its levels, ms |"
        print "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
        for (i = 1; i <= n; i++) {
            k = order[i]; split(k, q, SUBSEP)
            a = ((k SUBSEP "ic0") in ms) ? median(ms[k, "ic0"]) : 0; b = ((k SUBSEP "ic0-syncfree") in ms) ? median(ms[k, "ic0-syncfree"]) : 0
            best = a > 0 && (b == 0 || a < b) ? a : b
            sp = ((k SUBSEP "cusparse-spsv") in ms) ? median(ms[k, "cusparse-spsv"]) : 0
            if (sp > 0 && best > 0) { lg += log(sp / best); ng++ }
            printf "| `%s` | %s | %d | %s | %s | %s | %s | %s |\n", q[1], q[2] == "d" ? "double" : "float", lev[k, "ic0"],
                cell(k, "ic0"), cell(k, "ic0-syncfree"), (sp > 0 ? cell(k, "cusparse-spsv") : "-"),
                (sp > 0 && best > 0 ? sprintf("%.2fx", sp / best) : "-"),
                (((k SUBSEP "ic0-color") in ms) ? sprintf("%d, %.4f", lev[k, "ic0-color"], median(ms[k, "ic0-color"])) : "-")
        }
        if (ng) printf "\nstep9 (the faster) against SpSV, the geometric mean over the %d systems both solved: %.2fx.\n", ng, exp(lg / ng)
        revs = ""; for (x in rev) revs = revs (revs == "" ? "" : ", ") x
        printf "\nRows: `%s`, git_rev %s.\n", file, revs
    }' "$f"
