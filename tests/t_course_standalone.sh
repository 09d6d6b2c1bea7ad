# tests/t_course_standalone.sh - the repository stands alone: no file it holds reads a
# folder beside the clone (the development kit, or a $SHARED variable) or names
# a path of the machine it was written on (/work/..., /home/...), so a fresh
# clone with nothing beside it runs every test, every figure and every chapter, and the test count does not
# depend on what lies beside it. The matrices the course uses are in tests/data,
# each with its source.
# chapters: none
source "$(dirname "$0")/lib.sh"

# every file of the repository (tracked by git; without git, every file outside build folders)
if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
    mapfile -t files < <(git -C "$ROOT" ls-files)
else
    mapfile -t files < <(cd "$ROOT" && find . -type f ! -path './build*' ! -path './.git/*' | sed 's|^\./||')
fi
if [ "${#files[@]}" -gt 50 ]; then pass "standalone: the file list ($((${#files[@]})) files)"
else fail "standalone: the file list" "only ${#files[@]} files found"; fi

# this file names the patterns it looks for, so it is left out of the search
scan() { # NAME REGEX: no text file but this one matches
    local name=$1 re=$2 hits
    hits=$(cd "$ROOT" && printf '%s\0' "${files[@]}" | grep -zv '^tests/t_course_standalone\.sh$' |
           xargs -0 grep -IlE -- "$re" 2>/dev/null | head -n 5 | tr '\n' ' ')
    if [ -z "$hits" ]; then pass "$name"; else fail "$name" "$hits"; fi
}
# the kit's folder name, put together here so that this file does not name it either
kit=sha; kit=${kit}red
scan "standalone: nothing reads the kit beside the clone" "\\.\\./$kit"
scan "standalone: no SHARED variable" '\$\{?SHARED\b|\bSHARED='
scan "standalone: no machine path (/work/, /home/)" '(^|[^A-Za-z0-9_.])/(work|home)/[A-Za-z]'

# the real matrices: every MANIFEST row is a file here, and SOURCES.md names it
D=$ROOT/tests/data
missing=""
while IFS=$'\t' read -r f _; do
    [ "$f" = file ] && continue
    [ -f "$D/$f" ] || missing="$missing $f (no file)"
    grep -qF "| $f |" "$D/SOURCES.md" || missing="$missing $f (not in SOURCES.md)"
done <"$D/MANIFEST.tsv"
n=$(($(wc -l <"$D/MANIFEST.tsv") - 1))
if [ -z "$missing" ] && [ "$n" -ge 19 ]; then pass "standalone: the $n real matrices are in tests/data with their sources"
else fail "standalone: the real matrices are in tests/data with their sources" "$n rows;$missing"; fi
kb=$(du -sk "$D" | cut -f1)
if [ "$kb" -lt 10240 ]; then pass "standalone: tests/data stays under 10 MB ($kb KB)"
else fail "standalone: tests/data stays under 10 MB" "$kb KB"; fi
