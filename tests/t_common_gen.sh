# tests/t_common_gen.sh - common/gen.c's 3-D boxes, --gen poisson3d and stencil27,
# through the programs (tests/unit.c checks them entry by entry): the saved
# matrix against SciPy's own construction (Kronecker products of 1-D
# matrices) on odd boxes: symmetric, the closed-form nonzeros, 7 or 27 in
# the inside rows; every step's check passes on them, step 6's three kernels
# in float and double; step 7's CG converges on them in float and double;
# bad specs and sizes beyond an int or the host's memory: one line, status 2,
# before anything of their size is allocated.
# chapters: 6 7   (the 3-D boxes CG users bring; common/gen.c's unit tests: t_common_unit, every chapter)
source "$(dirname "$0")/lib.sh"
export SPMV_PROBE_MB=1
QUICK="--runs 1 --warmup 0"
for b in step0 step1 step6 step7; do
    if [ ! -x "$BUILD/$b" ]; then
        fail "gen tests" "no $BUILD/$b: run make all"
        exit 0
    fi
done

# ---- the saved matrix against SciPy's Kronecker construction ----
PY=
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import scipy' >/dev/null 2>&1; then PY=$p; break; fi
done
boxes="5,4,3 3,5,7 1,6,4 4,4,4"
if [ -n "$PY" ]; then
    for kind in poisson3d stencil27; do
        for box in $boxes; do
            IFS=, read -r nx ny nz <<<"$box"
            f=$TMP/$kind-$nx-$ny-$nz.mtx
            (cd "$TMP" && "$BUILD/step0" --gen "$kind:nx=$nx,ny=$ny,nz=$nz" --save-matrix "$f" $QUICK >/dev/null 2>&1) ||
                { fail "gen $kind $box: step0 --save-matrix" "status $?"; continue; }
            py=$("$PY" - "$f" "$kind" "$nx" "$ny" "$nz" <<'EOF' 2>&1
import sys, warnings
import numpy as np
import scipy.io, scipy.sparse as sp
warnings.filterwarnings("ignore", message=".*spmatrix.*", category=DeprecationWarning)   # newer SciPy's mmread
A = sp.csr_matrix(scipy.io.mmread(sys.argv[1]))
kind, nx, ny, nz = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
n = nx * ny * nz
def band(m, lo, mid):   # m x m: mid on the diagonal, lo beside it
    return sp.diags([lo * np.ones(m - 1), mid * np.ones(m), lo * np.ones(m - 1)], [-1, 0, 1])
I = sp.identity
# row (z*ny + y)*nx + x: z the slowest, so the z factor is the outermost
if kind == "poisson3d":
    T = lambda m: band(m, -1.0, 2.0)
    B = (sp.kron(I(nz), sp.kron(I(ny), T(nx))) + sp.kron(I(nz), sp.kron(T(ny), I(nx)))
         + sp.kron(T(nz), sp.kron(I(ny), I(nx))))
    want_nnz, inside = 7 * n - 2 * (nx * ny + ny * nz + nx * nz), 7
else:
    O = lambda m: band(m, 1.0, 1.0)
    B = 27 * I(n) - sp.kron(O(nz), sp.kron(O(ny), O(nx)))
    want_nnz, inside = (3 * nx - 2) * (3 * ny - 2) * (3 * nz - 2), 27
B = sp.csr_matrix(B)
B.eliminate_zeros()
lens = np.diff(A.indptr)
n_inside = max(nx - 2, 0) * max(ny - 2, 0) * max(nz - 2, 0)
problems = []
if A.shape != (n, n): problems.append("shape %s" % (A.shape,))
if A.nnz != want_nnz: problems.append("nnz %d, want %d" % (A.nnz, want_nnz))
if (A - A.T).count_nonzero(): problems.append("not symmetric")
if A.shape == B.shape and (A - B).count_nonzero(): problems.append("differs from the Kronecker construction in %d entries" % (A - B).count_nonzero())
if lens.max() != (inside if n_inside else lens.max()) or np.count_nonzero(lens == inside) != n_inside:
    problems.append("%d rows of %d, want %d" % (np.count_nonzero(lens == inside), inside, n_inside))
if n <= 400 and np.linalg.eigvalsh(A.toarray()).min() <= 0: problems.append("not positive definite")
print("bad " + "; ".join(problems) if problems else "ok %d rows, %d nonzeros, %d rows of %d" % (n, A.nnz, n_inside, inside))
EOF
)
            [[ $py == ok* ]] && pass "gen $kind:nx=$nx,ny=$ny,nz=$nz = SciPy's Kronecker construction, SPD: ${py#ok }" ||
                fail "gen $kind:nx=$nx,ny=$ny,nz=$nz = SciPy's Kronecker construction" "$py"
        done
    done
else
    skip "gen poisson3d and stencil27 against SciPy" "python3-scipy is not installed (make test installs it: apt-get install python3-scipy)"
fi

# ---- every step's check passes on them ----
# passes NAME BIN ARGS...: status 0 and every kernel run says check: PASS
# (as many as step 6's "---- " headers: tests/lib.sh, all_pass)
passes() {
    local name=$1 bin=$2; shift 2
    all_pass "$name" 0 '---- ' "$BUILD/$bin" "$@"
}
for g in poisson3d:nx=9,ny=8,nz=7 stencil27:nx=9,ny=8,nz=7 stencil27:nx=1,ny=1,nz=33; do
    for p in s d; do
        passes "step6 --gen $g --precision $p: scalar, vector, adaptive pass" step6 --gen "$g" --precision $p $QUICK
    done
    for s in step0 step1 step2 step3 step4 step5; do
        [ -x "$BUILD/$s" ] && want_step $s && passes "$s --gen $g: check passes" "$s" --gen "$g" $QUICK
    done
done
# the 27 points on a wider box: rows of 27, a few thousand of them
passes "step6 --gen stencil27:nx=23,ny=19,nz=17, float: all kernels pass" step6 --gen stencil27:nx=23,ny=19,nz=17 $QUICK
grep -qE '^matrix +stencil27:nx=23,ny=19,nz=17: 7429 x 7429, (1[0-9]{5}) nonzeros' "$TMP/out" &&
    [ "$(sed -n 's/^matrix .*: 7429 x 7429, \([0-9]*\) nonzeros.*/\1/p' "$TMP/out")" = $(((3 * 23 - 2) * (3 * 19 - 2) * (3 * 17 - 2))) ] &&
    pass "step6 names stencil27:nx=23,ny=19,nz=17 and its (3nx-2)(3ny-2)(3nz-2) nonzeros" ||
    fail "step6 names stencil27:nx=23,ny=19,nz=17 and its nonzeros" "$(grep '^matrix' "$TMP/out")"

# ---- step 7's CG converges on them, float and double ----
for g in poisson3d:nx=13,ny=11,nz=9 stencil27:nx=11,ny=9,nz=7 poisson3d:nx=1,ny=1,nz=40; do
    for p in s d; do
        _run "$BUILD/step7" --gen "$g" --precision $p
        st=$(cat "$TMP/status")
        v=$(grep -c '^==== ' "$TMP/out")
        n=$(grep -c '^check: PASS' "$TMP/out")
        if [ "$st" = 3 ] && grep -q 'cl_khr_fp64' "$TMP/out"; then
            pass "step7 --gen $g --precision $p (skipped: no cl_khr_fp64)"
        elif [ "$st" = 0 ] && [ "$v" -ge 2 ] && [ "$n" = "$v" ] && grep -q '^solve .*converged' "$TMP/out" &&
            grep -q 'symmetric' "$TMP/out"; then
            pass "step7 --gen $g --precision $p: plain and fused converge, checked"
        else
            fail "step7 --gen $g --precision $p" "status $st, $n PASS of $v: $(grep -E '^(solve|true|check)|error' "$TMP/out" "$TMP/err" | tr '\n' ' ' | cut -c1-300)"
        fi
    done
done

# ---- refused: one line, status 2, before any array of their size ----
while IFS='|' read -r spec says; do
    for b in step0 step6 step7; do
        expect_error "$b --gen $spec: refused ($says)" "$says" "$BUILD/$b" --gen "$spec"
    done
done <<'EOF'
poisson3d:ny=4|--gen poisson3d needs nx=N
stencil27|--gen stencil27 needs nx=N
poisson3d:nx=4,nw=3|--gen poisson3d takes nx, ny, nz, not 'nw'
stencil27:nx=4,ny|--gen stencil27: 'ny' is not key=value
poisson3d:nx=2.5|--gen poisson3d: nx wants a whole number, not '2.5'
stencil27:nx=0|--gen: nx wants a number from 1
poisson3d:nx=4,nz=-1|--gen: nz wants a number from 1
stencil27:nx=9x|--gen: nx wants a number from 1
poisson3d:nx=1300|is more than 2^31 rows; the device indexes with int
stencil27:nx=1e9,ny=1e9,nz=1e9|is more than 2^31 rows; the device indexes with int
poisson3d:nx=2147483646,ny=2,nz=2147483646|is more than 2^31 rows; the device indexes with int
stencil27:nx=440|nonzeros, more than 2^31; the device indexes with int
poisson3d:nx=1290|nonzeros, more than 2^31; the device indexes with int
stencil3d:nx=4|--gen wants powerlaw:
EOF
# under 2^31 nonzeros but beyond the host: the estimate refuses it, in a
# process that could not even allocate the row pointers. What is tested is the
# host's memory, so the device is the CPU one where there is one: a GPU's
# driver reserves more address space than ulimit -v leaves, and does not start
# under it (step6 then says there is no device, before any generator runs)
mem_dev=${SPMV_DEVICE:-}
have_cpu_device && mem_dev=cpu
( ulimit -v 4000000; SPMV_DEVICE=$mem_dev SPMV_HOST_MEM_MB=2048 exec "$BUILD/step6" --gen stencil27:nx=400 ) >"$TMP/out" 2>"$TMP/err"
st=$?
if [ "$st" = 2 ] && [ "$mem_dev" != cpu ] && grep -q 'no OpenCL device' "$TMP/err"; then
    skip "step6 --gen stencil27:nx=400 on a 2 GiB host" "under ulimit -v 4000000 (KiB) no OpenCL device starts (--device '${mem_dev:-the default}'; a GPU driver needs more address space) and there is no CPU one (PoCL: apt-get install pocl-opencl-icd)"
elif [ "$st" = 2 ] && [ "$(grep -c . "$TMP/err")" = 1 ] && grep -q 'stencil27:nx=400 (1719374392 nonzeros): the host would need' "$TMP/err"; then
    pass "step6 --gen stencil27:nx=400 (1.7e9 nonzeros) on a 2 GiB host: refused by the estimate, one line"
else
    fail "step6 --gen stencil27:nx=400 on a 2 GiB host" "status $st (--device '${mem_dev:-the default}'): $(tr '\n' '|' <"$TMP/err")"
fi

# ---- the yardsticks build the same matrices: SciPy's cg.py, PETSc's petsc-cg ----
# (build/cusparse and cusparse-cg take them through the course's library)
_run "$BUILD/step7" --gen stencil27:nx=11,ny=9,nz=7 --precision d --kernel plain
host=$(sed -n "s/.*the host's CG in double \([0-9]*\).*/\1/p" "$TMP/out" | head -n 1)
if [ -z "$PY" ]; then
    skip "vendor/scipy/cg.py on poisson3d and stencil27" "python3-scipy is not installed (apt-get install python3-scipy)"
else
    for kind in poisson3d stencil27; do
        expect_output "scipy cg.py: its $kind:nx=5,ny=4,nz=3 is common/gen.c's, entry for entry" '^same$' "$PY" -c '
import sys, importlib.util
spec = importlib.util.spec_from_file_location("cg", sys.argv[1]); cg = importlib.util.module_from_spec(spec); spec.loader.exec_module(cg)
A = cg.box(*cg.parse_box(sys.argv[3])); B = cg.read_matrix(sys.argv[2])
print("same" if A.shape == B.shape and (A != B).nnz == 0 and A.nnz == B.nnz else "differ")' \
            "$ROOT/vendor/scipy/cg.py" "$TMP/$kind-5-4-3.mtx" "$kind:nx=5,ny=4,nz=3"
    done
    SPMV_PROBE_MB=16 _run "$PY" "$ROOT/vendor/scipy/cg.py" --gen stencil27:nx=11,ny=9,nz=7
    it=$(sed -n 's/^solve *\([0-9]*\) iterations.*/\1/p' "$TMP/out")
    [ "$(cat "$TMP/status")" = 0 ] && [ -n "$it" ] && [ -n "$host" ] && [ $((it > host ? it - host : host - it)) -le 2 ] &&
        pass "scipy cg.py --gen stencil27:nx=11,ny=9,nz=7: converges in $it iterations, step7's host CG $host" ||
        fail "scipy cg.py --gen stencil27:nx=11,ny=9,nz=7" "status $(cat "$TMP/status"), $it iterations, host $host"
    expect_error "scipy cg.py --gen poisson3d:nx=4,nq=3: refused" "--gen poisson3d takes nx=N" \
        "$PY" "$ROOT/vendor/scipy/cg.py" --gen poisson3d:nx=4,nq=3
fi
if [ ! -x "$BUILD/petsc-cg" ] || ! command -v mpirun >/dev/null; then
    skip "petsc-cg on poisson3d and stencil27" "PETSc is not built here (make petsc: apt-get install petsc-dev)"
else
    mpi=(mpirun --oversubscribe)
    [ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)
    for g in poisson3d:nx=13,ny=11,nz=9 stencil27:nx=11,ny=9,nz=7; do
        rm -f "$TMP/p.csv"
        SPMV_PROBE_MB=16 _run "${mpi[@]}" -n 2 "$BUILD/petsc-cg" --gen "$g" --csv "$TMP/p.csv"
        IFS=, read -r matrix rows nnz iters check < <(awk -F, "$BY_NAME"' { print col("matrix") "," col("rows") "," col("nnz") "," col("iterations") "," col("check") }' "$TMP/p.csv" 2>/dev/null)
        want=$(SPMV_PROBE_MB=0 "$BUILD/step0" --gen "$g" --info --runs 1 --warmup 0 2>/dev/null | sed -n 's/^info .* | rows \([0-9]*\) .* | nonzeros \([0-9]*\) .*/\1,\2/p')
        [ "$(cat "$TMP/status")" = 0 ] && [ "$check" = PASS ] && [ "$matrix" = "${g//,/ }" ] && [ "$rows,$nnz" = "$want" ] &&
            pass "petsc-cg -n 2 --gen $g: converges, PASS, rows and nonzeros as the course's ($want)" ||
            fail "petsc-cg -n 2 --gen $g" "status $(cat "$TMP/status"): $matrix,$rows,$nnz,$iters,$check; want $want; $(tail -n 2 "$TMP/err" | tr '\n' ' ')"
        [ "$g" = stencil27:nx=11,ny=9,nz=7 ] && [ -n "$host" ] && {
            [ -n "$iters" ] && [ $((iters > host ? iters - host : host - iters)) -le 2 ] &&
                pass "petsc-cg --gen $g: $iters iterations, step7's host CG $host" ||
                fail "petsc-cg --gen $g: iterations as step7's host CG" "$iters against $host"
        }
    done
    _run "${mpi[@]}" -n 1 "$BUILD/petsc-cg" --gen poisson3d:nx=2000
    [ "$(cat "$TMP/status")" = 2 ] && grep -q 'more than 2^31 rows' "$TMP/err" &&
        pass "petsc-cg --gen poisson3d:nx=2000: refused, status 2" ||
        fail "petsc-cg --gen poisson3d:nx=2000: refused, status 2" "status $(cat "$TMP/status"): $(head -n 2 "$TMP/err" | tr '\n' ' ')"
fi
