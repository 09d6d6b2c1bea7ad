#!/usr/bin/env bash
# plots/blocks/answers.sh STEP EXERCISE - the measurements of one exercise's
# answer on every device the course has run it on (plots/blocks.sh runs it for
# <!-- block:answers STEP EXERCISE --> in an ANSWERS.md).
#
# Reads plots/data/answers/*.csv, the rows `make answers CSV=FILE` writes
# (chapter,exercise,label,value,unit,device,date,git_rev): one table, a row per
# label in the order measured, a column per device, then the provenance of the
# rows (date and git_rev). Exit 2: no rows for that exercise.
set -u
if [ $# -ne 2 ]; then echo "usage: plots/blocks/answers.sh STEP EXERCISE" >&2; exit 2; fi
files=$(ls plots/data/answers/*.csv 2>/dev/null)
[ -n "$files" ] || { echo "answers: no plots/data/answers/*.csv" >&2; exit 2; }
# shellcheck disable=SC2086
awk -F, -v ch="$1" -v ex="$2" '
function col(n) { return (n in C) ? $C[n] : "" }
FNR == 1 { delete C; for (i = 1; i <= NF; i++) C[$i] = i; next }
col("chapter") == ch && col("exercise") == ex {
    d = col("device"); l = col("label")
    if (!(d in D)) { D[d] = ++nd; DN[nd] = d }
    if (!(l in L)) { L[l] = ++nl; LN[nl] = l }
    V[L[l], D[d]] = col("value") (col("unit") != "" ? " " col("unit") : "")
    P[d] = col("date") " at " col("git_rev")
}
END {
    if (!nl) { printf "answers: no rows of %s exercise %s in plots/data/answers/\n", ch, ex > "/dev/stderr"; exit 2 }
    printf "| |"; for (j = 1; j <= nd; j++) printf " %s |", DN[j]; printf "\n|---|"
    for (j = 1; j <= nd; j++) printf "---:|"; printf "\n"
    for (i = 1; i <= nl; i++) {
        printf "| %s |", LN[i]
        for (j = 1; j <= nd; j++) printf " %s |", ((i, j) in V) ? V[i, j] : "-"
        printf "\n"
    }
    printf "\n"
    for (j = 1; j <= nd; j++) printf "%s: `make answers CSV=...` on %s.\n", DN[j], P[DN[j]]
}' $files
