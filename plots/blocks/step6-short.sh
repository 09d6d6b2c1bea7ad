#!/usr/bin/env bash
# plots/blocks/step6-short.sh FILE [p=sdcz] - chapter 6's kernels on very short
# rows (the sweep of plots/irregular/short-rows.sh): per mean row length and
# precision, each kernel's median GFLOP/s as a fraction of the fastest, and
# the means where each is within 5% of it.
set -u
files=() p=sdcz
for a in "$@"; do
    case $a in
        p=*) p=${a#p=} ;;
        *=*) echo "step6-short: unknown argument $a" >&2; exit 2 ;;
        *) [ -f "$a" ] || { echo "step6-short: $a not found" >&2; exit 2; }; files+=("$a") ;;
    esac
done
if [ ${#files[@]} -eq 0 ]; then echo "usage: plots/blocks/step6-short.sh FILE [p=sdcz]" >&2; exit 2; fi
exec awk -F, -v mode=short -v precs="$p" -f "$(dirname "$0")/step6.awk" "${files[@]}"
