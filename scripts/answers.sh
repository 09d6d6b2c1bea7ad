#!/usr/bin/env bash
# scripts/answers.sh [STEP...] - what `make answers` does: run the answer of
# every exercise (each chapter's stepN-*/answers/answers.sh), check that what
# it claims still holds on this device, and print one table: chapter,
# exercise, what it shows, status, and the measurements it made.
#
#   make answers                          every chapter, on the default device
#   make answers STEPS="step1 step4"      those chapters (step4-vector, the folder, too)
#   make answers DEVICE=gpu CSV=FILE      the measurements as CSV rows (the
#                                         committed ones: plots/data/answers/<device>.csv)
#   ANSWERS_SMALL=1                       small sizes (what `make test` runs)
#
# A chapter's answers.sh is sourced from the repository root, with BUILD, and
# calls, for each exercise:
#   exercise N "what it shows"   begins exercise N (its output: $ANSWERS_OUT/stepN-N.out)
#   run CMD                      runs the string CMD with bash from the root;
#                                stdout and stderr go to the exercise's output
#                                ($OUT_FILE, the last command's alone: $LAST)
#   expect_status S              the last command's status was S
#   expect_text TEXT             the last command printed TEXT (a fixed string)
#   expect_no_text TEXT          it did not
#   claim WHY COND...            a claim the answer makes holds: COND (a
#                                command) is true; else the exercise is WRONG: WHY
#   record LABEL VALUE [UNIT]    a measurement, shown in the table and the CSV
#   gflops CSVFILE [KERNEL]      the GFLOP/s of the last row (of KERNEL) in a
#                                results CSV that a step wrote with --csv
#   fastest CSVFILE              the GFLOP/s of the fastest timed run of all its
#                                rows (the least disturbed on a shared machine)
#   build_copy STEP MAIN BIN [FLAGS]  STEP's program built from the edited copy
#                                MAIN of its main.c as BIN (the Makefile's own
#                                compile command, FLAGS added)
#   needs TOOL                   false (and the exercise SKIP) where TOOL is missing
#   gpu_only / cpu_only          false (and SKIP) on the other kind of device
#   requires WHY COND...         false (and the exercise SKIP: WHY) where COND
#                                (a command) is false: what the exercise needs
#                                that this machine lacks (not a claim: use claim)
# and may use $GRID (1024, or 64 with ANSWERS_SMALL=1), $SCRATCH (the chapter's own
# folder, removed at the end) and $DEVICE_KIND (CPU or GPU).
# Exit 1 when an exercise's claim failed (WRONG); SKIP is not a failure.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
export BUILD=${BUILD:-$ROOT/build}
export ANSWERS_OUT=${ANSWERS_OUT:-$BUILD/answers}
csv_out=${ANSWERS_CSV:-}
export GRID=1024
[ "${ANSWERS_SMALL:-0}" = 1 ] && GRID=64
mkdir -p "$ANSWERS_OUT"
rm -f "$ANSWERS_OUT"/*.out
scratch_all=$(mktemp -d)
rows=$(mktemp)
trap 'rm -rf "$scratch_all" "$rows"' EXIT

# the device the steps run on: its kind (CPU, GPU) and name, from step1's "device" line
line=$(SPMV_PROBE_MB=0 "$BUILD/step1" --grid 1 --runs 1 --warmup 0 2>/dev/null | grep -m 1 '^device ')
if [ -z "$line" ]; then
    echo "answers: no OpenCL device answers (build/step1 --grid 1 fails; try make devices)" >&2
    exit 2
fi
DEVICE_KIND=$(sed -n 's/^device  *[0-9]*:[0-9]* .* (\([A-Z]*\)), .*/\1/p' <<<"$line")
DEVICE_NAME=$(sed -n 's/^device  *[0-9]*:[0-9]* \(.*\) ([A-Z]*), .*/\1/p' <<<"$line")
export DEVICE_KIND DEVICE_NAME
rev=${GIT_REV:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}

# ---- what an answers.sh calls
CHAPTER="" EX="" WHAT="" STATUS="" MEAS="" OUT_FILE="" LAST="" LAST_STATUS=0
_end() { # the row of the exercise in progress
    [ -n "$EX" ] || return 0
    printf '%s\t%s\t%s\t%s\t%s\n' "$CHAPTER" "$EX" "$WHAT" "${STATUS:-ok}" "$MEAS" >>"$rows"
    EX=""
}
exercise() {
    _end
    EX=$1 WHAT=$2 STATUS="" MEAS=""
    OUT_FILE=$ANSWERS_OUT/$CHAPTER-$EX.out LAST=$SCRATCH/last
    : >"$OUT_FILE"
    printf '  %s exercise %s: %s\n' "$CHAPTER" "$EX" "$WHAT" >&2
}
_wrong() { case $STATUS in WRONG*) STATUS="$STATUS; $1" ;; *) STATUS="WRONG: $1" ;; esac; }
_skipped() { case $STATUS in WRONG*|SKIP*) return 0 ;; esac; return 1; }
run() {
    _skipped && return 0
    printf '$ %s\n' "$1" >>"$OUT_FILE"
    (cd "$ROOT" && bash -c "$1") >"$LAST" 2>&1 </dev/null
    LAST_STATUS=$?
    cat "$LAST" >>"$OUT_FILE"
    return 0
}
expect_status() { _skipped || [ "$LAST_STATUS" = "$1" ] || _wrong "status $LAST_STATUS, the answer says $1"; }
expect_text() { _skipped || grep -qF -- "$1" "$LAST" || _wrong "no '$1' in the output"; }
expect_no_text() { _skipped || ! grep -qF -- "$1" "$LAST" || _wrong "'$1' in the output"; }
claim() {
    local why=$1; shift
    _skipped || "$@" || _wrong "$why"
}
# csv_field S: S as one CSV field (quoted, its quotes doubled, where it holds a comma or a quote)
csv_field() { case $1 in *[,\"]*) printf '"%s"' "${1//\"/\"\"}" ;; *) printf '%s' "$1" ;; esac; }
record() {
    _skipped && return 0
    MEAS="${MEAS:+$MEAS; }$1 ${2}${3:+ $3}"
    [ -n "$csv_out" ] && printf '%s,%s,%s,%s,%s,%s,%s,%s\n' "$CHAPTER" "$EX" "$(csv_field "$1")" "$(csv_field "$2")" \
        "$(csv_field "${3:-}")" "$(csv_field "$DEVICE_NAME")" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$rev" >>"$csv_out"
    return 0
}
gflops() {
    awk -F, -v k="${2:-}" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        k == "" || $c["kernel"] == k { g = $c["gflops"] + 0 } END { printf (g >= 10 ? "%.1f\n" : "%.2f\n"), g }' "$1"
}
fastest() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $1 != "step" { g = $c["gflops"] * $c["ms_median"] / $c["ms_min"]; if (g > m) m = g }
        END { printf (m >= 10 ? "%.1f\n" : "%.2f\n"), m }' "$1"
}
build_copy() {
    local main cc
    main=$(ls -d "$1"-*/)main.c
    cc=$(make -s -n -W "$main" BUILD="$BUILD" "$BUILD/$1" | grep -E -- "-o $BUILD/$1\$")
    run "$(sed "s# $main # $2 #; s#-o $BUILD/$1\$#${4:-} -o $3#" <<<"$cc")"
    expect_status 0
}
needs() {
    command -v "$1" >/dev/null 2>&1 && return 0
    _skipped || STATUS="SKIP: no $1 here"
    return 1
}
requires() {
    local why=$1; shift
    "$@" && return 0
    _skipped || STATUS="SKIP: $why"
    return 1
}
gpu_only() { [ "$DEVICE_KIND" = GPU ] && return 0; _skipped || STATUS="SKIP: a GPU answer"; return 1; }
cpu_only() { [ "$DEVICE_KIND" = CPU ] && return 0; _skipped || STATUS="SKIP: a CPU answer"; return 1; }
export -f gflops

# ---- every chapter's answers
if [ -n "$csv_out" ] && [ ! -s "$csv_out" ]; then
    echo "chapter,exercise,label,value,unit,device,date,git_rev" >"$csv_out"
fi
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=($(ls -d step[0-9]-*/ 2>/dev/null | sed 's/-.*//'))
echo "answers on $DEVICE_NAME ($DEVICE_KIND)$([ "$GRID" = 64 ] && echo ', small sizes')" >&2
for s in "${steps[@]}"; do
    s=${s%/} s=${s%%-*}   # step7-cg (the folder) is step7
    dir=$(ls -d "$s"-*/ 2>/dev/null | head -n 1)
    if [ -z "$dir" ]; then echo "answers: no chapter $s" >&2; exit 2; fi
    [ -f "$dir/answers/answers.sh" ] || continue
    CHAPTER=$s
    SCRATCH=$scratch_all/$s   # a chapter's own: no file of another chapter's answers in it
    mkdir -p "$SCRATCH"
    export SCRATCH
    # shellcheck disable=SC1090
    source "$dir/answers/answers.sh"
    _end
done

# ---- the table
printf '\n%-7s %-3s %-52s %-7s %s\n' chapter ex "what it shows" status measured
wrong=0
while IFS=$'\t' read -r ch ex what st meas; do
    short=${st%%:*}
    printf '%-7s %-3s %-52.52s %-7s %s\n' "$ch" "$ex" "$what" "$short" "$meas"
    [ "$short" = ok ] || printf '%12s%s\n' '' "$st"
    [ "$short" = WRONG ] && wrong=$((wrong + 1))
done <"$rows"
echo "(on $DEVICE_NAME; outputs in $ANSWERS_OUT)"
[ "$wrong" = 0 ]
