#!/usr/bin/env bash
# plots/blocks/cuda-mgpu.sh sweep SLUG | variants - the CUDA yardstick's
# tables (vendor/cuda-mgpu-cg/README.md).
#   sweep SLUG  plots/data/mpi/SLUG-cuda.csv (plots/mpi-sweep.sh CUDA=1): for
#               each Poisson grid and precision, the median over the rounds of
#               ms an iteration on 1 and 2 GPUs, and strong scaling (1 GPU over
#               2 on the same grid) and weak (the grid of half the rows on 1
#               GPU over this one on 2)
#   variants    plots/data/mpi/tuning/cuda-mgpu/variants.csv (one call, each
#               row named in its first column): each row beside the default
#               on as many GPUs, grid and precision
set -u
med='function med(s,   n, i, j, t, v) {
    n = split(s, v, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}'
case ${1:-} in
sweep)
    f=plots/data/mpi/${2:?usage: cuda-mgpu.sh sweep SLUG}-cuda.csv
    [ -s "$f" ] || { echo "(no rows of the CUDA yardstick for $2 yet: plots/mpi-sweep.sh CUDA=1 writes them)"; exit 0; }
    awk -F, "$med"'
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["check"] != "PASS" { next }
    { g = $c["rows"] SUBSEP $c["precision"]; if (!(g in seen)) { seen[g] = 1; grid[++ng] = g }
      v[g, $c["ranks"]] = v[g, $c["ranks"]] " " $c["ms_per_iter"]; n[g, $c["ranks"]]++
      nm = $c["matrix"]; sub(/^poisson:nx=/, "", nm); sub(/ ny=/, " x ", nm); name[$c["rows"]] = nm
      dev = $c["device"]; rev[$c["git_rev"]] = 1 }
    END {
        printf "%s, Poisson grids, `--tol 0 --maxiter 200`, the median of the rounds (each row of the CSV one run of 5 timed solves), ms an iteration:\n\n", dev
        print "| grid | precision | 1 GPU | 2 GPUs | strong: 1 GPU / 2 | weak: half the rows on 1 GPU / these on 2 |"
        print "| --- | --- | ---: | ---: | ---: | ---: |"
        for (i = 1; i <= ng; i++) {
            split(grid[i], gp, SUBSEP); g = grid[i]; h = (gp[1] / 2) SUBSEP gp[2]
            t1 = ((g, 1) in v) ? med(v[g, 1]) : ""; t2 = ((g, 2) in v) ? med(v[g, 2]) : ""
            w = ((h, 1) in v) && t2 != "" ? sprintf("%.0f%%", 100 * med(v[h, 1]) / t2) : "-"
            printf "| %s | %s | %s | %s | %s | %s |\n", name[gp[1]], gp[2], t1 == "" ? "-" : sprintf("%.4f", t1),
                   t2 == "" ? "-" : sprintf("%.4f", t2), t1 != "" && t2 != "" ? sprintf("%.2fx", t1 / t2) : "-", w
        }
        r = ""; for (k in rev) r = r (r == "" ? "" : " ") k
        printf "\nRows: `%s`, git_rev %s.\n", FILENAME, r
    }' "$f" ;;
variants)
    f=plots/data/mpi/tuning/cuda-mgpu/variants.csv
    awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { k = $c["ranks"] SUBSEP $c["matrix"] SUBSEP $c["precision"]; t[NR] = $c["ms_per_iter"]; key[NR] = k; var[NR] = $c["variant"]
      if ($c["variant"] == "default") base[k] = $c["ms_per_iter"]
      nm = $c["matrix"]; sub(/^poisson:nx=/, "", nm); sub(/ ny=/, " x ", nm); name[NR] = nm; pr[NR] = $c["precision"]; gp[NR] = $c["ranks"]
      dev = $c["device"]; rev = $c["git_rev"]; last = NR }
    END {
        printf "%s, one call, `--tol 0`, each row the median of 5 timed solves, ms an iteration:\n\n", dev
        print "| variant | grid | precision | GPUs | ms | against the default |"
        print "| --- | --- | --- | ---: | ---: | ---: |"
        for (i = 2; i <= last; i++)
            if (var[i] != "default" || gp[i] == 2 && (name[i] ~ /^256 / || name[i] ~ /^1024 /) || gp[i] == 1 && (name[i] ~ /^256 / || name[i] ~ /^1024 /))
                printf "| %s | %s | %s | %d | %.4f | %s |\n", var[i], name[i], pr[i], gp[i], t[i],
                       var[i] == "default" ? "-" : sprintf("%.2fx", t[i] / base[key[i]])
        printf "\nRows: `%s`, git_rev %s (variants: `SPMV_MGPU_SYNC=host`, `--group-size 2`, `SPMV_MGPU_PER_SM=4`; commands in run.log beside it).\n", FILENAME, rev
    }' "$f" ;;
*) echo "usage: plots/blocks/cuda-mgpu.sh sweep SLUG | variants" >&2; exit 2 ;;
esac
