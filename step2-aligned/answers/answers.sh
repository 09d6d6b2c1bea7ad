# step2-aligned/answers/answers.sh - the answers of chapter 2's exercises,
# run and checked by `make answers` (common/answers.sh says what each call does).

# build_copy STEP SRC OUT [FLAGS]: build/STEP from an edited copy SRC of its
# main.c, with the Makefile's own compile command (as tests/t_docs.sh does)
build_copy() {
    local main cc
    main=$(ls -d "$1"-*/)main.c
    cc=$(make -s -n -W "$main" BUILD="$BUILD" "$BUILD/$1" | grep -E -- "-o $BUILD/$1\$")
    run "$(sed "s# $main # $2 #; s#-o $BUILD/$1\$#${4:-} -o $3#" <<<"$cc")"
    expect_status 0
}
# pitch_copy ALIGN: build/step2 with PITCH_ALIGN ALIGN, as $SCRATCH/step2-pALIGN
pitch_copy() {
    run "cp step2-aligned/main.c $SCRATCH/p$1.c && sed -i 's/#define PITCH_ALIGN 32/#define PITCH_ALIGN $1/' $SCRATCH/p$1.c"
    claim "the sed set PITCH_ALIGN $1" grep -q "^#define PITCH_ALIGN $1\$" "$SCRATCH/p$1.c"
    build_copy step2 "$SCRATCH/p$1.c" "$SCRATCH/step2-p$1"
}
# rows not a multiple of 32 (at 1024 x 1024 or 4096 x 4096 the pitch is the row
# count whatever the alignment): 4095 x 4095 on a GPU, 1023 x 1023 on the CPU
G=$((GRID - 1))
[ "$DEVICE_KIND" = GPU ] && [ "$GRID" = 1024 ] && G=4095

exercise 1 "PITCH_ALIGN 1 against 32, rows not a multiple of 32"
pitch_copy 1
for a in 32 1; do
    bin=$SCRATCH/step2-p$a; [ $a = 32 ] && bin=build/step2
    run "$bin --grid $G --quiet --csv $SCRATCH/e1-p$a.csv"
    expect_text "check: PASS"
    record "PITCH_ALIGN $a" "$(gflops "$SCRATCH/e1-p$a.csv")" GFLOP/s
done

exercise 2 "PITCH_ALIGN 33 passes (pitch >= rows) but starts diagonals off a segment"
pitch_copy 33
run "$SCRATCH/step2-p33 --grid 37x29"
expect_status 0
expect_text "check: PASS"
for a in 32 33; do
    bin=$SCRATCH/step2-p$a; [ $a = 32 ] && bin=build/step2
    run "$bin --grid $G --quiet --csv $SCRATCH/e2-p$a.csv"
    expect_text "check: PASS"
    record "PITCH_ALIGN $a" "$(gflops "$SCRATCH/e2-p$a.csv")" GFLOP/s
done

exercise 3 "break it: skip the last diagonal, the check fails"
run "cp step2-aligned/kernel.cl $SCRATCH/broken.cl && sed -i 's/diag < diags;/diag < diags - 1;/' $SCRATCH/broken.cl"
claim "the sed changed the loop" grep -q 'diag < diags - 1;' "$SCRATCH/broken.cl"
run "build/step2 --kernel-file $SCRATCH/broken.cl --grid 37x29"
expect_status 1
expect_text "check: FAIL"
expect_no_text "GFLOP/s"
