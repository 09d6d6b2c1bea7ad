# plots/thenandnow.awk - the rows that "then and now" shows, from every results
# CSV at once (awk -F, -f plots/thenandnow.awk plots/data/*.csv):
#   - the article's published figures: rows whose check is PUBLISHED (never a
#     measurement: the README table, the bars and every other figure take PASS
#     rows only);
#   - per measured file and DIA step, each kernel's best PASS row at the largest
#     radius-5 grid that every kernel of the step ran (the README table's rule).
# Out, one line each, tab-separated:
#   group step kernel device matrix gflops model_bound compulsory_bound bw date driver git_rev
# group is "published" or the CSV's name without .csv; the published rows come first.
# Columns are found by their names in each file's header.
BEGIN { OFS = "\t" }
function f(name) { return (name in C) ? $C[name] : "" }
FNR == 1 {
    g = FILENAME; sub(/.*\//, "", g); sub(/\.csv$/, "", g)
    delete C; for (i = 1; i <= NF; i++) C[$i] = i; ncol = NF
    next
}
NF != ncol { next }
f("check") == "PUBLISHED" {
    print "published", f("step"), f("kernel"), f("device"), f("matrix"), f("gflops") + 0, f("bound_model_gflops") + 0,
        f("bound_compulsory_gflops") + 0, f("bw_measured_gbs") + 0, f("date")
    next
}
f("check") != "PASS" || f("gflops") <= 0 || f("step") !~ /^step[0-5]$/ || f("matrix") !~ /^grid[0-9]+x[0-9]+r5$/ { next }
{
    r = f("rows") + 0; ks = g SUBSEP f("step") SUBSEP f("kernel"); gf = f("gflops") + 0
    if (!(ks in kmax)) order[++nk] = ks
    if (!(ks in kmax) || r > kmax[ks]) kmax[ks] = r
    c = ks SUBSEP r
    if (!(c in best) || gf > best[c]) best[c] = gf
    if (best[c] == gf)
        line[c] = g OFS f("step") OFS f("kernel") OFS f("device") OFS f("matrix") OFS gf OFS (f("bound_model_gflops") + 0) \
            OFS (f("bound_compulsory_gflops") + 0) OFS (f("bw_measured_gbs") + 0) OFS substr(f("date"), 1, 10) \
            OFS f("driver") OFS f("git_rev")
}
END {
    for (ks in kmax) { split(ks, a, SUBSEP); s = a[1] SUBSEP a[2]; if (!(s in top) || kmax[ks] < top[s]) top[s] = kmax[ks] }
    for (i = 1; i <= nk; i++) {
        split(order[i], a, SUBSEP); c = order[i] SUBSEP top[a[1], a[2]]
        if (c in line) print line[c]
    }
}
