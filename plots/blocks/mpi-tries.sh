#!/usr/bin/env bash
# plots/blocks/mpi-tries.sh DIR - chapter 8's tuning record: the tries of one
# call on the GPU machine, side by side (plots/data/mpi/tuning/DIR/: step7.csv,
# chapter 7's fused CG on one device; N-NAME.csv, step8 on 2 ranks as try N
# built it). For each try and precision, the median over the rounds of ms an
# iteration of each version, and against chapter 7 on one device: strong
# scaling (the same grid on 2 ranks; ideal 2x) and weak (a grid of twice the
# rows on 2 ranks; ideal 100%).
set -u
d=plots/data/mpi/tuning/${1:?usage: mpi-tries.sh DIR}
[ -s "$d/step7.csv" ] || { echo "mpi-tries: $d/step7.csv: no rows" >&2; exit 2; }
tries=("$d"/[0-9]-*.csv)
[ -s "${tries[0]}" ] || { echo "mpi-tries: $d: no tries (N-NAME.csv)" >&2; exit 2; }
awk -F, '
function med(k,   n, i, j, t, v) {
    n = split(vals[k], v, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
FNR == 1 {
    delete c; for (i = 1; i <= NF; i++) c[$i] = i
    f = FILENAME; sub(/.*\//, "", f); sub(/\.csv$/, "", f)
    if (f != "step7") { t = f; sub(/^[0-9]+-/, "", t); gsub(/-/, " ", t); try[++nt] = t }
    next
}
$c["check"] != "PASS" { next }
f == "step7" { s7[$c["precision"]] = s7[$c["precision"]] " " $c["ms_per_iter"]; r7[$c["precision"]] = $c["rows"]; dev = $c["device"]; next }
{
    k = $c["kernel"]; sub(/-n[0-9]+$/, "", k)
    key = nt SUBSEP $c["precision"] SUBSEP $c["rows"] SUBSEP k
    vals[key] = vals[key] " " $c["ms_per_iter"]
    if (!($c["precision"] in pseen)) { pseen[$c["precision"]] = 1; prec[++np] = $c["precision"] }
    rev[nt] = $c["git_rev"]
}
END {
    for (p in s7) { vals["s7" p] = s7[p]; t7[p] = med("s7" p) }
    printf "%s, 2 ranks, 200 iterations (`--tol 0`), the median of the rounds, ms an iteration, and against chapter 7'"'"'s fused CG on one device (", dev
    for (i = 1; i <= np; i++) printf "%s%s %.4f ms", (i > 1 ? ", " : ""), prec[i], t7[prec[i]]
    printf " at %d rows):\n\n", r7[prec[1]]
    print "| try | git_rev | precision | strong: classic | strong: single | weak: classic | weak: single |"
    print "| --- | --- | --- | ---: | ---: | ---: | ---: |"
    for (i = 1; i <= nt; i++)
        for (j = 1; j <= np; j++) {
            p = prec[j]; line = sprintf("| %s | %s | %s |", try[i], rev[i], p)
            for (w = 0; w <= 1; w++)
                for (v = 1; v <= 2; v++) {
                    k = i SUBSEP p SUBSEP (r7[p] * (w + 1)) SUBSEP (v == 1 ? "classic" : "single")
                    if (!(k in vals)) { line = line " - |"; continue }
                    m = med(k)
                    line = line (w ? sprintf(" %.4f: %.1f%% |", m, 100 * t7[p] / m) : sprintf(" %.4f: %.2fx |", m, t7[p] / m))
                }
            print line
        }
}' "$d/step7.csv" "${tries[@]}"
echo
echo "Rows: \`$d/\`, chapter 7's git_rev $(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "git_rev") g = i; next } { print $g }' "$d/step7.csv" | sort -u | tr '\n' ' ' | sed 's/ $//')."
