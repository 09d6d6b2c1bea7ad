#!/usr/bin/env bash
# plots/blocks/mpi-scaling.sh SLUG [p=sd] - chapter 8's table of one device
# from plots/data/mpi/SLUG.csv (step8's rows), SLUG-step7.csv (chapter 7's
# fused CG on one device) and, where they exist, SLUG-petsc.csv (PETSc's
# KSPCG and KSPPIPECG on as many ranks) and SLUG-cuda.csv (the CUDA
# yardstick, vendor/cuda-mgpu-cg, on as many GPUs): for each Poisson grid and precision,
# the median over the rounds of ms an iteration of each; then, for each
# number of ranks P > 1, weak scaling (a grid of P times the rows on P ranks
# against chapter 7 on one device and 1/P of them) and strong scaling (the
# same grid on P ranks against chapter 7 on one device). 3-D boxes
# (poisson3d) are named N³ box.
set -u
slug=$1 precs=sd
for a in "${@:2}"; do case $a in p=*) precs=${a#p=} ;; esac; done
d=plots/data/mpi
if [ ! -s "$d/$slug.csv" ]; then
    echo "(no chapter 8 data for $slug yet: plots/mpi-sweep.sh on that device writes it)"
    exit 0
fi
files=("$d/$slug.csv")
[ -s "$d/$slug-step7.csv" ] && files+=("$d/$slug-step7.csv")
[ -s "$d/$slug-petsc.csv" ] && files+=("$d/$slug-petsc.csv")
[ -s "$d/$slug-cuda.csv" ] && files+=("$d/$slug-cuda.csv")
awk -F, -v precs="$precs" '
function med(k,   n, i, j, t, v) {
    n = split(vals[k], v, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function cell(k) { return (k in vals) ? sprintf("%.4f", med(k)) : "-" }
FNR == 1 { delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["check"] != "PASS" || index(precs, $c["precision"]) == 0 || $c["matrix"] !~ /^poisson(3d)?:/ { next }
{
    k = $c["kernel"]; p = ("ranks" in c) ? $c["ranks"] : 1
    if ($c["step"] == "step7") k = "step7"
    else if (k ~ /^petsc-pipecg-n/) { p = substr(k, 15); k = "pipecg" }
    else if (k ~ /^petsc-n/) { p = substr(k, 8); k = "petsc" }
    else sub(/-n[0-9]+$/, "", k)
    key = $c["rows"] SUBSEP $c["precision"] SUBSEP p SUBSEP k
    vals[key] = vals[key] " " $c["ms_per_iter"]
    g = $c["rows"] SUBSEP $c["precision"]
    if (!(g in seen)) { seen[g] = 1; grid[++ng] = g }
    nm = $c["matrix"]; if (nm ~ /^poisson3d:/) { sub(/^poisson3d:nx=/, "", nm); sub(/ .*/, "", nm); nm = nm "³ box" }
    else { sub(/^poisson:nx=/, "", nm); sub(/ ny=/, " x ", nm) }
    name[$c["rows"]] = nm
    if ($c["step"] == "step8") { dev = $c["device"]; ranks[p] = 1 }
    if (k == "petsc" || k == "pipecg") petsc = 1
    if (k == "mgpu") cuda = 1
    n_r[key]++
    rk = $c["rows"] SUBSEP $c["precision"] SUBSEP p SUBSEP k
    nth[rk]++; at[rk, nth[rk]] = $c["ms_per_iter"]
}
END {
    printf "%s, Poisson grids, fixed iterations (`--tol 0`), the median of the rounds (%s), ms an iteration:\n\n", dev, "each row of the CSV one run"
    printf "| grid | precision | ranks | chapter 7 fused (1 device) | classic | single |%s%s\n", petsc ? " PETSc KSPCG | PETSc KSPPIPECG |" : "", cuda ? " CUDA, one kernel a GPU |" : ""
    printf "| --- | --- | ---: | ---: | ---: | ---: |%s%s\n", petsc ? " ---: | ---: |" : "", cuda ? " ---: |" : ""
    for (i = 1; i <= ng; i++) {
        split(grid[i], gp, SUBSEP)
        for (p = 1; p <= 64; p++) {
            if (!(p in ranks)) continue
            s7 = p == 1 ? cell(gp[1] SUBSEP gp[2] SUBSEP 1 SUBSEP "step7") : ""
            printf "| %s | %s | %d | %s | %s | %s |", name[gp[1]], gp[2], p, s7,
                   cell(gp[1] SUBSEP gp[2] SUBSEP p SUBSEP "classic"), cell(gp[1] SUBSEP gp[2] SUBSEP p SUBSEP "single")
            if (petsc) printf " %s | %s |", cell(gp[1] SUBSEP gp[2] SUBSEP p SUBSEP "petsc"), cell(gp[1] SUBSEP gp[2] SUBSEP p SUBSEP "pipecg")
            if (cuda) printf " %s |", cell(gp[1] SUBSEP gp[2] SUBSEP p SUBSEP "mgpu")
            printf "\n"
        }
    }
    printf "\nOn P ranks against chapter 7 on one device (its median over the median of each version): weak, P times the rows on P devices (ideal 100%%); strong, the same rows (ideal P x)%s:\n\n", cuda ? "; the CUDA yardstick against its own run on one GPU" : ""
    printf "| rows (chapter 7 on that grid) | precision | ranks P | weak: classic | weak: single | strong: classic | strong: single |%s\n", cuda ? " CUDA: weak | CUDA: strong |" : ""
    printf "| ---: | --- | ---: | ---: | ---: | ---: | ---: |%s\n", cuda ? " ---: | ---: |" : ""
    for (i = 1; i <= ng; i++) {
        split(grid[i], gp, SUBSEP); r = gp[1]; pr = gp[2]
        k7 = r SUBSEP pr SUBSEP 1 SUBSEP "step7"
        if (!(k7 in vals)) continue
        t7 = med(k7)
        for (P = 2; P <= 64; P++) {
            if (!(P in ranks)) continue
            line = sprintf("| %d | %s | %d |", r, pr, P); any = 0
            for (v = 1; v <= 2; v++) {
                ver = v == 1 ? "classic" : "single"; kb = (P * r) SUBSEP pr SUBSEP P SUBSEP ver
                if (kb in vals) any = 1
                line = line ((kb in vals) ? sprintf(" %.0f%% |", 100 * t7 / med(kb)) : " - |")
            }
            for (v = 1; v <= 2; v++) {
                ver = v == 1 ? "classic" : "single"; ks = r SUBSEP pr SUBSEP P SUBSEP ver
                if (ks in vals) any = 1
                line = line ((ks in vals) ? sprintf(" %.2fx |", t7 / med(ks)) : " - |")
            }
            if (cuda) {   # the CUDA yardstick against its own one-GPU run
                k1 = r SUBSEP pr SUBSEP 1 SUBSEP "mgpu"; kw = (P * r) SUBSEP pr SUBSEP P SUBSEP "mgpu"; ks = r SUBSEP pr SUBSEP P SUBSEP "mgpu"
                line = line ((k1 in vals) && (kw in vals) ? sprintf(" %.0f%% |", 100 * med(k1) / med(kw)) : " - |")
                line = line ((k1 in vals) && (ks in vals) ? sprintf(" %.2fx |", med(k1) / med(ks)) : " - |")
            }
            if (any) print line
        }
    }
    if (!petsc) exit
    printf "\nPETSc KSPCG on as many ranks over step8, each round a pair of runs one after the other (the sweep interleaves them):\n\n"
    print "| grid | precision | ranks | KSPCG / classic, each round | KSPCG / single, each round |"
    print "| --- | --- | ---: | --- | --- |"
    for (i = 1; i <= ng; i++) {
        split(grid[i], gp, SUBSEP)
        for (p = 1; p <= 64; p++) {
            kp = gp[1] SUBSEP gp[2] SUBSEP p SUBSEP "petsc"
            if (!(kp in nth)) continue
            line = sprintf("| %s | %s | %d |", name[gp[1]], gp[2], p)
            for (v = 1; v <= 2; v++) {
                kv = gp[1] SUBSEP gp[2] SUBSEP p SUBSEP (v == 1 ? "classic" : "single"); cellv = ""
                for (j = 1; j <= nth[kp] && j <= nth[kv]; j++) cellv = cellv sprintf("%s%.2fx", j > 1 ? ", " : " ", at[kp, j] / at[kv, j])
                line = line cellv " |"
            }
            print line
        }
    }
}' "${files[@]}"
rev=$(awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) if ($i == "git_rev") g = i; next } { print $g }' "${files[@]}" | sort -u | tr '\n' ' ')
echo
echo "Rows: \`${files[*]}\`, git_rev ${rev% }."
