#!/usr/bin/env bash
# plots/pcg-sweep.sh - chapter 9's runs: every version of step9 solves each
# system to its tolerance, one row of chapter 9's CSV per version, appended to
# DATA/pcg/<device-slug>.csv, and a row per exact triangular solve (L's,
# timed alone) to DATA/pcg/trsv-<device-slug>.csv. Beside each system, in
# turn with it (ROUNDS times), the yardsticks that are built: on a GPU
# build/cusparse-pcg (NVIDIA's IC(0) PCG, and cuSPARSE's SpSV alone), on a
# CPU build/petsc-cg on one rank with --pc none, jacobi and icc. Their rows
# go to the same files (step "vendor"). plots/blocks/pcg-table.sh and
# trsv-table.sh make the chapter's tables.
#
#   plots/pcg-sweep.sh                     on DEVICE (default: the course's default device)
#   SIZE=small plots/pcg-sweep.sh          the 2-core machine's sizes (256², a 40³ box)
#
# Environment: BUILD (binaries), DEVICE (--device), DATA (default
# plots/data), SIZE (large: 1024² and a 100³ box, the default on a GPU;
# small elsewhere), ROUNDS (default 1), VERSIONS (step9's, each run in its
# own process; default all seven: those a device refuses are skipped),
# GIT_REV, RUN_TIMEOUT (seconds per solve, default 300).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
DATA=${DATA:-$ROOT/plots/data}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
ROUNDS=${ROUNDS:-1}
[ -x "$BUILD/step9" ] || { echo "pcg-sweep: no $BUILD/step9 (make step9 first)" >&2; exit 2; }
if [ -z "${GIT_REV:-}" ]; then
    GIT_REV=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
    git -C "$ROOT" diff --quiet HEAD 2>/dev/null || GIT_REV="$GIT_REV+dirty"
fi
export GIT_REV
dev=()
[ -n "${DEVICE:-}" ] && dev=(--device "$DEVICE")
gpu=0
[ "$("$BUILD/devices" --type "${DEVICE:-}" 2>/dev/null)" = GPU ] && gpu=1
size=${SIZE:-$([ $gpu = 1 ] && echo large || echo small)}
D=$ROOT/tests/data
VERSIONS=${VERSIONS:-cg jacobi ic0 ic0-color ic0-sweeps ic0-syncfree ic0-persistent}
if [ "$size" = large ]; then
    grids=("--gen poisson:nx=1024" "--gen poisson:nx=1024 --precision d" "--gen stencil27:nx=100 --precision d")
else
    grids=("--gen poisson:nx=256" "--gen poisson:nx=256 --precision d" "--gen stencil27:nx=40 --precision d")
fi
# the collection's SPD files, double, to 1e-10 (CG stopped at 20000 iterations where it cannot get there)
files=("--matrix $D/bcsstk01.rsa --precision d" "--matrix $D/494_bus.mtx --precision d"
       "--matrix $D/1138_bus.mtx --precision d" "--matrix $D/bcsstk13.mtx --precision d --maxiter 20000")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$DATA/pcg"
out= tout=
append() {   # ONE.CSV INTO: the rows of ONE.CSV, the header first where INTO is new
    [ -s "$1" ] || return 0
    [ -s "$2" ] || head -n 1 "$1" >"$2"
    tail -n +2 "$1" >>"$2"
    rm -f "$1"
}
for ((round = 1; round <= ROUNDS; round++)); do
    for a in "${grids[@]}" "${files[@]}"; do
        # each version in its own process, as `--kernel V` runs it and as the
        # yardsticks run: none finds memory or threads an earlier one set up
        for v in $VERSIONS; do
            # shellcheck disable=SC2086
            timeout "$RUN_TIMEOUT" "$BUILD/step9" "${dev[@]}" $a --kernel "$v" --csv "$tmp/one.csv" \
                --trsv-csv "$tmp/trsv.csv" >"$tmp/v" 2>&1
            st=$?
            [ $st = 2 ] && grep -qE "^==== $v: skipped|CPU device|NVIDIA" "$tmp/v" && continue   # not on this device
            printf 'pcg-sweep: round %d %-52s %-15s status %s: %s\n' "$round" "${a#--}" "$v" "$st" \
                "$(awk '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+\.[0-9]+$/ { printf "%s it %s ms", $2, $5 }' "$tmp/v")"
        done
        if [ -z "$out" ] && [ -s "$tmp/one.csv" ]; then
            slug=$(awk -F, 'NR == 2 { print $3 }' "$tmp/one.csv" | tr 'A-Z' 'a-z' | sed -E 's/[^a-z0-9]+/-/g; s/^-|-$//g')
            out=$DATA/pcg/$slug.csv tout=$DATA/pcg/trsv-$slug.csv
        fi
        [ -n "$out" ] || continue
        append "$tmp/one.csv" "$out"
        append "$tmp/trsv.csv" "$tout"
        # the yardsticks on the same system, right after
        read -r -a args <<<"$a"
        if [ $gpu = 1 ] && [ -x "$BUILD/cusparse-pcg" ]; then
            timeout "$RUN_TIMEOUT" "$BUILD/cusparse-pcg" "${args[@]}" --pcg-csv "$tmp/one.csv" >"$tmp/cu" 2>&1
            echo "pcg-sweep:   cusparse-pcg status $?: $(grep -E '^solve' "$tmp/cu" | head -n 1)"
            append "$tmp/one.csv" "$out"
            sp=(); for x in "${args[@]}"; do [ "$x" = --maxiter ] && break; sp+=("$x"); done
            timeout "$RUN_TIMEOUT" "$BUILD/cusparse-pcg" "${sp[@]}" --spsv-only --trsv-csv "$tmp/trsv.csv" >"$tmp/cu" 2>&1
            echo "pcg-sweep:   cusparse SpSV status $?: $(grep -E '^spsv' "$tmp/cu" | paste -sd' ')"
            append "$tmp/trsv.csv" "$tout"
        fi
        if [ $gpu = 0 ] && [ -x "$BUILD/petsc-cg" ] && [[ $a == *"--precision d"* ]]; then
            mpi=(mpirun -q -n 1)
            [ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)
            for pc in none jacobi icc; do
                pa=("${args[@]}")
                [[ $a == *--matrix* ]] && [[ ${args[1]} == *.rsa ]] && continue   # PETSc reads Matrix Market alone
                timeout "$RUN_TIMEOUT" "${mpi[@]}" "$BUILD/petsc-cg" "${pa[@]}" --tol 1e-10 --pc $pc --pcg-csv "$tmp/one.csv" \
                    >"$tmp/pe" 2>&1
                echo "pcg-sweep:   petsc-cg --pc $pc status $?: $(grep -E '^(solve|setup)' "$tmp/pe" | paste -sd' ' | cut -c1-150)"
                append "$tmp/one.csv" "$out"
            done
        fi
    done
done
[ -n "$out" ] && echo "pcg-sweep: rows appended to $out and $tout"
