#!/usr/bin/env bash
# plots/blocks/chapter-table.sh DEVICE GRID STEP:KERNEL... - a chapter's table of
# measured rows (plots/blocks.sh runs it for <!-- block:chapter-table ... -->).
#
# DEVICE names plots/data/DEVICE.csv; GRID its matrix column (grid1024x1024r5).
# One line per STEP:KERNEL, in the order given: the fastest row of that step and
# kernel at GRID whose check passed (the rule of the figures and of the
# then-and-now tables), with its time, GFLOP/s, the ratio to the table's step1
# row (when step1:naive is one of them), the probe's bandwidth and both bounds. Then the rows' provenance, from
# their own device, driver, runs, date and git_rev columns. Columns are read by
# the names in the CSV's header. Exit 2: no such file, or a STEP:KERNEL with no
# passing row at GRID.
set -u
if [ $# -lt 3 ]; then echo "usage: plots/blocks/chapter-table.sh DEVICE GRID STEP:KERNEL..." >&2; exit 2; fi
dev=$1 grid=$2; shift 2
csv=plots/data/$dev.csv
[ -f "$csv" ] || { echo "chapter-table: $csv not found" >&2; exit 2; }
awk -F, -v grid="$grid" -v specs="$*" -v csv="$csv" '
function col(n) { return (n in C) ? $C[n] : "" }
function f(x) { return x >= 100 ? sprintf("%.1f", x) : x >= 10 ? sprintf("%.2f", x) : sprintf("%.3f", x) }
function g(x) { return x >= 10 ? sprintf("%.1f", x) : sprintf("%.2f", x) }
FNR == 1 { for (i = 1; i <= NF; i++) C[$i] = i; next }
col("check") == "PASS" && col("matrix") == grid {
    k = col("step") ":" col("kernel")
    if (!(k in best) || col("gflops") + 0 > G[k]) { best[k] = $0; G[k] = col("gflops") + 0 }
}
END {
    n = split(specs, S, " ")
    for (i = 1; i <= n; i++) if (!(S[i] in best)) { printf "chapter-table: no passing row of %s at %s in %s\n", S[i], grid, csv > "/dev/stderr"; exit 2 }
    base = 0
    for (i = 1; i <= n; i++) if (S[i] == "step1:naive") base = G["step1:naive"]
    print "| step | kernel | ms median | GFLOP/s | x step1 | probe GB/s | model bound | % of model | % of compulsory |"
    print "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for (i = 1; i <= n; i++) {
        $0 = best[S[i]]
        gf = col("gflops") + 0; bm = col("bound_model_gflops") + 0; bc = col("bound_compulsory_gflops") + 0
        printf "| %s | %s | %s | %s | %s | %s | %s | %.0f%% | %.1f%% |\n", col("step"), col("kernel"), f(col("ms_median") + 0), g(gf),
            base ? sprintf("%.2f", gf / base) : "-", sprintf("%.1f", col("bw_measured_gbs")), g(bm), 100 * gf / bm, 100 * gf / bc
        d = col("device") ", " col("driver"); if (!(d in seen)) { seen[d] = 1; devs = devs (devs ? "; " : "") d }
        r = col("git_rev") " of " substr(col("date"), 1, 10); if (!(r in seenr)) { seenr[r] = 1; nr++; revs = revs (revs ? " and " : "") r }
        rn = col("runs"); if (!(rn in seenn)) { seenn[rn] = 1; runs = runs (runs ? " or " : "") rn }
        rows = col("rows"); nnz = col("nnz")
    }
    print ""
    printf "%s; %s (%d rows, %.1f M nonzeros), %s timed runs each. Each row is the fastest passing run of its kernel in `%s` (`make figures`, %s %s); \"x step1\" divides by the step1 row above, from its own run; \"probe GB/s\" is the bandwidth the bounds use, measured in the same run.\n",
        devs, grid, rows, nnz / 1e6, runs, csv, (nr > 1 ? "revisions" : "revision"), revs
}' "$csv"
