# tests/t_common_unit.sh - the unit tests of common/ (tests/unit.c), on generated
# matrices and on every real matrix file, then again built with
# AddressSanitizer and UndefinedBehaviorSanitizer.
# chapters: all
source "$(dirname "$0")/lib.sh"
files=("$ROOT"/tests/data/*.mtx "$ROOT"/tests/data/*.r[su]a "$ROOT"/tests/data/*.psa)
existing=()
for f in "${files[@]}"; do [ -f "$f" ] && existing+=("$f"); done

unit_run() { # unit_run LABEL BINARY
    local label=$1 bin=$2
    if [ ! -x "$bin" ]; then fail "$label" "$bin not built"; return; fi
    "$bin" "${existing[@]}" >"$TMP/unit.out" 2>"$TMP/unit.err"
    local st=$?
    # a run cut short (a sanitizer's exit drops what stdout had not flushed)
    # may end mid-line: end it, so a FAIL below starts a line of its own
    [ -z "$(tail -c 1 "$TMP/unit.out")" ] || echo >>"$TMP/unit.out"
    sed "s/^\(PASS\|FAIL\) /\1 $label: /" "$TMP/unit.out" | tee -a "$RESULTS"
    local n; n=$(grep -c '^PASS\|^FAIL' "$TMP/unit.out")
    [ "$n" -ge 20 ] || fail "$label ran" "only $n checks ran (status $st)"
    if [ -s "$TMP/unit.err" ]; then fail "$label stderr clean" "$(head -c 600 "$TMP/unit.err" | tr '\n' ' ')"; fi
    case $st in 0|1) ;; *) fail "$label exit" "status $st (crash?)";; esac
}
unit_run unit "$BUILD/tests/unit"

# The same tests built with AddressSanitizer and UndefinedBehaviorSanitizer
# (tests/t_course_sanitize.sh builds them and runs the programs too).
SAN_BUILD=$ROOT/build-san
if make -s -C "$ROOT" BUILD="$SAN_BUILD" SAN=1 "$SAN_BUILD/tests/unit" >"$TMP/san.log" 2>&1; then
    export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    unit_run "unit (asan+ubsan)" "$SAN_BUILD/tests/unit"
else
    fail "unit sanitizer build" "$(tail -n 5 "$TMP/san.log" | tr '\n' ' ')"
fi
