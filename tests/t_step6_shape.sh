# tests/t_step6_shape.sh - chapter 6 keeps the shape of chapters 1-5: its main.c,
# main() and kernel.cl as short as the limits below (the adaptive kernel
# lives in step6-csr/adaptive/), `make diff STEP=6` a lesson rather than a
# listing, the chapter and the tuning record (step6-csr/adaptive/TUNING.md)
# within their lengths; and the repository speaks of the course and its
# measurements, never of how it was written: the word in $word below (put
# together from two halves, so that this file does not hold it) is in no
# file but the committed data (plots/**/*.csv, tests/data).
# chapters: 6
source "$(dirname "$0")/lib.sh"
S6=$ROOT/step6-csr

# at_most NAME COUNT LIMIT: COUNT (a number, or empty when it could not be
# counted) is LIMIT or less
at_most() {
    if [ -z "$2" ]; then
        fail "$1" "could not be counted"
    elif [ "$2" -le "$3" ]; then
        pass "$1 ($2, at most $3)"
    else
        fail "$1" "$2, more than $3"
    fi
}
lines() { [ -f "$1" ] && wc -l <"$1" | tr -d ' '; }

at_most "step6-csr/main.c lines" "$(lines "$S6/main.c")" 300
# main(): from `int main(` to the first closing brace in column 0 after it
main_lines=$(awk '/^int main\(/ { s = NR } s && /^}/ { print NR - s + 1; exit }' "$S6/main.c" 2>/dev/null)
at_most "step6-csr/main.c main() lines" "$main_lines" 150
at_most "step6-csr/kernel.cl lines (scalar, vector and what they share)" "$(lines "$S6/kernel.cl")" 250
at_most "step6-csr/README.md lines (the chapter)" "$(lines "$S6/README.md")" 450
at_most "step6-csr/adaptive/TUNING.md lines (the tuning record; it must exist)" "$(lines "$S6/adaptive/TUNING.md")" 500
diff_lines=$(make -s -C "$ROOT" diff STEP=6 2>/dev/null | wc -l)
[ "$diff_lines" -gt 0 ] || diff_lines=
at_most "make diff STEP=6 lines" "$diff_lines" 800

# $word, a whole word in any case, outside the committed data; files git
# does not track yet count too (not those it ignores: build outputs)
word=sess
word=${word}ion
if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
    hits=$(git -C "$ROOT" grep --untracked -I -i -w -l "$word" -- . ':(exclude)plots/**/*.csv' \
        ':(exclude)tests/data' 2>/dev/null)
else
    hits=$(cd "$ROOT" && find . \( -path ./.git -o -path './build*' -o -path ./tests/data -o -path './plots/*.csv' \) \
        -prune -o -type f -print0 | xargs -0 grep -I -i -w -l "$word" 2>/dev/null)
fi
if [ -z "$hits" ]; then
    pass "no \"$word\" outside the committed data"
else
    fail "no \"$word\" outside the committed data" "$(echo "$hits" | tr '\n' ' ')"
fi
