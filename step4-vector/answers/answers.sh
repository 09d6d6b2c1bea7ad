# step4-vector/answers/answers.sh - the answers of chapter 4's exercises, run
# and checked by `make answers` (scripts/answers.sh says what each call does).
# Exercise 4's code answer is blocked-tricks.patch: step 0's blocked loop with
# the cpu kernel's two tricks, as --kernel blocked4 and blocked8.

exercise 1 "the article's fast-path test col < rows - 4: passes, costs nothing"
run "cp step4-vector/kernel.cl $SCRATCH/fast.cl && sed -i 's/col <= cols - 4/col < rows - 4/' $SCRATCH/fast.cl"
claim "the sed changed the test" grep -q 'col < rows - 4' "$SCRATCH/fast.cl"
run "build/step4 --kernel-file $SCRATCH/fast.cl --grid 37x29"
expect_status 0
expect_text "check: PASS"
for r in 1 2; do   # alternated, twice
    for k in course article; do
        f=step4-vector/kernel.cl; [ $k = article ] && f=$SCRATCH/fast.cl
        run "build/step4 --kernel-file $f --grid $GRID --quiet --csv $SCRATCH/e1-$k.csv"
        expect_text "check: PASS"
    done
done
record "col <= cols - 4 (the course)" "$(fastest "$SCRATCH/e1-course.csv")" GFLOP/s
record "col < rows - 4 (the article)" "$(fastest "$SCRATCH/e1-article.csv")" GFLOP/s

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
    # and built as PoCL builds a kernel: -O3 (vectorised with alias checks) for this CPU
    run "$(sed "s# step0-c-reference/main.c # $SCRATCH/main.c #; s#-o $BUILD/step0\$#-O3 -march=native -o $SCRATCH/step0n#" <<<"$cc")"
    expect_status 0
    # its check, on every path: 317 diagonals are 39 passes of 8, one of 4, one of 1; small blocks, ragged edges
    # and on a rectangular matrix (27 x 51: the halo reaches past both ends of x)
    for k in blocked4 blocked8; do
        run "$SCRATCH/step0 --kernel $k --radius 10 --grid 37x29 --block 100 --threads 2 --runs 1"
        expect_status 0
        expect_text "check: PASS"
        run "$SCRATCH/step0 --kernel $k --matrix tests/data/lp_afiro.mtx --threads 2 --runs 1"
        expect_status 0
        expect_text "check: PASS"
    done
    # measured one after the other, in two rounds (the fastest timed run of
    # each): the host's cores for both, at the exercise's block sizes
    t=$(nproc)
    for r in 1 2; do
        for b in "" 1024 16384 65536; do
            run "build/step4 --kernel cpu ${b:+--block $b} --grid $GRID --quiet --csv $SCRATCH/cpu$b.csv"
            expect_text "check: PASS"
        done
        for k in blocked blocked4 blocked8; do
            for b in "" 1024 16384 65536; do
                [ $k = blocked4 ] || [ -z "$b" ] || continue
                bin=$SCRATCH/step0; [ $k = blocked ] && bin=build/step0
                run "$bin --kernel $k ${b:+--block $b} --threads $t --grid $GRID --quiet --csv $SCRATCH/$k$b.csv"
                expect_text "check: PASS"
            done
        done
        for k in blocked4 blocked8; do
            run "$SCRATCH/step0n --kernel $k --threads $t --grid $GRID --quiet --csv $SCRATCH/$k-n.csv"
            expect_text "check: PASS"
        done
    done
    for b in "" 1024 16384 65536; do
        record "step4 --kernel cpu${b:+ --block $b}" "$(fastest "$SCRATCH/cpu$b.csv")" GFLOP/s
    done
    for k in blocked blocked4 blocked8; do
        for b in "" 1024 16384 65536; do
            [ -f "$SCRATCH/$k$b.csv" ] && record "step0 --kernel $k${b:+ --block $b} ($t threads)" "$(fastest "$SCRATCH/$k$b.csv")" GFLOP/s
        done
    done
    for k in blocked4 blocked8; do
        record "step0 --kernel $k built -O3 -march=native ($t threads)" "$(fastest "$SCRATCH/$k-n.csv")" GFLOP/s
    done
fi
