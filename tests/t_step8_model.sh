# tests/t_step8_model.sh - chapter 8's model (step8-mpi/model/model.sh) on
# made-up rows, no OpenCL, no MPI: rows made exactly from a known model
# (T1 = 0.1 + 1e-6 m, Pi = 5e-7 m, H = 0.1 + 4e-4 g, a = 0.3) are fitted
# with no residual; the held-out rows (4 ranks, a thin grid, a 3-D box) are
# marked so and their errors are the known ones (+25.0%, +10.0%, -8.3%; a
# box a nonzero: +25.0%); a held-out row's times, however wild, change no
# fitted part, while the same row made a fit row (FIT) does; a file with
# no held-out row says so; a FIT that is no condition is refused.
# chapters: 8
source "$(dirname "$0")/lib.sh"
model=$ROOT/step8-mpi/model/model.sh
h="step,kernel,ranks,device,driver,matrix,rows,nnz,precision,iterations,converged,rel_residual,true_residual,tol,ms_per_iter,ms_total,prof_ms_per_iter,kernels_ms,halo_read_ms,halo_mpi_ms,halo_write_ms,reduce_read_ms,allreduce_ms,reductions,rows_max,ghosts_max,halo_values,check,date,git_rev,product_ms"
# row RANKS MATRIX ROWS NNZ MS HALO_READ HALO_MPI HALO_WRITE ALLREDUCE ROWS_MAX GHOSTS PRODUCT
row() { echo "step8,single-n$1,$1,dev,drv,$2,$3,$4,d,9,0,0,0,0,$5,0,0,0,$6,$7,$8,0,$9,1,${10},${11},0,PASS,d,r,${12}"; }
# made(HELD_MS HELD_HALO HELD_ALLREDUCE): the fit rows, then the held-out ones
made() {
    echo "$h"
    # fit: 1 rank, T = T1(m); 2 ranks, T = T1(m) + max(0, H - Pi) + a: 1.1 + 0 + 0.3, 2.1 + 0 + 0.3
    row 1 "poisson:nx=1000 ny=1000" 1000000 5000000 1.1 0 0 0 0 1000000 0 0.5
    row 1 "poisson:nx=1000 ny=2000" 2000000 10000000 2.1 0 0 0 0 2000000 0 1
    row 2 "poisson:nx=1000 ny=2000" 2000000 10000000 1.4 0.2 0.2 0.1 0.3 1000000 1000 0.5
    row 2 "poisson:nx=2000 ny=2000" 4000000 20000000 2.4 0.4 0.3 0.2 0.3 2000000 2000 1
    # held out: 4 ranks of 1e6 rows, 4000 ghosts: 1.1 + (1.7 - 0.5) + 2 x 0.3 = 2.9 = 1.25 x 2.32
    row 4 "poisson:nx=2000 ny=2000" 4000000 20000000 "$1" "$2" 0 0 "$3" 1000000 4000 0.5
    # a thin grid on 2 ranks of 2e5 rows, 4000 ghosts: 0.3 + (1.7 - 0.1) + 0.3 = 2.2 = 1.1 x 2
    row 2 "poisson:nx=4000 ny=100" 400000 2000000 2 "$2" 0 0 "$3" 200000 4000 0.1
    # a box on 1 rank, 1e6 rows of 7: a row 1.1 (1.2: -8.3%), a nonzero 0.1 + 7e6 x 2e-7 = 1.5 (+25%)
    row 1 "poisson3d:nx=100 ny=100 nz=100" 1000000 7000000 1.2 0 0 0 0 1000000 0 0.7
}
made 2.32 0 0 >"$TMP/m.csv"
_run "$model" "$TMP/m.csv"
cp "$TMP/out" "$TMP/m.out"
if [ "$(cat "$TMP/status")" = 0 ] &&
    awk '$1 ~ /^[0-9]+$/ && NF == 8 { n++; s = s " " $1 ":" $6 ":" $7 ":" $8 }
         END { exit !(n == 7 && s == " 1:1.1000:0.0%:fit 1:2.1000:0.0%:fit 2:1.4000:0.0%:fit 2:2.4000:0.0%:fit 4:2.9000:25.0%:held-out 2:2.2000:10.0%:held-out 1:1.1000:-8.3%:held-out") }' "$TMP/out"; then
    pass "model.sh: the fit rows exact, the held-out rows marked and off by their known errors (25.0%, 10.0%, -8.3%)"
else fail "model.sh: fit and held-out rows" "$(grep -E '^[0-9]+ ' "$TMP/out" | tr '\n' '|')"; fi
if grep -qx 'fit      4 rows, worst 0.0%, mean |error| 0.0% (.*' "$TMP/out" &&
    grep -qx 'held-out 3 rows, worst 25.0%, mean |error| 14.4%' "$TMP/out" &&
    grep -qx 'held-out   2-D grids on 4 ranks: 1 row, worst 25.0%, mean |error| 25.0%' "$TMP/out" &&
    grep -qx 'held-out   thin 2-D grids (ny < nx) on 2 ranks: 1 row, worst 10.0%, mean |error| 10.0%' "$TMP/out" &&
    grep -qx 'held-out   3-D boxes on 1 rank: 1 row, worst -8.3%, mean |error| 8.3%' "$TMP/out" &&
    grep -qx 'overall  held-out: 3 rows, worst 25.0%, mean |error| 14.4%' "$TMP/out" &&
    grep -q '^fit      the rows where ranks <= 2 && dim == 2 && ny >= nx ' "$TMP/out"; then
    pass "model.sh: the summary: the fit's residuals (0%) apart from the held-out error, each kind and overall"
else fail "model.sh: the summary" "$(grep -E '^(fit|held|overall)' "$TMP/out" | tr '\n' '|')"; fi
if grep -q '^assume .*one node.*network' "$TMP/out" && grep -q '^assume .*halo .*not measured' "$TMP/out" &&
    grep -qx 'assume   strong: T1 and the product carried to 1953 rows a rank at 1024 ranks, 512x below the smallest one-rank fit row (1000000)' "$TMP/out" &&
    grep -qx 'assume   every P > 1: the mean error of the 2-rank fit rows, +0.0%, not corrected: the formula carries it' "$TMP/out" &&
    awk '$1 == 1024 && NF == 5 { n++ } END { exit n != 1 }' "$TMP/out"; then
    pass "model.sh: P up to 1024, and which of its inputs past the ranks measured are assumptions (the time lines carried below their rows, the 2-rank bias)"
else fail "model.sh: the projection's assumptions" "$(grep -E '^(assume|1024)' "$TMP/out" | tr '\n' '|')"; fi

# the held-out rows' times (measured, halo, allreduce) changed wildly: no fitted part moves
made 5.8 9 9 >"$TMP/m2.csv"
_run "$model" "$TMP/m2.csv"
if [ "$(cat "$TMP/status")" = 0 ] && [ "$(grep '^model ' "$TMP/out")" = "$(grep '^model ' "$TMP/m.out")" ] &&
    [ "$(awk '$1 ~ /^[0-9]+$/ && $NF == "fit" { print $6 }' "$TMP/out")" = "$(awk '$1 ~ /^[0-9]+$/ && $NF == "fit" { print $6 }' "$TMP/m.out")" ] &&
    grep -qx 'held-out   2-D grids on 4 ranks: 1 row, worst -50.0%, mean |error| 50.0%' "$TMP/out"; then
    pass "model.sh: a held-out row's times change no fitted part (its own error -50.0%)"
else fail "model.sh: held-out rows stay out of the fit" "$(diff <(grep '^model ' "$TMP/m.out") <(grep '^model ' "$TMP/out") | tr '\n' '|')"; fi
# the same row made a fit row does move them: the check above can fail
FIT='ranks <= 4 && dim == 2 && ny >= nx' _run "$model" "$TMP/m2.csv"
if [ "$(cat "$TMP/status")" = 0 ] && [ "$(grep '^model ' "$TMP/out")" != "$(grep '^model ' "$TMP/m.out")" ] &&
    awk '$1 == 4 && $NF == "fit" { f = 1 } END { exit !f }' "$TMP/out"; then
    pass "model.sh: FIT='ranks <= 4 ...' fits the 4-rank row, and the fitted parts move"
else fail "model.sh: FIT" "$(grep -E '^(model|4 )' "$TMP/out" | tr '\n' '|')"; fi
# a nonzero for a row: the box's 7 entries against the grids' 5
PER=nonzero _run "$model" "$TMP/m.csv"
if [ "$(cat "$TMP/status")" = 0 ] && grep -qx 'held-out   3-D boxes on 1 rank: 1 row, worst 25.0%, mean |error| 25.0%' "$TMP/out" &&
    awk '$1 ~ /^[0-9]+$/ && $NF == "fit" && $7 != "0.0%" { bad = 1 } END { exit bad }' "$TMP/out"; then
    pass "model.sh: PER=nonzero: the fit as exact, the box 25.0% off (1.5 ms for 1.2)"
else fail "model.sh: PER=nonzero" "$(grep -E '^(held|1 )' "$TMP/out" | tr '\n' '|')"; fi
# every row a fit row: said, in the group and overall
head -n 5 "$TMP/m.csv" >"$TMP/m3.csv"
_run "$model" "$TMP/m3.csv"
if [ "$(cat "$TMP/status")" = 0 ] && grep -q '^held-out none in this group' "$TMP/out" &&
    grep -q '^overall  held-out: none' "$TMP/out"; then
    pass "model.sh: no held-out row: it says the model is checked only on its own fit"
else fail "model.sh: no held-out row" "$(grep -E '^(held|overall)' "$TMP/out" | tr '\n' '|')"; fi
expect_error "model.sh: a FIT that is no condition on the row" "FIT=" env FIT='system("true")' "$model" "$TMP/m.csv"
expect_error "model.sh: PER neither row nor nonzero" "PER=" env PER=col "$model" "$TMP/m.csv"
expect_error "model.sh: an empty file" "no rows" "$model" /dev/null
rm -f "$TMP"/m.csv "$TMP"/m2.csv "$TMP"/m3.csv "$TMP"/m.out
