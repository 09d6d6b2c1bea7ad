#!/usr/bin/env bash
# common/run-steps.sh BUILD "ARGS" STEP... - what `make run` does: run each
# step with the same options, then print one summary table read from the CSV
# rows the steps wrote (never from their printed text).
set -u
build=$1 args=$2
shift 2
csv=$build/run.csv
rm -f "$csv"
declare -A status
for s in "$@"; do
    echo "==================== $s ===================="
    # shellcheck disable=SC2086
    "$build/$s" $args --csv "$csv"
    status[$s]=$?
    echo
done
echo "==================== summary ===================="
printf '%-6s %-10s %-22s %10s %9s %12s  %s\n' step kernel matrix GFLOP/s "% model" "% compulsory" check
bad=0
for s in "$@"; do
    st=${status[$s]}
    row=$(awk -F, -v s="$s" 'NR > 1 && $1 == s' "$csv" 2>/dev/null | tail -n 1)
    if [ -n "$row" ]; then
        echo "$row" | awk -F, '{
            pm = $17 > 0 ? sprintf("%.1f%%", 100 * $14 / $17) : "-";
            pc = $18 > 0 ? sprintf("%.1f%%", 100 * $14 / $18) : "-";
            check = $20 == "SKIP" ? "skipped" : $20;
            printf "%-6s %-10s %-22s %10.2f %9s %12s  %s\n", $1, $2, $5, $14, pm, pc, check }'
    else
        printf '%-6s %-10s %-22s %10s %9s %12s  %s\n' "$s" - - - - - "ERROR (status $st)"
    fi
    case $st in 0|3) ;; *) bad=1 ;; esac
done
dev=$(awk -F, 'NR > 1 && $3 != "" { d = $3 } END { print d }' "$csv" 2>/dev/null)
echo "(device of the last OpenCL step: ${dev:-none}; rows in $csv)"
exit $bad
