#!/usr/bin/env bash
# plots/blocks/step6-vs.sh FILE [p=sdcz] [m=REGEX] - the adaptive kernel against cuSPARSE:
# the latest git_rev of FILE that ran both; per matrix and precision both
# medians, each round's ratio and the verdict it gives (ahead, level, behind).
set -u
files=() p=sdcz m=""
for a in "$@"; do
    case $a in
        p=*) p=${a#p=} ;;
        m=*) m=${a#m=} ;;
        *=*) echo "step6-vs: unknown argument $a" >&2; exit 2 ;;
        *) [ -f "$a" ] || { echo "step6-vs: $a not found" >&2; exit 2; }; files+=("$a") ;;
    esac
done
if [ ${#files[@]} -eq 0 ]; then echo "usage: plots/blocks/step6-vs.sh FILE [p=sdcz]" >&2; exit 2; fi
exec awk -F, -v mode=vs -v precs="$p" -v mre="$m" -f "$(dirname "$0")/step6.awk" "${files[@]}"
