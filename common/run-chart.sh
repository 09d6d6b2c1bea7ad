#!/usr/bin/env bash
# common/run-chart.sh CSV OUT - the chart of the run `make run` just made
# (common/run-steps.sh calls it after its summary): GFLOP/s per step and
# kernel with the % of the compulsory bound, as OUT.png and OUT.svg, and the
# same chart as text on the terminal. Reads the CSV rows the steps wrote
# (check PASS only; step6's first row per kernel: its first matrix). Without
# gnuplot it says how to install it, in one line, and succeeds: the chart is
# a convenience, the run has already passed or failed.
set -u
csv=$1 out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
rm -f "$out.png" "$out.svg"   # a chart left from an earlier run is not this run's
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "chart: gnuplot is not installed, so no chart ($out.png); to get one: sudo apt-get install gnuplot-nox"
    exit 0
fi
dat=$(mktemp)
trap 'rm -f "$dat"' EXIT
# one bar per step and kernel (vector-16 and vector-2 are one kernel); linetype = the step's colour
awk -F, 'NR > 1 && NF == 22 && $20 == "PASS" && $14 > 0 && $18 > 0 {
        k = $2; if ($1 == "step6") sub(/-[0-9]+$/, "", k)
        if ((($1, k) in seen)) next
        seen[$1, k] = 1; s = $1; sub(/^step/, "", s)
        printf "%d \"%s %s\" %.6g %.6g %d\n", n++, $1, k, $14, 100 * $14 / $18, s + 1 }
        $1 != "step0" && $3 != "" { dev = $3 }
        END { print dev > "/dev/stderr" }' "$csv" >"$dat" 2>"$dat.dev"
dev=$(cat "$dat.dev")
rm -f "$dat.dev"
n=$(wc -l <"$dat")
if [ "$n" -eq 0 ]; then
    echo "chart: no step passed, nothing to draw"
    exit 0
fi
cols=$(tput cols 2>/dev/null || echo 100)
[ "$cols" -ge 60 ] 2>/dev/null || cols=100
[ "$cols" -le 160 ] || cols=160
q() { local s=${1//\'/\'\'}; printf "'%s'" "$s"; }
echo "==================== chart ===================="
gnuplot -e "dir=$(q "$root/plots/"); file=$(q "$dat"); n=$n; dev=$(q "${dev:-the host}"); out=$(q "$out"); cols=$cols" \
    "$root/plots/run.gp" && echo "(chart: $out.png and $out.svg)"
exit 0
