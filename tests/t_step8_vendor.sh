# tests/t_step8_vendor.sh - chapter 8's yardstick from the CUDA side,
# build/cuda-mgpu-cg (vendor/cuda-mgpu-cg: CG over the GPUs of one node, one
# persistent cooperative kernel a GPU). Built where nvcc is (make cusparse;
# without nvcc it is not built and `make cusparse` still says one line);
# its --help lists its own options, a bad --gpus or --group-size and an
# option it does not take are one line and status 2, and with no CUDA device
# (CUDA_VISIBLE_DEVICES= hides every GPU) it says so in one line, status 2,
# and writes no row. With a GPU: a small Poisson solve on one GPU and on
# every GPU, float and double, converges within the host CG's count and
# writes chapter 8's row; --tol 0 ends at --maxiter exactly; --maxiter before
# --tol is status 4. Each part is a SKIP where its tool is absent.
# chapters: 8   (its yardstick)
source "$(dirname "$0")/lib.sh"
HEADER=step,kernel,ranks,device,driver,matrix,rows,nnz,precision,iterations,converged,rel_residual,true_residual,tol,ms_per_iter,ms_total,prof_ms_per_iter,kernels_ms,halo_read_ms,halo_mpi_ms,halo_write_ms,reduce_read_ms,allreduce_ms,reductions,rows_max,ghosts_max,halo_values,check,date,git_rev,product_ms
col() { awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { v = $c[k] } END { print v }' "$1"; }

# without nvcc the CUDA tools are skipped in one line, and nothing is built
skipped_build cusparse NVCC=/nonexistent "cusparse: skipped (no nvcc / cuSPARSE found)" cuda-mgpu-cg \
    "make cusparse without nvcc: one line 'skipped', status 0, no cuda-mgpu-cg"

bin=$BUILD/cuda-mgpu-cg
if [ ! -x "$bin" ]; then
    skip "cuda-mgpu-cg" "build/cuda-mgpu-cg is not built (make cusparse: nvcc)"
    exit 0
fi
expect_output "cuda-mgpu-cg --help lists --gpus G" '^  --gpus G +CUDA devices 0 \.\. G-1' "$bin" --help
expect_output "cuda-mgpu-cg --help lists --runs N" '^  --runs N +timed solves' "$bin" --help
expect_error "cuda-mgpu-cg: --gpus 0 is refused" "--gpus wants a whole number from 1 to 16, not '0'" "$bin" --gpus 0
expect_error "cuda-mgpu-cg: --gpus without a value" "--gpus needs a value" "$bin" --gen poisson:nx=8 --gpus
expect_error "cuda-mgpu-cg: --group-size 3 is refused" "--group-size 3: threads a row are 1, 2, 4, 8, 16 or 32" \
    "$bin" --group-size 3
expect_error "cuda-mgpu-cg refuses --device (CUDA_VISIBLE_DEVICES picks the GPUs)" \
    "does not take --device: the GPUs are CUDA devices 0 .. G-1" "$bin" --device 0
rm -f "$TMP/none.csv"
expect_error "cuda-mgpu-cg without a CUDA device: one line, status 2" "no CUDA device (" \
    env CUDA_VISIBLE_DEVICES= "$bin" --gen poisson:nx=8 --csv "$TMP/none.csv"
[ ! -e "$TMP/none.csv" ] && pass "cuda-mgpu-cg without a CUDA device: no row written" ||
    fail "cuda-mgpu-cg without a CUDA device: no row written" "$(cat "$TMP/none.csv")"

if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    skip "cuda-mgpu-cg on the GPUs" "no NVIDIA GPU here"
    exit 0
fi
ngpu=$(nvidia-smi -L | grep -c '^GPU')
[ "$ngpu" -gt 16 ] && ngpu=16
for g in 1 "$ngpu"; do
    for p in s d; do
        rm -f "$TMP/g.csv"
        expect_ok "cuda-mgpu-cg --gpus $g, $p: poisson 37x23 converges" "$bin" --gpus "$g" --gen poisson:nx=37,ny=23 \
            --precision $p --runs 1 --csv "$TMP/g.csv"
        got="$(col "$TMP/g.csv" kernel),$(col "$TMP/g.csv" ranks),$(col "$TMP/g.csv" converged),$(col "$TMP/g.csv" check)"
        if [ "$(head -n 1 "$TMP/g.csv")" = "$HEADER" ] && awk -F, 'NF != 31 { exit 1 }' "$TMP/g.csv" &&
            [ "$got" = "mgpu-n$g,$g,1,PASS" ] && grep -q "iterations, the host's CG in double [0-9]*: agree" "$TMP/out"; then
            pass "cuda-mgpu-cg --gpus $g, $p: chapter 8's row (31 fields), mgpu-n$g, PASS, the host CG's count"
        else
            fail "cuda-mgpu-cg --gpus $g, $p: chapter 8's row (31 fields), mgpu-n$g, PASS, the host CG's count" \
                "$got: $(tail -n 1 "$TMP/g.csv")"
        fi
    done
done
rm -f "$TMP/f.csv"
expect_ok "cuda-mgpu-cg --gpus $ngpu: --tol 0 --maxiter 45" "$bin" --gpus "$ngpu" --gen poisson:nx=37,ny=23 --tol 0 \
    --maxiter 45 --runs 1 --csv "$TMP/f.csv"
got="$(col "$TMP/f.csv" iterations),$(col "$TMP/f.csv" converged),$(col "$TMP/f.csv" check)"
[ "$got" = "45,0,PASS" ] && [ -n "$(col "$TMP/f.csv" ms_per_iter)" ] &&
    pass "cuda-mgpu-cg: --tol 0: 45 iterations, not converged, PASS, a time" ||
    fail "cuda-mgpu-cg: --tol 0: 45 iterations, not converged, PASS, a time" "$got"
expect_status "cuda-mgpu-cg: --maxiter reached before --tol is status 4" 4 "$bin" --gpus "$ngpu" \
    --gen poisson:nx=37,ny=23 --maxiter 3 --runs 1
