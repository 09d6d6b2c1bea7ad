# tests/t_course_run.sh - `make run` as a student runs it: every step, a summary table
# built from the CSV rows, nothing failed; and `make stepN run` runs one step.
# chapters: none
source "$(dirname "$0")/lib.sh"
export SPMV_PROBE_MB=16
rm -f "$BUILD"/run.png "$BUILD"/run.svg
expect_output "make run: summary table" '^step +kernel +matrix +GFLOP/s +% model +% compulsory +check' \
    env COLUMNS=80 make -s -C "$ROOT" run ARGS="--grid 64 --runs 1"
cp "$TMP/out" "$TMP/run.out"
rm -rf "$TMP/chart" && mkdir -p "$TMP/chart" && cp "$BUILD"/run.png "$BUILD"/run.svg "$TMP/chart/" 2>/dev/null
steps=$(ls -d "$ROOT"/step[0-9]-* | wc -l)
# the chart's bars are GFLOP/s of a product: every step but the solver (step7-cg, ms an iteration)
spmv_steps=$(ls -d "$ROOT"/step[0-9]-* | grep -vcE -- '-(cg|mpi|pcg)$')   # the solvers (chapters 7 and 8) draw no SpMV bar
# every step has a row (step6 has one per kernel)
rows=$(sed -n '/= summary =/,$p' "$TMP/out" | grep -oE '^step[0-9] ' | sort -u | wc -l)
[ "$rows" = "$steps" ] && pass "make run: summary rows for every step ($steps)" || fail "make run: summary rows for every step" "$rows steps of $steps in the summary"
if sed -n '/= summary =/,$p' "$TMP/out" | grep -E '^step[0-9] ' | grep -qvE '(PASS|skipped)(  \(.*\))?$'; then
    fail "make run: every step PASS or skipped" "$(sed -n '/= summary =/,$p' "$TMP/out" | tr '\n' '|')"
else
    pass "make run: every step PASS or skipped"
fi
expect_output "make step1 run runs only step1" '^step1 +naive +grid45x37r5' make -s -C "$ROOT" step1 run ARGS="--grid 45x37 --runs 2"
n=$(sed -n '/= summary =/,$p' "$TMP/out" | grep -cE '^step[0-9] ')
[ "$n" = 1 ] && pass "make step1 run: one row" || fail "make step1 run: one row" "$n rows"
# step 7 alone: its rows, the device it ran on, and no word of a chart (its rows
# are ms an iteration, in their own CSV; the chart is of SpMV rates)
expect_output "make step7 run: the device of its rows named" '^\(device of the last OpenCL step: [^n]' \
    make -s -C "$ROOT" step7 run ARGS="--gen poisson:nx=45,ny=37"
if grep -q '^step7 ' "$TMP/out" && ! grep -q 'nothing to draw' "$TMP/out"; then
    pass "make step7 run: its rows, no empty chart"
else fail "make step7 run: its rows, no empty chart" "$(tail -n 3 "$TMP/out" | tr '\n' '|')"; fi
# a failing step makes `make run` fail, and the table says so
sed 's/diag < diags;/diag < diags - 1;/' "$ROOT/step1-naive/kernel.cl" >"$TMP/broken.cl"
cmp -s "$ROOT/step1-naive/kernel.cl" "$TMP/broken.cl" && fail "broken kernel made" "sed pattern not found"
expect_status "make run fails when a step fails" 2 make -s -C "$ROOT" step1 run ARGS="--grid 45x37 --runs 2 --kernel-file $TMP/broken.cl"
grep -qE '^step1 .* FAIL$' "$TMP/out" && pass "summary marks the failed step FAIL" || fail "summary marks the failed step FAIL" "$(tail -n 3 "$TMP/out" | tr '\n' '|')"
expect_status "make run fails on bad options" 2 make -s -C "$ROOT" step1 run ARGS="--no-such-flag"
grep -q "ERROR (status 2)" "$TMP/out" && pass "summary marks the step that could not run" || fail "summary marks the step that could not run" "$(tail -n 3 "$TMP/out" | tr '\n' '|')"

# the chart of the run: as text on the terminal, a line a bar, every step's
# bars and no label over another; build/run.png and .svg where gnuplot is;
# without gnuplot the run passes and says how to get them
chart=$(sed -n '/= chart =/,$p' "$TMP/run.out")
bars=$(echo "$chart" | grep -cE '^  step[0-9] +[a-z0-9-]+ .*#* +[0-9.]+ +[0-9]+%$')
if echo "$chart" | grep -q '^GFLOP/s and % of the compulsory bound, on ' && [ "$bars" -gt 0 ] \
    && [ "$(echo "$chart" | grep -oE '^  step[0-9]' | sort -u | wc -l)" = "$spmv_steps" ] \
    && [ "$(echo "$chart" | awk '/^  step[0-9]/ && length > w { w = length } END { print w + 0 }')" -le 80 ]; then
    pass "make run: the chart on the terminal, a line for each of its $bars bars, every step, none over 80 columns"
else fail "make run: the chart on the terminal, a line a bar, every step" "$(echo "$chart" | head -c 600 | tr '\n' '|')"; fi
if need_tool "make run: the chart as files" gnuplot gnuplot-nox; then
    if head -c 8 "$TMP/chart/run.png" 2>/dev/null | grep -q PNG && grep -q '</svg>' "$TMP/chart/run.svg" 2>/dev/null; then
        pass "make run: the chart in build/run.png and build/run.svg"
    else fail "make run: the chart in build/run.png and build/run.svg" "$(ls -l "$TMP/chart" 2>&1 | tr '\n' '|')"; fi
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
[ ! -e "$BUILD/run.png" ] && [ "$(grep -c '^chart:' "$TMP/out")" = 1 ] && grep -qE '^  step1 +naive +#+ +[0-9.]+ +[0-9]+%$' "$TMP/out" \
    && pass "make run without gnuplot: the text chart, one line for the files, none drawn" ||
    fail "make run without gnuplot: the text chart, one line for the files, none drawn" "$(grep -A3 chart "$TMP/out" | tr '\n' '|')"

# ---- the CPU's story: step 0's fastest loop on all the host's cores beside its row loop, on every
# device; step 4's CPU-shaped kernel beside vector on a CPU device; both marked in the summary and chart
cores=$(nproc)
if "$BUILD/devices" --type cpu >/dev/null 2>&1; then
    expect_ok "make run ARGS=\"--device cpu ...\" passes" make -s -C "$ROOT" run ARGS="--device cpu --grid 64 --runs 1"
    sed -n '/= summary =/,/= chart =/p' "$TMP/out" >"$TMP/sum"
    t=$([ "$cores" = 1 ] && echo thread || echo threads)
    for re in '^step0 +row-t1 .* PASS  \(host C, 1 thread\)$' "^step0 +blocked-t$cores .* PASS  \\(host C, $cores $t\\)\$" \
              '^step4 +vector .* PASS$' '^step4 +cpu .* PASS  \(CPU-shaped kernel\)$'; do
        grep -qE "$re" "$TMP/sum" && pass "CPU run summary: /$re/" || fail "CPU run summary: /$re/" "$(tr '\n' '|' <"$TMP/sum")"
    done
    # in the course's order: step0 row, step0 blocked, ..., step4 vector, step4 cpu, ..., step6
    order=$(grep -oE '^step[0-9] +[a-z]+' "$TMP/sum" | awk '{ print $1 ":" $2 }' | tr '\n' ' ')
    case $order in
        "step0:row step0:blocked step1:naive step2:aligned step3:local step4:vector step4:cpu step5:image step6:"*)
            pass "CPU run summary in the course's order" ;;
        *) fail "CPU run summary in the course's order" "$order" ;;
    esac
    chart=$(sed -n '/= chart =/,$p' "$TMP/out")
    bars=$(echo "$chart" | awk '/^  step[0-9]/ { k = $2; sub(/-.*/, "", k)
        printf "%s %s%s,", $1, k, $3 == "host" ? " host C" : $3 == "CPU-shaped" ? " CPU-shaped" : "" }')
    if [ "$bars" = "step0 row host C,step0 blocked host C,step1 naive,step2 aligned,step3 local,step4 vector,step4 cpu CPU-shaped,step5 image,step6 scalar,step6 vector,step6 adaptive," ]; then
        pass "CPU run chart: a bar each, step0 to step6, host C and CPU-shaped marked"
    else fail "CPU run chart: a bar each, step0 to step6, host C and CPU-shaped marked" "$bars | $(echo "$chart" | tail -n 8 | tr '\n' '|')"; fi
else
    skip "make run --device cpu" "no OpenCL CPU device here"
fi
# "CPU device" is the type of the device step 4 reported (devices --type on its CSV row), never the
# --device string: a build whose devices answers GPU runs step 4 as on a GPU, one that answers CPU adds cpu
mkdir -p "$TMP/fake"
ln -sf "$BUILD/step4" "$TMP/fake/step4"
for type in GPU CPU; do
    printf '#!/bin/sh\necho "$*" >>"%s/asked"\necho %s\n' "$TMP/fake" "$type" >"$TMP/fake/devices"
    chmod +x "$TMP/fake/devices"
    rm -f "$TMP/fake/asked"
    "$ROOT/scripts/run-steps.sh" "$TMP/fake" "--grid 16 --runs 1" step4 >"$TMP/out" 2>&1
    n=$(sed -n '/= summary =/,$p' "$TMP/out" | grep -cE '^step4 +cpu ')
    dev=$(awk -F, "$BY_NAME"'{ print col("device"); exit }' "$TMP/fake/run.csv")
    want=$([ $type = CPU ] && echo 1 || echo 0)
    if [ "$n" = "$want" ] && [ "$(cat "$TMP/fake/asked" 2>/dev/null)" = "--type $dev" ]; then
        pass "step 4's device reported as $type: $want cpu row"
    else fail "step 4's device reported as $type: $want cpu row" "$n cpu rows; asked '$(cat "$TMP/fake/asked" 2>/dev/null)' of '$dev'"; fi
done
# ARGS that choose the kernel or loop get only what they ask for
expect_output "make step4 run ARGS=\"--kernel vector\": that kernel only" '^step4 +vector ' make -s -C "$ROOT" step4 run ARGS="--kernel vector --grid 16 --runs 1"
n=$(sed -n '/= summary =/,$p' "$TMP/out" | grep -cE '^step4 ')
[ "$n" = 1 ] && pass "make step4 run --kernel vector: one row" || fail "make step4 run --kernel vector: one row" "$n rows"
expect_output "make step0 run ARGS=\"--threads 1\": that loop only" '^step0 +row-t1 ' make -s -C "$ROOT" step0 run ARGS="--threads 1 --grid 16 --runs 1"
n=$(sed -n '/= summary =/,$p' "$TMP/out" | grep -cE '^step0 ')
[ "$n" = 1 ] && pass "make step0 run --threads 1: one row" || fail "make step0 run --threads 1: one row" "$n rows"

# ---- every step takes --device: make run ARGS="--device gpu" fails only where there is no GPU, and
# then in the OpenCL steps, each with one line saying so; step 0 runs on the host ----
if "$BUILD/devices" --type gpu >/dev/null 2>&1; then
    expect_ok "make run ARGS=\"--device gpu ...\" passes" make -s -C "$ROOT" run ARGS="--device gpu --grid 64 --runs 1"
    sed -n '/= summary =/,$p' "$TMP/out" | grep -qE '^step4 +cpu ' && fail "on a GPU step 4 is vector alone" "a cpu row" \
        || pass "on a GPU step 4 is vector alone"
else
    expect_status "make run ARGS=\"--device gpu ...\" without a GPU: fails" 2 make -s -C "$ROOT" run ARGS="--device gpu --grid 64 --runs 1"
    sum=$(sed -n '/= summary =/,$p' "$TMP/out")
    errs=$(grep -c "error: no OpenCL device matches 'gpu'" "$TMP/err")
    if echo "$sum" | grep -qE '^step0 +row-t1 .* PASS' && echo "$sum" | grep -qE '^step0 +blocked-t[0-9]+ .* PASS' &&
        [ "$(echo "$sum" | grep -cE '^step[1-9] +- .*ERROR \(status 2\)$')" = $((steps - 1)) ] && [ "$errs" = $((steps - 1)) ] &&
        ! grep -q 'unknown option' "$TMP/err"; then
        pass "--device gpu without a GPU: step 0 passes on the host, steps 1-$((steps - 1)) say 'no OpenCL device matches'"
    else fail "--device gpu without a GPU: step 0 passes on the host, steps 1-$((steps - 1)) say 'no OpenCL device matches'" "$errs errors: $(echo "$sum" | tr '\n' '|')"; fi
fi
