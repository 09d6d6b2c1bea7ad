#!/usr/bin/env bash
# plots/rounds.sh - what `make rounds` does: chapter 4's CPU table, measured so
# that it can be trusted on a shared machine.
#
# One round runs, one after another on one device, at one grid size: step 0's
# three C loops with THREADS OpenMP threads (row, diag, blocked), step 1,
# step 4's two kernels (vector, cpu) and step 5. Rounds repeat that ROUNDS
# times per grid. Each program measures its own bandwidth probe between its
# timed runs (common/measure.c), so its "% of the compulsory bound" is already a
# same-moment ratio; the speed-up over step 0 is taken within a round, against
# the fastest C loop of that round. The table gives the median over the
# rounds and the range.
#
# Environment (make passes these): BUILD (binaries), DEVICE (--device SEL,
# default cpu), GRIDS (default "1024 2048"), ROUNDS (default 3), THREADS
# (step 0's threads, default: every core), ARGS (more flags for every binary,
# e.g. "--runs 20"), OUT (the folder for the rows, default $BUILD/rounds).
# Prints progress on stderr, the table on stdout; writes $OUT/rounds.csv (a
# round column in front of the binaries' own columns) and $OUT/table.md.
# Exit status: 0, or 1 when a check failed (its row says FAIL), or 2 on bad
# settings.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
DEVICE=${DEVICE:-cpu}
GRIDS=${GRIDS:-1024 2048}
ROUNDS=${ROUNDS:-3}
THREADS=${THREADS:-$(nproc 2>/dev/null || echo 1)}
ARGS=${ARGS:-}
OUT=${OUT:-$BUILD/rounds}

die() { echo "rounds: $*" >&2; exit 2; }
case $ROUNDS in '' | *[!0-9]* | 0) die "ROUNDS wants a whole number of at least 1, not '$ROUNDS'" ;; esac
case $THREADS in '' | *[!0-9]* | 0) die "THREADS wants a whole number of at least 1, not '$THREADS'" ;; esac
[ -n "$GRIDS" ] || die "GRIDS is empty: name grid sizes, e.g. GRIDS=\"1024 2048\""
for g in $GRIDS; do
    [[ $g =~ ^[1-9][0-9]*(x[1-9][0-9]*)?$ ]] || die "GRIDS wants sizes like 1024 or 640x480, not '$g'"
done

# step|flags|label, in the order of a round
variants=(
    "step0|--kernel row --threads $THREADS|step0 row"
    "step0|--kernel diag --threads $THREADS|step0 diag"
    "step0|--kernel blocked --threads $THREADS|step0 blocked"
    "step1||step1"
    "step4||step4 vector"
    "step4|--kernel cpu|step4 cpu"
    "step5||step5"
)
for v in "${variants[@]}"; do
    s=${v%%|*}
    [ -x "$BUILD/$s" ] || die "$BUILD/$s is not built: run make all first"
done

mkdir -p "$OUT" || die "cannot create $OUT"
CSV=$OUT/rounds.csv
rm -f "$CSV"
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
n_runs=$(( ${#variants[@]} * ROUNDS * $(echo $GRIDS | wc -w) ))
i=0
status=0
T0=$SECONDS
for g in $GRIDS; do
    for r in $(seq "$ROUNDS"); do
        for v in "${variants[@]}"; do
            s=${v%%|*}; rest=${v#*|}; flags=${rest%%|*}; label=${rest#*|}
            i=$((i + 1))
            printf 'rounds: [%d/%d, %ds] grid %s, round %d: %s\n' "$i" "$n_runs" $((SECONDS - T0)) "$g" "$r" "$label" >&2
            rm -f "$TMPD/one.csv"
            dev=(--device "$DEVICE")
            [ "$s" = step0 ] && dev=()   # the C loops run on the host
            # shellcheck disable=SC2086  # flags and ARGS are word lists
            "$BUILD/$s" --grid "$g" "${dev[@]}" $flags $ARGS --quiet --csv "$TMPD/one.csv" >"$TMPD/out" 2>&1
            rc=$?
            if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
                echo "rounds: $label at grid $g exited $rc: $(tail -n 1 "$TMPD/out")" >&2
                status=1
            fi
            if [ -s "$TMPD/one.csv" ]; then
                [ -s "$CSV" ] || { printf 'round,'; head -n 1 "$TMPD/one.csv"; } >"$CSV"
                tail -n +2 "$TMPD/one.csv" | sed "s/^/$r,/" >>"$CSV"
            fi
        done
    done
done
[ -s "$CSV" ] || die "no run wrote a row: see the messages above"
awk -F, -f "$ROOT/plots/rounds.awk" "$CSV" | tee "$OUT/table.md"
echo "rounds: $((SECONDS - T0)) s; rows in $CSV, the table in $OUT/table.md" >&2
exit $status
