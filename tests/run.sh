#!/usr/bin/env bash
# tests/run.sh [--step N] [NAME...] - run every tests/t_*.sh (or those named:
# t_dia_steps ...) and end with "N passed, N failed" (", N skipped" when a check
# could not be made here: tests/lib.sh skip). Exit status 1 if anything failed.
#
# --step N (`make test STEP=N`): the tests of chapter N and of the parts of
# common/ it uses. Each script says which chapters it covers in a line
#     # chapters: 1 2 3 4 5     (or: all, the library every chapter uses;
#                              or: none, the course as a whole: `make test` only)
# and a script that covers several runs chapter N's part alone: run.sh
# exports STEPS=stepN, which tests/lib.sh's want_step reads.
#
# Each script gets a folder of its own ($TMP, its scratch) and a TMPDIR of its
# own beside it, for whatever the programs it runs make with mktemp. When the
# script ends, pass or fail, both go; when a check of it failed, they stay,
# and each of its failure lines names the folder. Anything a script or the
# programs it runs leave in that TMPDIR is a failure of its own (they clean
# up after themselves).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export ROOT
export BUILD=${BUILD:-$ROOT/build}
RESULTS=$(mktemp)
export RESULTS
# Open MPI's run-time folders (chapter 8's runs): one folder for the whole
# run, outside the scripts' TMPDIRs (mpirun's daemon may remove its folders
# after a run has returned), removed at the end
OMPI_MCA_orte_tmpdir_base=$(mktemp -d "${TMPDIR:-/tmp}/spmv-ompi.XXXXXX")
export OMPI_MCA_orte_tmpdir_base
trap 'rm -f "$RESULTS" "$RESULTS.times"; rm -rf "$OMPI_MCA_orte_tmpdir_base"' EXIT
cd "$ROOT" || exit 2
step=""
if [ "${1:-}" = --step ]; then
    step=${2:-}
    if ! [[ $step =~ ^[0-9]$ ]] || ! ls -d step"$step"-* >/dev/null 2>&1; then
        echo "run.sh: --step wants a chapter number ($(ls -d step[0-9]-* | sed 's/^step\([0-9]\).*/\1/' | paste -sd ' ')), not '$step'" >&2
        exit 2
    fi
    shift 2
fi
if [ $# -gt 0 ]; then
    scripts=()
    for n in "$@"; do scripts+=("tests/${n%.sh}.sh"); done
else
    scripts=(tests/t_*.sh)
fi
# the chapters a script covers: its "# chapters:" line (none: the course as a whole)
chapters_of() { sed -n 's/^# chapters: *//p' "$1" | head -n 1; }
for t in "${scripts[@]}"; do
    [ -f "$t" ] || { echo "run.sh: no $t" >&2; exit 2; }
    [ -n "$(chapters_of "$t")" ] || { echo "run.sh: $t has no '# chapters:' line (N..., all or none)" >&2; exit 2; }
done
if [ -n "$step" ]; then
    chosen=()
    for t in "${scripts[@]}"; do
        [[ " $(chapters_of "$t") " =~ \ (all|$step)\  ]] && chosen+=("$t")
    done
    scripts=("${chosen[@]}")
    export STEPS=step$step
    echo "---- chapter $step: ${#scripts[@]} scripts ($(printf '%s\n' "${scripts[@]}" | sed 's#tests/##; s#\.sh$##' | paste -sd ' '))"
fi
# CPU_S: the CPU seconds (user + system) of the scripts run so far and of all
# they ran, from `times` in this very shell (a $(...) or a pipe has its own
# subshell, whose count starts at 0: so cpu_s is called alone, never in one).
# Wall time grows when the machine is shared; CPU time says what a script costs.
cpu_s() { times >"$RESULTS.times"; CPU_S=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] } printf "%.0f", s }' "$RESULTS.times"); }
start=$(date +%s)
for t in "${scripts[@]}"; do
    echo "---- $t"
    t0=$(date +%s); cpu_s; c0=$CPU_S
    dir=$(mktemp -d "${TMPDIR:-/tmp}/spmv-$(basename "$t" .sh).XXXXXX")
    mkdir "$dir/work" "$dir/tmp"
    before=$(wc -l <"$RESULTS")
    TMP=$dir/work TMPDIR=$dir/tmp bash "$t" || echo "FAIL $t: the script itself exited non-zero" | tee -a "$RESULTS"
    left=$(cd "$dir/tmp" && ls -A | head -n 5 | paste -sd ' ')
    [ -z "$left" ] || echo "FAIL $t: left files in its TMPDIR: $left" | tee -a "$RESULTS"
    cpu_s
    if tail -n +$((before + 1)) "$RESULTS" | grep -q '^FAIL'; then
        # its failures name the folder, which stays
        awk -v from="$before" -v d="$dir/work" 'NR > from && /^FAIL/ { $0 = $0 " [files: " d "]" } { print }' "$RESULTS" >"$RESULTS.new" &&
            mv "$RESULTS.new" "$RESULTS"
        echo "     ($(( $(date +%s) - t0 )) s, $((CPU_S - c0)) s of CPU; its files are kept in $dir/work)"
    else
        rm -rf "$dir"
        echo "     ($(( $(date +%s) - t0 )) s, $((CPU_S - c0)) s of CPU)"
    fi
done
passed=$(grep -c '^PASS' "$RESULTS")
failed=$(grep -c '^FAIL' "$RESULTS")
skipped=$(grep -c '^SKIP' "$RESULTS")
if [ "$failed" -gt 0 ]; then
    echo "---- failures:"
    grep '^FAIL' "$RESULTS"
fi
cpu_s
echo "---- $(( $(date +%s) - start )) s in all, $CPU_S s of CPU"
if [ "$skipped" -gt 0 ]; then
    # one line per reason, with how many checks it skipped
    echo "---- skipped (this machine lacks what they need):"
    grep '^SKIP' "$RESULTS" | cut -f 2 | sort | uniq -c | sort -rn
fi
if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
