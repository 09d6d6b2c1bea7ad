#!/usr/bin/env bash
# plots/mpi-sweep.sh - chapter 8's runs in one go: for each Poisson grid and
# precision, chapter 7's fused CG on one device (build/step7), then
# build/step8 (both versions) on each number of ranks, each a fixed-iteration
# solve (--tol 0), in ROUNDS rounds, one after another. The weak-scaling
# points are the grids whose rows grow with the ranks (4096x4096 on 1,
# 4096x8192 on 2; PRESET=model: 1024x2048 on 1, 2048x2048 on 2, 2048x4096
# on 4), the strong-scaling ones a grid run on every count.
#
#   make -s all && DATA=/some/dir plots/mpi-sweep.sh
#
# With PETSC=1 (and build/petsc-cg), after each step8 run the same solve by
# PETSc's KSPCG and KSPPIPECG on as many ranks (double only), so that each
# pair is interleaved: rows in DATA/petsc.csv. With CUDA=1 (and
# build/cuda-mgpu-cg, make cusparse), after each step8 run the same solve by
# the CUDA yardstick on as many GPUs (vendor/cuda-mgpu-cg): rows in
# DATA/cuda.csv.
# Writes DATA/step8.csv (chapter 8's CSV), DATA/step7.csv (chapter 7's CG CSV)
# and DATA/mpi-sweep.log. GRIDS, PRECS ("s d"), RANKS ("1 2"), ITERS (200),
# ROUNDS (1), MPIRUN (mpirun -q, --allow-run-as-root as root,
# --oversubscribe where ranks outnumber cores) override. A grid of GRIDS is
#   WxH     the 2-D Poisson grid, --gen poisson:nx=W,ny=H (4096x64: a thin
#           one, few grid lines a rank, its halo longer than its product)
#   box:N   the 3-D Poisson box N x N x N, --gen poisson3d:nx=N
#   SPEC    any other --gen spec as it is (poisson3d:nx=64,nz=256, stencil27:nx=40)
# default "2048x2048 4096x4096 4096x8192". Chapter 7's run (one device) is
# the one-rank point's yardstick: it runs once a grid and precision.
# PRESET=model: the points step8-mpi/model/model.sh fits (1 and 2 ranks of
# the square and tall grids) and the ones it only checks (4 ranks, a box, a
# thin grid): GRIDS "1024x2048 2048x2048 2048x4096 4096x64 box:160",
# RANKS "1 2 4", PRECS "s d", ROUNDS 2 (each still overridable); on four
# GPUs (ranks take the GPUs in turn).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${DATA:?DATA=dir: where the CSVs and the log go}"
mkdir -p "$DATA"
BUILD=${BUILD:-$ROOT/build}
case ${PRESET:-} in
    "") ;;
    model) GRIDS=${GRIDS:-"1024x2048 2048x2048 2048x4096 4096x64 box:160"} RANKS=${RANKS:-"1 2 4"} ROUNDS=${ROUNDS:-2} ;;
    *) echo "mpi-sweep: PRESET=$PRESET: the presets are model (or none)" >&2; exit 2 ;;
esac
GRIDS=${GRIDS:-"2048x2048 4096x4096 4096x8192"}
PRECS=${PRECS:-"s d"} RANKS=${RANKS:-"1 2"} ITERS=${ITERS:-200} ROUNDS=${ROUNDS:-1}
gen_of() { # GRID: its --gen spec
    case $1 in
        box:*) echo "poisson3d:nx=${1#box:}" ;;
        *:*) echo "$1" ;;
        *x*) echo "poisson:nx=${1%x*},ny=${1#*x}" ;;
        *) return 1 ;;
    esac
}
for g in $GRIDS; do
    gen_of "$g" >/dev/null || { echo "mpi-sweep: GRIDS: '$g' is not WxH, box:N or a --gen spec" >&2; exit 2; }
done
if [ -z "${MPIRUN:-}" ]; then
    MPIRUN="mpirun -q"
    [ "$(id -u)" = 0 ] && MPIRUN="$MPIRUN --allow-run-as-root"
    MPIRUN="$MPIRUN --oversubscribe"
fi
for b in step7 step8; do
    [ -x "$BUILD/$b" ] || { echo "mpi-sweep: $BUILD/$b is missing (make all)" >&2; exit 2; }
done
log=$DATA/mpi-sweep.log
echo "mpi-sweep: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname): grids $GRIDS, precisions $PRECS, ranks $RANKS, $ITERS iterations, $ROUNDS round(s)" | tee -a "$log"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$log"
fail=0
for ((round = 1; round <= ROUNDS; round++)); do
    for g in $GRIDS; do
        for p in $PRECS; do
            args=(--gen "$(gen_of "$g")" --precision "$p" --tol 0 --maxiter "$ITERS")
            echo "---- round $round: $g $p: step7 fused" | tee -a "$log"
            "$BUILD/step7" "${args[@]}" --kernel fused --csv "$DATA/step7.csv" >>"$log" 2>&1 || fail=1
            for r in $RANKS; do
                echo "---- round $round: $g $p: step8 on $r rank(s)" | tee -a "$log"
                $MPIRUN -n "$r" "$BUILD/step8" "${args[@]}" --csv "$DATA/step8.csv" >>"$log" 2>&1 || fail=1
                tail -n 12 "$log" | grep -E '^(time|split|check:)' || true
                if [ "${CUDA:-0}" = 1 ] && [ -x "$BUILD/cuda-mgpu-cg" ]; then
                    echo "---- round $round: $g $p: cuda-mgpu-cg on $r GPU(s)" | tee -a "$log"
                    "$BUILD/cuda-mgpu-cg" --gpus "$r" "${args[@]}" --csv "$DATA/cuda.csv" >>"$log" 2>&1 || fail=1
                fi
                if [ "${PETSC:-0}" = 1 ] && [ "$p" = d ] && [ -x "$BUILD/petsc-cg" ]; then
                    for k in cg pipecg; do
                        echo "---- round $round: $g $p: petsc-cg --ksp $k on $r rank(s)" | tee -a "$log"
                        $MPIRUN -n "$r" "$BUILD/petsc-cg" "${args[@]}" --ksp "$k" --csv "$DATA/petsc.csv" >>"$log" 2>&1 || fail=1
                    done
                fi
            done
        done
    done
done
echo "mpi-sweep: done in ${SECONDS} s" | tee -a "$log"
[ "$fail" = 0 ] || echo "mpi-sweep: a run failed: $log says which" >&2
exit "$fail"
