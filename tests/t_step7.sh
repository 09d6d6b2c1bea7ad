# tests/t_step7.sh - step7-cg, the conjugate-gradient solver: plain, fused and pipelined,
# float and double, on Poisson grids whose sizes are multiples of nothing
# (not of 4, 32 or a work-group) and on the real SPD files; the iteration
# count against the host's CG in double (step7-cg/reference/cg.c) within the margin the
# program states, the true residual against the tolerance; refusals (not
# symmetric, not square, complex: status 2, one line), the breakdown of an
# indefinite matrix (status 1), b = 0 (0 iterations, x = 0), --maxiter
# reached (status 4, check: MAXITER, no x saved), --tol 0 (exactly
# --maxiter iterations, status 0); a broken fused kernel caught; a product
# 1% off in one entry of q caught, in each version, at 500 and 2000
# iterations, by the product run once more on a seeded random p; the split
# adding up, one bandwidth for every
# versions, the default run's counts against the host's; the same system
# solved by SciPy's cg; the CSV
# row; oclgrind on every version; the sanitizers on the host code.
# chapters: 7 8   (chapter 7's kernels, which step 8 builds)
source "$(dirname "$0")/lib.sh"
bin=$BUILD/step7
export SPMV_PROBE_MB=1
if [ ! -x "$bin" ]; then
    fail "step7 tests" "no $bin: run make all"
    exit 0
fi
D=$ROOT/tests/data

# solves NAME STATUS ARGS...: the run ends with STATUS, each version it ran
# says check: PASS (as many PASS as "==== " headers: tests/lib.sh, all_pass)
solves() {
    local name=$1 want=$2; shift 2
    all_pass "$name" "$want" '==== ' "$bin" "$@"
}
# the device's count against the host's, within the margin the run prints
agrees() {
    local name=$1
    if grep -qE '^check +[0-9]+ iterations, the host.s CG in double [0-9]+: agree \(margin [0-9]+' "$TMP/out" &&
        ! grep -q 'DISAGREE' "$TMP/out"; then pass "$name"
    else fail "$name" "$(grep -E '^check|^host' "$TMP/out" | tr '\n' ' ')"; fi
}

# ---- Poisson, sizes that are multiples of nothing, both versions, both precisions ----
for g in 37x29 45x31 1x7; do
    w=${g%x*} h=${g#*x}
    for p in s d; do
        solves "step7 poisson $g, $p, plain, fused and pipelined" 0 --gen "poisson:nx=$w,ny=$h" --precision $p
        [ "$(cat "$TMP/status")" = 3 ] && continue
        agrees "step7 poisson $g, $p: iterations agree with the host's CG"
        # the true residual printed is at most the tolerance printed
        if awk '/^stop/ { for (i = 1; i <= NF; i++) if ($i == "<=") tol = $(i + 1) + 0 }
                /^true/ { for (i = 1; i <= NF; i++) if ($i == "=") { t = $(i + 1) + 0; n++; if (t > tol) bad = 1 } }
                END { exit bad || n != 3 }' "$TMP/out"; then
            pass "step7 poisson $g, $p: the true residual meets --tol, every version"
        else fail "step7 poisson $g, $p: the true residual meets --tol, every version" "$(grep -E '^(stop|true)' "$TMP/out" | tr '\n' ' ')"; fi
    done
done
# in double, Poisson's count is the host's exactly
solves "step7 poisson 45x31 d --check-every 7" 0 --gen poisson:nx=45,ny=31 --precision d --kernel fused --check-every 7
if [ "$(cat "$TMP/status")" = 0 ]; then
    c=$(sed -nE 's/^check +([0-9]+) iterations, the host.s CG in double ([0-9]+):.*/\1 \2/p' "$TMP/out")
    [ -n "$c" ] && [ "${c% *}" = "${c#* }" ] && pass "step7 poisson 45x31 d: the host's count exactly ($c)" ||
        fail "step7 poisson 45x31 d: the host's count exactly" "'$c'"
    # fused reads back every 7: the extra iterations are fewer than 7 and said
    x=$(sed -nE 's/^extra +([0-9]+) iterations? launched past.*read back every 7\)$/\1/p' "$TMP/out")
    [ -n "$x" ] && [ "$x" -ge 1 ] && [ "$x" -le 7 ] && pass "step7 --check-every 7: $x extra iterations, said" ||
        fail "step7 --check-every 7: the extra iterations said" "$(grep -E '^(extra|cg)' "$TMP/out" | tr '\n' ' ')"
fi
# a vector product asked for (--group-size), and a local size not a power of two
solves "step7 poisson 37x29 --group-size 4 (the vector product)" 0 --gen poisson:nx=37,ny=29 --group-size 4
grep -q "csr_vector" "$TMP/out" && pass "step7 --group-size: csr_vector ran" || fail "step7 --group-size: csr_vector ran" "$(grep '^spmv' "$TMP/out")"
solves "step7 poisson 37x29 --local-size 96" 0 --gen poisson:nx=37,ny=29 --local-size 96

# ---- the real SPD files (double: the bus matrices and bcsstk01 converge there) ----
for f in 494_bus.mtx bcsstk01.rsa hb_fixed.mtx; do
    solves "step7 $f, d, plain, fused and pipelined" 0 --matrix "$D/$f" --precision d
    [ "$(cat "$TMP/status")" = 0 ] && agrees "step7 $f, d: iterations within the stated margin of the host's CG"
done
# bcsstk13 (condition number ~1e10) does not converge unpreconditioned:
# --maxiter, status 4; each version's verdict line says MAXITER, never PASS;
# --save-x saves nothing, said; its CSV row's check MAXITER, no time
rm -f "$TMP/x13.mtx" "$TMP/m13.csv"
_run "$bin" --matrix "$D/bcsstk13.mtx" --precision d --maxiter 40 --save-x "$TMP/x13.mtx" --csv "$TMP/m13.csv"
k=$(grep -c '^==== ' "$TMP/out")
m=$(grep -c '^check: MAXITER (--maxiter 40 reached before --tol 1e-10: no solution; the iterations run passed their checks)$' "$TMP/out")
if [ "$(cat "$TMP/status")" = 4 ] && [ "$k" -ge 2 ] && [ "$m" = "$k" ] && ! grep -q '^check: PASS' "$TMP/out" &&
    [ "$(grep -c '^solve    40 iterations, --maxiter reached' "$TMP/out")" = "$k" ] && [ ! -e "$TMP/x13.mtx" ] &&
    [ "$(grep -c "^saved    nothing to $TMP/x13.mtx: --maxiter came before --tol (x is no solution)$" "$TMP/out")" = "$k" ] &&
    awk -F, "$BY_NAME"'{ n++; if (col("check") != "MAXITER" || col("ms_per_iter") != "" || col("converged") != 0) bad = 1 }
        END { exit bad || n != '"$k"' }' "$TMP/m13.csv"; then
    pass "step7 bcsstk13 --maxiter 40: status 4, check: MAXITER in each of $k versions (no PASS), no x saved, CSV MAXITER"
else fail "step7 bcsstk13 --maxiter 40: status 4, MAXITER" "status $(cat "$TMP/status"), $m MAXITER of $k: $(grep -E '^(solve|check|saved)' "$TMP/out" | tr '\n' '|' | cut -c1-500)"; fi
"$bin" --help | tr -s '\n ' '  ' | grep -q -- '4 --maxiter reached before --tol' && pass "step7 --help names status 4" || fail "step7 --help names status 4" "not in --help"
# --tol 0: exactly --maxiter iterations, a timing run, status 0; its CSV row
rm -f "$TMP/cg.csv"
solves "step7 --tol 0 --maxiter 25: status 0" 0 --gen poisson:nx=50,ny=21 --tol 0 --maxiter 25 --csv "$TMP/cg.csv"
n=$(grep -c '^solve    25 iterations (--tol 0)' "$TMP/out")
[ "$n" = 3 ] && pass "step7 --tol 0: exactly 25 iterations, every version" || fail "step7 --tol 0: exactly 25 iterations" "$n of 3"
want='step,kernel,device,driver,matrix,rows,cols,nnz,precision,iterations,check_every,extra_iterations,converged,rel_residual,true_residual,tol,ms_per_iter,ms_total,spmv_ms_per_iter,vector_ms_per_iter,wait_ms_per_iter,launches_per_iter,bytes_per_iter,bytes_compulsory_per_iter,bw_measured_gbs,pct_version_bound,pct_compulsory,check,date,git_rev'
if [ "$(head -n 1 "$TMP/cg.csv")" = "$want" ] &&
    awk -F, "$BY_NAME"'NR > 1 { n++; if (col("step") != "step7" || col("rows") != 1050 || col("nnz") != 5*1050-2*50-2*21 ||
        col("iterations") != 25 || col("converged") != 0 || col("check") != "PASS" || !(col("ms_per_iter") > 0) ||
        col("launches_per_iter") != (col("kernel") == "pipelined" ? 2 : col("kernel") == "fused" ? 4 : 6) ||
        col("bytes_per_iter") - col("bytes_compulsory_per_iter") != (col("kernel") == "pipelined" ? 0 : col("kernel") == "fused" ? 1 : 5) * 4 * 1050 ||
        col("tol") != 0) bad = 1; k[col("kernel")] = 1 }
        END { exit bad || n != 3 || !("plain" in k) || !("fused" in k) || !("pipelined" in k) }' "$TMP/cg.csv"; then
    pass "step7 --csv: the CG header, a row a version (25 iterations, converged 0, PASS, timed)"
else fail "step7 --csv: the CG header, a row a version" "$(cat "$TMP/cg.csv" | cut -c1-300 | tr '\n' '|')"; fi

# --history: plain's recurrence before each iteration, from 1 down to the last, a row each
solves "step7 --history" 0 --gen poisson:nx=37,ny=29 --precision d --kernel plain --history "$TMP/h.csv"
it=$(sed -n 's/^solve    converged in \([0-9]*\) iterations.*/\1/p' "$TMP/out")
if [ "$(head -n 1 "$TMP/h.csv")" = iteration,rel_residual ] && [ -n "$it" ] &&
    awk -F, -v it="$it" 'NR == 2 { ok = $1 == 0 && $2 > 0.99 && $2 < 1.01 } NR > 1 { n++; last = $1; r = $2 }
        END { exit !(ok && n == it + 1 && last == it && r <= 1e-10) }' "$TMP/h.csv"; then
    pass "step7 --history: iterations 0 to $it, from 1 down to the tolerance"
else fail "step7 --history: iterations 0 to the last" "$it iterations: $(head -n 3 "$TMP/h.csv" | tr '\n' '|') ... $(tail -n 1 "$TMP/h.csv")"; fi

# ---- refusals: one line, status 2 ----
expect_error "step7 not symmetric: refused" "west0067 is not symmetric" "$bin" --matrix "$D/west0067.mtx"
expect_error "step7 skew-symmetric: refused" "skew3 is not symmetric" "$bin" --matrix "$D/skew3.mtx"
expect_error "step7 the grid (random weights): refused" "step7 does not take --grid: the grid's random weights are not symmetric" "$bin" --grid 16
expect_error "step7 not square: refused" "lp_afiro is 27 x 51: CG solves a square system" "$bin" --matrix "$D/lp_afiro.mtx"
expect_error "step7 complex: refused" "herm3 is complex" "$bin" --matrix "$D/herm3.mtx"
expect_error "step7 --precision z: refused" "--precision wants s or d, not 'z'" "$bin" --gen poisson:nx=8 --precision z
expect_error "step7 --x: use --b" "the right-hand side of step7's system is --b FILE" "$bin" --x "$TMP/none.mtx"
expect_error "step7 --tol 2: refused" "--tol wants a relative residual" "$bin" --tol 2
printf '%%%%MatrixMarket matrix array real general\n5 1\n1\n2\n' >"$TMP/b_short.mtx"
expect_error "step7 --b too short: refused" "--b:" "$bin" --gen poisson:nx=5,ny=1 --b "$TMP/b_short.mtx"

# ---- breakdown: a symmetric indefinite matrix, b chosen so that p.Ap < 0 at once ----
printf '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 1\n2 2 -1\n' >"$TMP/indef.mtx"
printf '%%%%MatrixMarket matrix array real general\n2 1\n1\n2\n' >"$TMP/b_indef.mtx"
for v in plain fused pipelined; do
    _run "$bin" --matrix "$TMP/indef.mtx" --b "$TMP/b_indef.mtx" --kernel $v
    st=$(cat "$TMP/status")
    if [ "$st" = 1 ] && grep -q 'breakdown at iteration 1: p.Ap = -3 <= 0, so the matrix is not positive definite' "$TMP/err"; then
        pass "step7 $v: indefinite matrix, breakdown at iteration 1, status 1, said"
    else fail "step7 $v: indefinite matrix, breakdown" "status $st: $(cat "$TMP/err" | tr '\n' ' ')"; fi
done

# ---- b = 0: x = 0 after 0 iterations ----
{ echo '%%MatrixMarket matrix array real general'; echo '12 1'; for i in $(seq 12); do echo 0; done; } >"$TMP/b0.mtx"
solves "step7 b = 0" 0 --gen poisson:nx=4,ny=3 --b "$TMP/b0.mtx" --save-x "$TMP/x0.mtx"
if [ "$(grep -c '^solve    converged in 0 iterations' "$TMP/out")" = 3 ] &&
    [ "$(grep -vc '^%' "$TMP/x0.mtx")" = 13 ] && [ "$(grep -v '^%' "$TMP/x0.mtx" | tail -n +2 | sort -u)" = 0 ]; then
    pass "step7 b = 0: 0 iterations, x = 0 saved"
else fail "step7 b = 0: 0 iterations, x = 0 saved" "$(grep '^solve' "$TMP/out" | tr '\n' ' ') $(head -c 200 "$TMP/x0.mtx")"; fi

# ---- a broken fused kernel: x moves along r instead of p; the check sees it ----
sed 's/x\[i\] += alpha \* pi;/x[i] += alpha * r[i];/' "$ROOT/step7-cg/kernel.cl" >"$TMP/broken.cl"
if cmp -s "$ROOT/step7-cg/kernel.cl" "$TMP/broken.cl"; then
    fail "step7 broken fused kernel made" "no 'x[i] += alpha * pi;' in step7-cg/kernel.cl"
else
    _run "$bin" --gen poisson:nx=37,ny=29 --kernel fused --kernel-file "$TMP/broken.cl"
    st=$(cat "$TMP/status")
    if [ "$st" = 1 ] && grep -q '^check: FAIL' "$TMP/out" && ! grep -q '^time' "$TMP/out"; then
        pass "step7 broken fused kernel: check FAIL, status 1, no time printed"
    else fail "step7 broken fused kernel: check FAIL, status 1" "status $st: $(grep -E '^(true|check|time)' "$TMP/out" | tr '\n' ' ')"; fi
    _run "$bin" --gen poisson:nx=37,ny=29 --kernel fused --kernel-file "$TMP/broken.cl" --tol 0 --maxiter 30
    st=$(cat "$TMP/status")
    [ "$st" = 1 ] && grep -q '^check: FAIL' "$TMP/out" && pass "step7 broken fused kernel, --tol 0: the true residual leaves the recurrence, FAIL" ||
        fail "step7 broken fused kernel, --tol 0: FAIL" "status $st: $(grep -E '^(true|check)' "$TMP/out" | tr '\n' ' ')"
fi

# ---- the product checked by itself, after the solve: run once more on a
# seeded random p, q held to A p row by row (step7-cg/report/check.h). A
# product 1% off in one entry of q (row 1235) fails it in each version, at
# 500 iterations and at 2000, whatever r and b - A x then say; every
# correct run passes it (and r against b - A x) ----
_run "$bin" --gen poisson:nx=256 --tol 0 --maxiter 500
k=$(grep -c '^==== ' "$TMP/out")
n=$(grep -cE '^check    the product once more, on a seeded random p: the largest error [0-9.e+-]+ \(row [0-9]+\) is [0-9.e+-]+ eps \(n_i \+ 10\) sum_j \|a_ij p_j\| <= 1$' "$TMP/out")
g=$(grep -c '^check    r against b - A x: .* <= 1$' "$TMP/out")
[ "$(cat "$TMP/status")" = 0 ] && [ "$k" -ge 2 ] && [ "$n" = "$k" ] && [ "$g" = "$k" ] && [ "$(grep -c '^check: PASS' "$TMP/out")" = "$k" ] &&
    pass "step7 256^2 float --tol 0 --maxiter 500: the product within its limit, r follows b - A x, PASS, each of $k versions" ||
    fail "step7 256^2 float --tol 0 --maxiter 500: PASS" "status $(cat "$TMP/status"), $n and $g of $k: $(grep '^check' "$TMP/out" | tr '\n' ' ')"
{ printf '#ifndef CG_FUSED\n#define CSR_BEGIN\n#define CSR_STORE(row, sum) y[row] = (row) == 1234 ? (sum) * (VALUE)1.01 : (sum)\n#define CSR_DONE\n#endif\n'
  cat "$ROOT/step7-cg/kernel.cl"; } >"$TMP/q_plain.cl"
sed 's/VALUE q_ = (sum);/VALUE q_ = (row) == 1234 ? (sum) * (VALUE)1.01 : (sum);/' "$ROOT/step7-cg/kernel.cl" >"$TMP/q_fused.cl"
cp "$TMP/q_fused.cl" "$TMP/q_pipelined.cl"   # (the sed changes both hooks, fused's and pipelined's)
if cmp -s "$ROOT/step7-cg/kernel.cl" "$TMP/q_fused.cl"; then
    fail "step7 q 1% off: fused kernel made" "no 'VALUE q_ = (sum);' in step7-cg/kernel.cl"
fi
for run in "plain 500" "fused 500" "pipelined 500" "fused 2000"; do
    v=${run% *} it=${run#* }
    _run "$bin" --gen poisson:nx=256 --tol 0 --maxiter "$it" --kernel "$v" --kernel-file "$TMP/q_$v.cl"
    st=$(cat "$TMP/status")
    if [ "$st" = 1 ] && grep -qE '^check    the product once more, on a seeded random p: the largest error [0-9.e+-]+ \(row 1235\) is [0-9.e+-]+ eps .* > the limit 1$' "$TMP/out" &&
        grep -q '^check: FAIL$' "$TMP/out" && ! grep -q '^check: PASS' "$TMP/out" && ! grep -q '^time' "$TMP/out"; then
        pass "step7 $v, q_1235 1% off, 256^2 float --tol 0 --maxiter $it: the product check names row 1235, FAIL, no time"
    else fail "step7 $v, q_1235 1% off, --maxiter $it: FAIL" "status $st: $(grep -E '^(check|true)' "$TMP/out" | tr '\n' ' ')"; fi
done
# a solve whose recurrence reaches r.r = 0 at --tol 0 (hb_fixed, 3 rows:
# plain and fused in 34 iterations) is held to what every --tol 0 run is,
# not to a tolerance of 0
solves "step7 hb_fixed d --tol 0 --maxiter 100: r.r = 0 reached, PASS" 0 --matrix "$D/hb_fixed.mtx" --precision d --tol 0 --maxiter 100

# ---- the split: every part measured, and they add up to the total printed;
# the events' cost against the loop without them; one bandwidth for both ----
_run "$bin" --gen poisson:nx=61,ny=47 --tol 0 --maxiter 64
nums=$(sed -n 's/^split    product \([0-9.-]*\) + vector kernels \([0-9.-]*\) + read-backs \([0-9.-]*\) + between commands \([0-9.-]*\) (.*) = \([0-9.-]*\) ms an iteration.*/\1 \2 \3 \4 \5/p' "$TMP/out")
if [ "$(echo "$nums" | grep -c .)" = 3 ] && echo "$nums" | awk '{ d = $1 + $2 + $3 + $4 - $5; if (d > 3e-4 || d < -3e-4) bad = 1 } END { exit bad }' &&
    [ "$(grep -cE '^events   the same [0-9]+ iterations without them, in turn with the split.s, [0-9]+ rounds?: [0-9.]+ ms an iteration \(median; [0-9.]+ to [0-9.]+\), the split.s [0-9.]+ \([0-9.]+ to [0-9.]+\): the events cost [-+][0-9]+%$' "$TMP/out")" = 3 ]; then
    pass "step7 split: product + vector kernels + read-backs + between commands = the total, every version"
else fail "step7 split adds up" "$(grep -E '^(split|events)' "$TMP/out" | tr '\n' ' ')"; fi
gbs=$(sed -n 's/^bound .* at \([0-9.]*\) GB\/s.*/\1/p' "$TMP/out" | sort -u)
[ "$(grep -c '^bound' "$TMP/out")" = 3 ] && [ "$(echo "$gbs" | wc -l)" = 1 ] &&
    pass "step7: plain, fused and pipelined set against one bandwidth ($gbs GB/s)" ||
    fail "step7: one bandwidth for every version" "$(grep '^bound' "$TMP/out" | tr '\n' ' ')"

# ---- the default run (Poisson 256^2) compares its counts with the host's CG ----
_run "$bin"
[ "$(cat "$TMP/status")" = 0 ] && grep -q '^host CG  [0-9]* iterations in double' "$TMP/out" &&
    [ "$(grep -cE '^check +[0-9]+ iterations, the host.s CG in double [0-9]+: agree' "$TMP/out")" = 3 ] &&
    pass "step7 default run: every version's count beside the host CG's" ||
    fail "step7 default run: counts compared" "$(grep -E '^(host|check|matrix)' "$TMP/out" | tr '\n' ' ')"

# ---- the same system through SciPy's cg: x and the iteration count ----
PY=
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import scipy' >/dev/null 2>&1; then PY=$p; break; fi
done
if [ -n "$PY" ]; then
    "$bin" --gen poisson:nx=37,ny=29 --precision d --kernel fused --save-matrix "$TMP/A.mtx" --save-b "$TMP/b.mtx" \
        --save-x "$TMP/x.mtx" --tol 1e-10 >"$TMP/out" 2>"$TMP/err"
    it=$(sed -n 's/^solve    converged in \([0-9]*\) iterations.*/\1/p' "$TMP/out")
    py=$("$PY" - "$TMP/A.mtx" "$TMP/b.mtx" "$TMP/x.mtx" "${it:-0}" <<'EOF' 2>&1
import sys, warnings
import numpy as np
import scipy.io, scipy.sparse.linalg as sla
warnings.filterwarnings("ignore", message=".*spmatrix.*", category=DeprecationWarning)   # newer SciPy's mmread
A = scipy.sparse.csr_matrix(scipy.io.mmread(sys.argv[1]))
b = np.asarray(scipy.io.mmread(sys.argv[2])).ravel()
x7 = np.asarray(scipy.io.mmread(sys.argv[3])).ravel()
n = [0]
def count(xk): n[0] += 1
kw = {"rtol": 1e-10} if "rtol" in sla.cg.__code__.co_varnames else {"tol": 1e-10}
x, info = sla.cg(A, b, atol=0, callback=count, maxiter=10000, **kw)
rel = np.linalg.norm(x - x7) / np.linalg.norm(x)
it = int(sys.argv[4])
ok = info == 0 and rel < 1e-8 and abs(n[0] - it) <= 2
print("%s scipy %d iterations, step7 %d, |x - x7|/|x| = %.2g" % ("ok" if ok else "bad", n[0], it, rel))
EOF
)
    [[ $py == ok* ]] && pass "step7 = SciPy's cg on the same A and b: ${py#ok }" || fail "step7 = SciPy's cg on the same A and b" "$py"
else
    skip "step7 against SciPy's cg" "python3-scipy is not installed (make test installs it: apt-get install python3-scipy)"
fi

# ---- oclgrind: every version, float and double, a size that fills no work-group ----
for v in plain fused pipelined; do
    for p in s d; do
        expect_oclgrind "step7 $v $p under oclgrind, poisson 13x11" "--data-races --uninitialized" \
            "$bin" --gen poisson:nx=13,ny=11 --kernel $v --precision $p
    done
done
for v in fused pipelined; do
    expect_oclgrind "step7 $v under oclgrind, --group-size 4, 9x7, local 64" "--data-races --uninitialized" \
        "$bin" --gen poisson:nx=9,ny=7 --kernel $v --group-size 4 --local-size 64
done

# ---- the host code under AddressSanitizer and UndefinedBehaviorSanitizer ----
SAN_BUILD=$ROOT/build-san
if make -s -C "$ROOT" BUILD="$SAN_BUILD" SAN=1 "$SAN_BUILD/step7" >"$TMP/san.log" 2>&1; then
    if have_cpu_device; then
        export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
        for a in "--gen poisson:nx=21,ny=13" "--gen poisson:nx=21,ny=13 --precision d --tol 0 --maxiter 9 --csv $TMP/san.csv" \
                 "--matrix $D/bcsstk01.rsa --precision d --save-x $TMP/sx.mtx --save-b $TMP/sb.mtx"; do
            # shellcheck disable=SC2086
            SPMV_DEVICE=cpu _run "$SAN_BUILD/step7" $a
            st=$(cat "$TMP/status")
            if [ "$st" = 0 ] && ! grep -qE 'runtime error|AddressSanitizer|LeakSanitizer' "$TMP/err"; then
                pass "step7 $a (asan+ubsan): solved, clean"
            else fail "step7 $a (asan+ubsan)" "status $st: $(grep -m1 -E 'runtime error|Sanitizer|error' "$TMP/err")"; fi
        done
        SPMV_DEVICE=cpu _run "$SAN_BUILD/step7" --matrix "$TMP/indef.mtx" --b "$TMP/b_indef.mtx"
        [ "$(cat "$TMP/status")" = 1 ] && ! grep -qE 'runtime error|Sanitizer' "$TMP/err" &&
            pass "step7 breakdown (asan+ubsan): status 1, clean" || fail "step7 breakdown (asan+ubsan)" "$(head -c 300 "$TMP/err")"
        SPMV_DEVICE=cpu _run "$SAN_BUILD/step7" --matrix "$D/west0067.mtx"
        [ "$(cat "$TMP/status")" = 2 ] && ! grep -qE 'runtime error|Sanitizer' "$TMP/err" &&
            pass "step7 refusal (asan+ubsan): status 2, clean" || fail "step7 refusal (asan+ubsan)" "$(head -c 300 "$TMP/err")"
    else
        skip "step7 under the sanitizers" "no OpenCL CPU device here (PoCL)"
    fi
else
    fail "step7 sanitizer build" "$(tail -n 5 "$TMP/san.log" | tr '\n' ' ')"
fi
