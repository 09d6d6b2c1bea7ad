#!/usr/bin/env bash
# plots/blocks/step6-short.sh FILE... [p=sdcz] [compact=1] - chapter 6's kernels
# on very short rows (the sweep of plots/irregular/short-rows.sh): per mean
# row length and precision, each kernel against the fastest, and the means
# where each is within 5% of it; compact=1: only which kernels are within 5%,
# a row per device and precision, a column per mean; list=1: no table, a
# line per device, matrix, precision and kernel with its fraction (tests).
set -u
files=() p=sdcz compact=0 list=0
for a in "$@"; do
    case $a in
        p=*) p=${a#p=} ;;
        compact=*) compact=${a#compact=} ;;
        list=*) list=${a#list=} ;;
        *=*) echo "step6-short: unknown argument $a" >&2; exit 2 ;;
        *) [ -f "$a" ] || { echo "step6-short: $a not found" >&2; exit 2; }; files+=("$a") ;;
    esac
done
if [ ${#files[@]} -eq 0 ]; then echo "usage: plots/blocks/step6-short.sh FILE... [p=sdcz] [compact=1] [list=1]" >&2; exit 2; fi
exec awk -F, -v mode=short -v precs="$p" -v compact="$compact" -v list="$list" -f "$(dirname "$0")/step6.awk" "${files[@]}"
