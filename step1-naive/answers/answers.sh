# step1-naive/answers/answers.sh - the answers of chapter 1's exercises, run
# and checked by `make answers` (scripts/answers.sh says what each call does).

exercise 1 "local size: which matters on which device"
for l in 32 64 256 1024; do
    run "build/step1 --local-size $l --grid $GRID --quiet --csv $SCRATCH/ls$l.csv"
    if [ "$LAST_STATUS" = 0 ]; then
        record "local $l" "$(gflops "$SCRATCH/ls$l.csv")" GFLOP/s
    else   # a device whose work-group limit is below 1024 refuses it, in one line
        expect_status 2
        expect_text "work-group size"
    fi
done

exercise 2 "no guard: oclgrind reports the stores past y"
if needs oclgrind; then
    run "cp step1-naive/kernel.cl $SCRATCH/noguard.cl && sed -i '/if (row >= rows)/,+1d' $SCRATCH/noguard.cl"
    claim "the sed removed the guard" eval "! grep -q 'row >= rows' $SCRATCH/noguard.cl"
    run "SPMV_PROBE_MB=0 SPMV_DEVICE= oclgrind build/step1 --kernel-file $SCRATCH/noguard.cl --grid 37x29 --runs 1"
    expect_text "Invalid write"
fi

exercise 3 "break it: skip the last diagonal, the check fails"
run "cp step1-naive/kernel.cl $SCRATCH/broken.cl && sed -i 's/diag < diags;/diag < diags - 1;/' $SCRATCH/broken.cl"
claim "the sed changed the loop" grep -q 'diag < diags - 1;' "$SCRATCH/broken.cl"
run "build/step1 --kernel-file $SCRATCH/broken.cl --grid 37x29"
expect_status 1
expect_text "check: FAIL"
expect_no_text "GFLOP/s"
