# step7-cg/answers/answers.sh - the answers of chapter 7's exercises, run and
# checked by `make answers` (scripts/answers.sh says what each call does).
# Full size: Poisson 1024^2 (exercise 2) and 512^2 (exercise 3), the
# exercises' own; ANSWERS_SMALL=1: 64^2 (exercise 2's solves to --tol; its
# timing runs 128^2, below) and 128^2 (the smallest grid on which float
# misses 1e-6 as it does at 512^2).

# s7_col FILE NAME: the column NAME of the last row of a step7 --csv file
s7_col() {
    awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { v = $c[k] } END { print v }' "$1"
}
# (labels of record: no commas, they are CSV fields)
# s7_ms FILE: its ms an iteration, 3 digits
s7_ms() { awk -v v="$(s7_col "$1" ms_per_iter)" 'BEGIN { printf "%.3g", v }'; }
N2=$GRID N3=$((GRID / 2)) N2T=$GRID
S7=$SCRATCH/step7   # its own folder: --csv appends, and other chapters' files share $SCRATCH
mkdir -p "$S7"
[ "$GRID" = 64 ] && N3=128
# exercise 2's timing runs (--tol 0 --maxiter 512) at small size on 128^2, not
# 64^2: there float CG meets 1e-5 after about 150 iterations, and 512 take its
# recurrence on to |r|/|b| ~ 2e-24, r.r and p.Ap ~ 1e-44, float's denormals;
# a device that rounds them otherwise (the H200) finds p.Ap = 0 near iteration
# 500, a breakdown (status 1). 512 iterations at 128^2 end near 1e-10, at
# 1024^2 (full size, 2192 to 1e-5) far above it: the runs time iterations, all
# of them in float's range, on any device.
[ "$GRID" = 64 ] && N2T=128

exercise 1 "break it: x along r; the race oclgrind finds in wg_sum"
run "cp step7-cg/kernel.cl $S7/broken.cl && sed -i 's/x\[i\] += alpha \* pi;/x[i] += alpha * r[i];/' $S7/broken.cl"
claim "the sed moved x along r" grep -q 'x\[i\] += alpha \* r\[i\];' "$S7/broken.cl"
run "build/step7 --gen poisson:nx=37,ny=29 --kernel fused --kernel-file $S7/broken.cl"
expect_status 1
expect_text "restarts 10"
expect_text "check    the true residual misses the tolerance"
expect_text "check: FAIL"
expect_no_text "ms an iteration"
claim "the recurrence still converged" grep -q '^solve    converged' "$LAST"
run "cp step7-cg/kernel.cl $S7/race.cl && sed -i '/s\[lid\] += s\[lid + h\];/{n;d}' $S7/race.cl"
claim "the sed removed the tree's barrier" eval "[ \$(diff step7-cg/kernel.cl $S7/race.cl | grep -c '^< *barrier') = 1 ]"
if [ "$DEVICE_KIND" = CPU ]; then   # PoCL builds -DCONTIGUOUS: no tree, nothing to race
    run "build/step7 --gen poisson:nx=37,ny=29 --kernel fused --kernel-file $S7/race.cl"
    expect_status 0
    expect_text "-DCONTIGUOUS"
    expect_text "check: PASS"
fi
if needs oclgrind; then
    run "SPMV_PROBE_MB=0 SPMV_DEVICE= oclgrind --data-races build/step7 --gen poisson:nx=13,ny=11 --kernel fused --kernel-file $S7/race.cl --tol 0 --maxiter 2"
    expect_text "Read-write data race at local memory address"
    expect_text "Kernel: cg_dot"
    expect_text "Kernel: csr_vector"
    expect_status 1
    expect_text "check: FAIL"
fi

exercise 2 "the host's wait: fused, --check-every 1, 4, 32, 256"
for k in 1 4 32 256; do
    run "build/step7 --gen poisson:nx=$N2T --kernel fused --tol 0 --maxiter 512 --check-every $k --csv $S7/t$k.csv"
    expect_status 0
    expect_text "check: PASS"
    expect_text "read back every $k iterations"
    record "K $k: ms an iteration (--tol 0)" "$(s7_ms "$S7/t$k.csv")" ms
done
for k in 1 4 32 256; do
    run "build/step7 --gen poisson:nx=$N2 --kernel fused --check-every $k --csv $S7/s$k.csv"
    expect_status 0
    expect_text "check: PASS"
    x=$(s7_col "$S7/s$k.csv" extra_iterations) it=$(s7_col "$S7/s$k.csv" iterations)
    r=$(grep -c '^restart ' "$LAST")
    claim "K $k: at most K extra iterations a read (restarts $r)" [ "$x" -le $(((r + 1) * k)) ]
    record "K $k: iterations to --tol" "$it"
    record "K $k: extra iterations" "$x"
done
record "restarts (the same for every K)" "$r"

exercise 3 "float or double: restarts, the tolerance float misses, the bytes"
for t in 1e-4 1e-5 1e-6; do
    run "build/step7 --gen poisson:nx=$N3 --kernel fused --precision s --tol $t --csv $S7/f$t.csv"
    r=$(grep -c '^restart ' "$LAST")
    record "float at --tol $t: restarts" "$r"
    if [ "$t" = 1e-6 ]; then
        expect_status 1
        expect_text "restarts 10"
        expect_text "check    the true residual misses the tolerance 1e-06"
        expect_text "check: FAIL"
    else
        expect_status 0
        expect_text "check: PASS"
        claim "--tol $t: fewer than 10 restarts" [ "$r" -lt 10 ]
    fi
done
run "build/step7 --gen poisson:nx=$N3 --kernel fused --precision d --tol 1e-6"
expect_status 0
expect_text "check: PASS"
expect_no_text "restart "
for p in s d; do
    run "build/step7 --gen poisson:nx=$N3 --kernel fused --precision $p --tol 0 --maxiter 200 --csv $S7/p$p.csv"
    expect_status 0
    expect_text "check: PASS"
    record "$p: ms an iteration (--tol 0)" "$(s7_ms "$S7/p$p.csv")" ms
    record "$p: MB an iteration" "$(awk -v b="$(s7_col "$S7/p$p.csv" bytes_per_iter)" 'BEGIN { printf "%.2f", b / 1e6 }')" MB
done
bs=$(s7_col "$S7/ps.csv" bytes_per_iter) bd=$(s7_col "$S7/pd.csv" bytes_per_iter)
claim "double moves less than twice float's bytes (144 against 84 a row)" \
    awk -v s="$bs" -v d="$bd" 'BEGIN { exit !(d / s > 1.6 && d / s < 1.8) }'
record "double / float: bytes" "$(awk -v s="$bs" -v d="$bd" 'BEGIN { printf "%.2f", d / s }')"
record "double / float: time" "$(awk -v s="$(s7_col "$S7/ps.csv" ms_per_iter)" -v d="$(s7_col "$S7/pd.csv" ms_per_iter)" 'BEGIN { printf "%.2f", d / s }')"
