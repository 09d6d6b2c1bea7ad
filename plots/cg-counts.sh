#!/usr/bin/env bash
# plots/cg-counts.sh - chapter 7's iteration counts: each version of step7
# (plain, fused, pipelined) solves to its default --tol on the Poisson matrix
# and on the collection's SPD files in tests/data, one row of chapter 7's CG
# CSV per solve, appended to DATA/cg-counts/<device-slug>.csv. The counts,
# not the times, are what the rows are for: pipelined takes beta from a
# formula (step7-cg/kernel.cl), and where rounding makes that drift the
# count shows it (plots/blocks/cg-counts.sh makes the chapter's table).
#
#   plots/cg-counts.sh                  on DEVICE (default: the course's default device)
#
# Environment: BUILD (binaries), DEVICE (--device), DATA (default
# plots/data), GIT_REV, RUN_TIMEOUT (seconds per solve, default 300).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
DATA=${DATA:-$ROOT/plots/data}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
[ -x "$BUILD/step7" ] || { echo "cg-counts: no $BUILD/step7 (make step7 first)" >&2; exit 2; }
if [ -z "${GIT_REV:-}" ]; then
    GIT_REV=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
    git -C "$ROOT" diff --quiet HEAD 2>/dev/null || GIT_REV="$GIT_REV+dirty"
fi
export GIT_REV
dev=()
[ -n "${DEVICE:-}" ] && dev=(--device "$DEVICE")
D=$ROOT/tests/data
runs=("--gen poisson:nx=256" "--gen poisson:nx=256 --precision d" "--gen poisson:nx=512" "--gen poisson:nx=512 --precision d"
      "--matrix $D/494_bus.mtx --precision d" "--matrix $D/1138_bus.mtx --precision d" "--matrix $D/bcsstk01.rsa --precision d")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$DATA/cg-counts"
out=
for a in "${runs[@]}"; do
    # shellcheck disable=SC2086
    timeout "$RUN_TIMEOUT" "$BUILD/step7" "${dev[@]}" $a --kernel all --csv "$tmp/one.csv" >"$tmp/out" 2>&1
    st=$?
    printf 'cg-counts: %-48s status %s: %s\n' "${a#--}" "$st" "$(grep -E '^solve' "$tmp/out" | sed -E 's/^solve +//; s/:.*//' | paste -sd';')"
    [ -s "$tmp/one.csv" ] || continue
    if [ -z "$out" ]; then
        slug=$(awk -F, 'NR == 2 { print $3 }' "$tmp/one.csv" | tr 'A-Z' 'a-z' | sed -E 's/[^a-z0-9]+/-/g; s/^-|-$//g')
        out=$DATA/cg-counts/$slug.csv
        [ -s "$out" ] || head -n 1 "$tmp/one.csv" >"$out"
    fi
    tail -n +2 "$tmp/one.csv" >>"$out"
    rm -f "$tmp/one.csv"
done
[ -n "$out" ] && echo "cg-counts: rows appended to $out"
