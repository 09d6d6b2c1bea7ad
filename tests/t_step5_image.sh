# tests/t_step5_image.sh - step5's image of x: a vector spread over several image
# rows (the shift and mask), and the skip where the device has no images or x
# does not fit: one line, status 3, a SKIP row in the CSV, "skipped" in the
# `make run` summary and no failure. SPMV_IMAGE2D_MAX_H (tests only) lowers
# the device's image height limit; 0 acts as a device without images.
# chapters: 5
source "$(dirname "$0")/lib.sh"
export SPMV_PROBE_MB=${SPMV_PROBE_MB:-16}
S5=$BUILD/step5
QUICK="--runs 1 --warmup 0"

expect_output "step5 x over 4 image rows" 'x in 4096 x 4 float4' "$S5" --grid 300x200 --radius 10 $QUICK
grep -q '^check: PASS' "$TMP/out" && pass "step5 x over 4 image rows passes" || fail "step5 x over 4 image rows passes" "no PASS"

rm -f "$TMP/skip.csv"
expect_status "step5 skips when x does not fit" 3 env SPMV_IMAGE2D_MAX_H=1 "$S5" --grid 130x131 $QUICK --csv "$TMP/skip.csv"
if [ "$(grep -c . "$TMP/err")" = 1 ] && grep -q 'skipped: x has 17030 floats: 2 image rows' "$TMP/err"; then
    pass "the skip is one line naming the cause"
else
    fail "the skip is one line naming the cause" "$(tr '\n' '|' <"$TMP/err")"
fi
if tail -n 1 "$TMP/skip.csv" 2>/dev/null | grep -q '^step5,image,.*,SKIP,'; then
    pass "the skip leaves a SKIP row in the CSV"
else
    fail "the skip leaves a SKIP row in the CSV" "$(tail -n 1 "$TMP/skip.csv" 2>&1)"
fi
expect_status "step5 skips without images" 3 env SPMV_IMAGE2D_MAX_H=0 "$S5" --grid 16 $QUICK
grep -q 'no image support' "$TMP/err" && pass "the skip names the missing images" || fail "the skip names the missing images" "$(cat "$TMP/err")"

# make run: a skipped step is reported as skipped, and make succeeds
_run env SPMV_IMAGE2D_MAX_H=0 make -s -C "$ROOT" BUILD="$BUILD" step5 run ARGS="--grid 16 $QUICK"
st=$(cat "$TMP/status")
if [ "$st" = 0 ] && grep -qE '^step5 +image .* skipped$' "$TMP/out"; then
    pass "make step5 run reports skipped, status 0"
else
    fail "make step5 run reports skipped, status 0" "status $st: $(tail -n 3 "$TMP/out" | tr '\n' ' ')"
fi
