#!/usr/bin/env bash
# plots/mpi-rounding.sh - chapter 8's iteration counts side by side: each
# system solved to its tolerance by chapter 7 (plain and fused, one device)
# and by step8 (classic and single) on 1 to 4 ranks, in double. The counts
# differ only by rounding: the order the sums are taken in (each split adds
# the dot products in another order) and, for single, its recurrence.
#
#   DATA=/some/dir plots/mpi-rounding.sh
#
# Writes DATA/rounding-step8.csv (chapter 8's CSV) and DATA/rounding-step7.csv
# (chapter 7's). SYSTEMS ("SPEC|TOL ..."), RANKS ("1 2 3 4"), MPIRUN override.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${DATA:?DATA=dir: where the CSVs go}"
mkdir -p "$DATA"
BUILD=${BUILD:-$ROOT/build}
D=$ROOT/tests/data
SYSTEMS=${SYSTEMS:-"--gen|poisson:nx=256|1e-10 --gen|poisson3d:nx=40|1e-10 --matrix|$D/bcsstk01.rsa|1e-8 --matrix|$D/494_bus.mtx|1e-8 --matrix|$D/1138_bus.mtx|1e-8"}
RANKS=${RANKS:-"1 2 3 4"}
if [ -z "${MPIRUN:-}" ]; then
    MPIRUN="mpirun -q --oversubscribe"
    [ "$(id -u)" = 0 ] && MPIRUN="$MPIRUN --allow-run-as-root"
fi
fail=0
for sys in $SYSTEMS; do
    IFS='|' read -r how what tol <<<"$sys"
    args=("$how" "$what" --precision d --tol "$tol")
    echo "---- ${what##*/} (--tol $tol): step7, step8 on $RANKS ranks"
    "$BUILD/step7" "${args[@]}" --csv "$DATA/rounding-step7.csv" >/dev/null 2>&1 || fail=1
    for r in $RANKS; do
        $MPIRUN -n "$r" "$BUILD/step8" "${args[@]}" --csv "$DATA/rounding-step8.csv" >/dev/null 2>&1 || fail=1
    done
done
[ "$fail" = 0 ] || echo "mpi-rounding: a run failed or did not converge (its row says which)" >&2
exit "$fail"
