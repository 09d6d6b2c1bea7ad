#!/usr/bin/env bash
# scripts/diff.sh N - what `make diff STEP=N` prints: what chapter N changes
# from chapter N-1 (chapter 9: from chapter 7), in main.c and kernel.cl, and the host code the chapter
# adds beside main.c (a folder of its own without a kernel.cl: step 5's
# image/, chapter 6's choice/), shown whole. A folder with its own kernel.cl
# (step4-vector/cpu/, step6-csr/adaptive/) is a second kernel, read apart.
#
# Each file opens with a comment. A kernel's says what changed from the step
# before, why it should be faster and what it assumes; its "What changed"
# paragraph is printed once, as prose, before the kernel's diff. A main.c's
# says how to run it. Both comments are then left out of the diffs, which show
# the code alone (their line numbers are still the files'): a rewritten
# comment shown as every old line taken out and every new one put in would be
# most of the diff, and the lesson is the code. The whole comment is in the
# file and the chapter's README.
set -u
n=${1:-}
cur=$(ls -d step"$n"-* 2>/dev/null | head -1)
prev=$( [ -n "$n" ] && [ "$n" -gt 0 ] 2>/dev/null && ls -d step$((n - 1))-* 2>/dev/null | head -1)
# chapter 9 builds on chapter 7's fused CG, not on chapter 8's ranks
[ "$n" = 9 ] && prev=$(ls -d step7-* 2>/dev/null | head -1)
if [ -z "$cur" ] || [ -z "$prev" ]; then
    echo "make diff: STEP=$n needs step$n-* and the step before it" >&2
    exit 2
fi
color=
[ -t 1 ] && color=--color=always
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the opening comment's length in lines (0: the file does not open with one)
header_lines() {
    [ -f "$1" ] || { echo 0; return; }
    awk 'NR == 1 && !/^\/\*/ { print 0; exit }
         /\*\// { print NR; exit }
         END { if (NR == 0) print 0 }' "$1"
}
# the file with its opening comment left out
code() {
    if [ -f "$1" ]; then tail -n +$(($2 + 1)) "$1"; else :; fi
}

# Chapter 7 is not a faster product but the loop around it, in three versions
# side by side in one program: its lesson is plain against fused (and
# pipelined, which solve_fused runs too). So it prints the kernel's "What
# changed" paragraph, then the iteration of each version (main.c's
# solve_plain against solve_fused), then what the fused and pipelined builds
# add to chapter 6's kernels (the hooks' definitions in kernel.cl).
if [ "$n" = 7 ]; then
    k=$cur/kernel.cl m=$cur/main.c
    echo "==== $k, from its opening comment:"
    head -n "$(header_lines "$k")" "$k" | awk '/^ \* What changed/ { on = 1 } on && /^ \*\/? *$/ { exit } on' | sed 's/^ \* //'
    fn() { awk -v f="$2" '$0 ~ "^static void " f "\\(" { on = 1 } on { print } on && /^}$/ { exit }' "$1"; }
    fn "$m" solve_plain >"$tmp/a"
    fn "$m" solve_fused >"$tmp/b"
    echo "==== the iteration: $m, solve_plain (-) against solve_fused (+)"
    diff -u --label "$m:solve_plain" --label "$m:solve_fused" "$tmp/a" "$tmp/b" |
        if [ -n "$color" ]; then
            sed -e $'s/^-.*/\e[31m&\e[m/' -e $'s/^+.*/\e[32m&\e[m/' -e $'s/^@@.*/\e[36m&\e[m/'
        else cat; fi
    echo "==== what the pipelined and fused builds add to chapter 6's kernels ($prev/kernel.cl, CSR_STORE): $k"
    # the hooks' work-group sum, then the hooks: two blocks, each #if paired with its #endif
    awk '/^#if defined\(CG_PIPELINED\)/ { on = 1 } on { print } on && /^# *if/ { depth++ }
         on && /^# *endif/ && !--depth && ++closed == 2 { exit }' "$k"
    exit 0
fi

# the chapter's host files beside main.c: FOLDER/*.h and *.c in folders without a kernel.cl
host_files() {
    local d f
    for d in "$1"/*/; do
        [ -f "$d/kernel.cl" ] && continue
        for f in "$d"*.h "$d"*.c; do [ -f "$f" ] && echo "${f#"$1"/}"; done
    done
}
for f in main.c kernel.cl $(host_files "$cur"); do
    a=$prev/$f b=$cur/$f
    ha=$(header_lines "$a") hb=$(header_lines "$b")
    case $f in
        main.c | kernel.cl) ;;
        *) echo "==== $b: host code of chapter $n beside main.c (its opening comment is the file's)" ;;
    esac
    if [ "$f" = kernel.cl ] && [ "$hb" -gt 0 ]; then
        # the paragraph "What changed from step N-1: ..." (step 1: "What it does:")
        echo "==== $b, from its opening comment (which also says why it should be faster and what it assumes):"
        head -n "$hb" "$b" | awk '/^ \* What (changed|it does)/ { on = 1 } on && /^ \*\/? *$/ { exit } on' |
            sed 's/^ \* //'
    fi
    code "$a" "$ha" >"$tmp/a"
    code "$b" "$hb" >"$tmp/b"
    [ -f "$a" ] || a=/dev/null
    [ -f "$b" ] || b=/dev/null
    # hunk line numbers counted in the whole files again
    diff -u --label "$a" --label "$b" "$tmp/a" "$tmp/b" |
        awk -v ha="$ha" -v hb="$hb" '
            /^@@ / && match($0, /^@@ -[0-9]+(,[0-9]+)? \+[0-9]+(,[0-9]+)? @@/) {
                split(substr($0, 4, RLENGTH - 6), p, " ")
                split(substr(p[1], 2), l, ","); split(substr(p[2], 2), r, ",")
                printf "@@ -%d%s +%d%s @@%s\n", l[1] + ha, (2 in l) ? "," l[2] : "", r[1] + hb, (2 in r) ? "," r[2] : "",
                       substr($0, RLENGTH + 1)
                next
            }
            { print }' |
        if [ -n "$color" ]; then
            sed -e $'s/^-.*/\e[31m&\e[m/' -e $'s/^+.*/\e[32m&\e[m/' -e $'s/^@@.*/\e[36m&\e[m/'
        else cat; fi
done
exit 0
