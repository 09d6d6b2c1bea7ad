# tests/t_step9.sh - step9-pcg, preconditioned CG: every version (cg, jacobi,
# ic0 by levels, ic0 after a coloring, ic0 by Jacobi sweeps) in float and
# double on Poisson grids whose sizes are multiples of nothing, on the 3-D
# box of 27 entries a row, and on the real SPD files; each solve's true
# residual against the tolerance; what the preconditioner must change (IC(0)
# fewer iterations than CG on every matrix here; Jacobi as many as CG on
# Poisson, whose diagonal is constant; on a tridiagonal IC(0) is exact: one
# iteration, and n levels; on a diagonal matrix one level); the factor
# (L L^T against A) and each triangular solve checked row by row, and a
# solve made 1% wrong in one row caught (levels and sweeps); bcsstk13's
# pivots shifted, said; refusals (not symmetric, not square, complex, a
# non-positive diagonal: status 2, one line; the sync-free solve on a CPU:
# status 2), --maxiter (status 4, check: MAXITER), b = 0; the CSV rows;
# oclgrind on every version; the sanitizers on the host code.
# chapters: 9
source "$(dirname "$0")/lib.sh"
bin=$BUILD/step9
export SPMV_PROBE_MB=1
if [ ! -x "$bin" ]; then
    fail "step9 tests" "no $bin: run make all"
    exit 0
fi
D=$ROOT/tests/data
VERSIONS="cg jacobi ic0 ic0-color ic0-sweeps ic0-persistent"   # oclgrind's: a CPU's
# the versions `all` runs here: five, and ic0-syncfree on a device it may run on (an NVIDIA GPU)
NV=$("$bin" --gen poisson:nx=5,ny=5 2>/dev/null | grep -c '^==== [a-z0-9-]*: [^s]')
case $NV in 5 | 6) ;; *) fail "step9 tests" "step9 runs $NV versions, not 5 or 6"; NV=5 ;; esac
NIC=$((NV - 2))   # the IC(0) versions: their factor and both solves checked, 3 lines each

solves() {   # NAME STATUS ARGS...: each version run says check: PASS
    local name=$1 want=$2; shift 2
    all_pass "$name" "$want" '==== [a-z0-9-]*: [^s]' "$bin" "$@"
}
# iters VERSION: that version's iteration count in the table of $TMP/out
iters() { awk -v v="$1" '$1 == v && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+\.[0-9]+$/ { print $2 }' "$TMP/out"; }
# the true residual printed is at most the tolerance printed, for N versions
meets_tol() {
    local name=$1 n=$2
    if awk -v want="$n" '/^stop/ { for (i = 1; i <= NF; i++) if ($i == "<=") tol = $(i + 1) + 0 }
            /^true/ { for (i = 1; i <= NF; i++) if ($i == "=") { t = $(i + 1) + 0; k++; if (t > tol) bad = 1 } }
            END { exit bad || k != want }' "$TMP/out"; then pass "$name"
    else fail "$name" "$(grep -E '^(stop|true)' "$TMP/out" | tr '\n' ' ')"; fi
}
# the factor and both solves checked on each IC(0) version of the run (3 lines each)
solves_checked() {
    local name=$1 want=$2
    local n; n=$(grep -cE '^check    (L L\^T|L y = v|U y = v|L.s [0-9]+ sweeps|U.s [0-9]+ sweeps)' "$TMP/out")
    if [ "$n" = "$want" ] && ! grep -qE '^check .*> (the limit )?1$' "$TMP/out"; then pass "$name"
    else fail "$name" "$n of $want factor and solve checks: $(grep -E '^check    (L|U)' "$TMP/out" | tr '\n' '|')"; fi
}

# ---- Poisson, sizes that are multiples of nothing, every version, both precisions ----
for g in 37x29 45x31; do
    w=${g%x*} h=${g#*x}
    for p in s d; do
        solves "step9 poisson $g, $p, every version" 0 --gen "poisson:nx=$w,ny=$h" --precision $p
        [ "$(cat "$TMP/status")" = 3 ] && continue
        meets_tol "step9 poisson $g, $p: the true residual meets --tol, every version" "$NV"
        solves_checked "step9 poisson $g, $p: L L^T and both solves checked, each IC(0) version" $((3 * NIC))
        c=$(iters cg) j=$(iters jacobi) i=$(iters ic0) k=$(iters ic0-color) s=$(iters ic0-sweeps)
        if [ -n "$c" ] && [ "$c" = "$j" ] && [ "$i" -lt "$c" ] && [ "$k" -lt "$c" ] && [ "$s" -lt "$c" ]; then
            pass "step9 poisson $g, $p: Jacobi as many iterations as CG ($c), every IC(0) fewer ($i, $k, $s)"
        else fail "step9 poisson $g, $p: iteration counts" "cg $c jacobi $j ic0 $i color $k sweeps $s"; fi
    done
done
# a red-black grid: 2 colors, 2 levels; natural order: nx + ny - 1 levels
_run "$bin" --gen poisson:nx=37,ny=29 --kernel ic0-color
grep -q '^order    2 colors' "$TMP/out" && grep -q '^levels   L (down the rows): 2 levels' "$TMP/out" &&
    pass "step9 ic0-color: the 5-point grid takes 2 colors, 2 levels" ||
    fail "step9 ic0-color: 2 colors" "$(grep -E '^(order|levels)' "$TMP/out" | tr '\n' '|')"
_run "$bin" --gen poisson:nx=37,ny=29 --kernel ic0
grep -q '^levels   L (down the rows): 65 levels' "$TMP/out" && pass "step9 ic0: the 37 x 29 grid's L has 37 + 29 - 1 levels" ||
    fail "step9 ic0: 65 levels" "$(grep -E '^levels' "$TMP/out" | tr '\n' '|')"
# the 27-point box: 8 colors; rows of 27 entries
solves "step9 stencil27 9x8x7, d, every version" 0 --gen stencil27:nx=9,ny=8,nz=7 --precision d
grep -q '^order    8 colors' "$TMP/out" && pass "step9 stencil27: 8 colors" ||
    fail "step9 stencil27: 8 colors" "$(grep -E '^order' "$TMP/out")"

# ---- long chains and wide levels ----
solves "step9 tridiagonal (poisson 301 x 1), d, IC(0)" 0 --gen poisson:nx=301,ny=1 --precision d --kernel ic0
[ "$(iters ic0)" = 1 ] && grep -q '^levels   L (down the rows): 301 levels' "$TMP/out" &&
    pass "step9 tridiagonal: IC(0) is exact (1 iteration), 301 levels of one row" ||
    fail "step9 tridiagonal: exact IC(0)" "$(iters ic0) iterations; $(grep -E '^levels' "$TMP/out" | head -n 1)"
{
    echo "%%MatrixMarket matrix coordinate real symmetric"
    echo "50 50 50"
    for i in $(seq 1 50); do echo "$i $i $((i * i))"; done
} >"$TMP/diag.mtx"
solves "step9 a diagonal matrix, d, every version" 0 --matrix "$TMP/diag.mtx" --precision d
[ "$(iters jacobi)" = 1 ] && [ "$(iters ic0)" = 1 ] && grep -q '^levels   L (down the rows): 1 levels' "$TMP/out" &&
    pass "step9 diagonal: Jacobi and IC(0) exact (1 iteration), one level" ||
    fail "step9 diagonal" "jacobi $(iters jacobi), ic0 $(iters ic0); $(grep -E '^levels' "$TMP/out" | head -n 1)"
# a level wide enough for its own launch, beside chains (--wide)
solves "step9 --wide 20: wide levels launched, narrow ones chained" 0 --gen poisson:nx=45,ny=31 --kernel ic0 --wide 20
grep -qE '^levels   L .*: [0-9]+ launches \([1-9][0-9]* chains .*; [1-9][0-9]* levels of >= 20 rows' "$TMP/out" &&
    pass "step9 --wide 20: both kinds of launch in one solve" ||
    fail "step9 --wide 20" "$(grep -E '^levels' "$TMP/out" | head -n 1)"

# ---- the real SPD files, double ----
for m in bcsstk01.rsa 494_bus.mtx 1138_bus.mtx; do
    solves "step9 $m, d, every version" 0 --matrix "$D/$m" --precision d
    meets_tol "step9 $m, d: the true residual meets --tol, every version" "$NV"
    c=$(iters cg) i=$(iters ic0)
    [ -n "$i" ] && [ "$i" -lt "$c" ] && pass "step9 $m: IC(0) fewer iterations than CG ($i < $c)" ||
        fail "step9 $m: IC(0) fewer iterations" "ic0 $i, cg $c"
done
solves "step9 bcsstk13, d, ic0 and ic0-color" 0 --matrix "$D/bcsstk13.mtx" --precision d --kernel ic0
grep -qE '^factor   .*a pivot was not positive: A \+ [0-9.e-]+ diag\(A\) factored' "$TMP/out" &&
    pass "step9 bcsstk13: a pivot not positive, the shift said" ||
    fail "step9 bcsstk13: the shift said" "$(grep -E '^factor' "$TMP/out")"
expect_status "step9 bcsstk13 --kernel cg: --maxiter 300 before --tol, status 4" 4 "$bin" --matrix "$D/bcsstk13.mtx" \
    --precision d --kernel cg --maxiter 300
grep -q '^check: MAXITER' "$TMP/out" && ! grep -q '^check: PASS' "$TMP/out" &&
    pass "step9 --maxiter: check: MAXITER, not PASS" || fail "step9 --maxiter verdict" "$(grep '^check:' "$TMP/out")"

# ---- a wrong solve is caught: one row 1% off ----
mkdir -p "$TMP/k"
sed 's|    y\[r.i\] = s \* r.dinv;|    y[r.i] = s * r.dinv * (r.i == 7 ? (VALUE)1.01 : (VALUE)1);|' "$ROOT/step9-pcg/kernel.cl" >"$TMP/k/row.cl"
if cmp -s "$ROOT/step9-pcg/kernel.cl" "$TMP/k/row.cl"; then
    fail "step9 a broken triangular solve" "the sed found nothing to break in kernel.cl"
else
    for v in ic0 ic0-color; do
        expect_status "step9 $v with row 8 of each solve 1% off: status 1" 1 "$bin" --gen poisson:nx=37,ny=29 --kernel $v \
            --kernel-file "$TMP/k/row.cl"
        grep -qE '^check    L y = v .* > (the limit )?1$|^check    L y = v .*\(row 8\) <= 1' "$TMP/out" && grep -q '^check: FAIL' "$TMP/out" &&
            pass "step9 $v: the 1% wrong row caught by the solve's check" ||
            fail "step9 $v: the wrong row caught" "$(grep -E '^check' "$TMP/out" | tr '\n' '|')"
    done
fi
sed 's|        y\[i\] = t \* val\[b - 1\];|        y[i] = t * val[b - 1] * (i == 7 ? (VALUE)1.01 : (VALUE)1);|' \
    "$ROOT/step9-pcg/kernel.cl" >"$TMP/k/serial.cl"
if cmp -s "$ROOT/step9-pcg/kernel.cl" "$TMP/k/serial.cl"; then
    fail "step9 a broken serial solve" "the sed found nothing to break in kernel.cl"
elif [ "$("$BUILD/devices" --type "${SPMV_DEVICE:-}" 2>/dev/null)" != GPU ]; then
    expect_status "step9 ic0-persistent with row 8 of its L solve 1% off: status 1" 1 "$bin" --gen poisson:nx=37,ny=29 \
        --kernel ic0-persistent --kernel-file "$TMP/k/serial.cl"
    grep -qE '^check    L y = v .*\(row 8\) <= 1|^check    L y = v .* > (the limit )?1$' "$TMP/out" && grep -q '^check: FAIL' "$TMP/out" &&
        pass "step9 ic0-persistent: the 1% wrong row of L caught by the solve's check" ||
        fail "step9 ic0-persistent: the wrong row of L caught" "$(grep -E '^check' "$TMP/out" | tr '\n' '|')"
    # its L^T solve (L's rows as columns, trsv_upper) with z_8 1% off
    sed 's|        VALUE zj = z\[j\] \* val\[b - 1\];|        VALUE zj = z[j] * val[b - 1] * (j == 7 ? (VALUE)1.01 : (VALUE)1);|' \
        "$ROOT/step9-pcg/kernel.cl" >"$TMP/k/col.cl"
    if cmp -s "$ROOT/step9-pcg/kernel.cl" "$TMP/k/col.cl"; then
        fail "step9 a broken column solve" "the sed found nothing to break in kernel.cl"
    else
        expect_status "step9 ic0-persistent with row 8 of its U solve 1% off: status 1" 1 "$bin" \
            --gen poisson:nx=37,ny=29 --kernel ic0-persistent --kernel-file "$TMP/k/col.cl"
        grep -qE '^check    U y = v .*\(row 8\) > the limit 1$' "$TMP/out" && grep -q '^check: FAIL' "$TMP/out" &&
            pass "step9 ic0-persistent: the 1% wrong row of U caught by the solve's check" ||
            fail "step9 ic0-persistent: the wrong row of U caught" "$(grep -E '^check' "$TMP/out" | tr '\n' '|')"
    fi
    # the same two breaks where the form solves in natural order (a 27-point box: L's rows long)
    for k in serial col; do
        [ -s "$TMP/k/$k.cl" ] || continue
        which=L; [ $k = col ] && which=U
        expect_status "step9 ic0-persistent in natural order, row 8 of its $which solve 1% off: status 1" 1 "$bin" \
            --gen stencil27:nx=9,ny=8,nz=7 --kernel ic0-persistent --kernel-file "$TMP/k/$k.cl"
        grep -q "^levels .* in natural order" "$TMP/out" &&
            grep -qE "^check    $which y = v .*\(row 8\) > the limit 1\$" "$TMP/out" && grep -q '^check: FAIL' "$TMP/out" &&
            pass "step9 ic0-persistent in natural order: the 1% wrong row of $which caught" ||
            fail "step9 ic0-persistent in natural order: the wrong row of $which caught" \
                "$(grep -E '^check|^levels' "$TMP/out" | tr '\n' '|')"
    done
    # its own product (csr_rows, which its loop runs) 1% off in one row: the product's check
    sed 's|            s += val\[k\] \* p\[col\[k\]\];|            s += val[k] * p[col[k]] * (i == 7 ? (VALUE)1.01 : (VALUE)1);|' \
        "$ROOT/step9-pcg/kernel.cl" >"$TMP/k/csr.cl"
    expect_status "step9 ic0-persistent with row 8 of its product 1% off: status 1" 1 "$bin" --matrix "$D/494_bus.mtx" \
        --precision d --kernel ic0-persistent --kernel-file "$TMP/k/csr.cl"
    grep -qE '^check    the product once more.*\(row 8\).*> the limit 1$' "$TMP/out" && grep -q '^check: FAIL' "$TMP/out" &&
        pass "step9 ic0-persistent: the 1% wrong product caught by the product's check" ||
        fail "step9 ic0-persistent: the wrong product caught" "$(grep -E '^check' "$TMP/out" | tr '\n' '|')"
fi
sed 's|        y_out\[i\] = s \* dinv;|        y_out[i] = s * dinv * (i == 7 ? (VALUE)1.01 : (VALUE)1);|' "$ROOT/step9-pcg/kernel.cl" >"$TMP/k/sweep.cl"
expect_status "step9 ic0-sweeps with row 8 of each sweep 1% off: status 1" 1 "$bin" --gen poisson:nx=37,ny=29 \
    --kernel ic0-sweeps --kernel-file "$TMP/k/sweep.cl"

# ---- --kappa: the Lanczos estimate against the 5-point grid's known spectrum ----
# eigenvalues 4 - 2 cos(i pi / (W + 1)) - 2 cos(j pi / (H + 1)); M = diag(A) = 4 I leaves kappa as it is
kx=$(awk 'BEGIN { pi = atan2(0, -1); lo = 8 - 2 * cos(pi / 38) - 2 * cos(pi / 30) - 4; hi = 8 - lo; print hi / lo }')
kap() { sed -nE 's/^kappa    .*, kappa ([0-9.e+-]+) .*/\1/p' "$TMP/out"; }
for v in cg jacobi; do
    expect_ok "step9 $v --kappa 1000, poisson 37x29, d" "$bin" --gen poisson:nx=37,ny=29 --precision d --kernel $v --kappa 1000
    k=$(kap)
    # printed to 4 digits: above the grid's by no more than that rounding (5e-4)
    awk -v k="$k" -v x="$kx" 'BEGIN { exit !(k > 0 && k <= x * 1.0005 && k >= x * 0.995) }' &&
        pass "step9 $v --kappa: kappa(M^-1 A) $k, the grid's $kx within 0.5% and not above it" ||
        fail "step9 $v --kappa" "kappa ${k:-none}, the grid's $kx"
done
expect_ok "step9 ic0 --kappa 1000, poisson 37x29, d" "$bin" --gen poisson:nx=37,ny=29 --precision d --kernel ic0 --kappa 1000
awk -v k="$(kap)" -v x="$kx" 'BEGIN { exit !(k > 1 && k < x / 5) }' &&
    pass "step9 ic0 --kappa: kappa(M^-1 A) $(kap), below a fifth of A's" || fail "step9 ic0 --kappa" "kappa $(kap), A's $kx"
expect_error "step9 refuses --kappa 0" "--kappa" "$bin" --kappa 0

# ---- bad input: one line, status 2 ----
expect_error "step9 refuses a non-symmetric matrix" "symmetric" "$bin" --matrix "$D/west0067.mtx"
expect_error "step9 refuses a complex matrix" "complex" "$bin" --matrix "$D/herm3.mtx"
expect_error "step9 refuses --sweeps -1" "--sweeps" "$bin" --sweeps -1
expect_error "step9 refuses --wide 0" "--wide" "$bin" --wide 0
expect_error "step9 refuses --kernel ilu" "--kernel" "$bin" --kernel ilu
{
    echo "%%MatrixMarket matrix coordinate real symmetric"
    echo "3 3 4"
    echo "1 1 2"; echo "2 2 -1"; echo "3 3 2"; echo "2 1 0.5"
} >"$TMP/negdiag.mtx"
expect_error "step9 ic0: a diagonal entry not positive, one line" "not positive" "$bin" --matrix "$TMP/negdiag.mtx" \
    --precision d --kernel ic0
expect_error "step9 jacobi: a diagonal entry not positive, one line" "not positive" "$bin" --matrix "$TMP/negdiag.mtx" \
    --precision d --kernel jacobi
if [ "$("$BUILD/devices" --type "${SPMV_DEVICE:-}" 2>/dev/null)" != GPU ]; then
    expect_error "step9 refuses ic0-syncfree where it could hang (this CPU)" "NVIDIA" "$bin" --kernel ic0-syncfree
    expect_output "step9 --kernel all says ic0-syncfree is skipped here" '^==== ic0-syncfree: skipped' "$bin" \
        --gen poisson:nx=9,ny=7
    # the whole loop in one work-item: the same iterations as ic0 (the same factor, exact solves)
    for m in "--gen poisson:nx=37,ny=29" "--matrix $D/1138_bus.mtx --precision d"; do
        # shellcheck disable=SC2086
        solves "step9 ic0 and ic0-persistent, $m" 0 $m
        a=$(iters ic0) b=$(iters ic0-persistent)
        [ -n "$a" ] && [ -n "$b" ] && [ $((a - b)) -le 1 ] && [ $((b - a)) -le 1 ] &&
            pass "step9 $m: ic0-persistent's iterations are ic0's, within 1 ($b, $a)" ||
            fail "step9 $m: ic0-persistent's iterations" "ic0 $a, ic0-persistent $b"
    done
else
    expect_error "step9 refuses ic0-persistent on a GPU" "CPU device" "$bin" --kernel ic0-persistent
    expect_output "step9 --kernel all says ic0-persistent is skipped here" '^==== ic0-persistent: skipped' "$bin" \
        --gen poisson:nx=9,ny=7
fi
# b = 0: x = 0, no iteration
printf '%%%%MatrixMarket matrix array real general\n%s 1\n' 63 >"$TMP/b0.mtx"
for i in $(seq 63); do echo 0 >>"$TMP/b0.mtx"; done
solves "step9 b = 0: every version solved in 0 iterations" 0 --gen poisson:nx=9,ny=7 --b "$TMP/b0.mtx"
[ "$(awk -v nv="$NV" '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+\.[0-9]+$/ { s += $2; k++ } END { print (k == nv ? s : -1) + 0 }' "$TMP/out")" = 0 ] &&
    pass "step9 b = 0: 0 iterations" || fail "step9 b = 0" "$(grep -E '^(cg|jacobi|ic0)' "$TMP/out" | tr '\n' '|')"

# ---- the rows ----
rm -f "$TMP/p.csv" "$TMP/t.csv"
expect_ok "step9 --csv and --trsv-csv" "$bin" --gen poisson:nx=19,ny=17 --csv "$TMP/p.csv" --trsv-csv "$TMP/t.csv"
H9=step,kernel,device,driver,matrix,rows,nnz,precision,tol,iterations,converged,rel_residual,true_residual,setup_ms,solve_ms,total_ms,ms_per_iter,apply_ms_per_iter,levels,check,date,git_rev
HT=step,kernel,device,driver,matrix,rows,nnz_factor,precision,levels,ms_per_solve,us_per_level,check,date,git_rev
if [ "$(head -n 1 "$TMP/p.csv")" = "$H9" ] && [ "$(grep -c '^step9,' "$TMP/p.csv")" = "$NV" ] &&
    awk -F, 'NR > 1 && (NF != 22 || $20 != "PASS" || ($16 - $14 - $15) > 1e-3 || ($16 - $14 - $15) < -1e-3) { exit 1 }' "$TMP/p.csv"; then
    pass "step9 --csv: the header, a row a version ($NV) of 22 fields, PASS, total = setup + solve"
else fail "step9 --csv" "$(head -n 3 "$TMP/p.csv" | tr '\n' '|')"; fi
if [ "$(head -n 1 "$TMP/t.csv")" = "$HT" ] && [ "$(grep -c '^step9,ic0' "$TMP/t.csv")" = $((NV - 3)) ] &&
    awk -F, 'NR > 1 && NF != 14 { exit 1 }' "$TMP/t.csv"; then
    pass "step9 --trsv-csv: the header, a row for each exact solve ($((NV - 3))), 14 fields"
else fail "step9 --trsv-csv" "$(head -n 3 "$TMP/t.csv" | tr '\n' '|')"; fi

# ---- oclgrind: every version, a size that fills no work-group ----
for v in $VERSIONS; do
    expect_oclgrind "step9 $v under oclgrind, poisson 13x11" "--data-races --uninitialized" \
        "$bin" --gen poisson:nx=13,ny=11 --kernel $v
done
expect_oclgrind "step9 ic0 d under oclgrind, bcsstk01, --wide 5" "--data-races --uninitialized" \
    "$bin" --matrix "$D/bcsstk01.rsa" --precision d --kernel ic0 --wide 5

# ---- the sanitizers on the host code ----
SAN_BUILD=$ROOT/build-san
if make -s -C "$ROOT" BUILD="$SAN_BUILD" SAN=1 "$SAN_BUILD/step9" >"$TMP/san.log" 2>&1; then
    if have_cpu_device; then
        export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
        for a in "--gen poisson:nx=21,ny=13" "--matrix $D/bcsstk01.rsa --precision d" "--matrix $TMP/negdiag.mtx --kernel ic0"; do
            # shellcheck disable=SC2086
            SPMV_DEVICE=cpu _run "$SAN_BUILD/step9" $a
            st=$(cat "$TMP/status")
            if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error' "$TMP/err"; then
                fail "step9 under ASan/UBSan: $a" "$(grep -E 'ERROR|runtime error' "$TMP/err" | head -n 2 | tr '\n' ' ')"
            elif [ "$st" = 0 ] || [ "$st" = 2 ]; then pass "step9 under ASan/UBSan: $a (status $st)"
            else fail "step9 under ASan/UBSan: $a" "status $st"; fi
        done
    else
        skip "step9 under the sanitizers" "no OpenCL CPU device here (PoCL)"
    fi
else
    fail "step9 sanitizer build" "$(tail -n 5 "$TMP/san.log" | tr '\n' ' ')"
fi
