# tests/t_step4_rounds.sh - `make rounds` (plots/rounds.sh, plots/rounds.awk):
# the table's medians, ranges and same-round speed-ups from a CSV made here
# with known numbers; FAIL and SKIP rows never counted as speeds; bad settings
# refused in one line; a real round on tiny grids gives every row a number and
# the cpu kernel a speed-up; a failing step makes the script exit 1.
# chapters: 4   (chapter 4's CPU table)
source "$(dirname "$0")/lib.sh"
P=$ROOT/plots
HEADER=$(head -n 1 "$ROOT/tests/data/plots/fixture-cpu.csv")

# ---- the summary, from known numbers ----
# row ROUND STEP KERNEL GFLOPS BOUND_COMPULSORY PROBE CHECK
row() {
    printf '%s,%s,%s,AMD EPYC,C or PoCL,g,10,10,100,3,s,10,1,1,%s,1,%s,9,%s,1e-07,%s,2026-11-22T00:00:00Z,abc,%s,%s\n' \
        "$1" "$2" "$3" "$4" "$6" "$5" "$7" "$6" "$6"
}
{
    echo "round,$HEADER"
    row 1 step0 row-t2 1 10 30 PASS;  row 1 step0 diag-t2 4 10 30 PASS
    row 1 step4 cpu 8 10 30 PASS;     row 1 step1 naive 1.2 10 30 PASS;  row 1 step5 image 0 0 0 SKIP
    row 2 step0 row-t2 2 10 40 PASS;  row 2 step0 diag-t2 6 10 40 PASS
    row 2 step4 cpu 15 20 40 PASS;    row 2 step1 naive 0 0 0 FAIL;    row 2 step5 image 0 0 0 SKIP
    row 3 step0 row-t2 3 10 20 PASS;  row 3 step0 diag-t2 5 10 20 PASS
    row 3 step4 cpu 10 10 20 PASS;    row 3 step1 naive 2 10 20 PASS;  row 3 step5 image 0 0 0 SKIP
} >"$TMP/known.csv"
awk -F, -f "$P/rounds.awk" "$TMP/known.csv" >"$TMP/known.md" 2>"$TMP/known.err"
check_line() { # NAME LINE: the line is in the table, exactly
    if grep -qxF -- "$2" "$TMP/known.md"; then pass "$1"
    else fail "$1" "no line '$2' in: $(tr '\n' '|' <"$TMP/known.md")"; fi
}
# step4 cpu: GFLOP/s 8 15 10; % of bound 80 75 100; x the round's fastest step 0 loop (4, 6, 5): 2, 2.5, 2
check_line "rounds: median, range and same-round speed-up" \
    "| g | step4 | cpu | 10.00 (8.00-15.00) | 80% (75-100%) | 30.0 (20.0-40.0) | 2.00x (2.00-2.50x) |"
check_line "rounds: step 0 rows have no speed-up" "| g | step0 | diag-t2 | 5.00 (4.00-6.00) | 50% (40-60%) | 30.0 (20.0-40.0) | - |"
check_line "rounds: a FAIL round is no speed, and is named" \
    "| g | step1 | naive | 1.60 (1.20-2.00) (FAIL in some rounds) | 16% (12-20%) | 25.0 (20.0-30.0) | 0.35x (0.30-0.40x) |"
check_line "rounds: a step that always skips says SKIP" "| g | step5 | image | SKIP | | | |"
if grep -q "Median over 3 rounds" "$TMP/known.md" && [ ! -s "$TMP/known.err" ]; then pass "rounds: counts 3 rounds, no awk errors"
else fail "rounds: counts 3 rounds, no awk errors" "$(head -n 1 "$TMP/known.md") / $(head -c 300 "$TMP/known.err")"; fi
echo "round,step,kernel" >"$TMP/short.csv"
expect_status "rounds: a CSV without the columns is refused" 2 awk -F, -f "$P/rounds.awk" "$TMP/short.csv"

# ---- bad settings: one line, status 2 ----
expect_error "rounds: ROUNDS=0 refused" "ROUNDS wants a whole number" env ROUNDS=0 BUILD="$BUILD" "$P/rounds.sh"
expect_error "rounds: GRIDS=abc refused" "GRIDS wants sizes like 1024" env GRIDS=abc BUILD="$BUILD" "$P/rounds.sh"
expect_error "rounds: THREADS=two refused" "THREADS wants a whole number" env THREADS=two BUILD="$BUILD" "$P/rounds.sh"
expect_error "rounds: missing binaries named" "is not built" env BUILD="$TMP/nothing" "$P/rounds.sh"

# ---- a real round, tiny grids (on the CPU device: chapter 4's table) ----
export SPMV_PROBE_MB=16
if need_cpu_device "rounds: a real round on the CPU device (three checks)"; then
_run env BUILD="$BUILD" GRIDS="23x19" ROUNDS=1 ARGS="--runs 2 --warmup 0" OUT="$TMP/real" "$P/rounds.sh"
st=$(cat "$TMP/status")
rows=$(grep -c '^| grid23x19r5 |' "$TMP/out")
nonum=$(grep '^| grid23x19r5 |' "$TMP/out" | awk -F'|' '$5 !~ /^ [0-9]+\.[0-9][0-9] / || $6 !~ /%/' | wc -l)
if [ "$st" = 0 ] && [ "$rows" = 7 ] && [ "$nonum" = 0 ]; then pass "rounds: a real round, 7 rows, each with GFLOP/s and %"
else fail "rounds: a real round, 7 rows, each with GFLOP/s and %" "status $st, $rows rows, $nonum without numbers: $(tail -n 3 "$TMP/err" | tr '\n' ' ')"; fi
if grep -qE '^\| grid23x19r5 \| step4 \| cpu \| [0-9.]+ .*\| [0-9]+\.[0-9]+x \|$' "$TMP/out"; then pass "rounds: the cpu kernel gets its speed-up over step 0"
else fail "rounds: the cpu kernel gets its speed-up over step 0" "$(grep 'step4 | cpu' "$TMP/out")"; fi
if [ "$(grep -c '^rounds: \[' "$TMP/err")" = 7 ] && [ -s "$TMP/real/table.md" ] && [ "$(wc -l <"$TMP/real/rounds.csv")" = 8 ]; then
    pass "rounds: progress per run, the table and the 7 rows kept"
else fail "rounds: progress per run, the table and the 7 rows kept" "$(grep -c '^rounds: \[' "$TMP/err") progress lines"; fi
fi

# ---- a step whose check fails: status 1, its FAIL row in the table ----
mkdir -p "$TMP/stub"
for s in step0 step4 step5; do ln -s "$BUILD/$s" "$TMP/stub/$s"; done
cat >"$TMP/stub/step1" <<EOF
#!/usr/bin/env bash
# a step 1 whose check fails: writes its FAIL row where --csv says, exits 1
while [ \$# -gt 0 ]; do [ "\$1" = --csv ] && csv=\$2; shift; done
echo "$HEADER" >"\$csv"
echo "step1,naive,stub,stub,grid23x19r5,437,437,1,81,s,2,0,0,0,0,0,0,0,1,FAIL,2026-11-22T00:00:00Z,abc,0,0" >>"\$csv"
echo "check: FAIL"
exit 1
EOF
chmod +x "$TMP/stub/step1"
_run env BUILD="$TMP/stub" GRIDS="23x19" ROUNDS=1 ARGS="--runs 1 --warmup 0" OUT="$TMP/stubout" "$P/rounds.sh"
st=$(cat "$TMP/status")
if [ "$st" = 1 ] && grep -q '^| grid23x19r5 | step1 | naive | FAIL |' "$TMP/out" && grep -q 'step1 at grid 23x19 exited 1' "$TMP/err"; then
    pass "rounds: a failing step: status 1, FAIL in its row, named on stderr"
else fail "rounds: a failing step: status 1, FAIL in its row, named on stderr" "status $st: $(grep step1 "$TMP/out" "$TMP/err" | tr '\n' ' ')"; fi
