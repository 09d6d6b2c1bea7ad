# tests/t_course_sanitize.sh - the host code of every program built with
# AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer, run on
# good input, on bad input and on every malformed file: no findings allowed.
# chapters: none
source "$(dirname "$0")/lib.sh"
SAN_BUILD=$ROOT/build-san
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export SPMV_PROBE_MB=16
if ! make -s -C "$ROOT" BUILD="$SAN_BUILD" SAN=1 all >"$TMP/san.log" 2>&1; then
    fail "sanitizer build" "$(tail -n 5 "$TMP/san.log" | tr '\n' ' ')"
    return 0 2>/dev/null || exit 0
fi
pass "sanitizer build"
# the OpenCL steps run on a CPU device (PoCL): a GPU vendor's driver is not
# built for the sanitizers (CUDA's wants ASAN_OPTIONS=protect_shadow_gap=0,
# and what it keeps to the end LeakSanitizer counts as leaks); step0 runs anyway
if have_cpu_device; then export SPMV_DEVICE=cpu; else SAN_NOCPU="no OpenCL CPU device here (PoCL: apt-get install pocl-opencl-icd)"; fi

clean() { # clean NAME: the last run's stderr has no sanitizer report
    if grep -qE 'runtime error|AddressSanitizer|LeakSanitizer' "$TMP/err"; then
        fail "$1: sanitizer clean" "$(grep -m1 -E 'runtime error|Sanitizer' "$TMP/err")"
    else
        pass "$1: sanitizer clean"
    fi
}

for b in "$SAN_BUILD"/step[0-9]; do
    s=$(basename "$b")
    case $s in step7|step8|step9) continue ;; esac   # the solvers: step7 below, step8 and step9 in tests/t_step8.sh, t_step9.sh
    [ "$s" != step0 ] && [ -n "${SAN_NOCPU:-}" ] && { skip "$s under the sanitizers: a grid, a file, a bad flag (six checks)" "$SAN_NOCPU"; continue; }
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

# the io flags (common/load.c, report.c): --info and every file saved, x read back, malformed x files
W=$ROOT/tests/data/west0067.rua
{ echo '%%MatrixMarket matrix array real general'; echo '67 1'; seq 1 60; } >"$TMP/san_x_short.mtx"
{ echo '%%MatrixMarket matrix array real general'; echo '67 1'; seq 1 5; echo 'nan'; } >"$TMP/san_x_nan.mtx"
for b in "$SAN_BUILD"/step[0-9]; do
    s=$(basename "$b")
    case $s in step7|step8|step9) continue ;; esac
    [ "$s" != step0 ] && [ -n "${SAN_NOCPU:-}" ] && { skip "$s's io flags under the sanitizers (eight checks)" "$SAN_NOCPU"; continue; }
    expect_output "$s --info --save-matrix/x/y (asan+ubsan)" 'check: PASS' "$b" --matrix "$W" --info \
        --save-matrix "$TMP/san_A.mtx" --save-x "$TMP/san_x.mtx" --save-y "$TMP/san_y.mtx" --runs 1 --warmup 0
    clean "$s --save-*"
    expect_output "$s --x (asan+ubsan)" 'check: PASS' "$b" --matrix "$TMP/san_A.mtx" --x "$TMP/san_x.mtx" --runs 1 --warmup 0
    clean "$s --x"
    expect_error "$s --x too short (asan+ubsan)" "file ends after 60 of the 67 values" "$b" --matrix "$W" --x "$TMP/san_x_short.mtx"
    clean "$s --x too short"
    expect_error "$s --x nan (asan+ubsan)" "value 'nan' is not a number" "$b" --matrix "$W" --x "$TMP/san_x_nan.mtx"
    clean "$s --x nan"
done
expect_output "mmvec check (asan+ubsan)" 'check PASS' "$SAN_BUILD/tests/mmvec" check "$TMP/san_A.mtx" "$TMP/san_x.mtx" "$TMP/san_y.mtx" s
clean "mmvec check"
