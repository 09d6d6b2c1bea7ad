#!/usr/bin/env bash
# plots/rowlengths.sh - chapter 6's row-length histograms (`make rowlengths`):
# for each irregular matrix of the chapter's table, and the grid, the number
# of rows of each length, lengths in powers-of-two bins (0, 1, 2-3, 4-7, ...),
# both axes logarithmic, one panel per matrix. The matrices come from
# build/step6 --gen ... --save-matrix (the generator is seeded, so every
# machine draws the same histograms); the counts are kept in
# plots/irregular/rowlengths.dat. Writes plots/fig-rowlengths.png and .svg.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
OUTDIR=${1:-$ROOT/plots}
DAT=${ROWLENGTHS_DAT:-$ROOT/plots/irregular/rowlengths.dat}
command -v gnuplot >/dev/null || { echo "rowlengths: gnuplot is not installed (apt-get install gnuplot-nox)" >&2; exit 2; }
[ -x "$BUILD/step6" ] || { echo "rowlengths: no $BUILD/step6: run make all" >&2; exit 2; }
if [ -n "${ROWLENGTHS_SPECS:-}" ]; then
    read -r -a specs <<<"$ROWLENGTHS_SPECS"
else
    specs=(powerlaw:rows=262144,mean=15 powerlaw:rows=1048576,mean=7,exp=1.5 powerlaw:rows=65536,mean=188
           arrow:rows=46500 grid:1024)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$DAT.new"
i=0
for s in "${specs[@]}"; do
    if [ "${s%%:*}" = grid ]; then m=(--grid "${s#grid:}"); else m=(--gen "$s"); fi
    echo "rowlengths: $s" >&2
    SPMV_PROBE_MB=0 "$BUILD/step6" "${m[@]}" --kernel scalar --runs 1 --warmup 0 --quiet \
        --save-matrix "$tmp/m.mtx" >"$tmp/out" 2>&1 || { cat "$tmp/out" >&2; exit 2; }
    name=$(awk '/^matrix /{ sub(":", "", $2); print $2; exit }' "$tmp/out")
    # rows of each length, from the coordinate lines (after the size line)
    awk -v name="$name" -v idx=$i '
        /^%/ { next }
        !size { rows = $1; size = 1; next }
        { len[$1]++ }
        END {
            for (r = 1; r <= rows; r++) { l = len[r] + 0; b = 0; while (2 ^ b <= l) b++; n[b]++; if (b > top) top = b }
            printf "# %d %s\n", idx, name
            for (b = 0; b <= top; b++) printf "%d %d %d\n", (b ? 2 ^ (b - 1) : 0), n[b] + 0, idx
            printf "\n\n"
        }' "$tmp/m.mtx" >>"$DAT.new"
    i=$((i + 1))
done
mv "$DAT.new" "$DAT"
titles=$(grep '^# ' "$DAT" | awk '{ printf "%s ", $3 }')
gnuplot -e "dat='$DAT'; out='$OUTDIR/fig-rowlengths'; titles='$titles'; n=$i" "$ROOT/plots/rowlengths.gp"
echo "rowlengths: $OUTDIR/fig-rowlengths.png and .svg from $DAT" >&2
