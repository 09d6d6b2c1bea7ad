#!/usr/bin/env bash
# plots/blocks/mpi-rounding.sh SLUG - chapter 8's iteration counts side by
# side, from plots/data/mpi/rounding-SLUG.csv (step8) and
# rounding-SLUG-step7.csv (chapter 7; plots/mpi-rounding.sh writes both):
# each system solved to its tolerance in double, chapter 7's plain and fused
# on one device, step8's classic and single on 1 to 4 ranks.
set -u
d=plots/data/mpi
f=$d/rounding-$1.csv f7=$d/rounding-$1-step7.csv
if [ ! -s "$f" ] || [ ! -s "$f7" ]; then
    echo "(no counts for $1 yet: plots/mpi-rounding.sh writes them)"
    exit 0
fi
awk -F, '
FNR == 1 { delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
{
    m = $c["matrix"]; sub(/ .*/, "", m)
    if (!(m in seen)) { seen[m] = 1; order[++n] = m; tol[m] = $c["tol"] }
    k = $c["kernel"]; ok = $c["check"] == "PASS" ? "" : "*"
    if ($c["step"] == "step7") cnt[m, k] = $c["iterations"] ok
    else { r = $c["ranks"]; sub(/-n[0-9]+$/, "", k); cnt[m, k] = cnt[m, k] (cnt[m, k] == "" ? "" : ", ") $c["iterations"] ok; if (r > mr) mr = r }
    dev = $c["device"]
}
END {
    printf "%s, double, each system solved to its tolerance (iterations; step8 on 1, 2 ... %d ranks in that order):\n\n", dev, mr
    print "| system | --tol | chapter 7 plain | chapter 7 fused | step8 classic | step8 single |"
    print "| --- | ---: | ---: | ---: | --- | --- |"
    for (i = 1; i <= n; i++) { m = order[i]
        printf "| %s | %s | %s | %s | %s | %s |\n", m, tol[m], cnt[m, "plain"], cnt[m, "fused"], cnt[m, "classic"], cnt[m, "single"] }
}' "$f7" "$f"
echo
echo "Rows: \`$f\` and \`$f7\`, git_rev $(cat "$f" "$f7" | awk -F, '$1 == "step" { for (i = 1; i <= NF; i++) if ($i == "git_rev") g = i; next } { print $g }' | sort -u | tr '\n' ' ' | sed 's/ $//')."
