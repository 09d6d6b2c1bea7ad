# tests/t_step0.sh - the three C loop orders of step0, serial and with threads,
# on the same awkward cases as the kernels, with blocks of 1 row and blocks
# larger than the matrix.
# chapters: 0
source "$(dirname "$0")/lib.sh"
S0=$BUILD/step0
Q="--runs 2 --warmup 1"
for k in row diag blocked; do
    for t in 1 2 3; do
        expect_output "step0 $k t$t 37x29" 'check: PASS' "$S0" --kernel $k --threads $t --grid 37x29 $Q
        expect_output "step0 $k t$t 41x39 r10 (317 diagonals)" 'check: PASS' "$S0" --kernel $k --threads $t --grid 41x39 --radius 10 $Q
    done
    expect_output "step0 $k 1x1" 'check: PASS' "$S0" --kernel $k --threads 2 --grid 1x1 $Q
    expect_output "step0 $k 3x50 narrow" 'check: PASS' "$S0" --kernel $k --threads 2 --grid 3x50 $Q
    expect_output "step0 $k lp_afiro (27 x 51)" 'check: PASS' "$S0" --kernel $k --threads 2 --matrix "$ROOT/tests/data/lp_afiro.mtx" $Q
    expect_output "step0 $k west0067" 'check: PASS' "$S0" --kernel $k --threads 2 --matrix "$ROOT/tests/data/west0067.rua" $Q
done
for b in 1 7 100000; do
    expect_output "step0 blocked --block $b" 'check: PASS' "$S0" --kernel blocked --block $b --threads 2 --grid 37x29 $Q
done
expect_output "step0 kernel name in the csv" 'check: PASS' "$S0" --kernel diag --threads 2 --grid 16 --runs 1 --csv "$TMP/k.csv"
grep -q '^step0,diag-t2,' "$TMP/k.csv" && pass "step0 csv kernel diag-t2" || fail "step0 csv kernel diag-t2" "$(cat "$TMP/k.csv")"
expect_error "step0 unknown loop" "--kernel wants one of row,diag,blocked" "$S0" --kernel zigzag
expect_error "step0 --threads 0" "--threads wants a whole number from 1" "$S0" --threads 0
expect_error "step0 --block 0" "--block wants a whole number from 1" "$S0" --block 0
