# tests/t_sanitize.sh - the host code of every program built with
# AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer, run on
# good input, on bad input and on every malformed file: no findings allowed.
source "$(dirname "$0")/lib.sh"
SAN_BUILD=$ROOT/build-san
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export SPMV_PROBE_MB=16
if ! make -s -C "$ROOT" BUILD="$SAN_BUILD" SAN=1 all >"$TMP/san.log" 2>&1; then
    fail "sanitizer build" "$(tail -n 5 "$TMP/san.log" | tr '\n' ' ')"
    return 0 2>/dev/null || exit 0
fi
pass "sanitizer build"

clean() { # clean NAME: the last run's stderr has no sanitizer report
    if grep -qE 'runtime error|AddressSanitizer|LeakSanitizer' "$TMP/err"; then
        fail "$1: sanitizer clean" "$(grep -m1 -E 'runtime error|Sanitizer' "$TMP/err")"
    else
        pass "$1: sanitizer clean"
    fi
}

for b in "$SAN_BUILD"/step[0-9]; do
    s=$(basename "$b")
    expect_output "$s 37x29 (asan+ubsan)" 'check: PASS' "$b" --grid 37x29 --runs 1 --warmup 0
    clean "$s 37x29"
    expect_output "$s west0067 (asan+ubsan)" 'check: PASS' "$b" --matrix "$ROOT/tests/data/west0067.rua" --runs 1 --warmup 0
    clean "$s west0067"
    expect_error "$s bad flag (asan+ubsan)" "unknown option --frobnicate" "$b" --frobnicate
    clean "$s bad flag"
done

# every malformed file through the reader: an error, never a sanitizer report
bad=0 n=0
for f in "$ROOT"/tests/data/bad/*; do
    n=$((n + 1))
    "$SAN_BUILD/tests/readmtx" "$f" >/dev/null 2>"$TMP/err"
    st=$?
    if [ $st != 2 ] || grep -qE 'runtime error|Sanitizer' "$TMP/err"; then
        bad=$((bad + 1))
        echo "  $f: status $st $(head -c 200 "$TMP/err")"
    fi
done
[ $n -gt 0 ] && [ $bad = 0 ] && pass "readmtx on $n malformed files (asan+ubsan)" || fail "readmtx on malformed files (asan+ubsan)" "$bad of $n"
for f in "$ROOT"/tests/data/*.mtx "$ROOT"/tests/data/*.r?a "$ROOT"/tests/data/*.psa "$ROOT"/tests/data/*.cha; do
    [ -f "$f" ] || continue
    "$SAN_BUILD/tests/readmtx" --dump "$f" >/dev/null 2>"$TMP/err" || { fail "readmtx $(basename "$f") (asan+ubsan)" "$(head -c 200 "$TMP/err")"; continue; }
    clean "readmtx $(basename "$f")"
done
