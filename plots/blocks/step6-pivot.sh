#!/usr/bin/env bash
# plots/blocks/step6-pivot.sh FILE... cols=KERNEL@REV[=Label],... [ref=R]
#     [m=REGEX] [p=sdcz] [range=1]
# A table of the tuning record: one column per KERNEL@REV (the CSV's kernel and
# git_rev columns; a Label's _ are spaces), one row per matrix and precision
# that a column has; each cell the median GFLOP/s of the rounds and its ratio
# to R: cusparse (cuSPARSE in the same git_rev, and a column of it), KERNEL (that
# kernel in the cell's git_rev) or KERNEL@REV. m= keeps the matrices that match.
set -u
files=() cols="" ref=cusparse m="" p=sdcz range=0
for a in "$@"; do
    case $a in
        cols=*) cols=${a#cols=}; cols=${cols//,/ } ;;
        ref=*) ref=${a#ref=} ;;
        m=*) m=${a#m=} ;;
        p=*) p=${a#p=} ;;
        range=*) range=${a#range=} ;;
        *=*) echo "step6-pivot: unknown argument $a" >&2; exit 2 ;;
        *) [ -f "$a" ] || { echo "step6-pivot: $a not found" >&2; exit 2; }; files+=("$a") ;;
    esac
done
if [ ${#files[@]} -eq 0 ] || [ -z "$cols" ]; then
    echo "usage: plots/blocks/step6-pivot.sh FILE... cols=KERNEL@REV,... [ref=R] [m=REGEX] [p=sdcz] [range=1]" >&2; exit 2
fi
exec awk -F, -v mode=pivot -v cols="$cols" -v ref="$ref" -v mre="$m" -v precs="$p" -v range="$range" \
    -f "$(dirname "$0")/step6.awk" "${files[@]}"
