#!/usr/bin/env bash
# plots/blocks/cg-shapes.sh SLUG - chapter 7's table of row shapes: for each
# matrix of plots/data/cg-SLUG.csv with step7 fused rows (the 2-D Poisson
# matrix at its largest size there, the 3-D boxes), in each precision: the
# nonzeros a row, the compulsory bytes a row and the matrix's share of them
# (fused's bytes_per_iter less its 10 sweeps of n values, as step7-cg/report/row.c's
# spmv_cg_bytes counts: rows before the pipelined version counted 10 sweeps as
# compulsory, later ones 9), fused's % of its compulsory bound, and fused against
# the cuSPARSE + cuBLAS CUDA graph of the same run. Exit 2: no such rows.
set -u
if [ $# -ne 1 ]; then echo "usage: plots/blocks/cg-shapes.sh SLUG" >&2; exit 2; fi
f=plots/data/cg-$1.csv
[ -s "$f" ] || { echo "cg-shapes: no $f" >&2; exit 2; }
awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["check"] != "PASS" || $c["matrix"] !~ /^(poisson|poisson3d|stencil27):/ { next }
    {
        kind = $c["matrix"]; sub(/:.*/, "", kind)
        k = kind SUBSEP $c["precision"]
        if ($c["step"] == "step7" && $c["kernel"] == "fused") {
            if (kind == "poisson" && (k in rows) && $c["rows"] + 0 < rows[k]) next   # the 2-D matrix: its largest size
            if (!(k in rows)) order[++n] = k
            rows[k] = $c["rows"]; nnz[k] = $c["nnz"]; bc[k] = $c["bytes_compulsory_per_iter"]; bf[k] = $c["bytes_per_iter"]
            pc[k] = $c["pct_compulsory"]; ms[k] = $c["ms_per_iter"]; mat[k] = $c["matrix"]
        }
        if ($c["kernel"] == "cusparse-graph") { g[k SUBSEP $c["rows"]] = $c["ms_per_iter"] }
    }
    END {
        if (!n) { print "cg-shapes: no step7 fused rows" > "/dev/stderr"; exit 2 }
        print "| matrix | precision | nonzeros a row | compulsory bytes a row | the matrix'"'"'s share | fused, % compulsory | fused is faster than the CUDA graph by |"
        print "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
        for (i = 1; i <= n; i++) {
            k = order[i]; split(k, q, SUBSEP); v = q[2] == "d" ? 8 : 4
            name = mat[k]; sub(/ .*/, "", name)
            perrow = bc[k] / rows[k]; share = (bf[k] - 10 * v * rows[k]) / bc[k]
            gk = k SUBSEP rows[k]
            printf "| `%s` (%d rows) | %s | %.1f | %.1f | %.0f%% | %.1f%% | %s |\n", name, rows[k], q[2] == "d" ? "double" : "float",
                nnz[k] / rows[k], perrow, 100 * share, pc[k], ((gk in g) && ms[k] > 0) ? sprintf("%.2fx", g[gk] / ms[k]) : "-"
        }
    }' "$f"
