# step5-image/answers/answers.sh - the answers of chapter 5's exercises, run
# and checked by `make answers` (scripts/answers.sh says what each call does).

exercise 1 "the second texel: radius 0 against 5, and two texels always"
# GFLOP/s counts 2 per nonzero, so it compares time per nonzero across radii.
# twotex.cl reads the second texel in case 0 too (shuffle2 of (0, 1, 2, 3)
# keeps the first texel, so y is the same): at radius 0 it costs only that read.
run "cp step5-image/kernel.cl $SCRATCH/twotex.cl && sed -i '/if (r == 0)/,+1d' $SCRATCH/twotex.cl"
claim "the sed removed case 0's early return" eval "! grep -q 'if (r == 0)' $SCRATCH/twotex.cl"
for r in 0 5; do
    run "build/step5 --radius $r --grid $GRID --csv $SCRATCH/r$r.csv"
    expect_text "check: PASS"
    record "radius $r" "$(gflops "$SCRATCH/r$r.csv")" GFLOP/s
    run "build/step5 --radius $r --grid $GRID --kernel-file $SCRATCH/twotex.cl --csv $SCRATCH/t$r.csv"
    expect_text "check: PASS"
    record "radius $r: two texels always" "$(gflops "$SCRATCH/t$r.csv")" GFLOP/s
done

exercise 2 "CLAMP_TO_EDGE: the check passes, the matrix's zeros hide it"
run "cp step5-image/kernel.cl $SCRATCH/edge.cl && sed -i 's/CLK_ADDRESS_CLAMP |/CLK_ADDRESS_CLAMP_TO_EDGE |/' $SCRATCH/edge.cl"
claim "the sed changed the sampler" grep -q 'CLK_ADDRESS_CLAMP_TO_EDGE |' "$SCRATCH/edge.cl"
run "build/step5 --kernel-file $SCRATCH/edge.cl --grid 37x29"
expect_status 0
expect_text "check: PASS"
run "build/step5 --kernel-file $SCRATCH/edge.cl --grid 37x29 --radius 0"
expect_text "check: PASS"

exercise 3 "break it: the fourth float repeats the third, the check fails"
run "cp step5-image/kernel.cl $SCRATCH/broken.cl && sed -i 's/(uint4)(r, r + 1, r + 2, r + 3)/(uint4)(r, r + 1, r + 2, r + 2)/' $SCRATCH/broken.cl"
claim "the sed changed the shuffle mask" grep -q '(uint4)(r, r + 1, r + 2, r + 2)' "$SCRATCH/broken.cl"
run "build/step5 --kernel-file $SCRATCH/broken.cl --grid 37x29"
expect_status 1
expect_text "check: FAIL"
expect_no_text "GFLOP/s"
# radius 0 never takes the unaligned cases: the same break passes there
run "build/step5 --kernel-file $SCRATCH/broken.cl --grid 37x29 --radius 0"
expect_status 0
expect_text "check: PASS"

exercise 4 "an image too short for x: one line, status 3"
run "SPMV_IMAGE2D_MAX_H=1 build/step5 --grid 130x131"
expect_status 3
expect_text "skipped: x has 17030 floats"
expect_no_text "check:"
