#!/usr/bin/env bash
# plots/blocks/mpi-threads.sh - chapter 8's tuning record, entry 3: one rank
# under mpirun (bound to one core) with PoCL's threads at 2 (the machine's
# cores) and at 1 (the cores the rank may run on), each file's runs and
# their median, ms an iteration (plots/data/mpi/tuning/pocl-one-rank-*.csv).
set -u
d=plots/data/mpi/tuning
echo "| POCL_MAX_PTHREAD_COUNT | runs (ms an iteration) | median |"
echo "| ---: | --- | ---: |"
for t in 2-threads 1-thread; do
    f=$d/pocl-one-rank-$t.csv
    [ -s "$f" ] || continue
    awk -F, -v t="${t%%-*}" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { v[++n] = $c["ms_per_iter"]; s = s (n > 1 ? ", " : "") sprintf("%.3f", $c["ms_per_iter"]); m = $c["matrix"]; dev = $c["device"]; g = $c["git_rev"] }
        END { for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
              printf "| %s | %s | %.3f |\n", t, s, n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }' "$f"
done
echo
echo "step8 --kernel single, $(awk -F, 'NR == 2 { print $6 ", " $4 }' "$d/pocl-one-rank-1-thread.csv"), double, 100 iterations, \`mpirun -q -n 1\` (one core), in turn; git_rev $(awk -F, 'FNR > 1 { print $30 }' "$d"/pocl-one-rank-*.csv | sort -u | tr '\n' ' ' | sed 's/ $//')."
