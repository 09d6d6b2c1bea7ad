# step3-local/answers/answers.sh - the answers of chapter 3's exercises, run
# and checked by `make answers` (scripts/answers.sh says what each call does).

exercise 1 "the article's one-offset-per-work-item copy: 317 diagonals, 64 items"
run "build/step3 --grid 41x39 --radius 10 --local-size 64"
expect_status 0
expect_text "check: PASS"
run "cp step3-local/kernel.cl $SCRATCH/article.cl && sed -i 's/for (int i = get_local_id(0); i < diags; i += get_local_size(0))/if (get_local_id(0) < diags)/; s/l_offsets\[i\] = offsets\[i\];/l_offsets[get_local_id(0)] = offsets[get_local_id(0)];/' $SCRATCH/article.cl"
claim "the sed put the article's copy in" grep -q 'if (get_local_id(0) < diags)' "$SCRATCH/article.cl"
run "build/step3 --kernel-file $SCRATCH/article.cl --grid 41x39 --radius 10 --local-size 64"
expect_status 1
expect_text "317 diagonals"
expect_text "check: FAIL"
expect_no_text "GFLOP/s"
# with as many work-items as diagonals (local size 320 >= 317) the article's copy is whole again
run "build/step3 --kernel-file $SCRATCH/article.cl --grid 41x39 --radius 10 --local-size 320"
if [ "$LAST_STATUS" = 2 ]; then   # a device that allows this kernel fewer work-items (NVIDIA: 256) says so in one line
    expect_text "work-group size 320 is more than"
else
    expect_status 0
    expect_text "check: PASS"
fi

exercise 2 "return before the barrier: oclgrind reports work-group divergence"
run "cp step3-local/kernel.cl $SCRATCH/early.cl && sed -i '/if (row >= rows)/,+1d; /for (int i = get_local_id(0)/i\    if (row >= rows)\n        return;' $SCRATCH/early.cl"
claim "the return moved before the barrier" \
    awk '/if \(row >= rows\)/ { r = NR } /barrier\(/ { b = NR } END { exit !(r && b && r < b) }' "$SCRATCH/early.cl"
# on PoCL: undefined behaviour, whatever it does (PoCL 3.1 here: the right y, then a corrupted heap)
run "build/step3 --kernel-file $SCRATCH/early.cl --grid 37x29 --runs 1; echo \"status \$?\""
if needs oclgrind; then
    run "SPMV_PROBE_MB=0 SPMV_DEVICE= oclgrind --data-races build/step3 --kernel-file $SCRATCH/early.cl --grid 37x29 --runs 1"
    expect_status 1
    expect_text "Work-group divergence"
fi

exercise 3 "break it: the copy's stride is diags, one offset per work-item"
run "cp step3-local/kernel.cl $SCRATCH/broken.cl && sed -i 's/i += get_local_size(0)/i += diags/' $SCRATCH/broken.cl"
claim "the sed changed the stride" grep -q 'i += diags' "$SCRATCH/broken.cl"
run "build/step3 --kernel-file $SCRATCH/broken.cl --grid 41x39 --radius 10 --local-size 64"
expect_status 1
expect_text "check: FAIL"
expect_no_text "GFLOP/s"
