#!/usr/bin/env bash
# plots/blocks/cg-bytes.sh SLUG NX PREC - one line for chapter 7: what a CG
# iteration on Poisson NX² in PREC (s or d) moves, from the last passing step7
# rows of plots/data/cg-SLUG.csv: the matrix (fused's bytes_per_iter less its
# 10 sweeps of n values, the formula of step7-cg/report/row.c's spmv_cg_bytes), and
# bytes_per_iter of pipelined (where the file has it), fused and plain. Exit 2: no such rows.
set -u
if [ $# -ne 3 ]; then echo "usage: plots/blocks/cg-bytes.sh SLUG NX s|d" >&2; exit 2; fi
f=plots/data/cg-$1.csv
[ -s "$f" ] || { echo "cg-bytes: no $f" >&2; exit 2; }
awk -F, -v nx="$2" -v p="$3" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["step"] == "step7" && $c["check"] == "PASS" && $c["precision"] == p && $c["matrix"] ~ ("^poisson:nx=" nx "( |$)") {
        b[$c["kernel"]] = $c["bytes_per_iter"]; bc = $c["bytes_compulsory_per_iter"]; n = $c["rows"]; nnz = $c["nnz"]
    }
    END {
        if (!("fused" in b) || !("plain" in b)) { printf "cg-bytes: no step7 rows of poisson:nx=%s in %s\n", nx, p > "/dev/stderr"; exit 2 }
        v = p == "d" ? 8 : 4
        printf "Poisson %s² in %s: %d rows, %d nonzeros; the matrix is %.2f GB, and an iteration moves %s%.2f GB in fused (the matrix once + 10 sweeps), %.2f GB in plain (the matrix once + 14).\n",
            nx, p == "d" ? "double" : "float", n, nnz, (b["fused"] - 10 * v * n) / 1e9,
            ("pipelined" in b) ? sprintf("%.2f GB in pipelined (the matrix once + 9 sweeps), ", b["pipelined"] / 1e9) : "",
            b["fused"] / 1e9, b["plain"] / 1e9
    }' "$f"
