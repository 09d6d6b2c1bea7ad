#!/usr/bin/env bash
# tests/run.sh [NAME...] - run every tests/t_*.sh (or those named: t_steps ...)
# and end with "N passed, N failed" (", N skipped" when a check could not be
# made here: tests/lib.sh skip). Exit status 1 if anything failed.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export ROOT
export BUILD=${BUILD:-$ROOT/build}
RESULTS=$(mktemp)
export RESULTS
cd "$ROOT" || exit 2
if [ $# -gt 0 ]; then
    scripts=()
    for n in "$@"; do scripts+=("tests/${n%.sh}.sh"); done
else
    scripts=(tests/t_*.sh)
fi
start=$(date +%s)
for t in "${scripts[@]}"; do
    echo "---- $t"
    t0=$(date +%s)
    TMP=$(mktemp -d) bash "$t" || echo "FAIL $t: the script itself exited non-zero" | tee -a "$RESULTS"
    echo "     ($(( $(date +%s) - t0 )) s)"
done
passed=$(grep -c '^PASS' "$RESULTS")
failed=$(grep -c '^FAIL' "$RESULTS")
skipped=$(grep -c '^SKIP' "$RESULTS")
if [ "$failed" -gt 0 ]; then
    echo "---- failures:"
    grep '^FAIL' "$RESULTS"
fi
echo "---- $(( $(date +%s) - start )) s in all"
if [ "$skipped" -gt 0 ]; then
    # one line per reason, with how many checks it skipped
    echo "---- skipped (this machine lacks what they need):"
    grep '^SKIP' "$RESULTS" | cut -f 2 | sort | uniq -c | sort -rn
fi
rm -f "$RESULTS"
if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
