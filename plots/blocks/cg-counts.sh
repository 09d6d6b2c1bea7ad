#!/usr/bin/env bash
# plots/blocks/cg-counts.sh SLUG - chapter 7's table of iteration counts: for
# each matrix and precision of plots/data/cg-counts/SLUG.csv (plots/cg-counts.sh:
# each version solved to its default --tol), the iterations of plain, fused
# and pipelined, the last passing row of each, and pipelined's against
# fused's. Exit 2: no such file.
set -u
if [ $# -ne 1 ]; then echo "usage: plots/blocks/cg-counts.sh SLUG" >&2; exit 2; fi
f=plots/data/cg-counts/$1.csv
[ -s "$f" ] || { echo "cg-counts: no $f (plots/cg-counts.sh on that device writes it)" >&2; exit 2; }
awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["step"] != "step7" || $c["check"] != "PASS" || $c["converged"] != 1 { next }
    {
        m = $c["matrix"]; sub(/ ny=.*/, "", m); k = m SUBSEP $c["precision"]
        if (!(k in seen)) { seen[k] = 1; order[++n] = k }
        it[k, $c["kernel"]] = $c["iterations"]; dev = $c["device"]
    }
    END {
        printf "Iterations to the default `--tol` (1e-5 in float, 1e-10 in double), %s:\n\n", dev
        print "| matrix | precision | plain | fused | pipelined | pipelined against fused |"
        print "| --- | --- | ---: | ---: | ---: | ---: |"
        for (i = 1; i <= n; i++) {
            k = order[i]; split(k, q, SUBSEP)
            p = it[k, "pipelined"]; fu = it[k, "fused"]
            printf "| `%s` | %s | %s | %s | %s | %s |\n", q[1], q[2] == "d" ? "double" : "float", it[k, "plain"], fu, p,
                (fu > 0 && p != "") ? sprintf("%+.1f%%", 100 * (p - fu) / fu) : "-"
        }
    }' "$f"
