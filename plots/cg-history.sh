#!/usr/bin/env bash
# plots/cg-history.sh [MATRIX] - chapter 7's residual history: CG on one real
# SPD matrix (default tests/data/1138_bus.mtx) from x0 = 0 with the seeded b,
# the relative residual at every iteration, per solver and precision, into
# DATA/cg-history/<matrix>.csv (source,precision,iteration,residual), which
# plots/draw.sh draws as fig-cg-residual. `make figures` runs it.
# Solvers: SciPy's cg (the true residual ||b - A x_k|| / ||b||, recomputed in
# double each iteration: vendor/scipy/cg.py --history), and build/step7 plain
# (its recurrence |r|/|b|: step7 --history FILE; the fused solve keeps none).
# Past 400 iterations a series keeps every k-th, about 800 points in all.
# Environment: BUILD, DEVICE (step7's --device), DATA (default plots/data), PY,
# TOL_S, TOL_D (default 1e-5, 1e-10: step7's), MAXITER (default 5000).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
DATA=${DATA:-$ROOT/plots/data}
M=${1:-$ROOT/tests/data/1138_bus.mtx}
name=$(basename "$M"); name=${name%.*}
[ -f "$M" ] || { echo "cg-history: no matrix $M" >&2; exit 2; }
if [ -z "${PY:-}" ]; then
    for p in python3 /usr/bin/python3; do
        if "$p" -c 'import scipy' >/dev/null 2>&1; then PY=$p; break; fi
    done
fi
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
out=$TMPD/all.csv
echo "source,precision,iteration,residual" >"$out"
add() { # SOURCE PRECISION FILE: its rows (iteration, residual: the first two columns), thinned
    awk -F, -v s="$1" -v p="$2" 'NR > 1 { it[++n] = $1; r[n] = $2 }
        END { k = n > 800 ? int(n / 800) + 1 : 1
              for (i = 1; i <= n; i++) if (it[i] <= 400 || it[i] % k == 0 || i == n) print s "," p "," it[i] "," r[i] }' "$3" >>"$out"
}
maxiter=(--maxiter "${MAXITER:-5000}")
for p in d s; do
    tol=${TOL_D:-1e-10}; [ $p = s ] && tol=${TOL_S:-1e-5}
    if [ -n "${PY:-}" ]; then
        "$PY" "$ROOT/vendor/scipy/cg.py" --matrix "$M" --precision $p --tol "$tol" "${maxiter[@]}" --probe-mb 0 \
            --history "$TMPD/h.csv" >"$TMPD/log" 2>&1
        if [ -s "$TMPD/h.csv" ]; then
            add "SciPy cg (true residual)" $p "$TMPD/h.csv"
            echo "cg-history: SciPy $p: $(grep -m1 '^solve' "$TMPD/log")"
        fi
        rm -f "$TMPD/h.csv"
    fi
    if [ -x "$BUILD/step7" ] && grep -q -- '--history' "$ROOT/step7-cg/main.c" 2>/dev/null; then
        SPMV_PROBE_MB=${SPMV_PROBE_MB:-16} "$BUILD/step7" --matrix "$M" --kernel plain --precision $p --tol "$tol" \
            "${maxiter[@]}" ${DEVICE:+--device "$DEVICE"} --history "$TMPD/h.csv" >"$TMPD/log" 2>&1
        if [ -s "$TMPD/h.csv" ]; then
            add "step7 plain (recurrence)" $p "$TMPD/h.csv"
            echo "cg-history: step7 plain $p: $(grep -m1 '^solve' "$TMPD/log")"
        fi
        rm -f "$TMPD/h.csv"
    fi
done
rows=$(($(wc -l <"$out") - 1))
[ "$rows" -gt 0 ] || { echo "cg-history: no solver wrote a history (SciPy or step7 --history)"; exit 1; }
mkdir -p "$DATA/cg-history"
cp "$out" "$DATA/cg-history/$name.csv"
echo "cg-history: $rows rows to ${DATA#"$ROOT"/}/cg-history/$name.csv"
