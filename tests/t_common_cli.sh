# tests/t_common_cli.sh - the command line and the make targets, as a student meets
# them: --help, bad flags, bad sizes, no device, a device name that matches
# nothing, out of device memory, make devices / diff / help.
# chapters: all
source "$(dirname "$0")/lib.sh"
S0=$BUILD/step0 S1=$BUILD/step1
export SPMV_PROBE_MB=${SPMV_PROBE_MB:-16}

expect_output "step1 --help lists the options" '--grid WxH.*' "$S1" --help
grep -q -- '--device SEL' "$TMP/out" || fail "step1 --help names --device" "missing"
expect_output "step0 --help: --device taken, not used" '^  --device SEL +taken, as every step takes it, and not used: step0 runs on the host' "$S0" --help
expect_error "unknown flag" "unknown option --bogus" "$S1" --bogus
expect_error "flag without value" "--grid needs a value" "$S1" --grid
expect_error "bad grid" "--grid wants W or WxH" "$S1" --grid 12y4
expect_error "zero grid" "--grid wants W or WxH" "$S1" --grid 0x5
expect_error "negative radius" "--radius wants a whole number from 0 to 100" "$S1" --radius -1
expect_error "runs not a number" "--runs wants a whole number" "$S1" --runs ten
expect_error "stray argument" "unexpected argument 'foo'" "$S1" foo
expect_error "matrix and grid together" "choose the matrix two ways" "$S1" --matrix x.mtx --grid 4
expect_error "missing matrix file" "nonexistent.mtx" "$S1" --matrix "$TMP/nonexistent.mtx"
# step 0 takes every step's options (make run ARGS="--device gpu" gives them to all): one note, run on the host
expect_output "step0 takes --device, runs on the host" '^note +step0 runs on the host, in C, on no OpenCL device: --device gpu not used$' \
    "$S0" --device gpu --grid 16 --runs 1
[ "$(grep -c '^note' "$TMP/out")" = 1 ] && grep -q '^device   host CPU' "$TMP/out" && grep -q '^check: PASS' "$TMP/out" \
    && pass "step0 --device: one note line, the host's loop, checked" || fail "step0 --device: one note line, the host's loop, checked" "$(tr '\n' '|' <"$TMP/out")"
expect_error "kernel name for a one-kernel step" "step1 has one kernel, so --kernel has nothing to choose; for a kernel source file use --kernel-file" "$S1" --kernel fast
expect_error "missing kernel file" "cannot open kernel source" "$S1" --grid 8 --kernel-file "$TMP/none.cl"
printf '__kernel void dia_spmv(__global float *A) { A[0] = undefined_thing; }\n' >"$TMP/bad.cl"
# a failed build prints the whole log, then the one-line error last
expect_status "kernel that does not build" 2 "$S1" --grid 8 --kernel-file "$TMP/bad.cl"
if grep -q "undefined_thing" "$TMP/err" && tail -n 1 "$TMP/err" | grep -q "building $TMP/bad.cl failed"; then
    pass "failed build prints the log, then one error line"
else
    fail "failed build prints the log, then one error line" "$(tr '\n' '|' <"$TMP/err")"
fi
expect_error "no device matches" "no OpenCL device matches 'no-such-device'" "$S1" --device no-such-device
expect_error "no OpenCL driver at all" "no OpenCL device found" env OCL_ICD_VENDORS=/nonexistent OCL_ICD_FILENAMES= "$S1" --grid 8
expect_error "absurd grid refused before allocating" "more than 2^31 values, and the kernels index with int" "$S1" --grid 30000 --radius 5
expect_error "more than 2^31 rows" "more than 2^31 points" "$S1" --grid 50000x50000
expect_error "work-group too large" "work-group size 100000 is more than" "$S1" --grid 8 --local-size 100000
# PoCL allows 1 GiB per buffer: a 2048x2048 radius-5 DIA matrix (1.3 GiB) does not fit
if "$BUILD/devices" 2>/dev/null | grep -q '1.0 GiB'; then
    expect_error "out of device memory" "out of device memory" "$S1" --grid 2048 --runs 1 --warmup 0
fi
# by a piece of the name of the device the steps use here, in lower case (PoCL's "pthread-...": pthread;
# "NVIDIA H100 80GB HBM3": nvidia); by its kind (cpu or gpu) through SPMV_DEVICE
device_info
piece=$(echo "$DEVICE_NAME" | grep -oE '[A-Za-z]{3,}' | head -n 1 | tr 'A-Z' 'a-z')
kind=$(echo "$DEVICE_TYPE" | tr 'A-Z' 'a-z')
expect_output "device by name ($piece)" 'check: PASS' "$S1" --grid 16 --device "${piece:-none}" --runs 1
expect_output "device by index" 'device   0:0' "$S1" --grid 16 --device 0:0 --runs 1
case $kind in
    cpu | gpu) expect_output "device via SPMV_DEVICE=$kind" "^device .*\($DEVICE_TYPE\), " env SPMV_DEVICE=$kind "$S1" --grid 16 --runs 1 ;;
    *) skip "device via SPMV_DEVICE" "the device here is neither a CPU nor a GPU ('$DEVICE_TYPE')" ;;
esac

# CSV: header once, one row per run, the columns of CONVENTIONS.md
rm -f "$TMP/r.csv"
"$S1" --grid 20 --runs 1 --csv "$TMP/r.csv" >/dev/null 2>&1
"$S0" --grid 20 --runs 1 --csv "$TMP/r.csv" >/dev/null 2>&1
want="step,kernel,device,driver,matrix,rows,cols,nnz,diags,precision,runs,ms_median,ms_min,gflops,gbs,bw_measured_gbs,bound_model_gflops,bound_compulsory_gflops,max_rel_err,check,date,git_rev,bw_copy_gbs,bw_read_gbs"
if [ "$(head -1 "$TMP/r.csv")" = "$want" ] && [ "$(wc -l <"$TMP/r.csv")" = 3 ] &&
   awk -F, "$BY_NAME"'NF != 24 || col("check") != "PASS" || col("gflops") <= 0 || col("bw_copy_gbs") <= 0 || col("bw_read_gbs") <= 0 { bad = 1 }
        END { exit bad }' "$TMP/r.csv"; then
    pass "csv header once, rows complete"
else
    fail "csv header once, rows complete" "$(tr '\n' '|' <"$TMP/r.csv")"
fi

# make targets
expect_output "make devices lists the steps' device ($DEVICE_SEL $DEVICE_TYPE)" "^${DEVICE_SEL:-none} +${DEVICE_TYPE:-none} " make -s -C "$ROOT" devices
expect_output "make diff STEP=1" '^\+\+\+ step1-naive/kernel.cl' make -s -C "$ROOT" diff STEP=1
# chapter 7: the whole hook, CSR_DONE after the nested #ifdef WARP_SHUFFLE, #if and #endif paired
expect_output "make diff STEP=7 shows the hook" '^#define CSR_DONE' make -s -C "$ROOT" diff STEP=7
hook=$(sed -n '/^==== what the pipelined and fused builds add/,$p' "$TMP/out")
if grep -q '^#define CSR_BEGIN' <<<"$hook" && grep -q '^#define CSR_STORE' <<<"$hook" &&
   [ "$(grep -c '^# *if' <<<"$hook")" = "$(grep -c '^# *endif' <<<"$hook")" ]; then
    pass "make diff STEP=7 shows CSR_BEGIN, CSR_STORE and CSR_DONE, its #if and #endif paired"
else fail "make diff STEP=7 shows CSR_BEGIN, CSR_STORE and CSR_DONE, its #if and #endif paired" "$(tail -n 3 <<<"$hook" | tr '\n' ' ')"; fi
expect_status "make diff STEP=10 fails" 2 make -s -C "$ROOT" diff STEP=10
expect_output "make diff STEP=9 sets chapter 9 against chapter 7 (it builds on 7, not 8)" '^\+\+\+ step9-pcg/main.c' \
    make -s -C "$ROOT" diff STEP=9
grep -q '^--- step7-cg/main.c' "$TMP/out" && pass "make diff STEP=9: from step7-cg/main.c" ||
    fail "make diff STEP=9: from step7-cg/main.c" "$(head -n 2 "$TMP/out" | tr '\n' '|')"
expect_output "make help" 'make run' make -s -C "$ROOT" help
