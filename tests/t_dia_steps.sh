# tests/t_dia_steps.sh - every DIA step (step0-step5) against the reference on the
# cases that catch indexing bugs: sizes that are not multiples of 4, 32 or the
# work-group size, one diagonal, more than 256 diagonals, 1x1, narrow grids
# where stencil offsets coincide, odd work-group sizes, real matrices. Step 4's
# CPU-shaped kernel (--kernel cpu) takes every case too, with block sizes of 1,
# 7, 16, the default and one larger than the matrix.
# chapters: 0 1 2 3 4 5   (every DIA step: STEPS)
source "$(dirname "$0")/lib.sh"
QUICK="--runs 2 --warmup 1"
export SPMV_PROBE_MB=${SPMV_PROBE_MB:-16}

dia_steps=()
for b in "$BUILD"/step[0-5]; do [ -x "$b" ] && want_step "$(basename "$b")" && dia_steps+=("$(basename "$b")"); done
[ ${#dia_steps[@]} -gt 0 ] || want_step step0 || want_step step1 || [ -n "${STEPS:-}" ] || fail "dia steps" "no step binary in $BUILD"
# step4's cpu kernel: an entry "step4:cpu:B" runs step4 --kernel cpu --block B
# (B empty: the default block)
if [ -x "$BUILD/step4" ] && want_step step4; then
    for b in "" 1 7 16 100000; do dia_steps+=("step4:cpu:$b"); done
fi

for entry in "${dia_steps[@]+"${dia_steps[@]}"}"; do
    s=${entry%%:*}
    cmd=("$BUILD/$s")
    if [ "$entry" != "$s" ]; then
        block=${entry##*:}
        cmd+=(--kernel cpu ${block:+--block $block})
        s="step4 cpu${block:+ block $block}"
    fi
    expect_output "$s 37x29 r5" 'check: PASS' "${cmd[@]}" --grid 37x29 $QUICK
    expect_output "$s 1x1" 'check: PASS' "${cmd[@]}" --grid 1x1 $QUICK
    expect_output "$s 33x17 r0 (one diagonal)" '1 diagonals' "${cmd[@]}" --grid 33x17 --radius 0 $QUICK
    expect_output "$s 41x39 r10 (317 diagonals)" '317 diagonals' "${cmd[@]}" --grid 41x39 --radius 10 $QUICK
    grep -q 'check: PASS' "$TMP/out" || fail "$s 317 diagonals passes" "no PASS"
    expect_output "$s 3x50 r5 (narrow: offsets coincide)" 'check: PASS' "${cmd[@]}" --grid 3x50 $QUICK
    expect_output "$s 203x5 r5 (wide, short)" 'check: PASS' "${cmd[@]}" --grid 203x5 $QUICK
    expect_output "$s 130x131 seed 7" 'check: PASS' "${cmd[@]}" --grid 130x131 --seed 7 $QUICK
    if [ "$s" != step0 ]; then
        expect_output "$s local size 1" 'check: PASS' "${cmd[@]}" --grid 29x31 --local-size 1 $QUICK
        expect_output "$s local size 96" 'check: PASS' "${cmd[@]}" --grid 29x31 --local-size 96 $QUICK
    fi
    # real matrices that the DIA rule accepts (lp_afiro is rectangular, 27 x 51)
    for f in west0067.mtx west0067.rua bcsstk01.rsa bfwa62.mtx can_24.psa lp_afiro.mtx; do
        expect_output "$s $f as DIA" 'check: PASS' "${cmd[@]}" --matrix "$ROOT/tests/data/$f" $QUICK
    done
    # and one it refuses, with the rule and the way out
    expect_error "$s fs_183_6 refused for DIA" "304 occupied diagonals: DIA would store 52.0x its 1069 nonzeros" \
        "${cmd[@]}" --matrix "$ROOT/tests/data/fs_183_6.rua"
    expect_error "$s complex matrix refused for DIA" "young1c is complex; the DIA steps are single precision real: use step6-csr" \
        "${cmd[@]}" --matrix "$ROOT/tests/data/young1c.mtx"
done

# step4's cpu kernel: the launch names its block; the default is a multiple of
# 16 rows; --block is checked; the vector kernel says it ignores --block
if [ -x "$BUILD/step4" ] && want_step step4; then
    expect_output "step4 cpu launch names the block" 'one work-item per block of [0-9]+ rows' \
        "$BUILD/step4" --kernel cpu --grid 37x29 $QUICK
    b=$(sed -n 's/.*per block of \([0-9]*\) rows.*/\1/p' "$TMP/out")
    # on a CPU a multiple of 16 rows; on any other device 1 (step4-vector/cpu/host.c default_block)
    if grep -q '^device .*(CPU), ' "$TMP/out"; then
        if [ -n "$b" ] && [ $((b % 16)) = 0 ]; then pass "step4 cpu default block $b is a multiple of 16"
        else fail "step4 cpu default block is a multiple of 16" "block '$b'"; fi
    elif [ "$b" = 1 ]; then pass "step4 cpu default block on a device that is no CPU: 1"
    else fail "step4 cpu default block on a device that is no CPU: 1" "block '$b': $(grep '^device' "$TMP/out")"; fi
    if need_cpu_device "step4 cpu --block 5: 215 work-items for 1073 rows"; then
    expect_output "step4 cpu --block 5: 215 work-items for 1073 rows" 'global 215, local 1 ' \
        "$BUILD/step4" --kernel cpu --block 5 --grid 37x29 --device cpu $QUICK
    fi
    expect_output "step4 vector notes that --block is the cpu kernel's" '^note .*--block is the cpu kernel' \
        "$BUILD/step4" --block 64 --grid 37x29 $QUICK
    expect_error "step4 --block 0" "--block wants a whole number from 1" "$BUILD/step4" --kernel cpu --block 0
    expect_error "step4 --kernel gpu (unknown)" "--kernel wants one of vector,cpu, not 'gpu'" "$BUILD/step4" --kernel gpu
    expect_output "step4 cpu row in the CSV names kernel and block" '^step4,cpu-b7,' \
        bash -c "rm -f '$TMP/c.csv'; '$BUILD/step4' --kernel cpu --block 7 --grid 37x29 $QUICK --csv '$TMP/c.csv' >/dev/null && cat '$TMP/c.csv'"
fi
