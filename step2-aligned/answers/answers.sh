# step2-aligned/answers/answers.sh - the answers of chapter 2's exercises,
# run and checked by `make answers` (scripts/answers.sh says what each call does).

# pitch_copy ALIGN: build/step2 with PITCH_ALIGN ALIGN, as $SCRATCH/step2-pALIGN
pitch_copy() {
    run "cp step2-aligned/main.c $SCRATCH/p$1.c && sed -i 's/#define PITCH_ALIGN 32/#define PITCH_ALIGN $1/' $SCRATCH/p$1.c"
    claim "the sed set PITCH_ALIGN $1" grep -q "^#define PITCH_ALIGN $1\$" "$SCRATCH/p$1.c"
    build_copy step2 "$SCRATCH/p$1.c" "$SCRATCH/step2-p$1"
}
# pair A B: build/step2 with PITCH_ALIGN A and B, alternated twice, the fastest run of each
pair() {
    local r a bin
    for r in 1 2; do
        for a in "$@"; do
            bin=$SCRATCH/step2-p$a; [ "$a" = 32 ] && bin=build/step2
            run "$bin --grid $G --quiet --csv $SCRATCH/e$EX-p$a.csv"
            expect_text "check: PASS"
        done
    done
    for a in "$@"; do record "PITCH_ALIGN $a" "$(fastest "$SCRATCH/e$EX-p$a.csv")" GFLOP/s; done
}
# rows a multiple of neither 32 nor 33 (at 1024 x 1024 or 4096 x 4096 the pitch
# is the row count whatever the alignment): 4095 x 4095 on a GPU, 1021 x 1021
# on the CPU
G=$((GRID - 3))
[ "$DEVICE_KIND" = GPU ] && [ "$GRID" = 1024 ] && G=4095

exercise 1 "PITCH_ALIGN 1 against 32, rows not a multiple of 32"
pitch_copy 1
pair 32 1

exercise 2 "PITCH_ALIGN 33 passes (pitch >= rows) but starts diagonals off a segment"
pitch_copy 33
run "$SCRATCH/step2-p33 --grid 37x29"
expect_status 0
expect_text "check: PASS"
pair 32 33

exercise 3 "break it: skip the last diagonal, the check fails"
run "cp step2-aligned/kernel.cl $SCRATCH/broken.cl && sed -i 's/diag < diags;/diag < diags - 1;/' $SCRATCH/broken.cl"
claim "the sed changed the loop" grep -q 'diag < diags - 1;' "$SCRATCH/broken.cl"
run "build/step2 --kernel-file $SCRATCH/broken.cl --grid 37x29"
expect_status 1
expect_text "check: FAIL"
expect_no_text "GFLOP/s"
