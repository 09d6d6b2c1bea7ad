#!/usr/bin/env bash
# scripts/run-chart.sh CSV OUT - the chart of the run `make run` just made
# (scripts/run-steps.sh calls it after its summary): GFLOP/s per step and
# kernel with the % of the compulsory bound, as OUT.png and OUT.svg, and the
# same chart as text on the terminal. Reads the CSV rows the steps wrote
# (check PASS only; step6's first row per kernel: its first matrix). The text
# chart is drawn here, a line a bar, so that no label overprints another at
# any width; the files need gnuplot: without it the chart says in one line how
# to get them. It always succeeds: the run has already passed or failed.
set -u
csv=$1 out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
rm -f "$out.png" "$out.svg"   # a chart left from an earlier run is not this run's
dat=$(mktemp)
trap 'rm -f "$dat"' EXIT
# one bar per step and kernel (vector-16 and vector-2 are one kernel), in the
# course's order (step0 to step6, each step's kernels as they ran); linetype =
# the step's colour; the label's lines split at '|' (plots/run.gp), a third
# line saying what a bar is when it is not an OpenCL kernel on the device:
# step 0 is the host's C, step 4's cpu the kernel shaped for a CPU. The
# columns by their names in the header.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; ncol = NF; next }
        NF == ncol && $c["check"] == "PASS" && $c["gflops"] > 0 && $c["bound_compulsory_gflops"] > 0 {
        st = $c["step"]; k = $c["kernel"]; g = $c["gflops"]; if (st == "step6") sub(/-[0-9]+$/, "", k)
        if (((st, k) in seen)) next
        seen[st, k] = 1; s = st; sub(/^step/, "", s)
        what = st == "step0" ? "|host C" : st == "step4" && k == "cpu" ? "|CPU-shaped" : ""
        bar[s + 0, nb[s + 0]++] = sprintf("\"%s|%s%s\" %.6g %.6g %d", st, k, what, g,
                                          100 * g / $c["bound_compulsory_gflops"], s + 1) }
        NR > 1 && $c["step"] != "step0" && $c["device"] != "" { dev = $c["device"] }
        END { for (s = 0; s < 100; s++) for (j = 0; j < nb[s]; j++) printf "%d %s\n", n++, bar[s, j]
              print dev > "/dev/stderr" }' "$csv" >"$dat" 2>"$dat.dev"
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
echo "==================== chart ===================="
# "step4 vector            ##########           3.84  35%": the label's three
# parts in columns, the bar scaled to the fastest, GFLOP/s and % of the bound
awk -v cols="$cols" -v dev="${dev:-the host}" '
    { line = $0; sub(/^[0-9]+ "/, "", line); lab = substr(line, 1, index(line, "\"") - 1)
      rest = substr(line, index(line, "\"") + 2); split(rest, v, " ")
      n = split(lab, part, "|"); st[NR] = part[1]; k[NR] = part[2]; what[NR] = n > 2 ? part[3] : ""
      g[NR] = v[1] + 0; pct[NR] = v[2] + 0
      if (g[NR] > top) top = g[NR]
      for (i = 1; i <= 3; i++) w[i] = max(w[i], length(i == 1 ? st[NR] : i == 2 ? k[NR] : what[NR])) }
    function max(a, b) { return a > b ? a : b }
    END { printf "GFLOP/s and %% of the compulsory bound, on %s\n", dev
          bar = cols - (w[1] + w[2] + w[3] + 3) - 16; if (bar < 10) bar = 10
          for (r = 1; r <= NR; r++) {
              len = top > 0 ? int(bar * g[r] / top + 0.5) : 0
              b = ""; for (i = 0; i < len; i++) b = b "#"
              printf "  %-*s %-*s %-*s %-*s %7.2f %3.0f%%\n", w[1], st[r], w[2], k[r], w[3], what[r], bar, b, g[r], pct[r] } }' "$dat"
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "chart: gnuplot is not installed, so no $out.png; to get it: sudo apt-get install gnuplot-nox"
    exit 0
fi
q() { local s=${1//\'/\'\'}; printf "'%s'" "$s"; }
gnuplot -e "dir=$(q "$root/plots/"); file=$(q "$dat"); n=$n; dev=$(q "${dev:-the host}"); out=$(q "$out")" \
    "$root/plots/run.gp" && echo "(chart: $out.png and $out.svg)"
exit 0
