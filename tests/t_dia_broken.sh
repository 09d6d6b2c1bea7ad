# tests/t_dia_broken.sh - the check catches a broken kernel: for each OpenCL DIA
# step, a copy of its kernel.cl with one deliberate off-by-one, run through
# --kernel-file FILE, must end "check: FAIL" with status 1. Each break is a sed that
# must change the file: a pattern that no longer matches fails the test loudly
# instead of quietly running the unbroken kernel.
# chapters: 1 2 3 4 5   (a broken kernel of each: STEPS)
source "$(dirname "$0")/lib.sh"
export SPMV_PROBE_MB=${SPMV_PROBE_MB:-16}
QUICK="--runs 1 --warmup 0"

# broken NAME STEP 'sed expression' ARGS... : break STEP's kernel, expect FAIL
# (KERNEL=cpu/kernel.cl broken ...: the kernel in that file of the step's folder)
broken() {
    local name=$1 s=$2 expr=$3; shift 3
    want_step "$s" || return 0
    local dir; dir=$(ls -d "$ROOT/$s"-* 2>/dev/null | head -1)
    local src=$dir/${KERNEL:-kernel.cl} dst=$TMP/$s-broken.cl
    if [ ! -x "$BUILD/$s" ] || [ ! -f "$src" ]; then
        fail "$s broken: $name" "no $BUILD/$s or $src"
        return
    fi
    sed "$expr" "$src" >"$dst"
    if cmp -s "$src" "$dst"; then
        fail "$s broken: $name" "sed '$expr' changed nothing in $src: update the pattern"
        return
    fi
    _run "$BUILD/$s" --kernel-file "$dst" $QUICK "$@"
    local st; st=$(cat "$TMP/status")
    if [ "$st" = 1 ] && grep -q '^check: FAIL' "$TMP/out"; then
        pass "$s broken: $name"
    else
        fail "$s broken: $name" "status $st, expected 1 and check: FAIL: $(tail -n 2 "$TMP/out" "$TMP/err" | tr '\n' ' ')"
    fi
}

skip_last='s/diag < diags; diag++/diag < diags - 1; diag++/'
for s in step1 step2 step3 step4 step5; do
    broken "last diagonal skipped" $s "$skip_last" --grid 37x29
done
# the tail of y: 35 rows, the last work-item owns rows 32-34 and drops row 34
for s in step4 step5; do
    broken "last row of a partial float4 unwritten" $s 's/if (row + 2 < rows)/if (row + 2 < rows - 1)/' --grid 7x5
done
# the unaligned reader: the fourth float of x[col .. col+3] repeats the third
broken "unaligned read of x, the last float of cases 1-3" step5 's/(uint4)(r, r + 1, r + 2, r + 3)/(uint4)(r, r + 1, r + 2, r + 2)/' --grid 37x29
# the local offsets copied as far as one pass of the group reaches (the
# article's copy): with 64 work-items and 317 diagonals, 253 offsets are garbage
broken "offsets copied only up to the local size" step3 's/i += get_local_size(0)/i += diags/' --grid 41x39 --radius 10 --local-size 64
# step4's cpu kernel (step4-vector/cpu/kernel.cl): its zeroing of y, its four-diagonal pass, its block end
cpu="--kernel cpu --grid 37x29 --block 100"
KERNEL=cpu/kernel.cl broken "cpu: first row of each block not zeroed" step4 's/y\[row\] = 0.0f;/y[row] = row == lo ? y[row] : 0.0f;/' $cpu
KERNEL=cpu/kernel.cl broken "cpu: fourth diagonal of each pass dropped" step4 's/ + a3\[row\] \* x3\[row\]//' $cpu
KERNEL=cpu/kernel.cl broken "cpu: last row of each block dropped" step4 's/? lo + block : rows;/? lo + block - 1 : rows;/' $cpu
