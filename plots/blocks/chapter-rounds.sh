#!/usr/bin/env bash
# plots/blocks/chapter-rounds.sh DEVICE - chapter 4's table of `make rounds`
# (plots/blocks.sh runs it for <!-- block:chapter-rounds DEVICE -->): the
# committed rows of plots/rounds/DEVICE.csv through plots/rounds.awk (the table
# `make rounds` prints), then their provenance from the rows' own columns:
# rounds, grids, timed runs, git_rev and dates. Exit 2: no such file.
set -u
if [ $# -ne 1 ]; then echo "usage: plots/blocks/chapter-rounds.sh DEVICE" >&2; exit 2; fi
csv=plots/rounds/$1.csv
[ -f "$csv" ] || { echo "chapter-rounds: $csv not found" >&2; exit 2; }
awk -F, -f plots/rounds.awk "$csv" || exit 2
echo
BY_NAME='function col(n) { return (n in C) ? $C[n] : "" } FNR == 1 { delete C; for (i = 1; i <= NF; i++) C[$i] = i; next }'
awk -F, "$BY_NAME"'
{ r = col("round") + 0; if (r > rounds) rounds = r
  m = col("matrix"); if (!(m in M)) { M[m] = 1; grids = grids (grids ? " and " : "") m }
  v = col("git_rev"); if (!(v in V)) { V[v] = 1; revs = revs (revs ? " and " : "") v }
  d = substr(col("date"), 1, 10); if (first == "" || d < first) first = d; if (d > last) last = d
  n = col("runs"); if (!(n in N)) { N[n] = 1; runs = runs (runs ? " or " : "") n } }
END { printf "The rows of `%s`: `make rounds ROUNDS=%d` at revision %s (%s%s), grids %s, %s timed runs per program.\n",
        FILENAME, rounds, revs, first, last != first ? " to " last : "", grids, runs }' "$csv"
