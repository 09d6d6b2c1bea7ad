# step4-vector/answers/answers.sh - the answers of chapter 4's exercises, run
# and checked by `make answers` (common/answers.sh says what each call does).
# Exercise 4's code answer is blocked-tricks.patch: step 0's blocked loop with
# the cpu kernel's two tricks, as --kernel blocked4 and blocked8.

exercise 1 "the article's fast-path test col < rows - 4: passes, costs nothing"
run "cp step4-vector/kernel.cl $SCRATCH/fast.cl && sed -i 's/col <= cols - 4/col < rows - 4/' $SCRATCH/fast.cl"
claim "the sed changed the test" grep -q 'col < rows - 4' "$SCRATCH/fast.cl"
run "build/step4 --kernel-file $SCRATCH/fast.cl --grid 37x29"
expect_status 0
expect_text "check: PASS"
for k in step4-vector/kernel.cl $SCRATCH/fast.cl; do
    run "build/step4 --kernel-file $k --grid $GRID --quiet --csv $SCRATCH/e1.csv"
    expect_text "check: PASS"
    record "$([ "$k" = step4-vector/kernel.cl ] && echo 'col <= cols - 4 (the course)' || echo 'col < rows - 4 (the article)')" \
        "$(gflops "$SCRATCH/e1.csv")" GFLOP/s
done

exercise 2 "the article's unguarded vstore4: oclgrind reports the write past y"
run "cp step4-vector/kernel.cl $SCRATCH/store.cl && sed -i '/if (row + 3 < rows) {/,/^    }\$/c\    vstore4(accumulator, 0, y + row);' $SCRATCH/store.cl"
claim "the sed put the unguarded store in" eval "! grep -q 'row + 3 < rows' $SCRATCH/store.cl && grep -q 'vstore4(accumulator, 0, y + row);' $SCRATCH/store.cl"
run "build/step4 --kernel-file $SCRATCH/store.cl --grid 7x5 --runs 1"
if needs oclgrind; then
    run "SPMV_PROBE_MB=0 SPMV_DEVICE= oclgrind build/step4 --kernel-file $SCRATCH/store.cl --grid 7x5 --runs 1"
    expect_status 1
    expect_text "Invalid write of size 16"
fi

exercise 3 "break it: drop the last row of a partial float4, row 34 stays NaN"
run "cp step4-vector/kernel.cl $SCRATCH/broken.cl && sed -i 's/if (row + 2 < rows)/if (row + 2 < rows - 1)/' $SCRATCH/broken.cl"
claim "the sed changed the test" grep -q 'row + 2 < rows - 1' "$SCRATCH/broken.cl"
run "build/step4 --kernel-file $SCRATCH/broken.cl --grid 7x5"
expect_status 1
expect_text "first bad row 34"
expect_text "check: FAIL"
expect_no_text "GFLOP/s"

exercise 4 "step 0's blocked loop with the cpu kernel's tricks, beside --kernel cpu"
if cpu_only; then
    # the code answer: step 0's main.c patched, built with the Makefile's compile command
    run "patch -s -o $SCRATCH/main.c step0-c-reference/main.c step4-vector/answers/blocked-tricks.patch"
    expect_status 0
    cc=$(make -s -n -W step0-c-reference/main.c BUILD="$BUILD" "$BUILD/step0" | grep -E -- "-o $BUILD/step0\$")
    run "$(sed "s# step0-c-reference/main.c # $SCRATCH/main.c #; s#-o $BUILD/step0\$#-o $SCRATCH/step0#" <<<"$cc")"
    expect_status 0
    # its check, on every path: 317 diagonals are 39 passes of 8, one of 4, one of 1; small blocks, ragged edges
    for k in blocked4 blocked8; do
        run "$SCRATCH/step0 --kernel $k --radius 10 --grid 37x29 --block 100 --threads 2 --runs 1"
        expect_status 0
        expect_text "check: PASS"
    done
    # measured in one run of this script, one after the other: the host's cores for both
    t=$(nproc)
    for b in "" 1024 16384 65536; do
        run "build/step4 --kernel cpu ${b:+--block $b} --grid $GRID --quiet --csv $SCRATCH/cpu$b.csv"
        expect_text "check: PASS"
        record "step4 --kernel cpu${b:+ --block $b}" "$(gflops "$SCRATCH/cpu$b.csv")" GFLOP/s
    done
    for kb in blocked blocked4 blocked8 "blocked4 1024" "blocked4 16384" "blocked4 65536"; do
        set -- $kb
        bin=$SCRATCH/step0; [ "$1" = blocked ] && bin=build/step0
        run "$bin --kernel $1 ${2:+--block $2} --threads $t --grid $GRID --quiet --csv $SCRATCH/s0.csv"
        expect_text "check: PASS"
        record "step0 --kernel $1${2:+ --block $2} (${t} threads)" "$(gflops "$SCRATCH/s0.csv")" GFLOP/s
    done
fi
