# tests/t_step9_vendor.sh - chapter 9's CPU yardstick: PETSc's KSPCG with a
# preconditioner (build/petsc-cg --pc none|jacobi|icc, vendor/petsc). On
# bcsstk01 (Harwell-Boeing, turned into Matrix Market by build/step0 or
# build/step6 --save-matrix) at --tol 1e-8, each of none, jacobi and icc
# converges with status 0 and a true residual (the program's MatMult and
# VecNorm, in the row) within the tolerance itself; IC(0) takes fewer
# iterations than no preconditioner (a property of the matrix: the counts are
# compared, never the times); Jacobi converges on 2 ranks too. Refused with one
# line on stderr and status 2: icc on 2 ranks, an unknown --pc, PETSc's own
# -pc_type, a -pc_factor_levels that is not IC(0). PETSc's shift, asked for
# with -pc_factor_shift_type, is said and named in the row. On bcsstk13, IC(0) in the
# natural ordering has negative pivots and is reported as it is (the pivots
# line, the breakdown, status 1). --pcg-csv writes chapter 9's header and
# rows of its 22 fields, total_ms = setup_ms + solve_ms, the kernels named
# petsc-<pc>-n<ranks>; chapter 7's --csv names a preconditioner too
# (petsc-nN without one). Each part is a SKIP where build/petsc-cg (or
# mpirun, or a converter for the .rsa file) is absent.
# chapters: 9   (its yardstick)
source "$(dirname "$0")/lib.sh"
export SPMV_PROBE_MB=16
PCG_HEADER=step,kernel,device,driver,matrix,rows,nnz,precision,tol,iterations,converged,rel_residual,true_residual,setup_ms,solve_ms,total_ms,ms_per_iter,apply_ms_per_iter,levels,check,date,git_rev
D=$ROOT/tests/data
pbin=$BUILD/petsc-cg

# col CSV NAME [ROW]: the field NAME of the CSV's row ROW (1: the first after the header; the last unless given)
col() {
    awk -F, -v k="$2" -v r="${3:-0}" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { v = (k in c) ? $c[k] : "" } r > 0 && NR == r + 1 { print v; found = 1; exit } END { if (!found) print v }' "$1"
}

PARTS=("petsc-cg --pc: bcsstk01 with none, jacobi and icc" "petsc-cg --pc: icc fewer iterations than none"
    "petsc-cg --pc jacobi on 2 ranks" "petsc-cg --pc: the refusals (icc on 2 ranks, --pc foo, -pc_type)"
    "petsc-cg --pc icc: bcsstk13's negative pivots" "petsc-cg --pcg-csv: chapter 9's header and rows")
if [ ! -x "$pbin" ] || ! command -v mpirun >/dev/null; then
    for p in "${PARTS[@]}"; do
        skip "$p" "build/petsc-cg is not built here (make petsc: apt-get install petsc-dev; make test installs it)"
    done
    exit 0
fi
mpi=(mpirun --oversubscribe)
[ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)

# ---- the refusals: one line on stderr, status 2 (no matrix file needed) ----
expect_output "petsc-cg --help lists --pc none|jacobi|icc, none the default" '^ +--pc P +none: PCNONE \(default\)' "$pbin" --help
expect_error "petsc-cg --pc icc on 2 ranks: one line, status 2" "--pc icc runs on one rank, not 2" \
    "${mpi[@]}" -q -n 2 "$pbin" --gen poisson:nx=8 --pc icc
expect_error "petsc-cg --pc foo: one line, status 2" "--pc wants none, jacobi or icc, not 'foo'" \
    "${mpi[@]}" -q -n 1 "$pbin" --gen poisson:nx=8 --pc foo
expect_error "petsc-cg -pc_type ilu is refused (the row would misname it): one line, status 2" \
    "-pc_type ilu: choose the preconditioner with --pc" "${mpi[@]}" -q -n 1 "$pbin" --gen poisson:nx=8 -pc_type ilu
expect_error "petsc-cg --pc icc -pc_type jacobi is refused too" "-pc_type jacobi: choose the preconditioner with --pc" \
    "${mpi[@]}" -q -n 1 "$pbin" --gen poisson:nx=8 --pc icc -pc_type jacobi
expect_error "petsc-cg --pc icc -pc_factor_levels 1 is refused (IC(0) is what the row names)" \
    "-pc_factor_levels 1: --pc icc is IC(0)" "${mpi[@]}" -q -n 1 "$pbin" --gen poisson:nx=8 --pc icc -pc_factor_levels 1

# ---- bcsstk01: none, jacobi and icc on 1 rank, jacobi on 2 ----
conv=
for c in "$BUILD/step0" "$BUILD/step6"; do   # step0 needs no OpenCL device; step6 as the README says
    if [ -x "$c" ] && SPMV_PROBE_MB=0 "$c" --matrix "$D/bcsstk01.rsa" --save-matrix "$TMP/bcsstk01.mtx" --runs 1 \
        --warmup 0 >"$TMP/conv.out" 2>&1 && [ -s "$TMP/bcsstk01.mtx" ]; then
        conv=$c
        break
    fi
done
if [ -z "$conv" ]; then
    for p in "${PARTS[@]:0:3}" "${PARTS[5]}"; do
        skip "$p" "no build/step0 or build/step6 to turn bcsstk01.rsa into Matrix Market (make step0)"
    done
else
    P=$TMP/pcg.csv C=$TMP/cg.csv
    rm -f "$P" "$C"
    k=0
    for run in "1 none" "1 jacobi" "1 icc" "2 jacobi"; do
        set -- $run
        n=$1 pc=$2 k=$((k + 1))
        expect_ok "petsc-cg -n $n --pc $pc: bcsstk01 at --tol 1e-8, status 0" "${mpi[@]}" -n "$n" "$pbin" \
            --matrix "$TMP/bcsstk01.mtx" --tol 1e-8 --pc "$pc" --pcg-csv "$P" --csv "$C"
        if grep -qE '^setup +[0-9.]+ ms \(PCSetUp: [0-9.]+ ms' "$TMP/out" && grep -q '^check: PASS' "$TMP/out"; then
            pass "petsc-cg -n $n --pc $pc: the setup line (PCSetUp inside), check: PASS"
        else fail "petsc-cg -n $n --pc $pc: the setup line (PCSetUp inside), check: PASS" \
            "$(grep -E '^(setup|check)' "$TMP/out" | tr '\n' '|')"; fi
        # the row is this run's (row k): converged, PASS, the true residual within tol itself
        t=$(col "$P" true_residual $k)
        if [ "$(col "$P" kernel $k),$(col "$P" converged $k),$(col "$P" check $k)" = "petsc-$pc-n$n,1,PASS" ] &&
            awk -v t="$t" 'BEGIN { exit !(t != "" && t + 0 <= 1e-8) }'; then
            pass "petsc-cg -n $n --pc $pc: bcsstk01 converged, true residual $t <= 1e-8, $(col "$P" iterations $k) iterations"
        else fail "petsc-cg -n $n --pc $pc: bcsstk01 converged, true residual <= 1e-8" "$(sed -n "$((k + 1))p" "$P")"; fi
    done
    # IC(0) against no preconditioner: iteration counts (1 rank, deterministic), never times
    none=$(col "$P" iterations 1) icc=$(col "$P" iterations 3)
    if [ -n "$none" ] && [ -n "$icc" ] && [ "$icc" -lt "$none" ]; then
        pass "petsc-cg --pc icc: bcsstk01 in fewer iterations than --pc none ($icc against $none)"
    else fail "petsc-cg --pc icc: bcsstk01 in fewer iterations than --pc none" "icc '$icc', none '$none'"; fi

    # --pcg-csv: chapter 9's header, 22 fields a row, total = setup + solve, the kernels
    if [ "$(head -n 1 "$P")" = "$PCG_HEADER" ] && [ "$(grep -c . "$P")" = 5 ] && awk -F, 'NF != 22 { exit 1 }' "$P"; then
        pass "petsc-cg --pcg-csv: chapter 9's header once, 4 rows, 22 fields each"
    else fail "petsc-cg --pcg-csv: chapter 9's header once, 4 rows, 22 fields each" "$(head -n 2 "$P" | tr '\n' '|')"; fi
    got=$(awk -F, 'NR > 1 { printf "%s%s", s, $2; s = " " }' "$P")
    [ "$got" = "petsc-none-n1 petsc-jacobi-n1 petsc-icc-n1 petsc-jacobi-n2" ] &&
        pass "petsc-cg --pcg-csv: kernels petsc-<pc>-n<ranks>" || fail "petsc-cg --pcg-csv: kernels petsc-<pc>-n<ranks>" "$got"
    if awk -F, -v h="$PCG_HEADER" 'BEGIN { n = split(h, H, ","); for (i = 1; i <= n; i++) c[H[i]] = i }
        NR > 1 { s = $c["setup_ms"]; v = $c["solve_ms"]; t = $c["total_ms"]
                 if (s == "" || v == "" || t == "" || s + 0 < 0 || v + 0 <= 0) exit 1
                 d = t - (s + v); if (d < 0) d = -d; if (d > 1e-5 * t + 1e-9) exit 1
                 if ($1 != "vendor" || $c["precision"] != "d" || $c["tol"] + 0 != 1e-8 || $c["ms_per_iter"] == "" ||
                     $c["apply_ms_per_iter"] != "" || $c["levels"] != "" || $c["rows"] != 48 || $c["nnz"] != 400 ||
                     $c["matrix"] != "bcsstk01" || $c["git_rev"] == "" || $c["date"] !~ /^20[0-9][0-9]-/) exit 1 }' "$P"; then
        pass "petsc-cg --pcg-csv: total_ms = setup_ms + solve_ms, step vendor, bcsstk01 48 rows 400 nonzeros, apply and levels empty"
    else fail "petsc-cg --pcg-csv: total_ms = setup_ms + solve_ms and the fixed fields" "$(tail -n 4 "$P" | tr '\n' '|')"; fi
    # PETSc's shift asked for by hand: said in a line, and the rows name it (petsc-icc-shift-n1)
    expect_ok "petsc-cg --pc icc -pc_factor_shift_type positive_definite: bcsstk01 converges" "${mpi[@]}" -n 1 "$pbin" \
        --matrix "$TMP/bcsstk01.mtx" --tol 1e-8 --pc icc -pc_factor_shift_type positive_definite --pcg-csv "$TMP/s.csv"
    grep -q '^shift  *POSITIVE_DEFINITE' "$TMP/out" && [ "$(col "$TMP/s.csv" kernel)" = petsc-icc-shift-n1 ] &&
        pass "petsc-cg --pc icc with PETSc's shift: a shift line, kernel petsc-icc-shift-n1" ||
        fail "petsc-cg --pc icc with PETSc's shift: a shift line, kernel petsc-icc-shift-n1" \
            "$(grep '^shift' "$TMP/out"), kernel '$(col "$TMP/s.csv" kernel)'"
    # chapter 7's --csv beside it: petsc-nN without a preconditioner, petsc-<pc>-nN with one
    got=$(awk -F, 'NR > 1 { printf "%s%s", s, $2; s = " " }' "$C")
    [ "$got" = "petsc-n1 petsc-jacobi-n1 petsc-icc-n1 petsc-jacobi-n2" ] && [ "$(grep -c . "$C")" = 5 ] &&
        awk -F, 'NF != 30 { exit 1 }' "$C" &&
        pass "petsc-cg --csv (chapter 7's CG CSV): kernels petsc-n1 for none, petsc-<pc>-nN with --pc, 30 fields" ||
        fail "petsc-cg --csv (chapter 7's CG CSV): kernels petsc-n1 for none, petsc-<pc>-nN with --pc" "$got"
fi

# ---- bcsstk13: natural-order IC(0) meets negative pivots; reported as it is ----
expect_status "petsc-cg --pc icc: bcsstk13 at 1e-8 breaks down, status 1" 1 "${mpi[@]}" -q -n 1 "$pbin" \
    --matrix "$D/bcsstk13.mtx" --tol 1e-8 --pc icc
if grep -qE '^pivots +IC\(0\): 1924 positive, 79 negative, 0 zero$' "$TMP/out" && grep -q 'DIVERGED_INDEFINITE_PC' "$TMP/out" &&
    grep -q '^check: FAIL' "$TMP/out" && ! grep -q '^shift' "$TMP/out"; then
    pass "petsc-cg --pc icc: bcsstk13: 79 negative pivots said, no shift, DIVERGED_INDEFINITE_PC, check: FAIL"
else fail "petsc-cg --pc icc: bcsstk13: the negative pivots said, the breakdown" \
    "$(grep -E '^(pivots|shift|breakdown|solve|check)' "$TMP/out" | tr '\n' '|')"; fi
