# step0-c-reference/answers/answers.sh - the answers of chapter 0's exercises,
# run and checked by `make answers` (scripts/answers.sh says what each call does).

exercise 1 "row, diag, blocked on 1 and 2 threads: who gains"
for k in row diag blocked; do
    for t in 1 2; do
        run "build/step0 --kernel $k --threads $t --grid $GRID --runs 5 --quiet --csv $SCRATCH/$k$t.csv"
        expect_text "check: PASS"
        record "$k loop on $t thread$([ $t = 2 ] && echo s)" "$(fastest "$SCRATCH/$k$t.csv")" GFLOP/s
    done
done

exercise 2 "radius 1, 5, 10: 5, 81, 317 diagonals, the same bound"
for r in 1 5 10; do
    run "build/step0 --radius $r --grid $((GRID / 2)) --runs 5 --csv $SCRATCH/r$r.csv"
    expect_text "check: PASS"
    record "radius $r" "$(fastest "$SCRATCH/r$r.csv")" GFLOP/s
    record "radius $r: model bound" "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { printf "%.2f\n", $c["bound_model_gflops"] }' "$SCRATCH/r$r.csv")" GFLOP/s
done
expect_text "317 diagonals"
# bound = bandwidth / 12 bytes x 2 FLOPs, times the nonzeros' share of the stored values: no diags in it
# shellcheck disable=SC2016
claim "the model bound is bandwidth / 6 (less the padding) at every radius" \
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { r = $c["bound_model_gflops"] * 6 / $c["bw_measured_gbs"] / ($c["nnz"] / ($c["diags"] * $c["rows"]))
          if (r < 0.99 || r > 1.01) exit 1 }' "$SCRATCH/r1.csv" "$SCRATCH/r5.csv" "$SCRATCH/r10.csv"

exercise 3 "break it: col > 0 skips column 0, the check fails; col <= cols reads past x"
run "cp step0-c-reference/main.c $SCRATCH/gt0.c && sed -i 's/if (col >= 0 \&\& col < cols)/if (col > 0 \&\& col < cols)/' $SCRATCH/gt0.c"
claim "the sed changed the test" grep -q 'if (col > 0 && col < cols)' "$SCRATCH/gt0.c"
build_copy step0 "$SCRATCH/gt0.c" "$SCRATCH/step0-gt0"
run "$SCRATCH/step0-gt0 --grid 37x29"
expect_status 1
expect_text "check: FAIL"
expect_no_text "GFLOP/s"
# col <= cols: the check passes (the matrix holds a zero there), AddressSanitizer
# sees the read past x (32 x 32: x's 4 KiB end on its allocation's end, no slack)
run "cp step0-c-reference/main.c $SCRATCH/le.c && sed -i 's/if (col >= 0 \&\& col < cols)/if (col >= 0 \&\& col <= cols)/' $SCRATCH/le.c"
claim "the sed changed the test" grep -q 'col <= cols)' "$SCRATCH/le.c"
build_copy step0 "$SCRATCH/le.c" "$SCRATCH/step0-le"
run "$SCRATCH/step0-le --grid 32x32 --runs 1"
expect_status 0
expect_text "check: PASS"
# (where the compiler has AddressSanitizer: make SAN=1 needs it too)
if echo 'int main(void) { return 0; }' | ${CC:-cc} -fsanitize=address -x c - -o "$SCRATCH/asan-probe" 2>/dev/null; then
    build_copy step0 "$SCRATCH/le.c" "$SCRATCH/step0-le-asan" "-fsanitize=address -fno-omit-frame-pointer"
    run "ASAN_OPTIONS=detect_leaks=0 $SCRATCH/step0-le-asan --grid 32x32 --runs 1"
    expect_text "heap-buffer-overflow"
fi
