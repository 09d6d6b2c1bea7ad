# tests/t_step8.sh - step8-mpi, chapter 7's CG over MPI ranks: classic (two
# reductions) and single (one), float and double, on 2-D Poisson on 1, 2,
# 3 and 4 ranks (uneven splits: sizes that are multiples of nothing), 3-D
# Poisson and the 27-point stencil on 4, and a real SPD file whose halo
# reaches past the neighbouring rank (bcsstk01 on 3 and 4); the solution
# against chapter 7's (the true
# residual, the count within 2 on Poisson in double, the saved x), the
# count against the host's CG within the stated margin; every rank's split
# said, and whether it sends one stretch or packs; refusals from the one
# rank that reads (a malformed file, a non-symmetric matrix, a --b of the
# wrong length, more ranks than rows: one line, status 2, quickly), a rank
# killed (mpirun ends non-zero); a product 1% off in one row caught by the
# product run once more after the solve (at 500 and 2000 iterations, 1 and
# 2 ranks); --maxiter: status 4, check: MAXITER, no x saved; the CSV row;
# make step8 run; the model and the sweep scripts; oclgrind on 3 ranks (a stiffness matrix, packed; a
# grid, one stretch); the sanitizers on the host code.
# chapters: 8
source "$(dirname "$0")/lib.sh"
bin=$BUILD/step8
if [ ! -x "$bin" ]; then
    fail "step8 tests" "no $bin: run make all"
    exit 0
fi
need_tool "step8 tests" mpirun openmpi-bin || exit 0
# the device: SPMV_DEVICE where it names one other than the CPU (a GPU:
# `SPMV_DEVICE=gpu make test`), else the CPU (PoCL), which the sanitizers need
if [ -n "${SPMV_DEVICE:-}" ] && [ "$SPMV_DEVICE" != cpu ]; then
    on_cpu=0
else
    need_cpu_device "step8 tests" || exit 0
    on_cpu=1
    export SPMV_DEVICE=cpu
fi
D=$ROOT/tests/data
# mpirun -q: a rank's error line and status, not mpirun's banner; as root
# it must be allowed; --oversubscribe: more ranks than this machine's cores
MPI=(mpirun -q --oversubscribe)
[ "$(id -u)" = 0 ] && MPI+=(--allow-run-as-root)
mpi() { # mpi P CMD...: CMD on P ranks, killed after 120 s of CPU (limited)
    local p=$1; shift
    limited 120 "${MPI[@]}" -n "$p" "$@"
}
# solves NAME P ARGS...: status 0, each version it ran says check: PASS
solves() {
    local name=$1 p=$2; shift 2
    all_pass "$name" 0 '==== ' mpi "$p" "$bin" "$@"
}
counts() { sed -nE 's/^solve +converged in ([0-9]+) iterations.*/\1/p' "$TMP/out" | tr '\n' ' '; }

# ---- Poisson 2-D and 3-D, both versions, both precisions, 1 to 4 ranks ----
for spec in poisson:nx=37,ny=29 poisson3d:nx=11,ny=9,nz=7 stencil27:nx=9,ny=7,nz=5; do
    _run "$BUILD/step7" --gen "$spec" --precision d --kernel fused
    ref=$(counts)
    ps="1 2 3 4"; [ "${spec%%:*}" = poisson ] || ps=4   # (each run compiles its program: make test's time)
    for p in $ps; do
        precs=d; [ "$p" = 3 ] && precs="s d"
        for prec in $precs; do
            solves "step8 $spec, $prec, $p rank(s): both versions solve" "$p" --gen "$spec" --precision $prec
            if [ "$prec" = d ]; then
                # the count within 2 of chapter 7's on the same A and b (the defaults' seed)
                c=$(counts)
                bad=$(for x in $c; do awk -v a="$x" -v b="${ref% }" 'BEGIN { d = a - b; if (d < -2 || d > 2) print a }'; done)
                [ -n "$c" ] && [ -n "$ref" ] && [ -z "$bad" ] &&
                    pass "step8 $spec d, $p rank(s): counts $c within 2 of chapter 7's $ref" ||
                    fail "step8 $spec d, $p rank(s): counts within 2 of chapter 7's" "step8 '$c', step7 '$ref'"
            fi
        done
    done
done
# the split said: every rank's rows, its interior rows and its ghosts; the
# rows add up to the matrix's, the ranks' ghosts to what they send
_run mpi 3 "$bin" --gen poisson:nx=37,ny=29 --kernel single
if sed -nE 's/^rank [0-9]+ .*: rows ([0-9]+)-([0-9]+), [0-9]+ interior, ([0-9]+) ghosts from [0-9]+ ranks?, ([0-9]+) entries to .*/\1 \2 \3 \4/p' "$TMP/out" |
    awk '{ n++; rows += $2 - $1 + 1; g += $3; s += $4 } END { exit !(n == 3 && rows == 37 * 29 && g == s && g == 4 * 37) }'; then
    pass "step8 3 ranks: each rank's line; rows add up to 1073; 4 x 37 ghosts, as many sent"
    [ "$(grep -c '^rank [0-9].*entries to .* (one stretch: read as it is)$' "$TMP/out")" = 3 ] &&
        pass "step8 3 ranks of a grid: each sends one stretch of its vector, read as it is (no pack)" ||
        fail "step8 3 ranks of a grid: one stretch each" "$(grep '^rank' "$TMP/out" | tr '\n' '|')"
else fail "step8 3 ranks: each rank's line" "$(grep '^rank' "$TMP/out" | tr '\n' '|')"; fi
grep -qE '^split +kernels [0-9.]+ \(the product [0-9.]+ of them\) \+ halo [0-9.]+ \(read [0-9.]+, MPI [0-9.]+, write [0-9.]+\) \+ reductions [0-9.]+ \(read [0-9.]+, allreduce [0-9.]+\) \+ host [0-9.]+ \(launches and waits between the parts\) = [0-9.]+ ms an iteration, [0-9]+% of the profiled loop' "$TMP/out" &&
    pass "step8: the split line, each part measured, the host's time between them a part" || fail "step8: the split line" "$(grep '^split' "$TMP/out")"

# ---- real SPD files: the halo reaches past the neighbour (rank 0 reads from 2 ranks) ----
for f in bcsstk01.rsa; do
    for p in 3 4; do
        solves "step8 $f d, $p ranks: both versions solve, counts within the host's margin" "$p" \
            --matrix "$D/$f" --precision d --tol 1e-6
        if grep -qE '^rank 0 .* ghosts from [2-9] ranks' "$TMP/out"; then pass "step8 $f, $p ranks: rank 0's halo reaches past rank 1"
        else fail "step8 $f, $p ranks: rank 0's halo reaches past rank 1" "$(grep '^rank 0' "$TMP/out")"; fi
        grep -qE '^rank [0-9].* \(packed\)$' "$TMP/out" && pass "step8 $f, $p ranks: a rank's entries packed (no one stretch)" ||
            fail "step8 $f, $p ranks: a rank packs" "$(grep '^rank' "$TMP/out" | tr '\n' '|')"
    done
done
# the single version's count is not a verdict: bcsstk01 to 1e-12 in double on 3
# ranks, its derived p.Ap drifts (a restart here) and it takes far more
# iterations than the host's CG (the classic recurrence); a true residual
# that meets the tolerance passes, the cost said on a line of its own
_run mpi 3 "$bin" --matrix "$D/bcsstk01.rsa" --precision d --tol 1e-12 --kernel single
t=$(sed -nE 's/^true +\|b - A x\|\/\|b\| = ([0-9.e+-]+) .*/\1/p' "$TMP/out")
if [ "$(cat "$TMP/status")" = 0 ] && grep -q '^check: PASS' "$TMP/out" && awk -v t="$t" 'BEGIN { exit !(t != "" && t <= 1e-12) }' &&
    grep -qE '^rounding single [0-9]+ iterations against the host CG.s [0-9]+: the rewrite costs -?[0-9]+ \([+-][0-9]+%\)' "$TMP/out"; then
    pass "step8 bcsstk01 single d --tol 1e-12, 3 ranks: status 0, |b - A x|/|b| = $t, the cost said, not judged"
else fail "step8 bcsstk01 single --tol 1e-12" "status $(cat "$TMP/status"): $(grep -E '^(solve|restart|true|check|rounding)' "$TMP/out" | tr '\n' '|')"; fi
# ... but a wrong product still fails: one row's entry of A p 1% off (a copy
# of kernel.cl that redefines chapter 6's store), the single version
sed 's|^#undef CG_PQ_SLOT|#undef CSR_STORE\n#define CSR_STORE(row, sum) do { VALUE q_ = (sum) * (row == 7 ? (VALUE)1.01 : (VALUE)1); y[row] = q_; cg_pq += x[row] * q_; } while (0)\n#undef CG_PQ_SLOT|' \
    "$ROOT/step8-mpi/kernel.cl" >"$TMP/broken8.cl"
_run mpi 3 "$bin" --matrix "$D/bcsstk01.rsa" --precision d --tol 1e-12 --kernel single --kernel-file "$TMP/broken8.cl"
# (the recurrence meets --tol, the true residual does not: restarts, until
# the skewed A gives a p.Ap <= 0 and the solve breaks down, or check: FAIL)
[ "$(cat "$TMP/status")" = 1 ] && ! grep -q '^check: PASS' "$TMP/out" &&
    { grep -q '^check: FAIL' "$TMP/out" || grep -q 'breakdown' "$TMP/err"; } &&
    grep -qE '^check    the product once more, on a seeded random p: .* > the limit 1$' "$TMP/out" &&
    pass "step8 single, a product with one row 1% off, 3 ranks: no PASS, status 1, the product check fails" ||
    fail "step8 a broken product fails" "status $(cat "$TMP/status"): $(grep -E '^(solve|true|check)' "$TMP/out" | tr '\n' '|')"
# at --tol 0, whatever the iterations: the product run once more after the
# solve, on a seeded random p (step7-cg/report/check.h), names the row (each
# rank's local row 7: global row 8 on rank 0, which numbers its interior
# rows first, in order); every correct run passes it
for run in "2 500" "1 2000"; do
    p=${run% *} it=${run#* }
    _run mpi "$p" "$bin" --gen poisson:nx=256 --tol 0 --maxiter "$it" --kernel-file "$TMP/broken8.cl"
    k=$(grep -c '^==== ' "$TMP/out")
    n=$(grep -cE '^check    the product once more, on a seeded random p: the largest error [0-9.e+-]+ \(row 8\) is [0-9.e+-]+ eps .* > the limit 1$' "$TMP/out")
    [ "$(cat "$TMP/status")" = 1 ] && [ "$k" = 2 ] && [ "$n" = 2 ] && [ "$(grep -c '^check: FAIL$' "$TMP/out")" = 2 ] &&
        ! grep -q '^time' "$TMP/out" &&
        pass "step8 classic and single, q_8 1% off, 256^2 --tol 0 --maxiter $it, $p rank(s): the product check names row 8, FAIL" ||
        fail "step8 q_8 1% off, --maxiter $it, $p rank(s): FAIL" "status $(cat "$TMP/status"), $n of $k: $(grep -E '^check' "$TMP/out" | tr '\n' '|')"
done
rm -f "$TMP/broken8.cl"
_run mpi 2 "$bin" --gen poisson:nx=256 --tol 0 --maxiter 500
[ "$(cat "$TMP/status")" = 0 ] && [ "$(grep -c '^check: PASS$' "$TMP/out")" = 2 ] &&
    [ "$(grep -cE '^check    the product once more, on a seeded random p: .* <= 1$' "$TMP/out")" = 2 ] &&
    pass "step8 256^2 --tol 0 --maxiter 500, 2 ranks: the product within its limit, PASS, both versions" ||
    fail "step8 256^2 --tol 0 --maxiter 500: PASS" "status $(cat "$TMP/status"): $(grep -E '^check' "$TMP/out" | tr '\n' '|')"

# x against chapter 7's: the same system solved, entry by entry
_run "$BUILD/step7" --matrix "$D/bcsstk01.rsa" --precision d --kernel fused --save-x "$TMP/x7.mtx"
_run mpi 3 "$bin" --matrix "$D/bcsstk01.rsa" --precision d --kernel classic --save-x "$TMP/x8.mtx"
if [ -s "$TMP/x7.mtx" ] && [ -s "$TMP/x8.mtx" ] &&
    awk 'FNR == 1 { f++ } /^%/ || NF != 1 { next } f == 1 { a[++n] = $1; m = (m > ($1 < 0 ? -$1 : $1)) ? m : ($1 < 0 ? -$1 : $1); next }
         { k++; d = $1 - a[k]; d = d < 0 ? -d : d; if (d > w) w = d }
         END { exit !(k == n && n == 48 && w <= 1e-6 * m) }' "$TMP/x7.mtx" "$TMP/x8.mtx"; then
    pass "step8 --save-x, 3 ranks: x in row order, chapter 7's within 1e-6 of its largest entry"
else fail "step8 --save-x, 3 ranks: chapter 7's x" "$(head -c 300 "$TMP/err")"; fi

# ---- the end of a solve ----
printf '%%%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 1\n2 2 -1\n3 3 1\n2 1 0.5\n' >"$TMP/indef.mtx"
_run mpi 2 "$bin" --matrix "$TMP/indef.mtx" --precision d --kernel classic
[ "$(cat "$TMP/status")" = 1 ] && grep -q 'breakdown' "$TMP/err" && pass "step8 indefinite, 2 ranks: breakdown, status 1" ||
    fail "step8 indefinite: breakdown" "status $(cat "$TMP/status"): $(head -c 200 "$TMP/err")"
rm -f "$TMP/x5.mtx"
_run mpi 2 "$bin" --gen poisson:nx=40,ny=30 --maxiter 5 --save-x "$TMP/x5.mtx"
[ "$(cat "$TMP/status")" = 4 ] && ! grep -q '^check: PASS' "$TMP/out" &&
    [ "$(grep -c '^check: MAXITER (--maxiter 5 reached before --tol 1e-05: no solution; the iterations run passed their checks)$' "$TMP/out")" = 2 ] &&
    [ ! -e "$TMP/x5.mtx" ] && [ "$(grep -c '^saved    nothing to .*x5.mtx: --maxiter came before --tol' "$TMP/out")" = 2 ] &&
    pass "step8 --maxiter 5: status 4, check: MAXITER for both versions (no PASS), no x saved, said" ||
    fail "step8 --maxiter 5" "status $(cat "$TMP/status"): $(grep -E '^(check|saved)' "$TMP/out" | tr '\n' '|')"
_run mpi 2 "$bin" --gen poisson:nx=40,ny=30 --tol 0 --maxiter 17 --csv "$TMP/s8.csv"
if [ "$(cat "$TMP/status")" = 0 ] && [ "$(grep -c '^solve    17 iterations (--tol 0)' "$TMP/out")" = 2 ] &&
    awk -F, "$BY_NAME"' { n++; ok += col("step") == "step8" && col("ranks") == 2 && col("iterations") == 17 &&
        col("check") == "PASS" && col("ms_per_iter") > 0 && col("kernels_ms") > 0 && col("halo_mpi_ms") != "" &&
        col("reductions") == (col("kernel") == "single-n2" ? 1 : 2) && col("rows_max") == 600 && col("ghosts_max") == 40 &&
        col("restarts") == 0 && col("host_ms") != "" &&
        (s = col("kernels_ms") + col("halo_read_ms") + col("halo_mpi_ms") + col("halo_write_ms") + col("reduce_read_ms") + col("allreduce_ms") + col("host_ms")) > 0.99 * col("prof_ms_per_iter") &&
        s < 1.01 * col("prof_ms_per_iter") }
        END { exit !(n == 2 && ok == 2) }' "$TMP/s8.csv"; then
    pass "step8 --tol 0 --maxiter 17 --csv: 17 iterations each, two rows with their parts, which add up to the profiled loop"
else fail "step8 --tol 0 --csv" "status $(cat "$TMP/status"); $(cat "$TMP/s8.csv" 2>/dev/null | tr '\n' '|' | cut -c1-400)"; fi
rm -f "$TMP/s8.csv"

# ---- bad input, read by rank 0: one line, status 2, every rank stopped ----
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 1\n2 2 1\n' >"$TMP/short.mtx"
printf '%%%%MatrixMarket matrix array real general\n5 1\n1\n2\n3\n4\n5\n' >"$TMP/b5.mtx"
expect_error "step8 2 ranks: a truncated file" "short.mtx" mpi 2 "$bin" --matrix "$TMP/short.mtx"
expect_error "step8 2 ranks: a malformed file" "bad_value.mtx" mpi 2 "$bin" --matrix "$D/bad/bad_value.mtx"
expect_error "step8 3 ranks: not symmetric" "is not symmetric" mpi 3 "$bin" --matrix "$D/west0067.mtx"
expect_error "step8 2 ranks: --b of the wrong length" "--b" mpi 2 "$bin" --gen poisson:nx=4,ny=3 --b "$TMP/b5.mtx"
expect_error "step8 5 ranks for 4 rows" "5 ranks for 4 rows" mpi 5 "$bin" --gen poisson:nx=4,ny=1
expect_error "step8 3 ranks: an unknown option, said once" "unknown option --bogus" mpi 3 "$bin" --bogus
expect_error "step8 --history" "keeps no residual history" mpi 2 "$bin" --history "$TMP/h.csv"
expect_error "step8 --precision z" "--precision" mpi 2 "$bin" --precision z
# a rank killed mid-solve: mpirun ends, not zero, and the others with it
"${MPI[@]}" -n 2 "$bin" --gen poisson:nx=300 --tol 0 --maxiter 100000000 >"$TMP/kill.out" 2>&1 &
run=$!
victim=""
for _ in $(seq 1 200); do
    victim=$(pgrep -f "$bin --gen poisson:nx=300 --tol 0" | while read -r q; do
        [ "$(ps -o comm= -p "$(ps -o ppid= -p "$q" | tr -d ' ')" 2>/dev/null)" != mpirun ] || echo "$q"; done | tail -n 1)
    [ -n "$victim" ] && grep -q '^==== classic' "$TMP/kill.out" && break
    sleep 0.1
done
if [ -n "$victim" ]; then
    kill -9 "$victim"
    st=0
    for _ in $(seq 1 300); do kill -0 "$run" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$run" 2>/dev/null; then
        kill -9 "$run"; fail "step8 a rank killed" "mpirun still running 30 s later"
    else
        wait "$run"; st=$?
        left=$(pgrep -f "$bin --gen poisson:nx=300 --tol 0" | wc -l)
        [ "$st" != 0 ] && [ "$left" = 0 ] && pass "step8 a rank killed: mpirun ends with status $st, no rank left" ||
            fail "step8 a rank killed" "status $st, $left ranks left"
    fi
else
    kill -9 "$run" 2>/dev/null; wait "$run" 2>/dev/null
    fail "step8 a rank killed" "no rank of the run found to kill"
fi
pkill -9 -f "$bin --gen poisson:nx=300 --tol 0" 2>/dev/null || true

# ---- make step8 run: 2 ranks, the summary ----
_run "$ROOT/scripts/run-steps.sh" "$BUILD" "" step8
if [ "$(cat "$TMP/status")" = 0 ] && [ "$(grep -cE '^step8 +(classic|single)-n2 .* PASS +\(CG on 2 ranks' "$TMP/out")" = 2 ] &&
    grep -q '^split ' "$TMP/out"; then
    pass "make step8 run: 2 ranks, both versions PASS in the summary, the split printed"
else fail "make step8 run" "status $(cat "$TMP/status"): $(tail -n 4 "$TMP/out" | tr '\n' '|')"; fi
rm -f "$BUILD/run-mpi.csv" "$BUILD/run.csv"

# ---- the sweep and the model (its arithmetic on made-up rows: t_step8_model.sh) ----
_run env DATA="$TMP/sw" GRIDS="40x48 box:6" PRECS=d RANKS="1 2" ITERS=10 "$ROOT/plots/mpi-sweep.sh"
if [ "$(cat "$TMP/status")" = 0 ] && [ "$(grep -c ',PASS,' "$TMP/sw/step8.csv")" = 8 ] && [ "$(grep -c ',PASS,' "$TMP/sw/step7.csv")" = 2 ] &&
    [ "$(grep -c ',poisson3d:nx=6 ny=6 nz=6,' "$TMP/sw/step8.csv")" = 4 ]; then
    pass "plots/mpi-sweep.sh: a grid and a box (box:6): 8 rows of step8 and 2 of step7, all PASS"
else fail "plots/mpi-sweep.sh" "status $(cat "$TMP/status"): $(tail -n 3 "$TMP/err" | tr '\n' ' ')"; fi
expect_error "plots/mpi-sweep.sh: a grid that is no grid" "is not WxH, box:N or a --gen spec" env DATA="$TMP/sw2" GRIDS="48" "$ROOT/plots/mpi-sweep.sh"
expect_error "plots/mpi-sweep.sh: an unknown preset" "the presets are model" env DATA="$TMP/sw2" PRESET=fast "$ROOT/plots/mpi-sweep.sh"
_run "$ROOT/step8-mpi/model/model.sh" "$TMP/sw/step8.csv"
if [ "$(cat "$TMP/status")" = 0 ] && [ "$(grep -c '^model ' "$TMP/out")" = 2 ] &&
    awk '$1 ~ /^(1|2)$/ && NF == 8 { n++; if ($5 <= 0 || $6 <= 0) bad = 1; h += $8 == "held-out" }
         $1 == 1024 && NF == 5 { big++ } END { exit !(n == 8 && h == 4 && !bad && big == 2) }' "$TMP/out" &&
    [ "$(grep -c '^held-out   3-D boxes on [12] ranks\{0,1\}: 1 row' "$TMP/out")" = 4 ] &&
    grep -qE '^overall  held-out: 4 rows, worst -?[0-9.]+%, mean [|]error[|] [0-9.]+%$' "$TMP/out"; then
    pass "model.sh: each measured row beside the model, the box held out, P up to 1024, the errors apart"
else fail "model.sh" "$(head -n 5 "$TMP/out" "$TMP/err" | tr '\n' '|')"; fi

# ---- oclgrind: both versions on 3 ranks, packed and one stretch ----
if need_tool "step8 under oclgrind" oclgrind; then
    # both versions, 3 ranks, double, a stiffness matrix: the entries packed (d8_pack), no interior
    # launch (every row a boundary row)
    SPMV_PROBE_MB=0 SPMV_DEVICE= _run limited 600 "${MPI[@]}" -n 3 oclgrind --data-races --uninitialized \
        "$bin" --matrix "$D/bcsstk01.rsa" --precision d --tol 0 --maxiter 4
    found=$(grep -iE 'invalid|error|race|uninitiali[sz]ed' "$TMP/err" | sort | uniq -c | head -n 3)
    if [ "$(cat "$TMP/status")" = 0 ] && [ "$(grep -c '^check: PASS' "$TMP/out")" = 2 ] && [ -z "$found" ] &&
        grep -q '(packed)$' "$TMP/out"; then
        pass "step8 classic and single, d, packed, on 3 ranks under oclgrind: clean"
    else fail "step8 classic and single, d, packed, on 3 ranks under oclgrind" "status $(cat "$TMP/status"): $found"; fi
    # 3 ranks (the middle one with two neighbours), the interior rows in a launch of their own, the
    # boundary rows from a global offset, the vector kernel
    SPMV_PROBE_MB=0 SPMV_DEVICE= _run limited 600 "${MPI[@]}" -n 3 oclgrind --data-races --uninitialized \
        "$bin" --gen poisson:nx=30,ny=20 --local-size 32 --group-size 2 --tol 0 --maxiter 4
    found=$(grep -iE 'invalid|error|race|uninitiali[sz]ed' "$TMP/err" | sort | uniq -c | head -n 3)
    if [ "$(cat "$TMP/status")" = 0 ] && [ "$(grep -c '^check: PASS' "$TMP/out")" = 2 ] && [ -z "$found" ] &&
        grep -qE '^spmv .* the interior rows first \(1[0-9][0-9], whole work-groups\)' "$TMP/out" && grep -q '(one stretch: read as it is)$' "$TMP/out"; then
        pass "step8 on 3 ranks under oclgrind, an interior launch and a boundary launch from an offset: clean"
    else fail "step8 interior and boundary launches under oclgrind" "status $(cat "$TMP/status"): $found $(grep '^spmv' "$TMP/out")"; fi
fi

# ---- the host code under AddressSanitizer and UndefinedBehaviorSanitizer ----
SAN_BUILD=$ROOT/build-san
if [ $on_cpu = 0 ]; then
    skip "step8 under the sanitizers" "no OpenCL CPU device asked for: the sanitizers run on the CPU device (PoCL), as every chapter's do (tests/t_course_sanitize.sh)"
elif make -s -C "$ROOT" BUILD="$SAN_BUILD" SAN=1 "$SAN_BUILD/step8" >"$TMP/san.log" 2>&1; then
    # Open MPI's own allocations outlive MPI_Finalize, in plug-ins it has
    # unloaded by then (LeakSanitizer names no module for them, so no
    # suppression matches): a leak fails here where its stack has a frame
    # in the course's code, and any other report of the sanitizers does
    for a in "--matrix $D/bcsstk01.rsa --precision d --tol 1e-8 --save-x $TMP/sx.mtx" "--matrix $D/west0067.mtx"; do
        want=0; [[ $a == *west0067* ]] && want=2
        # shellcheck disable=SC2086
        _run env ASAN_OPTIONS=detect_leaks=1:exitcode=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
            "${MPI[@]}" -x ASAN_OPTIONS -x UBSAN_OPTIONS -n 2 "$SAN_BUILD/step8" $a
        ours=$(awk '/^(Direct|Indirect) leak/ { leak = 1 } /^$/ { leak = 0 }
                    leak && /(step[0-9]-[a-z]+|common)\/[a-z_\/]+\.c:/ { print; exit }' "$TMP/err")
        if [ "$(cat "$TMP/status")" = "$want" ] && ! grep -qE 'runtime error|ERROR: AddressSanitizer' "$TMP/err" && [ -z "$ours" ]; then
            pass "step8 2 ranks $a (asan+ubsan): status $want, clean, no leak of the course's"
        else fail "step8 2 ranks $a (asan+ubsan)" "status $(cat "$TMP/status"): $ours $(grep -m2 -E 'runtime error|ERROR: AddressSanitizer|error:' "$TMP/err" | tr '\n' ' ')"; fi
    done
else
    fail "step8 sanitizer build" "$(tail -n 5 "$TMP/san.log" | tr '\n' ' ')"
fi

# ---- the chapter's shape: main() on one screen, as every chapter's ----
n=$(awk '/^int main\(/ { s = NR } s && /^}/ { print NR - s + 1; exit }' "$ROOT/step8-mpi/main.c")
[ -n "$n" ] && [ "$n" -le 150 ] && pass "step8 main() is $n lines (150 at most)" || fail "step8 main() on one screen" "$n lines"
