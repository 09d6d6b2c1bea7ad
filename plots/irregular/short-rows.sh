#!/usr/bin/env bash
# plots/irregular/short-rows.sh [OUT] - chapter 6's kernels on very short rows
# (a road network, a mesh of low degree): build/step6 on `--gen
# short:rows=ROWS,mean=M` as the mean row length falls from 8 to 1, every
# kernel, float and double, so that the rule (step6-csr/choice/csrchoice.c) can be
# checked against where each kernel wins.
#
#   make -s all && plots/irregular/short-rows.sh /tmp/short                 the default device
#   SPMV_DEVICE=gpu plots/irregular/short-rows.sh "$OUT"                    a GPU, 2M rows
#   ROWS=262144 ROUNDS=4 GROUP_SIZES="2 4 8" plots/irregular/short-rows.sh /tmp/short
#                         PoCL on 2 cores: a smaller matrix, no vector-16 (about 20 minutes)
# The committed pthread-*-short-rows.csv is the third line's, the
# nvidia-h100-80gb-hbm3 one the second's (built with CUDA_ARCH=-arch=sm_90).
#
# One round, for each mean and precision, on one matrix: step6 --kernel all
# --group-size 2 (scalar, vector-2 and adaptive in one process), then the
# vector kernel with each other group of GROUP_SIZES, then cuSPARSE where
# build/cusparse exists and the device is an NVIDIA GPU. Rounds repeat that
# ROUNDS times, so each kernel's median is over rounds spread across the
# sweep, and a ratio of two kernels is best taken within one round.
# Writes OUT/<device-slug>-short-rows.csv (step6's own CSV rows; OUT, or $OUT,
# default build/short-rows), appending to it as it goes, and prints per
# mean and precision each kernel's median GFLOP/s over the rounds and its
# ratio to the fastest (plots/blocks/step6-short.sh).
#
# Environment: BUILD (binaries), DEVICE (--device SEL; default SPMV_DEVICE,
# as every step), ROWS (default 2097152), MEANS (default "8 6 5 4 3 2.5 2 1.5
# 1"), BAND (default 32), PRECISIONS (default "s d"), GROUP_SIZES (default "2 4 8
# 16"; the first runs with --kernel all), ROUNDS (default 3), ARGS (more flags
# for every run, default "--runs 20").
# Exit status: 0; 1 when a run failed its check or exited with an error (it
# is named, the sweep goes on); 2 on bad settings.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
OUT=${1:-${OUT:-$BUILD/short-rows}}
DEVICE=${DEVICE:-}
ROWS=${ROWS:-2097152}
MEANS=${MEANS:-8 6 5 4 3 2.5 2 1.5 1}
BAND=${BAND:-32}
PRECISIONS=${PRECISIONS:-s d}
GROUP_SIZES=${GROUP_SIZES:-2 4 8 16}
ROUNDS=${ROUNDS:-3}
ARGS=${ARGS---runs 20}

die() { echo "short-rows: $*" >&2; exit 2; }
case $ROUNDS in '' | *[!0-9]* | 0) die "ROUNDS wants a whole number of at least 1, not '$ROUNDS'" ;; esac
case $ROWS in '' | *[!0-9]* | 0) die "ROWS wants a whole number of at least 1, not '$ROWS'" ;; esac
for g in $GROUP_SIZES; do case $g in 2 | 4 | 8 | 16 | 32 | 64) ;; *) die "GROUP_SIZES wants powers of two from 2 to 64, not '$g'" ;; esac; done
for p in $PRECISIONS; do case $p in s | d | c | z) ;; *) die "PRECISIONS wants s, d, c or z, not '$p'" ;; esac; done
[ -n "$MEANS" ] || die "MEANS is empty: name mean row lengths, e.g. MEANS=\"8 4 2.5 1\""
[ -x "$BUILD/step6" ] || die "$BUILD/step6 is not built: run make all first"
mkdir -p "$OUT" || die "cannot create $OUT"
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
read -r -a groups <<<"$GROUP_SIZES"
read -r -a extra <<<"$ARGS"
dev=()
[ -n "$DEVICE" ] && dev=(--device "$DEVICE")

device="" csv="" status=0 n=0
total=$(( ROUNDS * $(echo $MEANS | wc -w) * $(echo $PRECISIONS | wc -w) * ${#groups[@]} ))
# one run: its rows appended to the sweep's CSV, one progress line
run() { # LABEL BINARY FLAGS...
    local label=$1 rc rows=0
    shift
    n=$((n + 1))
    rm -f "$TMPD/run.csv"
    "$@" "${extra[@]}" --csv "$TMPD/run.csv" >"$TMPD/out" 2>"$TMPD/err" </dev/null
    rc=$?
    [ -s "$TMPD/run.csv" ] && rows=$(($(wc -l <"$TMPD/run.csv") - 1))
    if [ "$rows" -gt 0 ] && [ -z "$csv" ]; then
        device=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["device"]; exit }' "$TMPD/run.csv")
        slug=$(printf '%s' "$device" | tr '[:upper:]' '[:lower:]' | tr -c 'a-z0-9' '-' | tr -s '-' | sed 's/^-//; s/-$//')
        csv=$OUT/$slug-short-rows.csv
        rm -f "$csv"
    fi
    [ "$rows" -gt 0 ] && { [ -s "$csv" ] && tail -n +2 "$TMPD/run.csv" >>"$csv" || cp "$TMPD/run.csv" "$csv"; }
    local note
    case $rc in
        0) note=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                 { printf "%s%s %s", (NR > 2 ? ", " : ""), $c["kernel"], $c["gflops"] }' "$TMPD/run.csv") ;;
        3) note="SKIP: $(grep -m 1 -i skip "$TMPD/out" "$TMPD/err" | cut -c1-120)" ;;
        *) note="FAILED (status $rc): $(tail -n 1 "$TMPD/err" | cut -c1-160)"; status=1 ;;
    esac
    printf '[%d/%d] %s  %s\n' "$n" "$total" "$label" "$note" >&2
}

for ((round = 1; round <= ROUNDS; round++)); do
    for m in $MEANS; do
        spec=short:rows=$ROWS,mean=$m,band=$BAND
        for p in $PRECISIONS; do
            base=("$BUILD/step6" --gen "$spec" --precision "$p")
            run "round $round $spec $p all, group ${groups[0]}" "${base[@]}" "${dev[@]}" --kernel all --group-size "${groups[0]}"
            for g in "${groups[@]:1}"; do
                run "round $round $spec $p vector-$g" "${base[@]}" "${dev[@]}" --kernel vector --group-size "$g"
            done
            if [ -x "$BUILD/cusparse" ] && [[ ${device,,} == *nvidia* ]]; then
                total=$((total + 1))
                run "round $round $spec $p cusparse" "$BUILD/cusparse" --gen "$spec" --precision "$p" --device "$device"
            fi
        done
    done
done
[ -n "$csv" ] || die "no run wrote a row (see the lines above)"
echo "short-rows: $(($(wc -l <"$csv") - 1)) rows in $csv" >&2
bash "$ROOT/plots/blocks/step6-short.sh" "$csv" p="$(echo $PRECISIONS | tr -d ' ')"
exit $status
