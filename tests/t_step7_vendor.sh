# tests/t_step7_vendor.sh - chapter 7's yardsticks and figures: SciPy's cg
# (vendor/scipy/cg.py) and PETSc's KSPCG (build/petsc-cg, on 1 and 2 MPI
# ranks; with --ksp pipecg, PETSc's KSPPIPECG, chapter 8's yardstick) solve
# the Poisson matrix and real SPD files to the tolerance, their
# true residual recomputed here, with the iteration counts of a textbook CG
# in double (and of step7's host CG where build/step7 is built); bad input is
# one line and status 2, --maxiter before --tol status 4, b = 0 no iteration;
# each writes one row under chapter 7's CG header. build/cusparse-cg (CUDA)
# lists its two forms (--kernel graph, the default, and sample) and refuses
# another, skips with one line and a SKIP row named after the form without a
# GPU, and refuses the flags it does not take; with a GPU both forms converge,
# in as many iterations as each other, and the graph form's fixed run ends at
# --maxiter exactly with a block that does not divide it. plots/cg-sweep.sh keeps no row of a tool that skipped; the
# chapter 7 figures draw from a small CSV with no gnuplot warning and no panel
# for a precision without data. Each part is a SKIP where its tool is absent.
# chapters: 7   (its yardsticks)
source "$(dirname "$0")/lib.sh"
export SPMV_PROBE_MB=16
HEADER=step,kernel,device,driver,matrix,rows,cols,nnz,precision,iterations,check_every,extra_iterations,converged,rel_residual,true_residual,tol,ms_per_iter,ms_total,spmv_ms_per_iter,vector_ms_per_iter,wait_ms_per_iter,launches_per_iter,bytes_per_iter,bytes_compulsory_per_iter,bw_measured_gbs,pct_version_bound,pct_compulsory,check,date,git_rev
D=$ROOT/tests/data

# col CSV NAME: the field NAME of the CSV's last row
col() { awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { v = $c[k] } END { print v }' "$1"; }
# header_ok NAME CSV: the first line is chapter 7's header, and every row has its 30 fields
header_ok() {
    if [ "$(head -n 1 "$2")" = "$HEADER" ] && awk -F, 'NF != 30 { exit 1 }' "$2"; then pass "$1"
    else fail "$1" "$(head -n 2 "$2" | tr '\n' '|')"; fi
}
# close_iters NAME GOT WANT [PART]: |GOT - WANT| <= 5 + WANT / PART, PART 10
# unless given (double: the same iterations round differently only near the
# threshold)
close_iters() {
    if [ -n "$2" ] && [ -n "$3" ] && awk -v a="$2" -v b="$3" -v k="${4:-10}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 5 + b / k) }'; then
        pass "$1 ($2 against $3)"
    else
        fail "$1" "$2 iterations against $3"
    fi
}
# meets NAME CSV LIMIT: the last row's true residual is at most LIMIT, and PASS
meets() {
    local t; t=$(col "$2" true_residual)
    if [ "$(col "$2" check)" = PASS ] && awk -v t="$t" -v l="$3" 'BEGIN { exit !(t != "" && t + 0 <= l + 0) }'; then
        pass "$1 (true residual $t)"
    else
        fail "$1" "check $(col "$2" check), true residual '$t', limit $3"
    fi
}

# a textbook CG in double (Hestenes-Stiefel, the stopping test before each
# iteration, as step7-cg/reference/cg.h): the iteration count the yardsticks are held to
PY=
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import scipy' >/dev/null 2>&1; then PY=$p; break; fi
done
ref_iters() { # GEN-OR-FILE TOL
    "$PY" - "$ROOT/vendor/scipy" "$1" "$2" <<'EOF'
import sys, numpy as np
sys.path.insert(0, sys.argv[1]); sys.argv[1:] = sys.argv[2:]
import importlib.util
spec = importlib.util.spec_from_file_location("cg", sys.path[0] + "/cg.py"); cg = importlib.util.module_from_spec(spec); spec.loader.exec_module(cg)
src, tol = sys.argv[1], float(sys.argv[2])
A = cg.poisson(*cg.parse_gen(src)) if src.startswith("poisson:") else cg.read_matrix(src)
b = cg.course_b(A.shape[0], 1); x = np.zeros_like(b); r = b.copy(); p = r.copy(); rr = r @ r; bn = np.sqrt(b @ b); k = 0
while np.sqrt(rr) > tol * bn and k < 10 * A.shape[0]:
    q = A @ p; a = rr / (p @ q); x += a * p; r -= a * q; rr1 = r @ r; p = r + (rr1 / rr) * p; rr = rr1; k += 1
print(k)
EOF
}

# ---- SciPy's cg ---------------------------------------------------------------
if [ -z "$PY" ]; then
    skip "vendor/scipy/cg.py" "python3-scipy is not installed (make test installs it: apt-get install python3-scipy)"
else
    cgpy=("$PY" "$ROOT/vendor/scipy/cg.py")
    # Poisson on a grid that is a multiple of nothing, double and float
    expect_ok "scipy cg: poisson:nx=37,ny=23 in double converges" "${cgpy[@]}" --gen poisson:nx=37,ny=23 --csv "$TMP/s.csv"
    header_ok "scipy cg: chapter 7's CG header, 30 fields a row" "$TMP/s.csv"
    meets "scipy cg: poisson 37x23 double meets tol 1e-10 (2x)" "$TMP/s.csv" 2e-10
    [ "$(col "$TMP/s.csv" kernel),$(col "$TMP/s.csv" matrix),$(col "$TMP/s.csv" nnz)" = "scipy,poisson:nx=37 ny=23,$((5 * 851 - 2 * 37 - 2 * 23))" ] &&
        pass "scipy cg: the row names scipy, the matrix as the course does, nnz 5n - 2W - 2H" ||
        fail "scipy cg: the row names scipy, the matrix as the course does, nnz 5n - 2W - 2H" "$(tail -n 1 "$TMP/s.csv")"
    close_iters "scipy cg: poisson 37x23 iterations as a textbook CG in double" "$(col "$TMP/s.csv" iterations)" \
        "$(ref_iters poisson:nx=37,ny=23 1e-10)"
    if [ -x "$BUILD/step7" ]; then
        _run "$BUILD/step7" --gen poisson:nx=37,ny=23 --precision d --kernel plain
        host=$(sed -n "s/.*the host's CG in double \([0-9]*\).*/\1/p" "$TMP/out" | head -n 1)
        close_iters "scipy cg: poisson 37x23 iterations as step7's host CG (step7-cg/reference/cg.c)" "$(col "$TMP/s.csv" iterations)" "$host"
    else
        skip "scipy cg: iterations as step7's host CG" "build/step7 is not built here"
    fi
    # --kappa: the extreme eigenvalues against the grid's closed form, 4 -+ 2 cos(pi/(W+1)) -+ 2 cos(pi/(H+1)),
    # dense (851 rows) and by eigsh (5600 rows); an indefinite matrix refused (status 1)
    for wh in 37,23 80,70; do
        _run "${cgpy[@]}" --gen "poisson:nx=${wh%,*},ny=${wh#*,}" --kappa
        if [ "$(cat "$TMP/status")" = 0 ] && awk -v W="${wh%,*}" -v H="${wh#*,}" '
            /^kappa / { for (i = 1; i <= NF; i++) { if ($i == "min") lo = $(i + 1) + 0; if ($i == "max") hi = $(i + 1) + 0 } }
            END { pi = atan2(0, -1); c = 2 * cos(pi / (W + 1)) + 2 * cos(pi / (H + 1))
                  exit !(lo > 0 && hi > 0 && (lo - (4 - c)) / (4 - c) < 1e-5 && (4 - c - lo) / (4 - c) < 1e-5 && \
                         (hi - (4 + c)) / (4 + c) < 1e-5 && (4 + c - hi) / (4 + c) < 1e-5) }' "$TMP/out" && grep -q '^bound    0.5 sqrt(kappa)' "$TMP/out"; then
            pass "scipy cg --kappa: poisson ${wh/,/x}: the eigenvalues of the closed form, and the bound"
        else fail "scipy cg --kappa: poisson ${wh/,/x}" "status $(cat "$TMP/status"): $(head -n 2 "$TMP/out" "$TMP/err" | tr '\n' '|')"; fi
    done
    printf '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 1\n2 1 2\n2 2 1\n' >"$TMP/indef.mtx"
    _run "${cgpy[@]}" --matrix "$TMP/indef.mtx" --kappa
    if [ "$(cat "$TMP/status")" = 1 ] && grep -q 'not positive definite' "$TMP/err"; then pass "scipy cg --kappa: an indefinite matrix: status 1, said"
    else fail "scipy cg --kappa: an indefinite matrix" "status $(cat "$TMP/status"): $(cat "$TMP/err")"; fi
    expect_ok "scipy cg: poisson:nx=37,ny=23 in float converges" "${cgpy[@]}" --gen poisson:nx=37,ny=23 --precision s --csv "$TMP/s.csv"
    meets "scipy cg: poisson 37x23 float meets tol 1e-5 (10x)" "$TMP/s.csv" 1e-4
    # the Poisson matrix SciPy builds is the course's own (common/gen.c, written by step6 --save-matrix)
    if [ -x "$BUILD/step6" ] && SPMV_PROBE_MB=0 "$BUILD/step6" --gen poisson:nx=7,ny=5 --save-matrix "$TMP/pm.mtx" \
        --runs 1 --warmup 0 >/dev/null 2>&1; then
        expect_output "scipy cg: its poisson:nx=7,ny=5 is common/gen.c's, entry for entry" '^same$' "$PY" -c '
import sys, importlib.util
spec = importlib.util.spec_from_file_location("cg", sys.argv[1]); cg = importlib.util.module_from_spec(spec); spec.loader.exec_module(cg)
A = cg.poisson(7, 5); B = cg.read_matrix(sys.argv[2])
print("same" if A.shape == B.shape and (A != B).nnz == 0 and A.nnz == B.nnz else "differ")' "$ROOT/vendor/scipy/cg.py" "$TMP/pm.mtx"
    else
        skip "scipy cg: its Poisson matrix is common/gen.c's" "build/step6 is not built"
    fi
    # a real SPD file, and its symmetric Matrix Market storage expanded
    expect_ok "scipy cg: 1138_bus in double converges at tol 1e-8" "${cgpy[@]}" --matrix "$D/1138_bus.mtx" --tol 1e-8 --csv "$TMP/s.csv"
    meets "scipy cg: 1138_bus meets tol 1e-8 (2x)" "$TMP/s.csv" 2e-8
    close_iters "scipy cg: 1138_bus iterations as a textbook CG in double" "$(col "$TMP/s.csv" iterations)" \
        "$(ref_iters "$D/1138_bus.mtx" 1e-8)"
    # fixed iterations (the timing runs), --maxiter before --tol, b = 0
    expect_ok "scipy cg: --tol 0 --maxiter 7 runs" "${cgpy[@]}" --gen poisson:nx=20 --tol 0 --maxiter 7 --csv "$TMP/f.csv"
    [ "$(col "$TMP/f.csv" iterations),$(col "$TMP/f.csv" converged),$(col "$TMP/f.csv" check)" = "7,0,PASS" ] &&
        [ -n "$(col "$TMP/f.csv" ms_per_iter)" ] &&
        pass "scipy cg: --tol 0: 7 iterations, not converged, PASS, a time" ||
        fail "scipy cg: --tol 0: 7 iterations, not converged, PASS, a time" "$(tail -n 1 "$TMP/f.csv")"
    expect_status "scipy cg: --maxiter reached before --tol is status 4" 4 "${cgpy[@]}" --gen poisson:nx=20 --maxiter 3
    printf '%%%%MatrixMarket matrix array real general\n400 1\n' >"$TMP/b0.mtx"
    for i in $(seq 400); do echo 0; done >>"$TMP/b0.mtx"
    expect_ok "scipy cg: b = 0 solves" "${cgpy[@]}" --gen poisson:nx=20 --b "$TMP/b0.mtx" --csv "$TMP/z.csv"
    [ "$(col "$TMP/z.csv" iterations)" = 0 ] && pass "scipy cg: b = 0 takes 0 iterations" ||
        fail "scipy cg: b = 0 takes 0 iterations" "$(tail -n 1 "$TMP/z.csv")"
    # bad input: one line, status 2
    expect_error "scipy cg: a non-symmetric matrix is refused" "is not symmetric" "${cgpy[@]}" --matrix "$D/west0067.mtx"
    expect_error "scipy cg: a non-square matrix is refused" "CG needs a square matrix" "${cgpy[@]}" --matrix "$D/lp_afiro.mtx"
    expect_error "scipy cg: a bad --gen" "needs nx=W" "${cgpy[@]}" --gen poisson:ny=3
fi

# ---- PETSc's KSPCG over MPI ranks -------------------------------------------------
pbin=$BUILD/petsc-cg
skipped_build petsc MPICC=/nonexistent \
    "petsc: skipped (no PETSc found by pkg-config, or no /nonexistent: apt-get install petsc-dev)" petsc-cg \
    "make petsc without PETSc (or MPI): one line 'skipped', status 0, nothing built"
if [ ! -x "$pbin" ] || ! command -v mpirun >/dev/null; then
    skip "petsc-cg on 1 and 2 ranks" "PETSc is not built here (make petsc: apt-get install petsc-dev; make test installs it)"
else
    mpi=(mpirun --oversubscribe)
    [ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)
    for n in 1 2; do
        rm -f "$TMP/p$n.csv"
        expect_ok "petsc-cg -n $n: poisson:nx=37,ny=23 converges" "${mpi[@]}" -n $n "$pbin" --gen poisson:nx=37,ny=23 --csv "$TMP/p$n.csv"
        header_ok "petsc-cg -n $n: chapter 7's CG header, 30 fields a row" "$TMP/p$n.csv"
        meets "petsc-cg -n $n: poisson 37x23 meets tol 1e-10 (2x)" "$TMP/p$n.csv" 2e-10
        [ "$(col "$TMP/p$n.csv" kernel)" = "petsc-n$n" ] && pass "petsc-cg -n $n: kernel petsc-n$n" ||
            fail "petsc-cg -n $n: kernel petsc-n$n" "$(tail -n 1 "$TMP/p$n.csv")"
    done
    close_iters "petsc-cg: 2 ranks take the iterations of 1" "$(col "$TMP/p2.csv" iterations)" "$(col "$TMP/p1.csv" iterations)"
    [ -n "$PY" ] && close_iters "petsc-cg: poisson 37x23 iterations as a textbook CG in double" "$(col "$TMP/p1.csv" iterations)" \
        "$(ref_iters poisson:nx=37,ny=23 1e-10)"
    # its Poisson rows are common/gen.c's: the same iterations and residual as the course's file of them
    if [ -s "$TMP/pm.mtx" ]; then
        _run "${mpi[@]}" -n 2 "$pbin" --gen poisson:nx=7,ny=5 --csv "$TMP/pg.csv"
        _run "${mpi[@]}" -n 2 "$pbin" --matrix "$TMP/pm.mtx" --csv "$TMP/pg.csv"
        a=$(sed -n 2p "$TMP/pg.csv" | cut -d, -f6-15) b=$(sed -n 3p "$TMP/pg.csv" | cut -d, -f6-15)
        [ -n "$a" ] && [ "$a" = "$b" ] && pass "petsc-cg: its poisson:nx=7,ny=5 solves as common/gen.c's file of it" ||
            fail "petsc-cg: its poisson:nx=7,ny=5 solves as common/gen.c's file of it" "$a against $b"
    fi
    # a real file, scanned by both ranks (symmetric entries mirrored)
    expect_ok "petsc-cg -n 2: 1138_bus converges at tol 1e-8" "${mpi[@]}" -n 2 "$pbin" --matrix "$D/1138_bus.mtx" --tol 1e-8 --csv "$TMP/pb.csv"
    meets "petsc-cg -n 2: 1138_bus meets tol 1e-8 (2x)" "$TMP/pb.csv" 2e-8
    [ -n "$PY" ] && close_iters "petsc-cg -n 2: 1138_bus iterations as a textbook CG in double" "$(col "$TMP/pb.csv" iterations)" \
        "$(ref_iters "$D/1138_bus.mtx" 1e-8)"
    expect_status "petsc-cg: --precision s is skipped (Debian's PETSc is double)" 3 "${mpi[@]}" -n 1 "$pbin" --gen poisson:nx=8 --precision s
    expect_status "petsc-cg: --maxiter reached before --tol is status 4" 4 "${mpi[@]}" -n 1 "$pbin" --gen poisson:nx=20 --maxiter 3
    expect_status "petsc-cg: a non-symmetric matrix is status 2" 2 "${mpi[@]}" -n 2 "$pbin" --matrix "$D/west0067.mtx"
    grep -q "is not symmetric" "$TMP/err" && pass "petsc-cg: ... and says it is not symmetric" ||
        fail "petsc-cg: ... and says it is not symmetric" "$(head -n 2 "$TMP/err" | tr '\n' ' ')"

    # --ksp pipecg: KSPPIPECG (one reduction an iteration), held to KSPCG's solve of the same system
    expect_output "petsc-cg --help lists --ksp cg|pipecg" '^ +--ksp M +cg: KSPCG.*\(default\)' "$pbin" --help
    for n in 1 2; do
        rm -f "$TMP/q$n.csv" "$TMP/qc$n.csv" "$TMP/qb$n.csv" "$TMP/qbc$n.csv"
        _run "${mpi[@]}" -n $n "$pbin" --gen poisson:nx=37,ny=29 --csv "$TMP/qc$n.csv"
        expect_ok "petsc-cg --ksp pipecg -n $n: poisson:nx=37,ny=29 converges" "${mpi[@]}" -n $n "$pbin" --ksp pipecg \
            --gen poisson:nx=37,ny=29 --csv "$TMP/q$n.csv"
        grep -q '^pipe .*MPI_Iallreduce overlapped with the product' "$TMP/out" &&
            pass "petsc-cg --ksp pipecg -n $n: says its reduction is an MPI_Iallreduce beside the product" ||
            fail "petsc-cg --ksp pipecg -n $n: says its reduction is an MPI_Iallreduce beside the product" "$(grep '^pipe' "$TMP/out")"
        header_ok "petsc-cg --ksp pipecg -n $n: chapter 7's CG header, 30 fields a row" "$TMP/q$n.csv"
        meets "petsc-cg --ksp pipecg -n $n: poisson 37x29 meets tol 1e-10 (2x)" "$TMP/q$n.csv" 2e-10
        [ "$(col "$TMP/q$n.csv" kernel),$(col "$TMP/qc$n.csv" kernel)" = "petsc-pipecg-n$n,petsc-n$n" ] &&
            pass "petsc-cg -n $n: kernel petsc-pipecg-n$n for --ksp pipecg, petsc-n$n for cg" ||
            fail "petsc-cg -n $n: kernel petsc-pipecg-n$n for --ksp pipecg, petsc-n$n for cg" \
                "$(col "$TMP/q$n.csv" kernel),$(col "$TMP/qc$n.csv" kernel)"
        close_iters "petsc-cg --ksp pipecg -n $n: poisson 37x29 iterations as KSPCG's" "$(col "$TMP/q$n.csv" iterations)" \
            "$(col "$TMP/qc$n.csv" iterations)"
        # a real file; its iterations (past n: rounding's loss of orthogonality) drift
        # apart, pipecg's about 10% more, so a quarter's margin
        _run "${mpi[@]}" -n $n "$pbin" --matrix "$D/1138_bus.mtx" --tol 1e-4 --csv "$TMP/qbc$n.csv"
        expect_ok "petsc-cg --ksp pipecg -n $n: 1138_bus converges at tol 1e-4" "${mpi[@]}" -n $n "$pbin" --ksp pipecg \
            --matrix "$D/1138_bus.mtx" --tol 1e-4 --csv "$TMP/qb$n.csv"
        meets "petsc-cg --ksp pipecg -n $n: 1138_bus meets tol 1e-4 (2x)" "$TMP/qb$n.csv" 2e-4
        close_iters "petsc-cg --ksp pipecg -n $n: 1138_bus iterations within a quarter of KSPCG's" \
            "$(col "$TMP/qb$n.csv" iterations)" "$(col "$TMP/qbc$n.csv" iterations)" 4
        # the fixed run ends at --maxiter exactly (KSPPIPECG's own loop would take one more)
        expect_ok "petsc-cg --ksp pipecg -n $n: --tol 0 --maxiter 7 runs" "${mpi[@]}" -n $n "$pbin" --ksp pipecg \
            --gen poisson:nx=20 --tol 0 --maxiter 7 --csv "$TMP/f$n.csv"
        [ "$(col "$TMP/f$n.csv" iterations),$(col "$TMP/f$n.csv" converged),$(col "$TMP/f$n.csv" check)" = "7,0,PASS" ] &&
            [ -n "$(col "$TMP/f$n.csv" ms_per_iter)" ] &&
            pass "petsc-cg --ksp pipecg -n $n: --tol 0: 7 iterations, not converged, PASS, a time" ||
            fail "petsc-cg --ksp pipecg -n $n: --tol 0: 7 iterations, not converged, PASS, a time" "$(tail -n 1 "$TMP/f$n.csv")"
        expect_error "petsc-cg -n $n: a bad --ksp is one line and status 2" "--ksp wants cg or pipecg, not 'pcg'" \
            "${mpi[@]}" -q -n $n "$pbin" --gen poisson:nx=8 --ksp pcg
    done
    expect_status "petsc-cg --ksp pipecg: --maxiter reached before --tol is status 4" 4 "${mpi[@]}" -n 2 "$pbin" --ksp pipecg \
        --gen poisson:nx=20 --maxiter 3
    expect_error "petsc-cg: -ksp_type beside --ksp is refused (the row would misname it)" "choose the method with --ksp" \
        "${mpi[@]}" -q -n 1 "$pbin" --gen poisson:nx=8 -ksp_type pipecg
    # the pipelined recurrence drifts from the true residual: at 1e-6 on 1138_bus its ||r||
    # meets tol while ||b - A x|| stays near 1e-5, and the check says so
    expect_status "petsc-cg --ksp pipecg -n 2: 1138_bus at 1e-6, the residual gap: check FAIL, status 1" 1 \
        "${mpi[@]}" -n 2 "$pbin" --ksp pipecg --matrix "$D/1138_bus.mtx" --tol 1e-6
    grep -q '^check: FAIL' "$TMP/out" && pass "petsc-cg --ksp pipecg -n 2: ... and prints check: FAIL" ||
        fail "petsc-cg --ksp pipecg -n 2: ... and prints check: FAIL" "$(grep -E '^(solve|check)' "$TMP/out" | tr '\n' '|')"
fi

# ---- cuSPARSE + cuBLAS (CUDA): built where nvcc is; no GPU here is a SKIP row ----
cbin=$BUILD/cusparse-cg
if [ ! -x "$cbin" ]; then
    skip "cusparse-cg" "build/cusparse-cg is not built (make cusparse: nvcc and cuSPARSE)"
else
    expect_output "cusparse-cg --help lists its two forms, graph the default" \
        '--kernel NAME +which kernel: graph,sample \(default graph\)' "$cbin" --help
    expect_error "cusparse-cg: a form it does not have" "--kernel wants one of graph,sample, not 'fast'" "$cbin" --kernel fast
    expect_error "cusparse-cg refuses the DIA grid" "does not take --grid: the DIA grid is not symmetric" "$cbin" --grid 8
    expect_error "cusparse-cg --kernel sample refuses --check-every (it reads every dot back)" \
        "--check-every: --kernel sample reads both dots back every iteration" "$cbin" --kernel sample --check-every 4
    expect_error "cusparse-cg refuses a kernel source" "does not take --kernel-file: it is an OpenCL option" "$cbin" --kernel-file x.cl
    if nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
        for p in s d; do
            for f in graph sample; do
                rm -f "$TMP/c-$f.csv"
                expect_ok "cusparse-cg --kernel $f on the GPU, $p: poisson 37x23 converges" "$cbin" --kernel $f \
                    --gen poisson:nx=37,ny=23 --precision $p --csv "$TMP/c-$f.csv" --history "$TMP/h-$f.csv"
                header_ok "cusparse-cg --kernel $f, $p: chapter 7's CG header" "$TMP/c-$f.csv"
            done
            want="cusparse-graph,cusparse-cublas,PASS,PASS"
            got="$(col "$TMP/c-graph.csv" kernel),$(col "$TMP/c-sample.csv" kernel),$(col "$TMP/c-graph.csv" check),$(col "$TMP/c-sample.csv" check)"
            [ "$got" = "$want" ] && pass "cusparse-cg, $p: rows cusparse-graph and cusparse-cublas, both PASS" ||
                fail "cusparse-cg, $p: rows cusparse-graph and cusparse-cublas, both PASS" "$got"
            close_iters "cusparse-cg, $p: the graph form takes the sample's iterations" \
                "$(col "$TMP/c-graph.csv" iterations)" "$(col "$TMP/c-sample.csv" iterations)"
            [ "$(grep -c . "$TMP/h-graph.csv")" = $(($(col "$TMP/c-graph.csv" iterations) + 2)) ] &&
                pass "cusparse-cg --kernel graph, $p: --history has a line per iteration" ||
                fail "cusparse-cg --kernel graph, $p: --history has a line per iteration" \
                    "$(grep -c . "$TMP/h-graph.csv") lines for $(col "$TMP/c-graph.csv" iterations) iterations"
            # a fixed run whose block (8) does not divide --maxiter (45): a second graph ends it
            rm -f "$TMP/f.csv"
            expect_ok "cusparse-cg --kernel graph, $p: --tol 0 --maxiter 45 --check-every 8" "$cbin" --gen poisson:nx=37,ny=23 \
                --precision $p --tol 0 --maxiter 45 --check-every 8 --csv "$TMP/f.csv"
            got="$(col "$TMP/f.csv" iterations),$(col "$TMP/f.csv" check_every),$(col "$TMP/f.csv" extra_iterations),$(col "$TMP/f.csv" check)"
            [ "$got" = "45,8,0,PASS" ] && [ -n "$(col "$TMP/f.csv" ms_per_iter)" ] &&
                pass "cusparse-cg --kernel graph, $p: 45 iterations exactly, blocks of 8, PASS, a time" ||
                fail "cusparse-cg --kernel graph, $p: 45 iterations exactly, blocks of 8, PASS, a time" "$got"
            # --maxiter before --tol: status 4, a MAXITER verdict (never PASS), a MAXITER row with no time
            for f in graph sample; do
                rm -f "$TMP/m.csv"
                "$cbin" --kernel $f --gen poisson:nx=37,ny=23 --precision $p --maxiter 5 --csv "$TMP/m.csv" >"$TMP/m.out" 2>&1
                st=$?
                got="$st,$(grep -c '^check: MAXITER (--maxiter 5 reached before --tol' "$TMP/m.out"),$(grep -c '^check: PASS' "$TMP/m.out"),$(col "$TMP/m.csv" check),$(col "$TMP/m.csv" ms_per_iter)"
                [ "$got" = "4,1,0,MAXITER," ] && pass "cusparse-cg --kernel $f, $p: --maxiter 5: status 4, check: MAXITER, its row MAXITER with no time" ||
                    fail "cusparse-cg --kernel $f, $p: --maxiter 5: status 4, check: MAXITER, its row MAXITER with no time" "$got"
            done
        done
    else
        for f in graph sample; do
            rm -f "$TMP/c.csv"
            k=cusparse-graph; [ $f = sample ] && k=cusparse-cublas
            expect_status "cusparse-cg --kernel $f without a GPU: status 3" 3 "$cbin" --kernel $f --gen poisson:nx=8 --csv "$TMP/c.csv"
            [ "$(grep -c . "$TMP/err")" = 1 ] && [ "$(col "$TMP/c.csv" check),$(col "$TMP/c.csv" kernel)" = "SKIP,$k" ] &&
                header_ok "cusparse-cg --kernel $f without a GPU: a SKIP row of $k under the CG header" "$TMP/c.csv" ||
                fail "cusparse-cg --kernel $f without a GPU: one line, a SKIP row of $k" \
                    "$(tr '\n' '|' <"$TMP/err") $(tail -n 1 "$TMP/c.csv" 2>/dev/null)"
        done
    fi
fi

# ---- the sweep: a tool that skips leaves no row ----
if [ -n "$PY" ]; then
    tools="scipy"
    [ -x "$cbin" ] && ! nvidia-smi -L 2>/dev/null | grep -q '^GPU' && tools="scipy cusparse-cg"
    expect_ok "cg-sweep: scipy (and cusparse-cg, which skips) over two sizes" env PY="$PY" TOOLS="$tools" SIZES="16 24" \
        ITERS=5 BUDGET=60 OUT="$TMP/sweep.csv" "$ROOT/plots/cg-sweep.sh"
    header_ok "cg-sweep: the file starts with the CG header" "$TMP/sweep.csv"
    [ "$(tail -n +2 "$TMP/sweep.csv" | grep -c '^vendor,scipy,')" = 4 ] && ! grep -q ',SKIP,' "$TMP/sweep.csv" &&
        pass "cg-sweep: 4 scipy rows (2 sizes x 2 precisions), no SKIP row" ||
        fail "cg-sweep: 4 scipy rows (2 sizes x 2 precisions), no SKIP row" "$(cut -d, -f1-9,28 "$TMP/sweep.csv" | tr '\n' '|')"
fi

# ---- the figures: a CSV with double only (and a FAIL row), a history ----
if need_tool "chapter 7's figures" gnuplot gnuplot-nox; then
    mkdir -p "$TMP/in/cg-history" "$TMP/fig" "$TMP/work"
    {
        echo "$HEADER"
        for n in 4096 16384 65536; do
            echo "vendor,scipy,Test CPU,SciPy,poisson:nx=$((n == 4096 ? 64 : n == 16384 ? 128 : 256)) ny=x,$n,$n,$((5 * n)),d,50,1,0,0,,0.1,0,$((n / 4096)).5,10,,,,,,$((n * 140)),20,,40,PASS,2026-01-01T00:00:00Z,abc"
            echo "vendor,petsc-n2,Test CPU,PETSc,poisson:nx=1 ny=1,$n,$n,$((5 * n)),d,50,1,0,0,0.1,0.1,0,0.$((n / 4096)),10,,,,,,$((n * 140)),20,,40,PASS,2026-01-01T00:00:00Z,abc"
        done
        echo "vendor,scipy,Test CPU,SciPy,poisson:nx=512 ny=512,262144,262144,1,d,50,1,0,0,,0.1,0,,,,,,,,1,20,,,FAIL,2026-01-01T00:00:00Z,abc"
    } >"$TMP/in/cg-test.csv"
    printf 'source,precision,iteration,residual\nSciPy cg,d,0,1\nSciPy cg,d,1,0.5\nSciPy cg,d,2,0.01\n' >"$TMP/in/cg-history/m.csv"
    _run env DRAW_WORK="$TMP/work" "$ROOT/plots/draw.sh" "$TMP/in" "$TMP/fig"
    if [ "$(cat "$TMP/status")" = 0 ] && [ -s "$TMP/fig/fig-cg-test.png" ] && [ -s "$TMP/fig/fig-cg-test.svg" ] &&
        [ -s "$TMP/fig/fig-cg-residual.png" ] && [ ! -s "$TMP/err" ]; then
        pass "figures: fig-cg-test and fig-cg-residual drawn, nothing on stderr (no gnuplot warning)"
    else
        fail "figures: fig-cg-test and fig-cg-residual drawn, nothing on stderr (no gnuplot warning)" \
            "status $(cat "$TMP/status"): $(head -c 400 "$TMP/err" | tr '\n' '|') $(ls "$TMP/fig" | tr '\n' ' ')"
    fi
    if [ -s "$TMP/work/test-cg-d.plot" ] && [ ! -e "$TMP/work/test-cg-s.plot" ] &&
        [ "$(grep -o 'linespoints' "$TMP/work/test-cg-d.plot" | wc -l)" = 2 ] &&
        grep -q 'not plotted (no time): SciPy cg (host) d poisson:nx=512 ny=512 FAIL' "$TMP/work/test-cg.meta"; then
        pass "figures: one panel (double only), two solvers and the bound, the FAIL row in the footnote"
    else
        fail "figures: one panel (double only), two solvers and the bound, the FAIL row in the footnote" \
            "$(ls "$TMP/work" | tr '\n' ' '): $(cat "$TMP/work/test-cg-d.plot" "$TMP/work/test-cg.meta" 2>/dev/null | tr '\n' '|')"
    fi
fi
