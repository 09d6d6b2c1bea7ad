# tests/t_step6.sh - step6-csr: the three CSR kernels (scalar, vector,
# adaptive in its CPU and GPU shapes) in the four precisions against
# the reference on real matrices (rectangular, pattern, complex, Hermitian,
# Harwell-Boeing) and on generated ones (empty rows first and last, rows of
# length 1-3, one row of more than 10,000 nonzeros, tall and wide shapes);
# every group size of the vector kernel, local sizes that are not multiples of
# it; a broken kernel must FAIL; oclgrind finds no race, no uninitialized read
# and no bad access (and does find the race when a barrier is removed); bad
# input is one line and status 2.
# chapters: 6 7 8   (chapter 6's kernels, which steps 7 and 8 build)
source "$(dirname "$0")/lib.sh"
bin=$BUILD/step6
gen=$BUILD/tests/gen_csr
QUICK="--runs 2 --warmup 1"
export SPMV_PROBE_MB=1
if [ ! -x "$bin" ] || [ ! -x "$gen" ]; then
    fail "step6 tests" "no $bin or $gen: run make all"
    exit 0
fi
D=$ROOT/tests/data

# both NAME ARGS...: status 0, all three kernels ran and passed (or the device
# has no doubles: status 3 and the skip says why); then the adaptive kernel
# alone in its GPU shape (work-groups of 32 sharing blocks of 128 nonzeros,
# so that long rows are split even in small matrices)
both() {
    local name=$1; shift
    _run "$bin" "$@"
    local st; st=$(cat "$TMP/status")
    local n; n=$(grep -c '^check: PASS' "$TMP/out")
    if [ "$st" = 3 ] && grep -q 'skipped: .*cl_khr_fp64' "$TMP/out"; then
        pass "$name (skipped: no cl_khr_fp64)"
        return
    elif [ "$st" = 0 ] && [ "$n" = 3 ] && grep -q '^---- scalar' "$TMP/out" && grep -q '^---- vector-' "$TMP/out" &&
        grep -q '^---- adaptive' "$TMP/out"; then
        pass "$name"
    else
        fail "$name" "status $st, $n PASS: $(grep -E '^check|error' "$TMP/out" "$TMP/err" | tr '\n' ' ')"
        return
    fi
    _run "$bin" "$@" --kernel adaptive --local-size 32
    st=$(cat "$TMP/status")
    [ "$st" = 0 ] && grep -q '^---- adaptive: .*local 32' "$TMP/out" && grep -q '^check: PASS' "$TMP/out" &&
        pass "$name, adaptive local 32" ||
        fail "$name, adaptive local 32" "status $st: $(grep -E '^check|error' "$TMP/out" "$TMP/err" | tr '\n' ' ')"
}

# generated matrices (gen_csr: empty rows 0 and last, length 1-3 rows, one
# full row in the middle)
"$gen" "$TMP/wide.mtx" 300 12011 5 real && "$gen" "$TMP/widez.mtx" 300 12011 6 complex &&
    "$gen" "$TMP/tall.mtx" 1500 37 7 real && "$gen" "$TMP/tallz.mtx" 1500 37 8 complex &&
    "$gen" "$TMP/one.mtx" 1 1 9 real ||
    fail "gen_csr" "could not write the generated matrices"
expect_output "gen_csr: a row of more than 10,000 nonzeros" 'max 12011, spread \(std/mean\) [0-9.]+, typical [0-9.]+ .*, [0-9]+ empty' \
    "$bin" --matrix "$TMP/wide.mtx" --kernel scalar $QUICK

real_set=("$D/west0067.mtx" "$D/lp_afiro.mtx" "$D/can___24.mtx" "$D/bcsstk01.rsa" "$TMP/wide.mtx" "$TMP/tall.mtx" "$TMP/one.mtx")
cplx_set=("$D/young1c.mtx" "$D/cha.mtx" "$D/qc324.cua" "$TMP/widez.mtx" "$TMP/tallz.mtx")

for p in s d c z; do
    for f in "${real_set[@]}"; do
        both "step6 -p $p $(basename "$f")" --matrix "$f" --precision "$p" $QUICK
    done
    [ "$p" = s ] || [ "$p" = d ] && continue
    for f in "${cplx_set[@]}"; do
        both "step6 -p $p $(basename "$f")" --matrix "$f" --precision "$p" $QUICK
    done
done
both "step6 grid 37x29" --grid 37x29 $QUICK
both "step6 grid 1x1" --grid 1x1 $QUICK

# the vector kernel's group sizes, on rows far longer and far shorter than the group
for g in 1 2 4 8 16 32 64 128; do
    expect_output "step6 vector group $g, wide (s)" "^---- vector-$g:" "$bin" --matrix "$TMP/wide.mtx" --kernel vector --group-size $g $QUICK
    expect_output "step6 vector group $g, young1c (z)" "^---- vector-$g:" "$bin" --matrix "$D/young1c.mtx" --precision z --kernel vector --group-size $g $QUICK
done
# the default group size follows the mean row length
expect_output "step6 default group: 16 for the grid (71 per row)" '^---- vector-16:' "$bin" --grid 37x29 --kernel vector $QUICK
expect_output "step6 default group: 8 for radius 4 (45 per row)" '^---- vector-8:' "$bin" --grid 40 --radius 4 --kernel vector $QUICK
expect_output "step6 default group: 32 for radius 8 (165 per row)" '^---- vector-32:' "$bin" --grid 40 --radius 8 --kernel vector $QUICK
expect_output "step6 default group: 2 for west0067 (4.4 per row)" '^---- vector-2:' "$bin" --matrix "$D/west0067.mtx" --kernel vector $QUICK
expect_output "step6 default group: 2 for lp_afiro (3.8 per row)" '^---- vector-2:' "$bin" --matrix "$D/lp_afiro.mtx" --kernel vector $QUICK

# local sizes: any for scalar; multiples of the group (not only powers of two) for vector
expect_output "step6 scalar local 33" 'check: PASS' "$bin" --matrix "$TMP/tall.mtx" --kernel scalar --local-size 33 $QUICK
expect_output "step6 scalar local 1" 'check: PASS' "$bin" --matrix "$D/west0067.mtx" --kernel scalar --local-size 1 $QUICK
expect_output "step6 vector group 32 local 96" 'local 96' "$bin" --matrix "$TMP/wide.mtx" --kernel vector --group-size 32 --local-size 96 $QUICK
expect_output "step6 vector group 8 local 8 (one row per work-group)" 'check: PASS' "$bin" --matrix "$TMP/tallz.mtx" --precision c --kernel vector --group-size 8 --local-size 8 $QUICK
expect_error "step6 vector local 48 not a multiple of 32" "--local-size 48 is not a multiple of the group size 32" \
    "$bin" --matrix "$TMP/wide.mtx" --kernel vector --group-size 32 --local-size 48
expect_error "step6 vector local 16 below group 32" "--local-size 16 is not a multiple of the group size 32" \
    "$bin" --grid 40 --radius 8 --kernel vector --local-size 16
expect_error "step6 all kernels, local 100: not a power of two for adaptive" "--local-size 100 is not a power of two" \
    "$bin" --grid 37x29 --group-size 8 --local-size 100

# the CSV: one row per kernel, precision and FLOPs per complex nonzero
rm -f "$TMP/r.csv"
"$bin" --matrix "$D/young1c.mtx" --precision c $QUICK --csv "$TMP/r.csv" >"$TMP/out" 2>&1
if [ "$(grep -cE '^step6,(scalar|vector-[0-9]+|adaptive),.*,young1c,841,841,4089,0,c,2,.*,PASS,' "$TMP/r.csv")" = 3 ]; then
    pass "step6 CSV: a PASS row per kernel, precision c"
else
    fail "step6 CSV: a PASS row per kernel" "$(tr '\n' '|' <"$TMP/r.csv")"
fi
grep -q 'GFLOP/s (8 per complex nonzero)' "$TMP/out" && pass "step6 complex GFLOP/s counts 8 per nonzero" ||
    fail "step6 complex GFLOP/s counts 8 per nonzero" "$(grep speed "$TMP/out" | head -1)"

# `make step6 run`: without options, every kernel on the default set, a summary row each
expect_output "make step6 run: the default set" '^step6 +vector-[0-9]+ +young1c ' make -s -C "$ROOT" step6 run
for m in grid512x512r5 west0067 bfwa62 lp_afiro 1138_bus young1c; do
    n=$(sed -n '/= summary =/,$p' "$TMP/out" | grep -cE "^step6 +(scalar|vector-[0-9]+|adaptive) +$m +.* PASS$")
    [ "$n" = 3 ] && pass "make step6 run: $m, three kernels PASS" || fail "make step6 run: $m, three kernels PASS" "$n rows"
done
expect_output "make step6 run ARGS: one matrix, three rows" '^step6 +scalar +grid37x29r5 ' make -s -C "$ROOT" step6 run ARGS="--grid 37x29 --runs 2"
n=$(sed -n '/= summary =/,$p' "$TMP/out" | grep -cE '^step6 ')
[ "$n" = 3 ] && pass "make step6 run ARGS: three rows" || fail "make step6 run ARGS: three rows" "$n rows"

# a broken kernel: the last entry of every row dropped, in both kernels
sed 's/int end = ptr\[row + 1\];/int end = ptr[row + 1] - 1;/' "$ROOT/step6-csr/kernel.cl" >"$TMP/broken.cl"
if [ "$(grep -c 'int end = ptr\[row + 1\] - 1;' "$TMP/broken.cl")" != 2 ]; then
    fail "step6 broken kernel made" "the sed pattern 'int end = ptr[row + 1];' is not in both kernels of step6-csr/kernel.cl"
else
    for k in scalar vector; do
        for p in s z; do
            expect_status "step6 broken $k ($p) exits 1" 1 "$bin" --matrix "$D/west0067.mtx" --precision $p --kernel $k --kernel-file "$TMP/broken.cl" $QUICK
            grep -q '^check: FAIL' "$TMP/out" && pass "step6 broken $k ($p) says check: FAIL" ||
                fail "step6 broken $k ($p) says check: FAIL" "$(tail -n 2 "$TMP/out" | tr '\n' ' ')"
        done
    done
fi

# the program: kernel.cl, then adaptive/kernel.cl when the adaptive kernel
# runs; --kernel-file takes the place of the file of the kernel --kernel names
kernels() { # kernels NAME 'FILE1 [FILE2]' ARGS...: the `kernel` lines name these files, in order
    local name=$1 want=$2; shift 2
    _run "$bin" --grid 16 $QUICK "$@"
    local got; got=$(sed -n 's/^kernel   //p' "$TMP/out" | tr '\n' ' ')
    [ "$(cat "$TMP/status")" = 0 ] && [ "$got" = "$want " ] && grep -q '^check: PASS' "$TMP/out" && pass "$name" ||
        fail "$name" "status $(cat "$TMP/status"), kernel lines: $got"
}
K6=$ROOT/step6-csr/kernel.cl A6=$ROOT/step6-csr/adaptive/kernel.cl
cp "$A6" "$TMP/mine.cl"
kernels "step6 --kernel all builds kernel.cl, then adaptive/kernel.cl" "$K6 $A6" --kernel all
kernels "step6 --kernel vector builds kernel.cl alone" "$K6" --kernel vector
kernels "step6 --kernel adaptive --kernel-file: the file in adaptive/kernel.cl's place" "$K6 $TMP/mine.cl" \
    --kernel adaptive --kernel-file "$TMP/mine.cl"
# a mistake in either file: the build log names that file (the student's
# copy, not the compiler's) and its own line, on every device
build_error() { # NAME FILE LINE-PATTERN KERNEL: "void" on that line becomes "void oops"
    local name=$1 file=$2 pattern=$3 kernel=$4 n
    n=$(grep -n "$pattern" "$file" | head -n 1 | cut -d: -f1)
    sed "${n:-1}s/void/void oops/" "$file" >"$TMP/bad-$kernel.cl"
    _run "$bin" --grid 16 $QUICK --kernel "$kernel" --kernel-file "$TMP/bad-$kernel.cl"
    [ -n "$n" ] && [ "$(cat "$TMP/status")" = 2 ] && grep -q "bad-$kernel\.cl:$n:" "$TMP/err" &&
        pass "$name ($n)" || fail "$name" "status $(cat "$TMP/status"): $(grep -m1 'error' "$TMP/err")"
}
build_error "step6: a build error in the adaptive kernel's file is shown at its own line" "$A6" '^void csr_adaptive(' adaptive
build_error "step6: a build error in kernel.cl is shown at its own line" "$K6" '^__kernel void csr_scalar' scalar
# bad input: one line, status 2
expect_error "step6 --precision q" "--precision wants s, d, c or z, not 'q'" "$bin" --precision q
expect_error "step6 complex matrix in float" "young1c is complex: run it with --precision c or z" "$bin" --matrix "$D/young1c.mtx" --precision s
expect_error "step6 complex HB matrix in double" "is complex: run it with --precision c or z" "$bin" --matrix "$D/cha.mtx" --precision d
expect_error "step6 --group-size 3" "--group-size 3 is not a power of two" "$bin" --group-size 3
expect_error "step6 --group-size 48" "--group-size 48 is not a power of two" "$bin" --kernel vector --group-size 48
expect_error "step6 --kernel diagonal" "--kernel wants one of scalar,vector,adaptive,all, not 'diagonal'" "$bin" --kernel diagonal

# oclgrind: both kernels, real and complex, several work-groups, short and
# long rows; nothing reported on stderr
# (without oclgrind each is a SKIP: tests/lib.sh expect_oclgrind)
"$gen" "$TMP/small.mtx" 70 300 11 real && "$gen" "$TMP/smallz.mtx" 45 9 12 complex
og() { # og NAME ARGS...: under oclgrind, PASS and a clean stderr
    local name=$1; shift
    expect_oclgrind "$name" "--data-races --uninitialized" "$bin" "$@" --runs 1 --warmup 0
}
for k in scalar vector; do
    og "step6 $k under oclgrind, small.mtx (s)" --matrix "$TMP/small.mtx" --kernel $k --local-size 64
    og "step6 $k under oclgrind, smallz.mtx (z)" --matrix "$TMP/smallz.mtx" --precision z --kernel $k --local-size 8
    og "step6 $k under oclgrind, lp_afiro (d, 27x51)" --matrix "$D/lp_afiro.mtx" --precision d --kernel $k
done
og "step6 vector under oclgrind, group 64" --matrix "$TMP/small.mtx" --kernel vector --group-size 64 --local-size 128
# the vector kernel's passes of several entries a lane (VECTOR_UNROLL): rows
# longer than a pass, and rows of the medium class in the host's own shape
og "step6 vector under oclgrind, 4 entries a lane a pass" --matrix "$TMP/small.mtx" --kernel vector --group-size 2 \
    --cl-opts -DVECTOR_UNROLL=4 --local-size 64
og "step6 vector under oclgrind, medium rows (d, the host's shape)" --gen short:rows=3001,mean=16,band=64 --precision d \
    --kernel vector
if need_cpu_device "step6 vector: medium rows, the host's shape"; then
    expect_output "step6 vector: medium rows, 8 entries a lane a pass in float" '^---- vector-4: .*, 8 entries a lane a pass\)' \
        env SPMV_PROBE_MB=1 "$bin" --device cpu --gen short:rows=3001,mean=16,band=64 --kernel vector --runs 1 --warmup 0
    expect_output "step6 vector: medium rows, 8 lanes of 4 entries in double" '^---- vector-8: .*, 4 entries a lane a pass\)' \
        env SPMV_PROBE_MB=1 "$bin" --device cpu --gen short:rows=3001,mean=16,band=64 --precision d --kernel vector --runs 1 \
        --warmup 0
fi
# and oclgrind does see a race: the vector kernel without the barrier in its
# tree (group_sum's loop, which the adaptive kernels share)
awk '/for \(int s = t \/ 2/ { inloop = 1 }
     inloop && /barrier\(CLK_LOCAL_MEM_FENCE\);/ { print "        /* barrier removed */"; inloop = 0; next } { print }' \
    "$ROOT/step6-csr/kernel.cl" >"$TMP/norace.cl"
if ! grep -q 'barrier removed' "$TMP/norace.cl"; then
    fail "step6 kernel without barrier made" "no barrier after 'for (int s = t / 2' in step6-csr/kernel.cl"
else
    expect_oclgrind_finds "step6 oclgrind finds the race without the barrier" 'data race' --data-races "$bin" \
        --matrix "$D/west0067.mtx" --kernel vector --group-size 8 --kernel-file "$TMP/norace.cl" --runs 1 --warmup 0
fi
