#!/usr/bin/env bash
# plots/blocks/mpi-split.sh SLUG [p=sd] [r=RANKS] - chapter 8's split of an
# iteration on one device from plots/data/mpi/SLUG.csv: for each Poisson
# grid, precision, version and number of ranks (r=2: those of 2 ranks), the
# medians over the rounds of the profiled loop's parts, each measured alone,
# all of one rank, the one whose profiled loop took longest: the kernels (the
# product's share of them), the halo (read, MPI, write), the reductions
# (read, allreduce), the host (launches and waits between the parts: host_ms;
# rows without it, from before it was measured, show -), their sum and the
# profiled loop's iteration, which the parts tile; and beside them the timed
# loop's iteration, where nothing waits. With r=2, beside each row
# the kernels of the one-rank row of as many rows a rank (the same work for
# a device, alone).
set -u
slug=$1 precs=sd want=
for a in "${@:2}"; do case $a in p=*) precs=${a#p=} ;; r=*) want=${a#r=} ;; esac; done
f=plots/data/mpi/$slug.csv
if [ ! -s "$f" ]; then
    echo "(no chapter 8 data for $slug yet: plots/mpi-sweep.sh on that device writes it)"
    exit 0
fi
awk -F, -v precs="$precs" -v want="$want" '
function med(s,   n, i, j, t, v) {
    n = split(s, v, " ")
    if (n == 0) return ""
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; nf = split("kernels_ms product_ms halo_read_ms halo_mpi_ms halo_write_ms reduce_read_ms allreduce_ms prof_ms_per_iter ms_per_iter host_ms", F, " "); next }
$c["check"] != "PASS" || index(precs, $c["precision"]) == 0 { next }
$c["ranks"] == 1 { k1 = $c["kernel"]; sub(/-n[0-9]+$/, "", k1); one[$c["rows_max"], $c["precision"], k1] = one[$c["rows_max"], $c["precision"], k1] " " $c["kernels_ms"] }
want != "" && $c["ranks"] != want { next }
{
    k = $c["kernel"]; sub(/-n[0-9]+$/, "", k)
    key = $c["matrix"] SUBSEP $c["precision"] SUBSEP $c["ranks"] SUBSEP k
    if (!(key in seen)) { seen[key] = 1; order[++n] = key }
    for (i = 1; i <= nf; i++) v[key, i] = v[key, i] " " ((F[i] in c) ? $c[F[i]] : "")
    rm[key] = $c["rows_max"]
    dev = $c["device"]
}
END {
    printf "%s, the profiled loop (each part alone, all of the slowest rank; ms an iteration, medians of the rounds) beside the timed loop:\n\n", dev
    printf "| grid | precision | ranks | version | kernels (product) |%s halo: read + MPI + write | reductions: read + allreduce | host | sum | profiled loop | timed loop |\n", want != "" ? " kernels, 1 rank of as many rows |" : ""
    printf "| --- | --- | ---: | --- | --- |%s --- | --- | ---: | ---: | ---: | ---: |\n", want != "" ? " ---: |" : ""
    for (i = 1; i <= n; i++) {
        split(order[i], kp, SUBSEP); nm = kp[1]
        if (nm ~ /^poisson3d:/) { sub(/^poisson3d:nx=/, "", nm); sub(/ .*/, "", nm); nm = nm "³ box" } else { sub(/^poisson:nx=/, "", nm); sub(/ ny=/, " x ", nm) }
        for (j = 1; j <= nf; j++) m[j] = med(v[order[i], j])
        h = m[3] + m[4] + m[5]; r = m[6] + m[7]
        o = (rm[order[i]], kp[2], kp[4]) in one ? sprintf(" %.4f |", med(one[rm[order[i]], kp[2], kp[4]])) : " - |"
        pr = m[2] == "" ? "-" : sprintf("%.4f", m[2])
        hs = m[10] == "" ? "-" : sprintf("%.4f", m[10])
        printf "| %s | %s | %d | %s | %.4f (%s) |%s %.4f + %.4f + %.4f = %.4f | %.4f + %.4f = %.4f | %s | %.4f | %.4f | %.4f |\n",
               nm, kp[2], kp[3], kp[4], m[1], pr, want != "" ? o : "", m[3], m[4], m[5], h, m[6], m[7], r, hs, m[1] + h + r + m[10], m[8], m[9]
    }
}' "$f"
echo
echo "Rows: \`$f\`, git_rev $(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "git_rev") g = i; next } { print $g }' "$f" | sort -u | tr '\n' ' ' | sed 's/ $//')."
