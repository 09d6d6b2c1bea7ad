#!/usr/bin/env bash
# plots/figures.sh - what `make figures [DEVICE=SEL] [BUDGET=seconds]` does:
# run every step binary that exists over a size sweep on one device, append the
# rows to plots/data/<device-slug>.csv, then redraw the figures.
#
#   1. the radius-5 grid at 64x64 for every step (step6: each of its kernels,
#      scalar, vector and adaptive, in precisions s d c z);
#   2. step6 over chapter 6's generated irregular matrices (IRREGULAR: power-law
#      of mean 15, 7 and 188 and the arrow), each at a sixteenth of the
#      chapter's rows (the arrow at a quarter) to start with;
#   3. step6 over the real matrices of tests/data (those in its MANIFEST.tsv),
#      and every matrix file in $MATRICES if set (one file per name);
#   4. the grid again at 128x128, 256x256, ... and each irregular matrix at 4x
#      its rows, round after round, for every step and matrix still going, each
#      while its next size fits in what is left of the budget (the DIA steps
#      first, so a slow step6 run stops step6, not the others).
# PLAN=N makes it a fixed plan instead: steps 1-3, then N rounds of step 4
# for every job still going (until it stops for a reason of its own: out of
# memory, a skip, a failure), whatever the time, no budget. The same runs on
# an idle machine and on a busy one: what the tests use.
# Every step6 run also says which kernel step6 itself would choose for the
# matrix (its `choice` line): one row per matrix and precision goes to
# $DATA/choice/<device-slug>.csv (device,matrix,precision,choice,date,git_rev),
# which the irregular figure marks.
# Where build/cusparse exists (make cusparse: nvcc and cuSPARSE were found) and
# the device the steps ran on is an NVIDIA GPU, cuSPARSE runs beside step6 on
# every matrix and grid, in the same four precisions, on that GPU (--device
# with its name); its rows (step6, kernel cusparse) are step6's reference line.
#
# A step leaves the sweep when it exits 2 with an out-of-memory or too-large
# message (the device's limit, nothing recorded), skips (3: the binary wrote a
# SKIP row), fails or errors (the FAIL row, or an ERROR row written here when
# the binary wrote none). Everything else goes on.
#
# The next size's time is estimated from the last one: the part of it that
# grows with the matrix (the time above the 64x64 run) x4 per doubling.
#
# Environment (make passes these): BUILD (binaries), DEVICE (--device SEL),
# BUDGET (seconds, default 600: about 10 minutes on a 2-core CPU with PoCL),
# PLAN (N: a fixed plan, N rounds of growth, in place of the budget),
# RUN_TIMEOUT (seconds one run may take, default BUDGET's),
# ARGS (more flags for every binary, e.g. "--runs 20"), THREADS (step0's
# OpenMP threads, default: every core, so the C loops are a fair CPU anchor), MATRICES (a
# folder of more matrix files for step6: .mtx and Harwell-Boeing), EXTRA (more variants: "step4:cpu-block step0:diag"),
# DATA (where the CSVs go, default plots/data), NO_DRAW=1 (sweep only),
# IRREGULAR (the --gen specs of step 2, space-separated; empty: none),
# REAL_MATRICES=0 (leave out tests/data's matrices: a quick sweep), CG=0 (no
# chapter 7 runs), CG_SIZES (its Poisson N, default "256 512 1024 2048"),
# CG_BUDGET (its seconds, default 300).
# 6. chapter 8 (plots/mpi-sweep.sh; MPI=0 leaves it out, MPI_GRIDS, MPI_PRECS,
#    MPI_ROUNDS): step8 on 1 and 2 ranks, chapter 7's fused CG, PETSc and the
#    CUDA yardstick beside it, into $DATA/mpi/<slug>.csv, <slug>-step7.csv,
#    <slug>-petsc.csv, <slug>-cuda.csv.
# 5. chapter 7 (plots/cg-sweep.sh): fixed-iteration CG solves of the Poisson
#    matrix, N x N for N in CG_SIZES, by step7 plain and fused and each yardstick
#    found (build/cusparse-cg in both forms, CuPy, SciPy, build/petsc-cg on 2 ranks), rows to
#    $DATA/cg-<slug>.csv; then plots/cg-history.sh: the residual per iteration
#    on tests/data/1138_bus.mtx into $DATA/cg-history/.
#
# The device name comes from the rows the binaries write (never from their
# printed text): each run writes a fresh CSV, its rows go to the sweep's file,
# and at the end to $DATA/<slug>.csv (one of the older schema, without
# bw_copy_gbs and bw_read_gbs, first gains them empty: plots/migrate.sh).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
DEVICE=${DEVICE:-}
BUDGET=${BUDGET:-600}
ARGS=${ARGS:-}
MATRICES=${MATRICES:-}
EXTRA=${EXTRA:-}
DATA=${DATA:-$ROOT/plots/data}
RUN_TIMEOUT=${RUN_TIMEOUT:-$BUDGET}
THREADS=${THREADS:-$(nproc 2>/dev/null || echo 1)}
# chapter 6's matrices (power-law mean 15 at 262144 rows, mean 7 exponent 1.5 at
# 1048576, mean 188 at 65536; the arrow at 46500), from 1/16 of those rows
IRREGULAR=${IRREGULAR-powerlaw:rows=16384,mean=15 powerlaw:rows=65536,mean=7,exp=1.5 powerlaw:rows=4096,mean=188 arrow:rows=11625}
HEADER=step,kernel,device,driver,matrix,rows,cols,nnz,diags,precision,runs,ms_median,ms_min,gflops,gbs,bw_measured_gbs,bound_model_gflops,bound_compulsory_gflops,max_rel_err,check,date,git_rev,bw_copy_gbs,bw_read_gbs
RADIUS=5

PLAN=${PLAN:-}
case $BUDGET in '' | *[!0-9]*) echo "figures: BUDGET wants whole seconds, not '$BUDGET'" >&2; exit 2 ;; esac
case $PLAN in *[!0-9]*) echo "figures: PLAN wants a whole number of growth rounds, not '$PLAN'" >&2; exit 2 ;; esac
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT   # however it ends (finish keeps the rows first)
SWEEP=$TMPD/sweep.csv
echo "$HEADER" >"$SWEEP"
CHOICES=$TMPD/choice.csv      # device,matrix,precision,choice,date,git_rev
: >"$CHOICES"
CHOICE_HEADER=device,matrix,precision,choice,date,git_rev

# GIT_REV from the environment names the revision where the tree has no git
# history (a copy sent to another machine); make's GIT_REV=... does the same
# for the binaries
if [ -z "${GIT_REV:-}" ]; then
    GIT_REV=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
    git -C "$ROOT" diff --quiet HEAD 2>/dev/null || GIT_REV="$GIT_REV+dirty"
fi

now() { date +%s.%N; }
T0=$(now)
elapsed() { awk -v a="$T0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
# true when the budget is spent (never under a fixed plan: PLAN)
budget_spent() { [ -z "$PLAN" ] && awk -v e="$(elapsed)" -v b="$BUDGET" 'BEGIN { exit !(e > b) }'; }
fmt_dur() { awk -v s="$1" 'BEGIN { s = int(s + 0.5); if (s >= 60) printf "%dm%02ds", s / 60, s % 60; else printf "%ds", s }'; }

# ---- the jobs: step|kernel|precision (empty kernel: the binary's default) ----
jobs=()
for s in step0 step1 step2 step3 step4 step5; do
    [ -x "$BUILD/$s" ] && jobs+=("$s||")
done
for x in $EXTRA; do
    [ -x "$BUILD/${x%%:*}" ] && jobs+=("${x%%:*}|${x#*:}|")
done
if [ -x "$BUILD/step6" ]; then
    for k in scalar vector adaptive; do
        for p in s d c z; do jobs+=("step6|$k|$p"); done
    done
    if [ -x "$BUILD/cusparse" ]; then
        for p in s d c z; do jobs+=("cusparse||$p"); done
    fi
fi
if [ ${#jobs[@]} -eq 0 ]; then
    echo "figures: no step binaries in $BUILD: build them first (make all)" >&2
    exit 2
fi

declare -A active last first   # job -> 1 while it grows; its last and 64x64 run times
for j in "${jobs[@]}"; do active[$j]=1; done
done_runs=0
planned=0
device=""                       # the OpenCL device, from the first row that names one

label() { # job matrix
    local s k p
    IFS='|' read -r s k p <<<"$1"
    echo "$s${k:+ $k}${p:+ $p} $2"
}

# run JOB MATRIX-NAME FLAGS...: one run, its rows into the sweep, one progress line.
# Sets RUN_STATUS: ok, skip, fail, error or limit. Its time is kept under SKEY
# (a series: the job on the grid, or JOB#... on another matrix), default the job.
run_one() {
    local job=$1 name=$2 key=${SKEY:-$1}
    shift 2
    local s k p
    IFS='|' read -r s k p <<<"$job"
    local cmd=("$BUILD/$s" "$@")
    [ -n "$k" ] && cmd+=(--kernel "$k")
    [ -n "$p" ] && cmd+=(--precision "$p")
    if [ "$s" = cusparse ]; then
        # cuSPARSE on the GPU the steps ran on, named as their rows name it; on
        # any other device it has nothing to compare with: not run, no row
        case ${device,,} in
            *nvidia*) cmd+=(--device "$device") ;;
            *) done_runs=$((done_runs + 1)); RUN_STATUS=absent
               printf '[%d/%d] %s  not run: %s is not an NVIDIA GPU\n' "$done_runs" "$planned" "$(label "$job" "$name")" \
                   "${device:-the device}"
               return ;;
        esac
    elif [ -n "$DEVICE" ] && [ "$s" != step0 ]; then
        cmd+=(--device "$DEVICE")   # step0 is host C
    fi
    [ "$s" = step0 ] && cmd+=(--threads "$THREADS")   # ...on every core: the CPU anchor
    # shellcheck disable=SC2206
    [ -n "$ARGS" ] && cmd+=($ARGS)
    cmd+=(--csv "$TMPD/run.csv")
    rm -f "$TMPD/run.csv"
    local t0 rc secs
    t0=$(now)
    timeout "$RUN_TIMEOUT" "${cmd[@]}" >"$TMPD/out" 2>"$TMPD/err" </dev/null
    rc=$?
    secs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
    done_runs=$((done_runs + 1))
    last[$key]=$secs
    [ -n "${first[$key]:-}" ] || first[$key]=$secs
    local note="" rows=0
    [ -s "$TMPD/run.csv" ] && rows=$(($(wc -l <"$TMPD/run.csv") - 1))
    if [ "$rows" -gt 0 ]; then
        tail -n +2 "$TMPD/run.csv" >>"$SWEEP"
        [ -n "$device" ] || device=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            $c["step"] != "step0" && $c["device"] != "" && $c["device"] != "-" { print $c["device"]; exit }' "$TMPD/run.csv")
        # the kernel step6 would choose for this matrix and precision (its choice line), once each
        if [ "$s" = step6 ]; then
            local ch
            ch=$(awk '/^choice / { sub(/:$/, "", $2); print $2; exit }' "$TMPD/out")
            [ -n "$ch" ] && awk -F, -v ch="$ch" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                { print $c["device"] "," $c["matrix"] "," $c["precision"] "," ch "," $c["date"] "," $c["git_rev"]; exit }' \
                "$TMPD/run.csv" >>"$CHOICES"
        fi
    fi
    case $rc in
        0) RUN_STATUS=ok ;;
        3) RUN_STATUS=skip; note="  SKIP" ;;
        1) RUN_STATUS=fail; note="  FAIL" ;;
        124) RUN_STATUS=error; note="  ERROR (no result after ${RUN_TIMEOUT} s)" ;;
        2) if grep -qiE 'out of (device|host) memory|smaller --grid' "$TMPD/err"; then
               RUN_STATUS=limit; note="  too large for the device: stop growing"
           elif grep -q 'is complex: run it with --precision c or z' "$TMPD/err"; then
               RUN_STATUS=limit; note="  complex matrix: only c and z apply, nothing recorded"
           else
               RUN_STATUS=error; note="  ERROR (exit 2: $(head -n 1 "$TMPD/err"))"
           fi ;;
        *) RUN_STATUS=error; note="  ERROR (exit $rc)" ;;
    esac
    if [ "$rows" -eq 0 ] && [ "$RUN_STATUS" != limit ]; then
        [ "$RUN_STATUS" = error ] || note="$note, no row written: ERROR"
        RUN_STATUS=error
        # What this script knows; the device is filled in when the sweep ends.
        printf '%s,%s,@DEVICE@,-,%s,0,0,0,0,%s,0,0,0,0,0,0,0,0,0,ERROR,%s,%s,0,0\n' "$s" "${k:--}" "$name" "${p:-s}" \
            "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$GIT_REV" >>"$SWEEP"
    fi
    printf '[%d/%d] %s  %s s%s  ~%s left\n' "$done_runs" "$planned" "$(label "$job" "$name")" "$secs" "$note" \
        "$(fmt_dur "$(estimate_left)")"
}

# Seconds the runs still planned should take: each job's last time, x4 per
# doubling for the grid, and the mean step6 run for the matrices left.
pending_grid=()      # jobs of the current round not yet run
pending_mats=0
estimate_left() {
    local sum=0 j
    for j in "${pending_grid[@]}"; do sum=$(next_estimate "$j" "$sum"); done
    awk -v a="$sum" -v n="$pending_mats" -v m="${mat_mean:-1}" 'BEGIN { print a + n * m }'
}
grow=1               # 1 in the 64x64 round (no growth), 4 afterwards
next_estimate() { # series sum -> sum + its next run time: the part above the job's
    # 64x64 run (its fixed cost) grows g times
    local j=${1%%#*}
    awk -v s="$2" -v l="${last[$1]:-1}" -v f="${first[$j]:-${last[$1]:-1}}" -v g="$grow" \
        'BEGIN { d = l - f; if (d < 0) d = 0; print s + f + g * d + (g > 1 && d == 0 ? 0.1 * f : 0) }'
}

finish() {
    trap - INT TERM
    local n
    n=$(($(wc -l <"$SWEEP") - 1))
    if [ "$n" -le 0 ]; then
        echo "figures: no rows written"
        rm -rf "$TMPD"
        return 1
    fi
    [ -n "$device" ] || device=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["device"] != "@DEVICE@" && $c["device"] != "" { print $c["device"]; exit }' "$SWEEP")
    [ -n "$device" ] || device=unknown-device
    local slug
    slug=$(printf '%s' "$device" | tr '[:upper:]' '[:lower:]' | tr -c 'a-z0-9' '-' | tr -s '-' | sed 's/^-//; s/-$//')
    SLUG=$slug   # chapter 7's file is named after the same device
    mkdir -p "$DATA"
    local out=$DATA/$slug.csv
    # a file of the older schema (before bw_copy_gbs, bw_read_gbs) gains the
    # two columns, empty in its rows (plots/migrate.sh), and the sweep goes on
    # in it; a file of other columns is left alone, the rows go to a new one
    if [ -s "$out" ] && [ "$(head -n 1 "$out")" = "${HEADER%,bw_copy_gbs,bw_read_gbs}" ]; then
        "$ROOT/plots/migrate.sh" "$out" | sed 's/^migrate/figures/'
    fi
    if [ -s "$out" ] && [ "$(head -n 1 "$out")" != "$HEADER" ]; then
        out=$DATA/$slug-$(date -u +%Y%m%dT%H%M%S).csv
        echo "figures: $DATA/$slug.csv has other columns; writing $out instead"
    fi
    [ -s "$out" ] || echo "$HEADER" >"$out"
    awk -v d="$device" 'NR > 1 { gsub(/@DEVICE@/, d); print }' "$SWEEP" >>"$out"
    echo "figures: $n rows for $device appended to ${out#"$ROOT"/} in $(fmt_dur "$(elapsed)")"
    if [ -s "$CHOICES" ]; then   # step6's choice per matrix and precision, beside the rows
        local cf=$DATA/choice/$slug.csv
        mkdir -p "$DATA/choice"
        [ -s "$cf" ] || echo "$CHOICE_HEADER" >"$cf"
        sort -u -t, -k2,3 "$CHOICES" >"$CHOICES.once"
        cat "$CHOICES.once" >>"$cf"
        echo "figures: step6's choice for $(wc -l <"$CHOICES.once") matrices and precisions appended to ${cf#"$ROOT"/}"
    fi
    rm -rf "$TMPD"
    return 0
}
trap 'echo; echo "figures: interrupted; keeping the rows so far"; finish; exit 130' INT TERM

if [ -n "$PLAN" ]; then
    echo "figures: ${#jobs[@]} jobs from $BUILD${DEVICE:+ on --device $DEVICE}, a fixed plan: the first sizes and $PLAN rounds of growth"
else
    echo "figures: ${#jobs[@]} jobs from $BUILD${DEVICE:+ on --device $DEVICE}, budget $(fmt_dur "$BUDGET")"
fi

# ---- 1. the smallest grid, every job ----
mats=()
if [ -n "$MATRICES" ] && [ ! -d "$MATRICES" ]; then
    echo "figures: MATRICES=$MATRICES is not a folder" >&2
    exit 2
fi
if [ -x "$BUILD/step6" ]; then
    declare -A seen
    real=()
    [ "${REAL_MATRICES:-1}" = 0 ] || while IFS=$'\t' read -r f _; do
        [ "$f" = file ] || real+=("$ROOT/tests/data/$f")
    done <"$ROOT/tests/data/MANIFEST.tsv"
    # .mtx first, so a Harwell-Boeing copy of the same matrix is left out
    extra=()
    [ -n "$MATRICES" ] && extra=("$MATRICES"/*.mtx "$MATRICES"/*.[rpc][usrhz][ae])
    for f in $(printf '%s\n' "${real[@]}" | grep '\.mtx$') $(printf '%s\n' "${real[@]}" | grep -v '\.mtx$') "${extra[@]}"; do
        [ -f "$f" ] || continue
        b=$(basename "$f"); b=${b%.*}
        [ -n "${seen[$b]:-}" ] && continue
        seen[$b]=1
        mats+=("$f")
    done
fi
step6_jobs() { # the jobs that run the matrices: step6's kernels and cuSPARSE beside them
    local j; for j in "${jobs[@]}"; do
        case ${j%%|*} in step6 | cusparse) [ "${active[$j]}" = 1 ] && echo "$j" ;; esac
    done
}

side=64
pending_grid=("${jobs[@]}")
pending_mats=$(( ${#mats[@]} * $(step6_jobs | wc -l) ))
planned=$(( ${#jobs[@]} + pending_mats ))
for j in "${jobs[@]}"; do
    pending_grid=("${pending_grid[@]:1}")
    run_one "$j" "grid${side}x${side}r$RADIUS" --grid "${side}x$side" --radius "$RADIUS"
    [ "$RUN_STATUS" = ok ] || active[$j]=0
done

# ---- 2. step6 over the generated irregular matrices, at their first size ----
read -r -a gens <<<"$IRREGULAR"
gen_spec() { # SPEC LEVEL: the spec with its rows times 4^LEVEL
    awk -v s="$1" -v l="$2" 'BEGIN { if (match(s, /rows=[0-9]+/)) s = substr(s, 1, RSTART + 4) \
        sprintf("%d", substr(s, RSTART + 5, RLENGTH - 5) * 4 ^ l) substr(s, RSTART + RLENGTH); print s }'
}
gen_name() { printf '%s' "$1" | tr ':,=' '_-_'; }   # a CSV field: an ERROR row's matrix
declare -A gspec                # series JOB#gI -> its family's first spec
# precision by precision, every kernel of one before the next: a spent budget
# leaves whole comparisons, not one kernel in four precisions
mapfile -t s6 < <(for p in s d c z; do step6_jobs | grep "|$p\$"; done)
pending_mats=$(( ${#gens[@]} * ${#s6[@]} ))
planned=$(( done_runs + pending_mats ))
gseries=()
for gi in "${!gens[@]}"; do
    g=${gens[$gi]}
    for j in "${s6[@]}"; do
        if budget_spent; then
            echo "figures: budget spent: $pending_mats irregular matrix runs left out"
            break 2
        fi
        pending_mats=$((pending_mats - 1))
        key="$j#g$gi"
        gspec[$key]=$g
        SKEY=$key run_one "$j" "$(gen_name "$g")" --gen "$g"
        if [ "$RUN_STATUS" = ok ]; then active[$key]=1; else active[$key]=0; fi
        gseries+=("$key")
    done
done
pending_mats=0

# ---- 3. step6 over the real matrices (jobs that skipped or failed stay out) ----
mapfile -t s6 < <(step6_jobs)
pending_mats=$(( ${#mats[@]} * ${#s6[@]} ))
planned=$(( done_runs + pending_mats ))
mat_sum=0 mat_n=0 mat_mean=1
for f in "${mats[@]}"; do
    b=$(basename "$f"); b=${b%.*}
    for j in "${s6[@]}"; do
        if budget_spent; then
            echo "figures: budget spent: $pending_mats matrix runs left out"
            break 2
        fi
        pending_mats=$((pending_mats - 1))
        SKEY="$j#real" run_one "$j" "$b" --matrix "$f"
        mat_n=$((mat_n + 1))
        mat_sum=$(awk -v a="$mat_sum" -v b="${last[$j#real]}" 'BEGIN { print a + b }')
        mat_mean=$(awk -v a="$mat_sum" -v n="$mat_n" 'BEGIN { print a / n }')
    done
done
pending_mats=0

# ---- 4. grow the grid and the irregular matrices while the next round fits in the budget ----
grow=4
level=0
while :; do
    round=()
    for j in "${jobs[@]}" "${gseries[@]}"; do [ "${active[$j]}" = 1 ] && round+=("$j"); done
    [ ${#round[@]} -gt 0 ] || { echo "figures: every step has stopped growing"; break; }
    if [ -n "$PLAN" ] && [ "$level" -ge "$PLAN" ]; then
        echo "figures: the plan's rounds of growth are done ($PLAN); stopping at ${side}x$side"
        break
    fi
    # each series grows while its next size still fits in the budget, in the order
    # of the jobs (the DIA steps first, then the irregular matrices): a slow one stops, the others go on
    keep=() sum=0
    for j in "${round[@]}"; do
        e=$(next_estimate "$j" 0)
        if [ -z "$PLAN" ] && awk -v t="$(elapsed)" -v s="$sum" -v e="$e" -v b="$BUDGET" 'BEGIN { exit !(t + s + e > b) }'; then
            active[$j]=0
            if [ -n "${gspec[$j]:-}" ]; then
                at="stops at $(gen_spec "${gspec[$j]}" "$level")"
            else
                at="stops at ${side}x$side"
            fi
            echo "figures: $(label "${j%%#*}" "$at"): the next size would take ~$(fmt_dur "$e"), past the budget"
        else
            keep+=("$j")
            sum=$(awk -v s="$sum" -v e="$e" 'BEGIN { print s + e }')
        fi
    done
    round=("${keep[@]}")
    [ ${#round[@]} -gt 0 ] || { echo "figures: the budget is spent; stopping at ${side}x$side"; break; }
    pending_grid=("${round[@]}")
    side=$((side * 2))
    level=$((level + 1))
    planned=$((done_runs + ${#round[@]}))
    for j in "${round[@]}"; do
        pending_grid=("${pending_grid[@]:1}")
        if [ -n "${gspec[$j]:-}" ]; then
            g=$(gen_spec "${gspec[$j]}" "$level")
            SKEY=$j run_one "${j%%#*}" "$(gen_name "$g")" --gen "$g"
        else
            run_one "$j" "grid${side}x${side}r$RADIUS" --grid "${side}x$side" --radius "$RADIUS"
        fi
        [ "$RUN_STATUS" = ok ] || active[$j]=0
    done
done

finish || exit 1
# ---- 5. chapter 7: CG over Poisson sizes (step7 plain and fused, each yardstick
# present) into $DATA/cg-<slug>.csv, and the residual history of a real matrix ----
if [ "${CG:-1}" != 0 ]; then
    BUILD=$BUILD DEVICE=$DEVICE DATA=$DATA BUDGET=${CG_BUDGET:-300} SIZES="${CG_SIZES:-256 512 1024 2048}" \
        OUT="$DATA/cg-$SLUG.csv" "$ROOT/plots/cg-sweep.sh"
    BUILD=$BUILD DEVICE=$DEVICE DATA=$DATA "$ROOT/plots/cg-history.sh" || true
fi
# ---- 6. chapter 8: step8 on 1 and 2 ranks beside chapter 7's fused CG (and
# PETSc's KSPCG and KSPPIPECG, and the CUDA yardstick, where built), Poisson
# grids, into $DATA/mpi/<slug>.csv, -step7.csv, -petsc.csv and -cuda.csv
# (plots/mpi-sweep.sh) ----
if [ "${MPI:-1}" != 0 ] && [ -x "$BUILD/step8" ] && command -v mpirun >/dev/null; then
    mt=$(mktemp -d)
    SPMV_DEVICE=${DEVICE:-${SPMV_DEVICE:-}} BUILD=$BUILD DATA=$mt GRIDS="${MPI_GRIDS:-512x512 1024x1024}" PRECS="${MPI_PRECS:-d}" \
        ROUNDS="${MPI_ROUNDS:-3}" PETSC=1 CUDA=1 "$ROOT/plots/mpi-sweep.sh" || echo "figures: a chapter 8 run failed ($mt/mpi-sweep.log); its other rows are kept"
    mkdir -p "$DATA/mpi"
    for part in step8: step7:-step7 petsc:-petsc cuda:-cuda; do
        src=$mt/${part%%:*}.csv dst=$DATA/mpi/$SLUG${part#*:}.csv
        [ -s "$src" ] || continue
        [ -s "$dst" ] || head -n 1 "$src" >"$dst"
        tail -n +2 "$src" >>"$dst"
    done
    rm -rf "$mt"
fi
[ "${NO_DRAW:-0}" = 1 ] && exit 0
exec "$ROOT/plots/draw.sh" "$DATA" "$ROOT/plots"
