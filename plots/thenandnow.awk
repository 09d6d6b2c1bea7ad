# plots/thenandnow.awk - the rows that "then and now" shows, from every results
# CSV at once (awk -F, -f plots/thenandnow.awk plots/data/*.csv):
#   - the article's published figures: rows whose check is PUBLISHED (never a
#     measurement: the README table, the bars and every other figure take PASS
#     rows only);
#   - per measured file and DIA step, each kernel's best PASS row at the largest
#     radius-5 grid that every kernel of the step ran (the README table's rule).
# Out, one line each, tab-separated:
#   group step kernel device matrix gflops model_bound compulsory_bound bw date
# group is "published" or the CSV's name without .csv; the published rows come first.
BEGIN { OFS = "\t" }
FNR == 1 { g = FILENAME; sub(/.*\//, "", g); sub(/\.csv$/, "", g); next }
NF != 22 { next }
$20 == "PUBLISHED" { print "published", $1, $2, $3, $5, $14 + 0, $17 + 0, $18 + 0, $16 + 0, $21; next }
$20 != "PASS" || $14 <= 0 || $1 !~ /^step[0-5]$/ || $5 !~ /^grid[0-9]+x[0-9]+r5$/ { next }
{
    r = $6 + 0; ks = g SUBSEP $1 SUBSEP $2
    if (!(ks in kmax)) order[++nk] = ks
    if (!(ks in kmax) || r > kmax[ks]) kmax[ks] = r
    c = ks SUBSEP r
    if (!(c in best) || $14 + 0 > best[c]) best[c] = $14 + 0
    if (best[c] == $14 + 0) line[c] = g OFS $1 OFS $2 OFS $3 OFS $5 OFS ($14 + 0) OFS ($17 + 0) OFS ($18 + 0) OFS ($16 + 0) OFS substr($21, 1, 10)
}
END {
    for (ks in kmax) { split(ks, a, SUBSEP); s = a[1] SUBSEP a[2]; if (!(s in top) || kmax[ks] < top[s]) top[s] = kmax[ks] }
    for (i = 1; i <= nk; i++) {
        split(order[i], a, SUBSEP); c = order[i] SUBSEP top[a[1], a[2]]
        if (c in line) print line[c]
    }
}
