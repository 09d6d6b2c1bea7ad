# tests/t_run.sh - `make run` as a student runs it: every step, a summary table
# built from the CSV rows, nothing failed; and `make stepN run` runs one step.
source "$(dirname "$0")/lib.sh"
export SPMV_PROBE_MB=16
rm -f "$BUILD"/run.png "$BUILD"/run.svg
expect_output "make run: summary table" '^step +kernel +matrix +GFLOP/s +% model +% compulsory +check' \
    make -s -C "$ROOT" run ARGS="--grid 45x37 --runs 2"
cp "$TMP/out" "$TMP/run.out"
rm -rf "$TMP/chart" && mkdir -p "$TMP/chart" && cp "$BUILD"/run.png "$BUILD"/run.svg "$TMP/chart/" 2>/dev/null
steps=$(ls -d "$ROOT"/step[0-9]-* | wc -l)
# every step has a row (step6 has one per kernel)
rows=$(sed -n '/= summary =/,$p' "$TMP/out" | grep -oE '^step[0-9] ' | sort -u | wc -l)
[ "$rows" = "$steps" ] && pass "make run: summary rows for every step ($steps)" || fail "make run: summary rows for every step" "$rows steps of $steps in the summary"
if sed -n '/= summary =/,$p' "$TMP/out" | grep -E '^step[0-9] ' | grep -qvE 'PASS$|skipped$'; then
    fail "make run: every step PASS or skipped" "$(sed -n '/= summary =/,$p' "$TMP/out" | tr '\n' '|')"
else
    pass "make run: every step PASS or skipped"
fi
expect_output "make step1 run runs only step1" '^step1 +naive +grid45x37r5' make -s -C "$ROOT" step1 run ARGS="--grid 45x37 --runs 2"
n=$(sed -n '/= summary =/,$p' "$TMP/out" | grep -cE '^step[0-9] ')
[ "$n" = 1 ] && pass "make step1 run: one row" || fail "make step1 run: one row" "$n rows"
# a failing step makes `make run` fail, and the table says so
sed 's/diag < diags;/diag < diags - 1;/' "$ROOT/step1-naive/kernel.cl" >"$TMP/broken.cl"
cmp -s "$ROOT/step1-naive/kernel.cl" "$TMP/broken.cl" && fail "broken kernel made" "sed pattern not found"
expect_status "make run fails when a step fails" 2 make -s -C "$ROOT" step1 run ARGS="--grid 45x37 --runs 2 --kernel-file $TMP/broken.cl"
grep -qE '^step1 .* FAIL$' "$TMP/out" && pass "summary marks the failed step FAIL" || fail "summary marks the failed step FAIL" "$(tail -n 3 "$TMP/out" | tr '\n' '|')"
expect_status "make run fails on bad options" 2 make -s -C "$ROOT" step1 run ARGS="--no-such-flag"
grep -q "ERROR (status 2)" "$TMP/out" && pass "summary marks the step that could not run" || fail "summary marks the step that could not run" "$(tail -n 3 "$TMP/out" | tr '\n' '|')"

# the chart of the run: build/run.png and .svg, and the same chart on the terminal (gnuplot's dumb
# terminal: the title, the axis, a bar per step); without gnuplot the run passes and says how to get it
if need_tool "make run: the chart, as files and on the terminal" gnuplot gnuplot-nox; then
    if head -c 8 "$TMP/chart/run.png" 2>/dev/null | grep -q PNG && grep -q '</svg>' "$TMP/chart/run.svg" 2>/dev/null; then
        pass "make run: the chart in build/run.png and build/run.svg"
    else fail "make run: the chart in build/run.png and build/run.svg" "$(ls -l "$TMP/chart" 2>&1 | tr '\n' '|')"; fi
    chart=$(sed -n '/= chart =/,$p' "$TMP/run.out")
    if echo "$chart" | grep -q 'GFLOP/s (% of compulsory bound) on ' && echo "$chart" | grep -qE '^ +0 \+-+\+' \
        && [ "$(echo "$chart" | grep -oE 'step[0-9]' | sort -u | wc -l)" = "$steps" ]; then
        pass "make run: the chart on the terminal (dumb), a bar for every step"
    else fail "make run: the chart on the terminal (dumb), a bar for every step" "$(echo "$chart" | head -c 600 | tr '\n' '|')"; fi
fi
# a PATH with every command but gnuplot
mkdir -p "$TMP/nognuplot"
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
    for f in "$d"/*; do
        b=${f##*/}
        case $b in gnuplot*) continue ;; esac
        [ -x "$f" ] && [ ! -e "$TMP/nognuplot/$b" ] && ln -s "$f" "$TMP/nognuplot/$b"
    done
done
rm -f "$BUILD/run.png"
expect_output "make run without gnuplot: passes, says how to install it" \
    '^chart: gnuplot is not installed.*apt-get install gnuplot-nox' env PATH="$TMP/nognuplot" make -s -C "$ROOT" step1 run ARGS="--grid 45x37 --runs 2"
[ ! -e "$BUILD/run.png" ] && [ "$(grep -c '^chart:' "$TMP/out")" = 1 ] && ! grep -q '= chart =' "$TMP/out" \
    && pass "make run without gnuplot: one line, no chart" || fail "make run without gnuplot: one line, no chart" "$(grep -A3 chart "$TMP/out" | tr '\n' '|')"
