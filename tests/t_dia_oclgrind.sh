# tests/t_dia_oclgrind.sh - every OpenCL DIA kernel (steps 1-5) under oclgrind's
# simulator with data-race and uninitialized-value detection, on small cases
# that cover several work-groups, a local size smaller than the diagonal
# count (step3-5's strided copy of the offsets) and rows not a multiple of 4
# (step4-5's last float4). Each run must pass its check and leave no oclgrind
# report on stderr. SPMV_PROBE_MB=0: no bandwidth probe (oclgrind 21.10
# crashes in the probe's read kernel under --uninitialized; not our kernels).
# step5 runs with --data-races only: oclgrind 21.10 marks every read_imagef
# result uninitialized (a kernel that stores one texel of x is reported too).
# chapters: 1 2 3 4 5   (each kernel under oclgrind: STEPS)
source "$(dirname "$0")/lib.sh"
# (without oclgrind each check below is a SKIP: tests/lib.sh expect_oclgrind)
export SPMV_PROBE_MB=0
cases=("--grid 13x11" "--grid 9x7 --radius 10" "--grid 9x7 --radius 10 --local-size 8" "--grid 13x11 --local-size 8")
for s in step1 step2 step3 step4 step5; do
    want_step "$s" || continue
    [ -x "$BUILD/$s" ] || { fail "$s under oclgrind" "no $BUILD/$s"; continue; }
    for c in "${cases[@]}"; do
        flags="--data-races --uninitialized"
        [ "$s" = step5 ] && flags="--data-races"
        # shellcheck disable=SC2086
        expect_oclgrind "$s under oclgrind, $c" "$flags" "$BUILD/$s" $c --runs 1 --warmup 0
    done
done
# step4's cpu kernel: blocks of 1, of 5 (the last one partial), the default,
# and one block larger than the matrix; x read inside its halo only. Out-of-
# bounds accesses and races are checked; --uninitialized is left out because
# oclgrind 21.10 reports "Uninitialized value written" for any kernel that
# zeroes y[row] in one loop and reads it back in a later loop of the same
# work-item (`for (r = lo; r < hi; r++) y[r] = 0; for (...) y[r] += A[r];`
# is reported, the same store and load in one loop is not). The NaN poison of
# the check catches a row the kernel never writes.
want_step step4 || exit 0   # the rest is step4's cpu kernel
for c in "--grid 13x11 --block 1" "--grid 13x11 --block 5 --local-size 3" "--grid 9x7 --radius 10" "--grid 9x7 --block 1000"; do
    # shellcheck disable=SC2086
    expect_oclgrind "step4 cpu under oclgrind, $c" "--data-races" "$BUILD/step4" --kernel cpu $c --runs 1 --warmup 0
done
# and oclgrind does see a read outside x when the halo is one short
sed 's/__global const float \*xh = x + halo;/__global const float *xh = x + halo - 1;/' "$ROOT/step4-vector/cpu/kernel.cl" >"$TMP/oob.cl"
if cmp -s "$ROOT/step4-vector/cpu/kernel.cl" "$TMP/oob.cl"; then
    fail "step4 cpu kernel with a short halo made" "no 'xh = x + halo;' in step4-vector/cpu/kernel.cl"
else
    expect_oclgrind_finds "oclgrind finds the read before x with the halo one short" 'Invalid read' --data-races \
        "$BUILD/step4" --kernel cpu --kernel-file "$TMP/oob.cl" --grid 13x11 --block 5 --runs 1 --warmup 0
fi
