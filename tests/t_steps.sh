# tests/t_steps.sh - every DIA step (step0-step5) against the reference on the
# cases that catch indexing bugs: sizes that are not multiples of 4, 32 or the
# work-group size, one diagonal, more than 256 diagonals, 1x1, narrow grids
# where stencil offsets coincide, odd work-group sizes, real matrices.
source "$(dirname "$0")/lib.sh"
QUICK="--runs 2 --warmup 1"
export SPMV_PROBE_MB=${SPMV_PROBE_MB:-16}

dia_steps=()
for b in "$BUILD"/step[0-5]; do [ -x "$b" ] && dia_steps+=("$(basename "$b")"); done
[ ${#dia_steps[@]} -gt 0 ] || fail "dia steps" "no step binary in $BUILD"

for s in "${dia_steps[@]}"; do
    bin=$BUILD/$s
    expect_output "$s 37x29 r5" 'check: PASS' "$bin" --grid 37x29 $QUICK
    expect_output "$s 1x1" 'check: PASS' "$bin" --grid 1x1 $QUICK
    expect_output "$s 33x17 r0 (one diagonal)" '1 diagonals' "$bin" --grid 33x17 --radius 0 $QUICK
    expect_output "$s 41x39 r10 (317 diagonals)" '317 diagonals' "$bin" --grid 41x39 --radius 10 $QUICK
    grep -q 'check: PASS' "$TMP/out" || fail "$s 317 diagonals passes" "no PASS"
    expect_output "$s 3x50 r5 (narrow: offsets coincide)" 'check: PASS' "$bin" --grid 3x50 $QUICK
    expect_output "$s 203x5 r5 (wide, short)" 'check: PASS' "$bin" --grid 203x5 $QUICK
    expect_output "$s 130x131 seed 7" 'check: PASS' "$bin" --grid 130x131 --seed 7 $QUICK
    if [ "$s" != step0 ]; then
        expect_output "$s local size 1" 'check: PASS' "$bin" --grid 29x31 --local-size 1 $QUICK
        expect_output "$s local size 96" 'check: PASS' "$bin" --grid 29x31 --local-size 96 $QUICK
    fi
    # real matrices that the DIA rule accepts (lp_afiro is rectangular, 27 x 51)
    for f in west0067.mtx west0067.rua bcsstk01.rsa bfwa62.mtx can_24.psa lp_afiro.mtx; do
        expect_output "$s $f as DIA" 'check: PASS' "$bin" --matrix "$ROOT/tests/data/$f" $QUICK
    done
    # and one it refuses, with the rule and the way out
    expect_error "$s fs_183_6 refused for DIA" "304 occupied diagonals: DIA would store 52.0x its 1069 nonzeros" \
        "$bin" --matrix "$ROOT/tests/data/fs_183_6.rua"
    expect_error "$s complex matrix refused for DIA" "young1c is complex; the DIA steps are single precision real: use step6-csr" \
        "$bin" --matrix "$ROOT/tests/data/young1c.mtx"
done
