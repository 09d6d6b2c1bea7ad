#!/usr/bin/env bash
# plots/readme-table.sh [README [DATADIR]] - what `make readme-table` does:
# rewrite the block between <!-- results:begin --> and <!-- results:end --> in
# README.md with a Markdown table read from plots/data/*.csv: per device and
# step, the largest radius-5 grid that every kernel of the step ran (step6:
# precision s) and the best GFLOP/s there, as % of the compulsory bound, with
# the device name and the date of that row. A kernel that stopped growing
# earlier (a slower loop, a budget spent) so pulls the step back to a size
# where its kernels compare. Exit 2 if README lacks the markers.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
README=${1:-$ROOT/README.md}
DATA=${2:-$ROOT/plots/data}
BEGIN='<!-- results:begin -->'
END='<!-- results:end -->'

if [ ! -f "$README" ]; then
    echo "readme-table: $README not found" >&2
    exit 2
fi
if ! grep -qxF "$BEGIN" "$README" || ! grep -qxF "$END" "$README"; then
    echo "readme-table: $README lacks the lines '$BEGIN' and '$END': add them where the table goes" >&2
    exit 2
fi
shopt -s nullglob
csvs=("$DATA"/*.csv)
table=$(mktemp)
trap 'rm -f "$table" "$table.new"' EXIT
if [ ${#csvs[@]} -eq 0 ]; then
    echo "(no measured data yet: \`make figures\` writes plots/data/ and \`make readme-table\` fills this in)" >"$table"
else
    {
        echo "| device | step | best kernel | largest grid all its kernels ran | GFLOP/s | % of compulsory bound | date |"
        echo "| --- | --- | --- | --- | ---: | ---: | --- |"
        for csv in "${csvs[@]}"; do
            # columns by their names in the header
            awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) C[$i] = i; ncol = NF; next }
                function f(name) { return (name in C) ? $C[name] : "" }
                NF == ncol && f("check") == "PASS" && f("gflops") > 0 && f("matrix") ~ /^grid[0-9]+x[0-9]+r5$/ &&
                     (f("step") ~ /^step[0-5]$/ || (f("step") == "step6" && f("precision") == "s" && f("kernel") !~ /^cusparse/)) {
                    s = f("step"); r = f("rows") + 0; kb = f("kernel")
                    if (s == "step6") sub(/-[0-9]+$/, "", kb)   # vector-16, vector-8: one kernel
                    ks = s SUBSEP kb
                    if (!(ks in kmax) || r > kmax[ks]) kmax[ks] = r
                    kstep[ks] = s
                    c = s SUBSEP r
                    if (!(c in g) || f("gflops") + 0 > g[c]) {
                        g[c] = f("gflops") + 0; bc[c] = f("bound_compulsory_gflops") + 0; k[c] = f("kernel"); d[c] = f("device")
                        m[c] = f("matrix"); day[c] = substr(f("date"), 1, 10)
                    }
                }
                END { for (ks in kmax) { s = kstep[ks]; if (!(s in top) || kmax[ks] < top[s]) top[s] = kmax[ks] }
                      for (i = 0; i <= 6; i++) { s = "step" i; if (!(s in top)) continue; c = s SUBSEP top[s]
                        printf "| %s | %s | %s | %s | %.2f | %s | %s |\n", d[c], s, k[c], m[c], g[c],
                            (bc[c] > 0 ? sprintf("%.1f%%", 100 * g[c] / bc[c]) : "-"), day[c] } }' "$csv"
        done
        echo
        echo "GFLOP/s count 2 per nonzero at the median time; the compulsory bound reads every input byte once at"
        echo "the bandwidth measured in the same run. Figures: [plots/](plots/README.md). Refresh with \`make readme-table\`."
    } >"$table"
fi
awk -v b="$BEGIN" -v e="$END" -v t="$table" '
    $0 == b { print; while ((getline l < t) > 0) print l; skip = 1; next }
    $0 == e { skip = 0 }
    !skip' "$README" >"$table.new" && cat "$table.new" >"$README"
echo "readme-table: $README: $(grep -c "^| [^-]" "$table" | awk "{ print (\$1 > 0 ? \$1 - 1 : 0) }") rows from ${#csvs[@]} files"
