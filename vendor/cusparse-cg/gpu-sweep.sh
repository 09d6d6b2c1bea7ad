#!/usr/bin/env bash
# vendor/cusparse-cg/gpu-sweep.sh - chapter 7's GPU runs in one go: step7 plain,
# fused and pipelined, the cuSPARSE + cuBLAS CG in both forms (build/cusparse-cg --kernel
# graph and --kernel sample) and CuPy's cg
# (vendor/scipy/cg.py --gpu, where CuPy is installed), each a fixed-iteration
# solve of the Poisson matrix at 1024^2, 2048^2 and 4096^2 rows, in float and
# double (plots/cg-sweep.sh does the runs).
#
#   make -s -j16 all CUDA_ARCH=-arch=sm_90 && OUT=/some/dir vendor/cusparse-cg/gpu-sweep.sh
#
# Writes OUT/cg-<device-slug>.csv (chapter 7's CG CSV: copy it to plots/data/)
# and OUT/gpu-sweep.log. SIZES, ITERS (default 500), BUDGET (seconds, default
# 540) and TOOLS override; SPMV_DEVICE defaults to gpu.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
: "${OUT:?OUT=dir: where the CSV and the log go}"
mkdir -p "$OUT"
export SPMV_DEVICE=${SPMV_DEVICE:-gpu}
BUILD=${BUILD:-$ROOT/build}
if [ -z "${TOOLS:-}" ]; then
    TOOLS=""
    [ -x "$BUILD/step7" ] && TOOLS="step7:plain step7:fused step7:pipelined"
    [ -x "$BUILD/cusparse-cg" ] && TOOLS="$TOOLS cusparse-cg:graph cusparse-cg:sample"
    for p in python3 /usr/bin/python3; do
        if "$p" -c 'import cupy, scipy' >/dev/null 2>&1; then TOOLS="$TOOLS cupy"; export PY=$p; break; fi
    done
fi
{
    echo "gpu-sweep: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname), tools: ${TOOLS:-none}"
    command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    BUILD=$BUILD TOOLS="$TOOLS" SIZES="${SIZES:-1024 2048 4096}" PRECS="s d" ITERS="${ITERS:-500}" \
        BUDGET="${BUDGET:-540}" RUN_TIMEOUT="${RUN_TIMEOUT:-180}" DATA="$OUT" OUT= "$ROOT/plots/cg-sweep.sh"
} 2>&1 | tee "$OUT/gpu-sweep.log"
