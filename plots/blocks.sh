#!/usr/bin/env bash
# plots/blocks.sh [--check] FILE... - refresh the generated blocks of the
# chapters and the README from committed data.
#
# A generated block is the lines between
#     <!-- block:NAME ARG... -->
#     <!-- block:end -->
# and its text is the standard output of `plots/blocks/NAME.sh ARG...`, run from
# the repository root (so a block script reads plots/data/*.csv and the like by
# paths relative to the root). The markers stay; only what lies between them is
# rewritten. With --check nothing is written: the files whose blocks are stale
# are named, with a diff, and the status is 1.
# Exit 2: a file not found, a block never closed, a block script missing or failed.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
if [ $# -eq 0 ]; then
    echo "usage: plots/blocks.sh [--check] FILE..." >&2
    exit 2
fi
stale=0
for f in "$@"; do
    if [ ! -f "$f" ]; then echo "blocks: $f not found" >&2; exit 2; fi
    new=$(mktemp)
    inblock=0 lineno=0
    while IFS= read -r line || [ -n "$line" ]; do
        lineno=$((lineno + 1))
        if [ $inblock = 0 ] && [[ $line =~ ^'<!-- block:'([A-Za-z0-9_-]+)(( [^>]*)?)' -->'$ ]] && [ "${BASH_REMATCH[1]}" != end ]; then
            name=${BASH_REMATCH[1]}
            read -r -a args <<<"${BASH_REMATCH[2]}"
            script=$ROOT/plots/blocks/$name.sh
            if [ ! -f "$script" ]; then
                echo "blocks: $f:$lineno: no block script plots/blocks/$name.sh" >&2; rm -f "$new"; exit 2
            fi
            printf '%s\n' "$line" >>"$new"
            if ! (cd "$ROOT" && bash "$script" "${args[@]}") >>"$new"; then
                echo "blocks: $f:$lineno: plots/blocks/$name.sh ${args[*]} failed" >&2; rm -f "$new"; exit 2
            fi
            inblock=1 start=$lineno
        elif [ "$line" = '<!-- block:end -->' ]; then
            if [ $inblock = 0 ]; then echo "blocks: $f:$lineno: block:end without a block" >&2; rm -f "$new"; exit 2; fi
            printf '%s\n' "$line" >>"$new"
            inblock=0
        elif [ $inblock = 0 ]; then
            printf '%s\n' "$line" >>"$new"
        fi
    done <"$f"
    if [ $inblock = 1 ]; then echo "blocks: $f:$start: block never closed (<!-- block:end -->)" >&2; rm -f "$new"; exit 2; fi
    if cmp -s "$f" "$new"; then
        rm -f "$new"
    elif [ $check = 1 ]; then
        echo "blocks: $f is stale (run: plots/blocks.sh $f)"
        diff -u "$f" "$new" | head -n 40
        stale=1
        rm -f "$new"
    else
        cat "$new" >"$f"   # keep the file's mode and links
        rm -f "$new"
        echo "blocks: $f rewritten"
    fi
done
exit $stale
