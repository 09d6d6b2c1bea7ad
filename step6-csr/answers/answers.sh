# step6-csr/answers/answers.sh - the answers of chapter 6's exercises, run
# and checked by `make answers` (scripts/answers.sh says what each call does).
# The code answers are patches under step6-csr/answers/: segments.patch (a
# kernel, used with --kernel-file) and cut-alone.patch (host.c, built by
# variant.sh into a copy).

# the % of the compulsory bound of the last row of a results CSV
pct_bound() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { g = $c["gflops"]; b = $c["bound_compulsory_gflops"] } END { printf "%.0f\n", (b > 0 ? 100 * g / b : 0) }' "$1"
}
# the chapter's kernel for a regular matrix on this device (the choice line's rule)
regular=scalar
[ "$DEVICE_KIND" = GPU ] && regular=vector
G6=$((GRID / 2))   # the grid of this chapter's answers: 512, or 32 at small sizes
S=1                # size factor of the generated matrices
[ "$GRID" = 64 ] && S=16

exercise 1 "break it: the row's end one short; no barrier in the tree"
run "cp step6-csr/kernel.cl $SCRATCH/end.cl && sed -i '0,/int end = ptr\[row + 1\];/s//int end = ptr[row + 1] - 1;/' $SCRATCH/end.cl"
claim "the sed changed csr_scalar's line alone" eval "[ \$(grep -c 'int end = ptr\[row + 1\] - 1;' $SCRATCH/end.cl) = 1 ]"
run "build/step6 --matrix tests/data/west0067.mtx --kernel scalar --kernel-file $SCRATCH/end.cl"
expect_status 1
expect_text "first bad row 0:"
expect_text "check: FAIL"
expect_no_text "speed "
run "build/step6 --matrix tests/data/west0067.mtx --kernel vector --kernel-file $SCRATCH/end.cl"
expect_status 0   # csr_vector has its own line, unchanged
if needs oclgrind; then
    run "cp step6-csr/kernel.cl $SCRATCH/race.cl && sed -i '/partial\[lid\] += partial\[lid + s\];/{n;d}' $SCRATCH/race.cl"
    claim "the sed removed one barrier" eval "[ \$(( \$(grep -c barrier step6-csr/kernel.cl) - \$(grep -c barrier $SCRATCH/race.cl) )) = 1 ]"
    run "SPMV_PROBE_MB=0 SPMV_DEVICE= oclgrind --data-races build/step6 --matrix tests/data/west0067.mtx --kernel vector --group-size 8 --runs 1 --warmup 0 --kernel-file $SCRATCH/race.cl"
    expect_text "Read-write data race at local memory"
    expect_text "Kernel: csr_vector"
fi

exercise 2 "group size: where each device peaks, and the default rule"
for m in "grid --grid $G6" "bayer10 --matrix tests/data/bayer10.mtx"; do
    name=${m%% *} args=${m#* }
    run "build/step6 $args --kernel vector --runs 5 --csv $SCRATCH/def.csv"
    expect_text "check: PASS"
    record "$name: default group" "$(awk -F, 'NR > 1 { sub(/^vector-/, "", $2); g = $2 } END { print g }' "$SCRATCH/def.csv")"
    for g in 2 4 8 16 32 64; do
        run "build/step6 $args --kernel vector --group-size $g --runs 5 --csv $SCRATCH/g.csv"
        expect_text "check: PASS"
        record "$name: group $g" "$(gflops "$SCRATCH/g.csv")" GFLOP/s
        rm -f "$SCRATCH/g.csv"
    done
done

exercise 3 "precisions s, d, c, z on the grid: GFLOP/s and % of the bound"
for p in s d c z; do
    run "build/step6 --grid $G6 --kernel $regular --precision $p --runs 5 --csv $SCRATCH/p$p.csv"
    if [ "$LAST_STATUS" = 3 ]; then   # no cl_khr_fp64: d and z are skipped
        expect_text "skipped"
        continue
    fi
    expect_text "check: PASS"
    record "$p ($regular)" "$(gflops "$SCRATCH/p$p.csv")" GFLOP/s
    record "$p % of compulsory" "$(pct_bound "$SCRATCH/p$p.csv")" %
done

exercise 4 "break the adaptive kernel: fix-up one slot short; no counter reset"
run "cp step6-csr/adaptive/kernel.cl $SCRATCH/fixup.cl && sed -i 's/p < long_slot\[i + 1\];/p < long_slot[i + 1] - 1;/' $SCRATCH/fixup.cl"
claim "the sed changed the fix-up kernel's loops" grep -q 'p < long_slot\[i + 1\] - 1;' "$SCRATCH/fixup.cl"
# on a GPU the chunks are a work-group's share (768 entries), and the one
# dropped can hide inside the check's tolerance for a row of 20,000 (the
# chapter's Pitfalls): there the CPU's shape, --local-size 1, chunks of 8,192
fixlocal=""
[ "$DEVICE_KIND" = GPU ] && fixlocal=" --local-size 1"
run "build/step6 --gen arrow:rows=20000 --kernel adaptive --split 1 --combine fixup --kernel-file $SCRATCH/fixup.cl$fixlocal"
expect_status 1
expect_text "combine  fixup: split rows added up by a second kernel"
expect_text "1 bad rows; first bad row 0:"
expect_text "check: FAIL"
run "build/step6 --gen arrow:rows=20000 --kernel adaptive --split 1 --kernel-file $SCRATCH/fixup.cl"
expect_status 0   # added up by its last chunk: the fix-up kernel never runs
expect_no_text "combine  fixup"
expect_text "check: PASS"
if grep -q '^combine  count' "$LAST"; then   # the count's reset, where the device has the count
    run "cp step6-csr/adaptive/kernel.cl $SCRATCH/noreset.cl && sed -i '/atomic_xchg(count, 0);/d; /atomic_xchg(ROW_COUNT, 0);/d' $SCRATCH/noreset.cl"
    claim "the sed removed both resets" eval "! grep -q 'atomic_xchg(count, 0)\|atomic_xchg(ROW_COUNT, 0)' $SCRATCH/noreset.cl"
    run "build/step6 --gen arrow:rows=20000 --kernel adaptive --split 1 --kernel-file $SCRATCH/noreset.cl --runs 1 --warmup 0"
    expect_status 1
    expect_text "first bad row 0: got nan"
    # the same with each chunk's count printed: 0, 1, 2 in the first run, then on
    run "sed -i 's/return atomic_inc(count) == n - 1;/int seen = atomic_inc(count); printf(\"chunk %d: count was %d of %d\\\\n\", slot, seen, n); return seen == n - 1;/' $SCRATCH/noreset.cl"
    claim "the sed added the printf" grep -q 'count was %d of %d' "$SCRATCH/noreset.cl"
    run "build/step6 --gen arrow:rows=20000 --kernel adaptive --split 1 --kernel-file $SCRATCH/noreset.cl --runs 1 --warmup 0"
    n=$(sed -n 's/^prep .*(0 long rows whole, \([0-9]*\) chunks of 1 rows .*/\1/p' "$LAST")
    claim "the prep line says how many chunks" [ -n "$n" ]
    expect_text "count was $((n - 1)) of $n"        # the first run's last chunk
    expect_text "count was $((2 * n - 1)) of $n"    # the next run's: never n - 1 again
    claim "only the first run's last chunk saw n - 1" eval "[ \$(grep -c ': count was $((n - 1)) of $n\$' $LAST) = 1 ]"
fi

exercise 5 "whole or cut: the arrow's long row at three splits"
for n in 20000 200000; do
    for split in 1 4096 2000000000; do
        run "build/step6 --gen arrow:rows=$n --kernel adaptive --split $split --csv $SCRATCH/a.csv"
        expect_text "check: PASS"
        expect_text "cut      rows longer than"
        record "arrow $n --split $split" "$(gflops "$SCRATCH/a.csv")" GFLOP/s
        rm -f "$SCRATCH/a.csv"
    done
done
run "build/step6 --gen arrow:rows=20000 --kernel adaptive --split 2000000000 --runs 1"
expect_text "(1 long rows whole, 0 chunks of 0 rows"
run "build/step6 --gen arrow:rows=20000 --kernel adaptive --split 4096 --runs 1"
expect_text "(0 long rows whole, "
expect_text "chunks of 1 rows longer than"

exercise 6 "x in L1 on a CPU: segment by segment (segments.patch)"
if cpu_only; then
    run "mkdir -p $SCRATCH/seg && step6-csr/answers/variant.sh $SCRATCH/seg step6-csr/answers/segments.patch && cp $SCRATCH/seg/step6-csr/adaptive/kernel.cl $SCRATCH/segments.cl"
    expect_status 0
    for m in "grid --grid $G6" "powerlaw mean 15 --gen powerlaw:rows=$((262144 / S)),mean=15" \
             "powerlaw mean 188 --gen powerlaw:rows=$((65536 / S)),mean=188"; do
        name=${m%% --*} args=--${m#* --}
        run "build/step6 $args --kernel adaptive --runs 5 --csv $SCRATCH/c.csv"
        expect_text "check: PASS"
        record "$name: the chapter's adaptive" "$(gflops "$SCRATCH/c.csv")" GFLOP/s
        run "build/step6 $args --kernel adaptive --runs 5 --kernel-file $SCRATCH/segments.cl --csv $SCRATCH/s.csv"
        expect_text "check: PASS"
        record "$name: segments of 4096" "$(gflops "$SCRATCH/s.csv")" GFLOP/s
        run "build/step6 $args --kernel adaptive --runs 5 --kernel-file $SCRATCH/segments.cl --cl-opts -DSEGMENT=1073741824 --csv $SCRATCH/o.csv"
        expect_text "check: PASS"
        record "$name: one segment" "$(gflops "$SCRATCH/o.csv")" GFLOP/s
        rm -f "$SCRATCH"/[cso].csv
    done
    if command -v oclgrind >/dev/null; then   # the kernel is clean: no bad access, no race, nothing uninitialized
        run "SPMV_PROBE_MB=0 SPMV_DEVICE= oclgrind --data-races --uninitialized build/step6 --gen powerlaw:rows=3000,mean=15 --kernel adaptive --local-size 1 --runs 1 --warmup 0 --kernel-file $SCRATCH/segments.cl --cl-opts -DSEGMENT=256"
        expect_text "check: PASS"
        expect_no_text "Invalid"
        expect_no_text "race"
        expect_no_text "ninitiali"
    fi
fi

exercise 7 "the floor for a cut: a row with an eighth of the matrix (cut-alone.patch)"
run "step6-csr/answers/variant.sh $SCRATCH/cut step6-csr/answers/cut-alone.patch"
expect_status 0
run "build/step6 --gen arrow:rows=12000 --kernel adaptive --csv $SCRATCH/c.csv"
expect_text "(1 long rows whole, 0 chunks of 0 rows"
expect_text "check: PASS"
record "arrow 12000: the chapter's rule" "$(gflops "$SCRATCH/c.csv")" GFLOP/s
run "$SCRATCH/cut/step6 --gen arrow:rows=12000 --kernel adaptive --csv $SCRATCH/r.csv"
expect_text "(0 long rows whole, "
expect_text "chunks of 1 rows longer than"
expect_text "1/8 of the matrix's nonzeros"
expect_text "check: PASS"
record "arrow 12000: cut from 1/8 of the matrix" "$(gflops "$SCRATCH/r.csv")" GFLOP/s
rm -f "$SCRATCH/c.csv" "$SCRATCH/r.csv"
# (small sizes: 16384 rows, whose longest are still longer than a CPU's block)
r188=65536
[ "$S" = 1 ] || r188=16384
run "build/step6 --gen powerlaw:rows=$r188,mean=188 --kernel adaptive --csv $SCRATCH/c.csv"
cp "$LAST" "$SCRATCH/chapter.out"
expect_text "check: PASS"
record "powerlaw mean 188: the chapter's rule" "$(gflops "$SCRATCH/c.csv")" GFLOP/s
run "$SCRATCH/cut/step6 --gen powerlaw:rows=$r188,mean=188 --kernel adaptive --csv $SCRATCH/r.csv"
expect_text "check: PASS"
claim "the patched step prints its plan" grep -q '([0-9]* long rows whole, [0-9]* chunks of [0-9]* rows' "$LAST"
claim "the rule leaves power-law mean 188's plan as it was (the same prep line's rows)" \
    eval "[ \"\$(grep -o '([0-9]* long rows whole, [0-9]* chunks of [0-9]* rows' $SCRATCH/chapter.out)\" = \"\$(grep -o '([0-9]* long rows whole, [0-9]* chunks of [0-9]* rows' $LAST)\" ]"
record "powerlaw mean 188: cut from 1/8 of the matrix" "$(gflops "$SCRATCH/r.csv")" GFLOP/s
