# tests/t_step9_cuda.sh - chapter 9's CUDA yardstick, build/cusparse-pcg
# (vendor/cusparse-pcg): the CUDA sample conjugateGradientPrecond's loop with
# IC(0) by cusparseXcsric02 and its two solves by cusparseSpSV. Its --help
# lists its own options (--spsv-only, --pcg-csv, --trsv-csv) and the default
# precision d; an unknown flag, and its own flags misused, are one line and
# status 2. Without a GPU: one line, status 3, and SKIP rows named after the
# form under step9's PCG header (22 fields) or the triangular solves' (14,
# two rows: L and L^T). With a GPU (nvidia-smi -L): Poisson 64x64 and
# bcsstk01 converge in double (status 0), their rows PASS with every time
# filled, total = setup + solve, and the levels of L (127 on the 64x64 grid,
# its antidiagonals); IC(0) takes fewer iterations than step7's CG on the same
# system (where build/step7 is built and solves it); --spsv-only checks both
# solves PASS, in double and float, with L's entries and levels in its rows;
# --maxiter before --tol is status 4; a matrix whose IC(0) has a negative
# pivot, or no diagonal entry, is one line and status 1. Every part is a SKIP
# where build/cusparse-pcg is not built (make cusparse: nvcc and cuSPARSE).
# chapters: 9
source "$(dirname "$0")/lib.sh"
PCG_HEADER=step,kernel,device,driver,matrix,rows,nnz,precision,tol,iterations,converged,rel_residual,true_residual,setup_ms,solve_ms,total_ms,ms_per_iter,apply_ms_per_iter,levels,check,date,git_rev
TRSV_HEADER=step,kernel,device,driver,matrix,rows,nnz_factor,precision,levels,ms_per_solve,us_per_level,check,date,git_rev
D=$ROOT/tests/data
bin=$BUILD/cusparse-pcg

# col CSV NAME [ROW]: the field NAME of the CSV's last row (or of data row ROW, 1-based)
col() { awk -F, -v k="$2" -v r="${3:-0}" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    r == 0 || NR - 1 == r { v = $c[k] } END { print v }' "$1"; }
# header_ok NAME CSV HEADER FIELDS: the first line is HEADER, every line has FIELDS fields
header_ok() {
    if [ "$(head -n 1 "$2")" = "$3" ] && awk -F, -v n="$4" 'NF != n { exit 1 }' "$2"; then pass "$1"
    else fail "$1" "$(head -n 3 "$2" | tr '\n' '|')"; fi
}
# one_line NAME: the last command's stderr is one line
one_line() {
    [ "$(grep -c . "$TMP/err")" = 1 ] && pass "$1" || fail "$1" "$(tr '\n' '|' <"$TMP/err")"
}
# positive V...: every V is a number above 0
positive() { awk 'BEGIN { for (i = 1; i < ARGC; i++) if (ARGV[i] == "" || !(ARGV[i] + 0 > 0)) exit 1 }' "$@"; }

if [ ! -x "$bin" ]; then
    skip "cusparse-pcg" "build/cusparse-pcg is not built (make cusparse: nvcc and cuSPARSE)"
    exit 0
fi

# ---- the command line: no GPU needed ----
expect_output "cusparse-pcg --help lists --spsv-only" '^  --spsv-only +factor, then time cusparseSpSV_solve' "$bin" --help
expect_output "cusparse-pcg --help lists --pcg-csv FILE" '^  --pcg-csv FILE +append the solve' "$bin" --help
expect_output "cusparse-pcg --help lists --trsv-csv FILE" '^  --trsv-csv FILE +--spsv-only: append' "$bin" --help
expect_output "cusparse-pcg --help: precision d by default" '^  --precision P .*\(default d\)' "$bin" --help
expect_error "cusparse-pcg: an unknown flag" "unknown option --fast; cusparse-pcg takes" "$bin" --fast
expect_error "cusparse-pcg refuses the DIA grid" "does not take --grid" "$bin" --grid 8
expect_error "cusparse-pcg: --pcg-csv needs a file" "--pcg-csv needs a value" "$bin" --pcg-csv
expect_error "cusparse-pcg: --spsv-only takes no value" "--spsv-only takes no value" "$bin" --spsv-only=1
expect_error "cusparse-pcg: --trsv-csv without --spsv-only" "--trsv-csv: the solves are timed alone with --spsv-only" \
    "$bin" --trsv-csv "$TMP/never.csv"
expect_error "cusparse-pcg: --spsv-only with --tol" "--tol: --spsv-only runs no solve" "$bin" --spsv-only --tol 1e-6
expect_error "cusparse-pcg: --spsv-only with --pcg-csv" "--pcg-csv: --spsv-only runs no solve" "$bin" --spsv-only \
    --pcg-csv "$TMP/never.csv"
[ ! -e "$TMP/never.csv" ] && pass "cusparse-pcg: a refused command line writes no file" ||
    fail "cusparse-pcg: a refused command line writes no file" "$(cat "$TMP/never.csv")"

if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    # ---- no GPU: one line, status 3, SKIP rows named after the form ----
    rm -f "$TMP/p.csv" "$TMP/t.csv"
    expect_status "cusparse-pcg without a GPU: status 3" 3 "$bin" --gen poisson:nx=8 --pcg-csv "$TMP/p.csv"
    one_line "cusparse-pcg without a GPU: one line on stderr"
    grep -q '^skipped: no CUDA device' "$TMP/out" && pass "cusparse-pcg without a GPU: says no CUDA device" ||
        fail "cusparse-pcg without a GPU: says no CUDA device" "$(cat "$TMP/out")"
    header_ok "cusparse-pcg without a GPU: step9's PCG header, 22 fields a row" "$TMP/p.csv" "$PCG_HEADER" 22
    got="$(grep -c . "$TMP/p.csv"),$(col "$TMP/p.csv" step),$(col "$TMP/p.csv" kernel),$(col "$TMP/p.csv" check),$(col "$TMP/p.csv" precision)"
    [ "$got" = "2,vendor,cusparse-ic0,SKIP,d" ] && pass "cusparse-pcg without a GPU: one SKIP row of cusparse-ic0, double" ||
        fail "cusparse-pcg without a GPU: one SKIP row of cusparse-ic0, double" "$got"
    expect_status "cusparse-pcg --spsv-only without a GPU: status 3" 3 "$bin" --gen poisson:nx=8 --spsv-only \
        --precision s --trsv-csv "$TMP/t.csv"
    one_line "cusparse-pcg --spsv-only without a GPU: one line on stderr"
    header_ok "cusparse-pcg --spsv-only without a GPU: the triangular solves' header, 14 fields a row" "$TMP/t.csv" \
        "$TRSV_HEADER" 14
    got="$(grep -c . "$TMP/t.csv"),$(col "$TMP/t.csv" kernel 1),$(col "$TMP/t.csv" kernel 2),$(col "$TMP/t.csv" check 1),$(col "$TMP/t.csv" check 2),$(col "$TMP/t.csv" precision)"
    [ "$got" = "3,cusparse-spsv,cusparse-spsv-t,SKIP,SKIP,s" ] &&
        pass "cusparse-pcg --spsv-only without a GPU: SKIP rows of cusparse-spsv and cusparse-spsv-t" ||
        fail "cusparse-pcg --spsv-only without a GPU: SKIP rows of cusparse-spsv and cusparse-spsv-t" "$got"
    exit 0
fi

# ---- a GPU: the solves ----
# the course's CG (step7 plain) on the same system: its iterations, or "" where it cannot run here
step7_iters() {
    [ -x "$BUILD/step7" ] || return 0
    rm -f "$TMP/s7.csv"
    _run "$BUILD/step7" "$@" --precision d --kernel plain --csv "$TMP/s7.csv"
    [ "$(cat "$TMP/status")" = 0 ] && col "$TMP/s7.csv" iterations
}
for sys in "poisson:nx=64" "$D/bcsstk01.rsa"; do
    case $sys in poisson*) args=(--gen "$sys") name="poisson 64x64" n=4096 ;; *) args=(--matrix "$sys") name=bcsstk01 n=48 ;; esac
    rm -f "$TMP/p.csv"
    expect_ok "cusparse-pcg: $name converges in double" "$bin" "${args[@]}" --precision d --pcg-csv "$TMP/p.csv" \
        --history "$TMP/h.csv"
    header_ok "cusparse-pcg: $name: step9's PCG header, 22 fields a row" "$TMP/p.csv" "$PCG_HEADER" 22
    it=$(col "$TMP/p.csv" iterations)
    got="$(col "$TMP/p.csv" kernel),$(col "$TMP/p.csv" rows),$(col "$TMP/p.csv" precision),$(col "$TMP/p.csv" converged),$(col "$TMP/p.csv" check)"
    [ "$got" = "cusparse-ic0,$n,d,1,PASS" ] && pass "cusparse-pcg: $name: a PASS row of cusparse-ic0, converged" ||
        fail "cusparse-pcg: $name: a PASS row of cusparse-ic0, converged" "$got"
    tr=$(col "$TMP/p.csv" true_residual)
    awk -v t="$tr" 'BEGIN { exit !(t != "" && t + 0 <= 1e-10) }' && pass "cusparse-pcg: $name: true residual $tr meets 1e-10" ||
        fail "cusparse-pcg: $name: the true residual meets 1e-10" "'$tr'"
    s=$(col "$TMP/p.csv" setup_ms) v=$(col "$TMP/p.csv" solve_ms) t=$(col "$TMP/p.csv" total_ms)
    if positive "$s" "$v" "$t" "$(col "$TMP/p.csv" ms_per_iter)" "$(col "$TMP/p.csv" apply_ms_per_iter)" "$it" &&
        awk -v s="$s" -v v="$v" -v t="$t" 'BEGIN { d = t - s - v; exit !(d < 1e-5 * t && -d < 1e-5 * t) }'; then
        pass "cusparse-pcg: $name: setup, solve, total = setup + solve, per iteration and apply, all filled"
    else fail "cusparse-pcg: $name: every time filled, total = setup + solve" "$(tail -n 1 "$TMP/p.csv")"; fi
    [ "$(col "$TMP/p.csv" device)" != "-" ] && col "$TMP/p.csv" driver | grep -q 'CUDA runtime' &&
        pass "cusparse-pcg: $name: the row names the GPU and the CUDA versions" ||
        fail "cusparse-pcg: $name: the row names the GPU and the CUDA versions" "$(tail -n 1 "$TMP/p.csv")"
    grep -qE '^setup +[0-9.]+ ms' "$TMP/out" && grep -qE "^solve +[0-9.]+ ms, $it iterations, [0-9.]+ ms an iteration" "$TMP/out" &&
        pass "cusparse-pcg: $name: the setup and solve lines" ||
        fail "cusparse-pcg: $name: the setup and solve lines" "$(grep -E '^(setup|solve)' "$TMP/out" | tr '\n' '|')"
    [ "$(grep -c . "$TMP/h.csv")" = $((it + 2)) ] && pass "cusparse-pcg: $name: --history, a line per iteration" ||
        fail "cusparse-pcg: $name: --history, a line per iteration" "$(grep -c . "$TMP/h.csv") lines for $it iterations"
    if [ "$name" = "poisson 64x64" ]; then
        [ "$(col "$TMP/p.csv" levels)" = 127 ] && pass "cusparse-pcg: poisson 64x64: L has 127 levels (the antidiagonals)" ||
            fail "cusparse-pcg: poisson 64x64: L has 127 levels (the antidiagonals)" "$(col "$TMP/p.csv" levels)"
    fi
    k7=$(step7_iters "${args[@]}")
    if [ -z "$k7" ]; then
        skip "cusparse-pcg: $name: IC(0) against step7's CG" "build/step7 is not built or cannot solve here"
    elif [ -n "$it" ] && [ "$it" -lt "$k7" ]; then
        pass "cusparse-pcg: $name: IC(0) takes fewer iterations than step7's CG ($it against $k7)"
    else
        fail "cusparse-pcg: $name: IC(0) takes fewer iterations than step7's CG" "$it against $k7"
    fi
done

# --spsv-only: both solves checked row by row, the rows' entries and levels
nnz=$((5 * 4096 - 4 * 64))
for p in d s; do
    rm -f "$TMP/t.csv"
    expect_ok "cusparse-pcg --spsv-only, $p: poisson 64x64, both solves PASS" "$bin" --gen poisson:nx=64 --precision $p \
        --spsv-only --trsv-csv "$TMP/t.csv"
    header_ok "cusparse-pcg --spsv-only, $p: the triangular solves' header, 14 fields a row" "$TMP/t.csv" "$TRSV_HEADER" 14
    got="$(col "$TMP/t.csv" kernel 1),$(col "$TMP/t.csv" kernel 2),$(col "$TMP/t.csv" check 1),$(col "$TMP/t.csv" check 2)"
    got="$got,$(col "$TMP/t.csv" nnz_factor 1),$(col "$TMP/t.csv" levels 1),$(col "$TMP/t.csv" levels 2),$(col "$TMP/t.csv" precision)"
    [ "$got" = "cusparse-spsv,cusparse-spsv-t,PASS,PASS,$(((nnz + 4096) / 2)),127,127,$p" ] &&
        positive "$(col "$TMP/t.csv" ms_per_solve 1)" "$(col "$TMP/t.csv" us_per_level 2)" &&
        pass "cusparse-pcg --spsv-only, $p: rows of L and L^T, PASS, L's entries, 127 levels, times" ||
        fail "cusparse-pcg --spsv-only, $p: rows of L and L^T, PASS, L's entries, 127 levels, times" "$got"
    grep -qE '^spsv +L solve [0-9.]+ ms, levels 127, [0-9.]+ us a level' "$TMP/out" &&
        grep -qE '^spsv +L\^T solve [0-9.]+ ms, levels 127, [0-9.]+ us a level' "$TMP/out" &&
        pass "cusparse-pcg --spsv-only, $p: the spsv lines" ||
        fail "cusparse-pcg --spsv-only, $p: the spsv lines" "$(grep -E '^(spsv|check)' "$TMP/out" | tr '\n' '|')"
done
expect_ok "cusparse-pcg --spsv-only: bcsstk01, both solves PASS" "$bin" --matrix "$D/bcsstk01.rsa" --spsv-only
[ "$(grep -c '^check: PASS' "$TMP/out")" = 2 ] && pass "cusparse-pcg --spsv-only: bcsstk01: check: PASS for L and L^T" ||
    fail "cusparse-pcg --spsv-only: bcsstk01: check: PASS for L and L^T" "$(grep '^check' "$TMP/out" | tr '\n' '|')"

# --maxiter before --tol; IC(0) with a negative pivot, and with no diagonal entry
rm -f "$TMP/m.csv"
expect_status "cusparse-pcg: --maxiter reached before --tol is status 4" 4 "$bin" --gen poisson:nx=64 --maxiter 3 \
    --pcg-csv "$TMP/m.csv"
[ "$(col "$TMP/m.csv" check),$(col "$TMP/m.csv" iterations),$(col "$TMP/m.csv" ms_per_iter)" = "MAXITER,3," ] &&
    pass "cusparse-pcg: --maxiter 3: a MAXITER row of 3 iterations, no time" ||
    fail "cusparse-pcg: --maxiter 3: a MAXITER row of 3 iterations, no time" "$(tail -n 1 "$TMP/m.csv")"
printf '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 1\n2 1 2\n2 2 1\n' >"$TMP/indef.mtx"
expect_status "cusparse-pcg: IC(0) with a negative pivot: status 1" 1 "$bin" --matrix "$TMP/indef.mtx"
one_line "cusparse-pcg: IC(0) with a negative pivot: one line"
grep -q 'pivot.* row 2' "$TMP/err" && pass "cusparse-pcg: IC(0) with a negative pivot: names row 2" ||
    fail "cusparse-pcg: IC(0) with a negative pivot: names row 2" "$(cat "$TMP/err")"
printf '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 1\n2 2 4\n' >"$TMP/nodiag.mtx"
expect_status "cusparse-pcg: no diagonal entry in row 1: status 1" 1 "$bin" --matrix "$TMP/nodiag.mtx"
one_line "cusparse-pcg: no diagonal entry in row 1: one line"
grep -q 'zero pivot at row 1' "$TMP/err" && pass "cusparse-pcg: no diagonal entry: csric02_zeroPivot's row 1, said" ||
    fail "cusparse-pcg: no diagonal entry: csric02_zeroPivot's row 1, said" "$(cat "$TMP/err")"
