#!/usr/bin/env bash
# plots/cg-sweep.sh - chapter 7's sweep: fixed-iteration CG solves of the
# Poisson matrix (--gen poisson:nx=N, N x N) over a list of sizes (an entry
# of SIZES with a colon is a --gen spec as it stands: poisson3d:nx=128), by step7
# (plain, fused and pipelined) and by each yardstick present on the machine, one row of
# chapter 7's CG CSV per solve. `make figures` runs it after the SpMV sweep;
# vendor/cusparse-cg/gpu-sweep.sh runs it on a GPU.
#
#   plots/cg-sweep.sh                      every tool found, SIZES, both precisions, ITERS iterations
#   TOOLS="scipy petsc-n2" SIZES="256 512" plots/cg-sweep.sh
#
# Tools (TOOLS, default: each one present here):
#   step7:plain step7:fused step7:pipelined   build/step7 --kernel plain|fused|pipelined (on DEVICE)
#   cusparse-cg:graph         build/cusparse-cg --kernel graph (make cusparse: CUDA found), on the GPU:
#                             device scalars, replayed as a CUDA graph (rows cusparse-graph)
#   cusparse-cg:sample        build/cusparse-cg --kernel sample: the CUDA sample's loop (rows
#                             cusparse-cublas); cusparse-cg alone is both
#   cupy                      vendor/scipy/cg.py --gpu (CuPy found)
#   scipy                     vendor/scipy/cg.py (SciPy found), on the host
#   petsc-nN                  mpirun -n N build/petsc-cg (make petsc: PETSc found), double only
# A tool that skips (status 3: no GPU, no CuPy) or fails leaves the sweep at
# once, with one line, and its rows are not kept; one that errs at a size stops
# growing there. Sizes grow in order while a tool's next solve (its last time
# x 4.5, a doubling of N is 4x the rows) fits in what is left of BUDGET.
#
# Environment: BUILD (binaries), DEVICE (--device for step7), SIZES (default
# "256 512 1024 2048"), PRECS (default "s d"), ITERS (default 200: --tol 0
# --maxiter ITERS), BUDGET (seconds, default 300), RUN_TIMEOUT (seconds per
# solve, default BUDGET), TOOLS, RANKS (PETSc's, default 2), OUT (the CSV;
# default DATA/cg-<device-slug>.csv, the slug of step7's device, else of the
# first row's), DATA (default plots/data), PY (a python3 with SciPy), GIT_REV.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
DEVICE=${DEVICE:-}
SIZES=${SIZES:-256 512 1024 2048}
PRECS=${PRECS:-s d}
ITERS=${ITERS:-200}
BUDGET=${BUDGET:-300}
RUN_TIMEOUT=${RUN_TIMEOUT:-$BUDGET}
RANKS=${RANKS:-2}
DATA=${DATA:-$ROOT/plots/data}
OUT=${OUT:-}
HEADER=step,kernel,device,driver,matrix,rows,cols,nnz,precision,iterations,check_every,extra_iterations,converged,rel_residual,true_residual,tol,ms_per_iter,ms_total,spmv_ms_per_iter,vector_ms_per_iter,wait_ms_per_iter,launches_per_iter,bytes_per_iter,bytes_compulsory_per_iter,bw_measured_gbs,pct_version_bound,pct_compulsory,check,date,git_rev

for v in ITERS BUDGET RANKS; do
    case ${!v} in '' | *[!0-9]*) echo "cg-sweep: $v wants a whole number, not '${!v}'" >&2; exit 2 ;; esac
done
if [ -z "${GIT_REV:-}" ]; then
    GIT_REV=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
    git -C "$ROOT" diff --quiet HEAD 2>/dev/null || GIT_REV="$GIT_REV+dirty"
fi
export GIT_REV
# a python3 with SciPy (Debian's when the first on the PATH has none)
if [ -z "${PY:-}" ]; then
    for p in python3 /usr/bin/python3; do
        if "$p" -c 'import scipy' >/dev/null 2>&1; then PY=$p; break; fi
    done
fi
PY=${PY:-}
MPIRUN=(mpirun -n "$RANKS")
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
[ "$RANKS" -gt "$(nproc 2>/dev/null || echo 1)" ] && MPIRUN+=(--oversubscribe)

if [ -z "${TOOLS:-}" ]; then
    TOOLS=""
    [ -x "$BUILD/step7" ] && TOOLS="step7:plain step7:fused step7:pipelined"
    [ -x "$BUILD/cusparse-cg" ] && TOOLS="$TOOLS cusparse-cg:graph cusparse-cg:sample"
    [ -n "$PY" ] && "$PY" -c 'import cupy' >/dev/null 2>&1 && TOOLS="$TOOLS cupy"
    [ -n "$PY" ] && TOOLS="$TOOLS scipy"
    [ -x "$BUILD/petsc-cg" ] && command -v mpirun >/dev/null && TOOLS="$TOOLS petsc-n$RANKS"
fi
tools=()
for t in $TOOLS; do
    if [ "$t" = cusparse-cg ]; then tools+=(cusparse-cg:graph cusparse-cg:sample); else tools+=("$t"); fi
done
if [ ${#tools[@]} -eq 0 ]; then
    echo "cg-sweep: no CG solver here (build/step7, build/cusparse-cg, SciPy, build/petsc-cg): nothing to run"
    exit 0
fi

TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
SWEEP=$TMPD/sweep.csv
echo "$HEADER" >"$SWEEP"
now() { date +%s.%N; }
T0=$(now)
elapsed() { awk -v a="$T0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# the matrix of a SIZES entry: N is the Poisson matrix of an N x N grid; an
# entry with a colon is a --gen spec as it stands (poisson3d:nx=128, stencil27:nx=100)
spec_of() { case $1 in *:*) echo "$1" ;; *) echo "poisson:nx=$1" ;; esac; }
# the command of one solve: TOOL N PRECISION CSV
command_of() {
    local t=$1 n=$2 p=$3 csv=$4
    local g; g=$(spec_of "$n")
    local fixed=(--tol 0 --maxiter "$ITERS" --csv "$csv")
    case $t in
        step7:*) cmd=("$BUILD/step7" --gen "$g" --kernel "${t#step7:}" --precision "$p" "${fixed[@]}")
                 [ -n "$DEVICE" ] && cmd+=(--device "$DEVICE") ;;
        cusparse-cg:*) cmd=("$BUILD/cusparse-cg" --gen "$g" --kernel "${t#cusparse-cg:}" --precision "$p"
                           "${fixed[@]}") ;;
        cupy) cmd=("$PY" "$ROOT/vendor/scipy/cg.py" --gpu --gen "$g" --precision "$p" "${fixed[@]}") ;;
        scipy) cmd=("$PY" "$ROOT/vendor/scipy/cg.py" --gen "$g" --precision "$p" "${fixed[@]}") ;;
        petsc-n*) cmd=("${MPIRUN[@]}" "$BUILD/petsc-cg" --gen "$g" --precision "$p" "${fixed[@]}") ;;
        *) echo "cg-sweep: unknown tool '$t' (step7:plain step7:fused step7:pipelined cusparse-cg:graph cusparse-cg:sample cupy scipy petsc-nN)" >&2
           exit 2 ;;
    esac
}

declare -A out last   # TOOL|PREC -> 1 once out of the sweep; its last solve's seconds
total=0
for n in $SIZES; do
    for p in $PRECS; do
        for t in "${tools[@]}"; do
            key="$t|$p"
            [ -n "${out[$key]:-}" ] && continue
            case $t in petsc-n*) [ "$p" = d ] || continue ;; esac   # Debian's PETSc is double
            if [ -n "${last[$key]:-}" ] &&
                awk -v e="$(elapsed)" -v l="${last[$key]}" -v b="$BUDGET" 'BEGIN { exit !(e + 4.5 * l > b) }'; then
                echo "cg-sweep: $t $p stops before $(spec_of "$n"): the next solve would take ~$(awk -v l="${last[$key]}" 'BEGIN { printf "%.0f", 4.5 * l }') s, past the budget"
                out[$key]=1
                continue
            fi
            command_of "$t" "$n" "$p" "$TMPD/run.csv"
            rm -f "$TMPD/run.csv"
            t0=$(now)
            timeout "$RUN_TIMEOUT" "${cmd[@]}" >"$TMPD/log" 2>&1 </dev/null
            rc=$?
            secs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
            last[$key]=$secs
            total=$((total + 1))
            note=""
            case $rc in
                0) tail -n +2 "$TMPD/run.csv" >>"$SWEEP" 2>/dev/null ;;
                3) out[$key]=1; note="  skipped: $(grep -m1 -i 'skipped' "$TMPD/log" | sed 's/^.*skipped: //')" ;;
                1) out[$key]=1; tail -n +2 "$TMPD/run.csv" >>"$SWEEP" 2>/dev/null
                   note="  FAIL: $(grep -m1 -iE 'fail|error|breakdown' "$TMPD/log")" ;;
                124) out[$key]=1; note="  no result after ${RUN_TIMEOUT} s" ;;
                *) out[$key]=1; note="  ERROR (exit $rc: $(grep -m1 -iE 'error' "$TMPD/log" || tail -n 1 "$TMPD/log"))" ;;
            esac
            ms=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["ms_per_iter"]; exit }' \
                "$TMPD/run.csv" 2>/dev/null)
            printf 'cg-sweep: %-18s %s %-18s %6s s%s%s\n' "$t" "$p" "$(spec_of "$n")" "$secs" \
                "${ms:+  $ms ms/iteration}" "$note"
        done
    done
done

rows=$(($(wc -l <"$SWEEP") - 1))
if [ "$rows" -le 0 ]; then
    echo "cg-sweep: no rows written ($total solves)"
    exit 1
fi
if [ -z "$OUT" ]; then
    device=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["step"] == "step7" { print $c["device"]; exit }' "$SWEEP")
    [ -n "$device" ] || device=$(awk -F, 'NR == 2 { print $3 }' "$SWEEP")
    slug=$(printf '%s' "$device" | tr '[:upper:]' '[:lower:]' | tr -c 'a-z0-9' '-' | tr -s '-' | sed 's/^-//; s/-$//')
    mkdir -p "$DATA"
    OUT=$DATA/cg-$slug.csv
fi
if [ -s "$OUT" ] && [ "$(head -n 1 "$OUT")" != "$HEADER" ]; then
    OUT=${OUT%.csv}-$(date -u +%Y%m%dT%H%M%S).csv
    echo "cg-sweep: the file has other columns; writing $OUT instead"
fi
[ -s "$OUT" ] || echo "$HEADER" >"$OUT"
tail -n +2 "$SWEEP" >>"$OUT"
echo "cg-sweep: $rows rows from $total solves appended to ${OUT#"$ROOT"/} in $(elapsed) s"
