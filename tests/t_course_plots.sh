# tests/t_course_plots.sh - the figures, the README table and the sweep, without
# OpenCL: every figure drawn from the fixture CSVs (tests/data/plots, two
# devices, a FAIL, a SKIP and an ERROR row, cuSPARSE rows) with no gnuplot
# warning; the rows that are no speed stay out of the plotted data; cuSPARSE's
# are a line in step6's figure, never a step6 bar; the README table's numbers;
# the fixture's columns equal the C writer's header; figures.sh survives step
# binaries that skip, fail or write nothing (stubs made here, in $TMP only);
# a tiny PoCL sweep of two generated matrices, whose rows are fig-irregular's
# bars; fig-irregular from crafted rows; the committed data drawn without a
# warning; the generated blocks of README.md and plots/README.md current (a
# stale number fails the check), and no measured number in the Results prose.
# chapters: none
source "$(dirname "$0")/lib.sh"
P=$ROOT/plots
FIX=$ROOT/tests/data/plots
HEADER_FIX=$(head -n 1 "$FIX/fixture-cpu.csv")

need_tool "plots: every figure and the checks below" gnuplot gnuplot-nox || exit 0

# ---- every figure from the fixture, no warnings ----
OUTD=$TMP/figs WORK=$TMP/work
DRAW_WORK=$WORK "$P/draw.sh" "$FIX" "$OUTD" >"$TMP/draw.out" 2>"$TMP/draw.err"
st=$?
if [ $st -eq 0 ]; then pass "plots: draw.sh on the fixture exits 0"; else fail "plots: draw.sh on the fixture exits 0" "status $st"; fi
if [ ! -s "$TMP/draw.err" ]; then pass "plots: no gnuplot warnings (stderr empty)"
else fail "plots: no gnuplot warnings (stderr empty)" "$(head -c 400 "$TMP/draw.err" | tr '\n' '|')"; fi

want=(fig-devices)
for d in fixture-cpu fixture-gpu; do
    for f in step0 step1 step2 step3 step4 step5 dia bars step6 roofline; do want+=("fig-$f-$d"); done
done
missing=""
for f in "${want[@]}"; do
    for e in png svg; do [ -s "$OUTD/$f.$e" ] || missing="$missing $f.$e"; done
done
if [ -z "$missing" ]; then pass "plots: all ${#want[@]} figures as PNG and SVG, non-empty"
else fail "plots: all ${#want[@]} figures as PNG and SVG, non-empty" "missing or empty:$missing"; fi
bad=""
for f in "${want[@]}"; do
    [ -s "$OUTD/$f.png" ] && ! head -c 8 "$OUTD/$f.png" | grep -q PNG && bad="$bad $f.png"
    [ -s "$OUTD/$f.svg" ] && ! grep -q '</svg>' "$OUTD/$f.svg" && bad="$bad $f.svg"
done
if [ -z "$bad" ]; then pass "plots: the PNGs are PNG, the SVGs complete"; else fail "plots: the PNGs are PNG, the SVGs complete" "$bad"; fi
extra=$(cd "$OUTD" && ls | grep -v -E "^($(IFS='|'; echo "${want[*]}"))\.(png|svg)$")
if [ -z "$extra" ]; then pass "plots: no figure beyond those with data"; else fail "plots: no figure beyond those with data" "$extra"; fi
grep -q 'NVIDIA H100 80GB HBM3' "$OUTD/fig-step1-fixture-gpu.svg" && grep -q '2026-11-22 to 2026-11-23' "$OUTD/fig-step1-fixture-gpu.svg" \
    && pass "plots: the title names the device and the dates" \
    || fail "plots: the title names the device and the dates" "not in fig-step1-fixture-gpu.svg"

# ---- the roofline: every step's point inside the plot, at its model and compulsory intensity ----
# roof_points DAT RANGE: "points points-with-a-model-intensity", and what lies outside the
# ranges gnuplot drew (GPVAL_*, the range file's first line)
roof_points() {
    awk 'NR == FNR { if (FNR == 1) { x0 = $1; x1 = $2; y0 = $3; y1 = $4 }; next }
        /^0 / { n++; if ($2 != "NaN") { m++; if ($2 <= x0 || $2 >= x1) bad = bad " model_I " $2 }
                if ($3 <= x0 || $3 >= x1) bad = bad " comp_I " $3; if ($4 <= y0 || $4 >= y1) bad = bad " gflops " $4 }
        END { printf "%d %d%s", n, m, bad ? ": outside" bad : "" }' "$2" "$1" 2>&1
}
for d in fixture-cpu fixture-gpu; do
    dat=$WORK/$d-roof.dat range=$WORK/$d-roof.range
    out=$(roof_points "$dat" "$range")
    # steps 0-5 at both intensities, step6 once per precision it ran (cpu: s d c z; gpu: s c)
    want=$([ $d = fixture-cpu ] && echo "10 6" || echo "8 6")
    if [ -s "$range" ] && [ "$out" = "$want" ]; then pass "roofline: $d: every step's point inside the plot"
    else fail "roofline: $d: every step's point inside the plot" "points/with model '$out', want '$want'; range $(cat "$range" 2>&1)"; fi
done
# the slopes gnuplot drew (the range file's second line): the medians of the roofline rows'
# bw_read_gbs and bw_copy_gbs (the fixtures: read = bw_measured_gbs, copy slower)
for d in "fixture-gpu read 2900 copy 2668" "fixture-cpu read 30 copy 22.5"; do
    set -- $d
    got=$(sed -n 2p "$WORK/$1-roof.range" 2>/dev/null)
    if [ "$got" = "$2 $3 $4 $5" ] && grep -q "read probe: $3 GB/s" "$OUTD/fig-roofline-$1.svg" &&
        grep -q "copy probe: $5 GB/s (read + written)" "$OUTD/fig-roofline-$1.svg" && ! grep -q 'measured bandwidth' "$OUTD/fig-roofline-$1.svg"; then
        pass "roofline: $1: two slopes, read $3 and copy $5 GB/s, each labelled"
    else fail "roofline: $1: two slopes, read $3 and copy $5 GB/s, each labelled" "drew '$got'; labels: $(grep -o '[a-z]* probe: [0-9.]* GB/s\|measured bandwidth: [^<]*' "$OUTD/fig-roofline-$1.svg" 2>&1 | tr '\n' '|')"; fi
done
grep -q 'step4 vector' "$OUTD/fig-roofline-fixture-gpu.svg" && grep -q 'host probe (step0): 30 GB/s' "$OUTD/fig-roofline-fixture-gpu.svg" \
    && pass "roofline: names each step and the host probe's slope" || fail "roofline: names each step and the host probe's slope" "not in fig-roofline-fixture-gpu.svg"

# ---- data of the older schema (no bw_copy_gbs, bw_read_gbs): drawn, with the one measured slope ----
OLDH=$(head -n 1 "$FIX/fixture-gpu.csv" | sed 's/,bw_copy_gbs,bw_read_gbs$//')
mkdir -p "$TMP/old" "$TMP/migr"
cut -d, -f1-22 "$FIX/fixture-gpu.csv" >"$TMP/old/gpu.csv"
DRAW_WORK=$TMP/oldw "$P/draw.sh" "$TMP/old" "$TMP/oldfigs" >/dev/null 2>"$TMP/old.err"
out=$(roof_points "$TMP/oldw/gpu-roof.dat" "$TMP/oldw/gpu-roof.range")
got=$(sed -n 2p "$TMP/oldw/gpu-roof.range" 2>/dev/null)
if [ "$(head -n 1 "$TMP/old/gpu.csv")" = "$OLDH" ] && [ ! -s "$TMP/old.err" ] && [ "$out" = "8 6" ] && [ "$got" = "measured 2900" ] &&
    grep -q 'measured bandwidth: 2900 GB/s' "$TMP/oldfigs/fig-roofline-gpu.svg" && ! grep -q 'read probe\|copy probe' "$TMP/oldfigs/fig-roofline-gpu.svg"; then
    pass "roofline: an old-schema file: no warnings, every point inside, one slope labelled measured"
else fail "roofline: an old-schema file: no warnings, every point inside, one slope labelled measured" \
    "points '$out', drew '$got', $(head -c 300 "$TMP/old.err")"; fi
cp "$TMP/old/gpu.csv" "$TMP/migr/gpu.csv"
_run "$P/migrate.sh" "$TMP/migr/gpu.csv"
if [ "$(cat "$TMP/status")" = 0 ] && [ "$(head -n 1 "$TMP/migr/gpu.csv")" = "$HEADER_FIX" ] &&
    [ "$(awk -F, "$BY_NAME"'NF != 24 || col("bw_copy_gbs") != "" || col("bw_read_gbs") != ""' "$TMP/migr/gpu.csv" | wc -l)" = 0 ] &&
    [ "$(wc -l <"$TMP/migr/gpu.csv")" = "$(wc -l <"$TMP/old/gpu.csv")" ] && cut -d, -f1-22 "$TMP/migr/gpu.csv" | tail -n +2 | cmp -s - <(tail -n +2 "$TMP/old/gpu.csv"); then
    pass "migrate.sh: today's header, the two columns empty in every row, the rest unchanged"
else fail "migrate.sh: today's header, the two columns empty in every row, the rest unchanged" "status $(cat "$TMP/status"): $(head -n 2 "$TMP/migr/gpu.csv" | tr '\n' '|')"; fi
cp "$TMP/migr/gpu.csv" "$TMP/migr.1"
expect_output "migrate.sh: a file already migrated is left as it is" 'already has' "$P/migrate.sh" "$TMP/migr/gpu.csv"
cmp -s "$TMP/migr/gpu.csv" "$TMP/migr.1" && pass "migrate.sh: a second run changes nothing" \
    || fail "migrate.sh: a second run changes nothing" "$(diff "$TMP/migr.1" "$TMP/migr/gpu.csv" | head -3)"
printf 'a,b\n1,2\n' >"$TMP/other.csv"
expect_status "migrate.sh: another header is refused, the file untouched" 2 "$P/migrate.sh" "$TMP/other.csv"
[ "$(cat "$TMP/other.csv")" = "$(printf 'a,b\n1,2')" ] && pass "migrate.sh: the refused file is untouched" \
    || fail "migrate.sh: the refused file is untouched" "$(cat "$TMP/other.csv")"
DRAW_WORK=$TMP/migrw "$P/draw.sh" "$TMP/migr" "$TMP/migrfigs" >/dev/null 2>"$TMP/migr.err"
if [ ! -s "$TMP/migr.err" ] && cmp -s "$TMP/migrw/gpu-roof.dat" "$TMP/oldw/gpu-roof.dat" && [ "$(sed -n 2p "$TMP/migrw/gpu-roof.range")" = "measured 2900" ]; then
    pass "roofline: a migrated file (the columns empty) draws as the old one: one measured slope"
else fail "roofline: a migrated file (the columns empty) draws as the old one: one measured slope" "$(head -c 300 "$TMP/migr.err") $(cat "$TMP/migrw/gpu-roof.range" 2>&1 | tr '\n' '|')"; fi
v=$(awk '$1 == 0 && $6 == 4 { print $2, $3 }' "$WORK/fixture-gpu-roof.dat" 2>/dev/null)
if [ "$v" = "0.246142 0.480421" ]; then pass "roofline: step3 at the model intensity 2/8 (with padding) and the compulsory one"
else fail "roofline: step3 at the model intensity 2/8 (with padding) and the compulsory one" "got '$v'"; fi

# ---- the article's published figures: drawn in fig-thenandnow, never counted as a measurement ----
PUB=$ROOT/plots/data/catanzaro2010-published.csv
mkdir -p "$TMP/withpub"
cp "$FIX"/fixture-*.csv "$PUB" "$TMP/withpub/"
DRAW_WORK=$TMP/pubw "$P/draw.sh" "$TMP/withpub" "$TMP/pubfigs" >/dev/null 2>"$TMP/pub.err"
if [ -s "$TMP/pubfigs/fig-thenandnow.png" ] && [ -s "$TMP/pubfigs/fig-thenandnow.svg" ] && [ ! -s "$TMP/pub.err" ]; then
    pass "then and now: fig-thenandnow drawn with the article's CSV, no gnuplot warnings"
else fail "then and now: fig-thenandnow drawn with the article's CSV, no gnuplot warnings" "$(ls "$TMP/pubfigs" 2>&1 | grep then) $(head -c 300 "$TMP/pub.err")"; fi
grep -q 'ATI Radeon HD 5870, 2010 (published)' "$TMP/pubfigs/fig-thenandnow.svg" 2>/dev/null && grep -q 'not measurements' "$TMP/pubfigs/fig-thenandnow.svg" \
    && pass "then and now: the article's bars are marked published, not measured" \
    || fail "then and now: the article's bars are marked published, not measured" "not in fig-thenandnow.svg"
v=$(awk 'NR == 2 { print $4, $5, $6 }' "$TMP/pubw/thenandnow-model.dat" 2>/dev/null)
if [ "$v" = "51.17 18.29 29.58" ]; then pass "then and now: step1: the article's 51% of its bound beside each device's % of its model bound"
else fail "then and now: step1: the article's 51% of its bound beside each device's % of its model bound" "got '$v'"; fi
ls "$TMP/pubfigs" | grep -i catanzaro && fail "then and now: no per-device figure for the article" "$(ls "$TMP/pubfigs" | grep -i catanzaro | tr '\n' ' ')" \
    || pass "then and now: no per-device figure for the article"
same=""
for d in fixture-cpu fixture-gpu; do
    cmp -s "$WORK/$d-bars.dat" "$TMP/pubw/$d-bars.dat" || same="$same $d-bars.dat"
    cmp -s "$WORK/$d-roof.dat" "$TMP/pubw/$d-roof.dat" || same="$same $d-roof.dat"
done
cmp -s "$OUTD/fig-devices.svg" "$TMP/pubfigs/fig-devices.svg" || same="$same fig-devices.svg"
[ -z "$same" ] && pass "then and now: the bars, the roofline and fig-devices ignore the article's rows" \
    || fail "then and now: the bars, the roofline and fig-devices ignore the article's rows" "changed:$same"
printf '<!-- results:begin -->\n<!-- results:end -->\n' >"$TMP/t1.md"
cp "$TMP/t1.md" "$TMP/t2.md"
"$P/readme-table.sh" "$TMP/t1.md" "$FIX" >/dev/null
"$P/readme-table.sh" "$TMP/t2.md" "$TMP/withpub" >/dev/null
if cmp -s "$TMP/t1.md" "$TMP/t2.md" && ! grep -qi 'radeon\|phenom' "$TMP/t2.md"; then pass "then and now: the README results table ignores the article's rows"
else fail "then and now: the README results table ignores the article's rows" "$(diff "$TMP/t1.md" "$TMP/t2.md" | head -3 | tr '\n' '|')"; fi
got=$("$P/then-and-now.sh" step5 "$TMP/withpub" | grep -c 'HD 5870.*published figure, not a measurement.* 49.2 .* 64% | - | - |')
[ "$got" = 1 ] && pass "then and now: chapter 5's table marks the article's row published, against its own bound" \
    || fail "then and now: chapter 5's table marks the article's row published, against its own bound" "$("$P/then-and-now.sh" step5 "$TMP/withpub" | tr '\n' '|')"

# ---- what is no speed is not plotted ----
# step3 FAILs at 256x256 (65536 rows) on both devices; the GPU's step5 has an
# ERROR row at 2048x2048 and its step6 double precision only a SKIP row.
dat=$WORK/fixture-gpu-dia-step3-local.dat
if [ -s "$dat" ] && ! awk 'NR > 1 && $1 == 65536' "$dat" | grep -q . && awk 'NR > 1 && $1 == 16384' "$dat" | grep -q .; then
    pass "plots: the FAIL row is not a point (step3 65536 rows)"
else fail "plots: the FAIL row is not a point (step3 65536 rows)" "$(cat "$dat" 2>&1 | tr '\n' '|')"; fi
dat=$WORK/fixture-gpu-dia-step5-image.dat
if [ -s "$dat" ] && ! awk 'NR > 1 && $1 == 4194304' "$dat" | grep -q .; then pass "plots: the ERROR row is not a point (step5 4194304 rows)"
else fail "plots: the ERROR row is not a point (step5 4194304 rows)" "$(cat "$dat" 2>&1 | tr '\n' '|')"; fi
if [ ! -e "$WORK/fixture-gpu-csr-d.dat" ] && [ -s "$WORK/fixture-gpu-csr-s.dat" ]; then pass "plots: the SKIP row is not a bar (step6 d on the GPU)"
else fail "plots: the SKIP row is not a bar (step6 d on the GPU)" "csr-d.dat exists or csr-s.dat missing"; fi
if ! awk 'FNR > 1 && $2 + 0 <= 0' "$WORK"/fixture-*-dia-*.dat | grep -q .; then pass "plots: no point at 0 GFLOP/s"
else fail "plots: no point at 0 GFLOP/s" "$(awk 'FNR > 1 && $2 + 0 <= 0' "$WORK"/fixture-*-dia-*.dat | head -3)"; fi
v=$(awk 'NR > 1 && $1 == 16384 { print $2 }' "$WORK/fixture-gpu-dia-step1-naive.dat" 2>/dev/null)
if [ "$v" = 113.361 ]; then pass "plots: a size run twice plots its best run"; else fail "plots: a size run twice plots its best run" "got '$v', expected 113.361"; fi
grep -q 'step3 local grid256x256r5: FAIL' "$OUTD/fig-step3-fixture-cpu.svg" \
    && pass "plots: the FAIL row is named in the footnote" || fail "plots: the FAIL row is named in the footnote" "not in fig-step3-fixture-cpu.svg"
v=$(awk '$2 == "\"step5" { print $NF }' "$WORK/fixture-gpu-bars.dat" 2>/dev/null)
if [ "$v" = 52.8584 ]; then pass "plots: bars at the common size, % of compulsory"; else fail "plots: bars at the common size, % of compulsory" "step5 got '$v', expected 52.8584"; fi

# ---- cuSPARSE rows (vendor/cusparse): step6's reference line, never a step6 bar ----
# The GPU fixture has them in s (cusparse on two matrices, cusparse-alg2 on one;
# faster than step6 on the grid), none in c, and a SKIP row in z (no CUDA device).
got=$(awk 'NR > 1 { printf "%s ", $7 }' "$WORK/fixture-gpu-csr-s.dat" 2>/dev/null)
if [ "$got" = "2.5 380 600 " ] && [ "$(awk 'NR > 1 { printf "%s ", $7 }' "$WORK/fixture-gpu-csr-c.dat" 2>/dev/null)" = "NaN NaN NaN " ]; then
    pass "plots: the cuSPARSE rows are the csr .dat's last column, per matrix"
else fail "plots: the cuSPARSE rows are the csr .dat's last column, per matrix" "s: '$got'"; fi
if grep -q 'cuSPARSE (reference)' "$OUTD/fig-step6-fixture-gpu.svg" && ! grep -q 'cuSPARSE' "$OUTD/fig-step6-fixture-cpu.svg"; then
    pass "plots: step6's figure draws cuSPARSE where it ran, and only there"
else fail "plots: step6's figure draws cuSPARSE where it ran, and only there" "key entry missing, or drawn on the CPU"; fi
v=$(awk -F'\t' '$1 == "skips" { print $2 }' "$WORK/fixture-gpu.meta" 2>/dev/null)
if [ "$v" = "step6 d" ]; then pass "plots: a cuSPARSE SKIP row is no step6 skip"; else fail "plots: a cuSPARSE SKIP row is no step6 skip" "skips '$v'"; fi
v=$(awk -F'"' '$2 ~ /^step6/ { print $2 }' "$WORK/fixture-gpu-bars.dat" 2>/dev/null)
if [ "$v" = "step6 vector-32 (CSR)" ]; then pass "plots: step6's bar is its own kernel, not cuSPARSE"
else fail "plots: step6's bar is its own kernel, not cuSPARSE" "got '$v'"; fi

# a kernel that stopped growing earlier pulls its step's bar back to where all its kernels ran;
# the sizes compare as numbers (16384 rows > 4096 rows, though "16384" < "4096" as strings)
mkdir -p "$TMP/capd"
{ echo "$HEADER_FIX"
  r() { echo "$1,$2,Dev,drv,grid$3x$3r5,$4,$4,100,81,s,10,1,1,$5,1,30,5,10,1e-7,PASS,2026-11-21T00:00:00Z,abc1234,25,30"; }
  r step1 naive 64 4096 1.0; r step1 naive 128 16384 1.2; r step4 vector 64 4096 2.0; r step4 vector 128 16384 2.2
  r step4 cpu 64 4096 4.0; r step6 scalar 64 4096 0.5; r step6 scalar 128 16384 0.6; r step6 vector-16 64 4096 3.0
} >"$TMP/capd/dev.csv"
DRAW_WORK=$TMP/capw "$P/draw.sh" "$TMP/capd" "$TMP/capfigs" >/dev/null 2>&1
got=$(awk -F'"' 'NR > 1 { split($3, a, " "); printf "%s %s;", $2, a[1] }' "$TMP/capw/dev-bars.dat" 2>/dev/null)
if [ "$got" = 'step1 naive 1;step4 cpu 4;step6 vector-16 (CSR) 3;' ]; then
    pass "plots: bars at the largest grid every kernel of every step ran"
else fail "plots: bars at the largest grid every kernel of every step ran" "got '$got'"; fi

# ---- no data, no figure: one device, one step ----
mkdir -p "$TMP/one"
{ echo "$HEADER_FIX"; grep '^step1,' "$FIX/fixture-cpu.csv"; } >"$TMP/one/cpu.csv"
"$P/draw.sh" "$TMP/one" "$TMP/onefigs" >/dev/null 2>"$TMP/one.err"
got=$(cd "$TMP/onefigs" 2>/dev/null && ls | tr '\n' ' ')
if [ "$got" = "fig-bars-cpu.png fig-bars-cpu.svg fig-dia-cpu.png fig-dia-cpu.svg fig-roofline-cpu.png fig-roofline-cpu.svg fig-step1-cpu.png fig-step1-cpu.svg " ] && [ ! -s "$TMP/one.err" ]; then
    pass "plots: one device with step1 only: its figures and no others"
else fail "plots: one device with step1 only: its figures and no others" "got: $got $(head -c 200 "$TMP/one.err")"; fi
mkdir -p "$TMP/none"
expect_output "plots: no data: nothing drawn, says so" 'no results in' "$P/draw.sh" "$TMP/none" "$TMP/nonefigs"

# ---- the README table ----
printf '# T\n\nbefore\n<!-- results:begin -->\nold table\n<!-- results:end -->\nafter\n' >"$TMP/README.md"
expect_output "readme-table: runs on a README with markers" '14 rows from 2 files' "$P/readme-table.sh" "$TMP/README.md" "$FIX"
row=$(grep '^| NVIDIA H100 80GB HBM3 | step5 |' "$TMP/README.md")
if [ "$row" = "| NVIDIA H100 80GB HBM3 | step5 | image | grid1024x1024r5 | 736.43 | 52.9% | 2026-11-22 |" ]; then
    pass "readme-table: H100 step5 best GFLOP/s at the largest grid, % of compulsory"
else fail "readme-table: H100 step5 best GFLOP/s at the largest grid, % of compulsory" "got '$row'"; fi
row=$(grep '^| NVIDIA H100 80GB HBM3 | step6 |' "$TMP/README.md")
case $row in
    "| NVIDIA H100 80GB HBM3 | step6 | vector-32 | grid1024x1024r5 | 427.06 |"*) pass "readme-table: step6's row is its own kernel, not cuSPARSE" ;;
    *) fail "readme-table: step6's row is its own kernel, not cuSPARSE" "got '$row'" ;;
esac
row=$(grep '| step3 |' "$TMP/README.md" | grep pthread)
if [ "$row" = "| pthread-skylake-avx512-AMD EPYC 7B13 | step3 | local | grid512x512r5 | 2.12 | 14.7% | 2026-11-20 |" ]; then
    pass "readme-table: the CPU's step3 at 512x512, past its FAIL at 256x256"
else fail "readme-table: the CPU's step3 at 512x512, past its FAIL at 256x256" "got '$row'"; fi
if ! grep -q 'old table' "$TMP/README.md" && [ "$(sed -n 3p "$TMP/README.md")" = before ] && [ "$(tail -n 1 "$TMP/README.md")" = after ]; then
    pass "readme-table: only the block between the markers changes"
else fail "readme-table: only the block between the markers changes" "$(tr '\n' '|' <"$TMP/README.md" | head -c 300)"; fi
cp "$TMP/README.md" "$TMP/README.1"
"$P/readme-table.sh" "$TMP/README.md" "$FIX" >/dev/null
cmp -s "$TMP/README.md" "$TMP/README.1" && pass "readme-table: a second run changes nothing" || fail "readme-table: a second run changes nothing" "$(diff "$TMP/README.1" "$TMP/README.md" | head -5)"
# a step's second kernel that stopped growing earlier pulls the step back to the size both ran;
# step6's vector-16 and vector-8 are one kernel (its group size follows the matrix)
mkdir -p "$TMP/early"
{ echo "$HEADER_FIX"
  r() { echo "$1,$2,Dev,drv,grid$3x$3r5,$4,$4,100,81,s,10,1,1,$5,1,30,5,10,1e-7,PASS,2026-11-21T00:00:00Z,abc1234,25,30"; }
  r step0 row-t2 64 4096 1.0; r step0 row-t2 128 16384 1.1; r step0 diag-t2 64 4096 3.0
  r step6 scalar 64 4096 2.0; r step6 scalar 128 16384 2.5; r step6 vector-8 64 4096 4.0; r step6 vector-16 128 16384 5.0
} >"$TMP/early/dev.csv"
printf '<!-- results:begin -->\n<!-- results:end -->\n' >"$TMP/early.md"
"$P/readme-table.sh" "$TMP/early.md" "$TMP/early" >/dev/null
got=$(grep '^| Dev |' "$TMP/early.md" | cut -d'|' -f3-6 | tr -s ' ' | tr '\n' ';')
if [ "$got" = " step0 | diag-t2 | grid64x64r5 | 3.00 ; step6 | vector-16 | grid128x128r5 | 5.00 ;" ]; then
    pass "readme-table: a kernel that stopped early pulls its step back to the common grid"
else fail "readme-table: a kernel that stopped early pulls its step back to the common grid" "got '$got'"; fi
printf '# no markers\n' >"$TMP/nomark.md"
expect_error "readme-table: a README without markers" "lacks the lines" "$P/readme-table.sh" "$TMP/nomark.md" "$FIX"

# ---- the fixture's columns are the C writer's ----
src=$(grep -lE '#define[[:space:]]+SPMV_CSV_HEADER|SPMV_CSV_HEADER[[:space:]]*\[\][[:space:]]*=' "$ROOT"/common/*.c "$ROOT"/common/*.h 2>/dev/null | head -n 1)
if [ -n "$src" ]; then
    # the string literal, possibly in pieces over several lines: "a,b," "c,d"
    writer=$(awk '/#define[ \t]+SPMV_CSV_HEADER|SPMV_CSV_HEADER[ \t]*\[\][ \t]*=/ { on = 1; def = /#define/ }
        on { l = $0; while (match(l, /"[^"]*"/)) { s = s substr(l, RSTART + 1, RLENGTH - 2); l = substr(l, RSTART + RLENGTH) }
             if ((def && $0 !~ /\\[ \t]*$/) || (!def && $0 ~ /;/)) { print s; exit } }' "$src")
    what="the writer's SPMV_CSV_HEADER (${src#"$ROOT"/})"
else
    writer="" what="SPMV_CSV_HEADER, which no file of common/ defines"
fi
for f in "$FIX"/fixture-*.csv; do
    if [ -n "$writer" ] && [ "$(head -n 1 "$f")" = "$writer" ]; then pass "plots: $(basename "$f") header = $what"
    else fail "plots: $(basename "$f") header = $what" "fixture: $(head -n 1 "$f") writer: '$writer'"; fi
done
for s in "$P/figures.sh" "$P/draw.sh" "$P/migrate.sh"; do
    h=$(grep -o '^HEADER=.*' "$s" | cut -d= -f2)
    [ "$h" = "$writer" ] && pass "plots: $(basename "$s") checks the same header" || fail "plots: $(basename "$s") checks the same header" "'$h'"
done

# ---- figures.sh goes on past binaries that skip, fail or write nothing ----
FB=$TMP/fakebuild
mkdir -p "$FB"
# A stub writes one result row the way the binaries do; step1 passes up to
# 256x256 and is out of device memory beyond; step2 skips; step3 fails silently.
stub() { # NAME CHECK STATUS
    cat >"$FB/$1" <<EOF
#!/usr/bin/env bash
csv="" grid=""
while [ \$# -gt 0 ]; do case \$1 in --csv) csv=\$2; shift ;; --grid) grid=\$2; shift ;; esac; shift; done
side=\${grid%%x*}
if [ "$2" = PASS ] && [ "\$side" -gt 256 ]; then echo "$1: needs 9000 MiB: out of device memory (Fake GPU)" >&2; exit 2; fi
if [ "$2" != NONE ]; then
    [ -s "\$csv" ] || echo "$HEADER_FIX" >"\$csv"
    echo "$1,stub,Fake GPU 9000 (test),Fake driver 1.0,grid\${side}x\${side}r5,\$((side * side)),\$((side * side)),\$((81 * side * side)),81,s,10,1,1,3.5,10,100,30,60,1e-07,$2,2026-01-02T03:04:05Z,abc1234,90,100" >>"\$csv"
fi
exit $3
EOF
    chmod +x "$FB/$1"
}
stub step1 PASS 0
stub step2 SKIP 3
stub step3 NONE 1
CG=0 BUILD=$FB DATA=$TMP/sweep PLAN=3 NO_DRAW=1 "$P/figures.sh" >"$TMP/fig.out" 2>"$TMP/fig.err"
st=$?
csv=$TMP/sweep/fake-gpu-9000-test.csv
if [ $st -eq 0 ] && [ -s "$csv" ]; then pass "figures.sh: stubs: exits 0, writes plots/data/<device slug>.csv"
else fail "figures.sh: stubs: exits 0, writes plots/data/<device slug>.csv" "status $st; $(ls "$TMP/sweep" 2>&1) $(tail -n 3 "$TMP/fig.err" "$TMP/fig.out" | tr '\n' '|')"; fi
got=$(awk -F, "$BY_NAME"'{ print col("step") "/" col("matrix") "/" col("check") }' "$csv" 2>/dev/null | tr '\n' ' ')
if [ "$got" = "step1/grid64x64r5/PASS step2/grid64x64r5/SKIP step3/grid64x64r5/ERROR step1/grid128x128r5/PASS step1/grid256x256r5/PASS " ]; then
    pass "figures.sh: the PASS and SKIP rows, an ERROR row for the silent failure, the sweep goes on"
else fail "figures.sh: the PASS and SKIP rows, an ERROR row for the silent failure, the sweep goes on" "rows: $got"; fi
row=$(awk -F, "$BY_NAME"'col("check") == "ERROR"' "$csv" 2>/dev/null)
case $row in
    "step3,-,Fake GPU 9000 (test),-,grid64x64r5,0,0,0,0,s,0,0,0,0,0,0,0,0,0,ERROR,"*) pass "figures.sh: the ERROR row names the step, the matrix and the device" ;;
    *) fail "figures.sh: the ERROR row names the step, the matrix and the device" "'$row'" ;;
esac
if [ "$(head -n 1 "$csv" 2>/dev/null)" = "$HEADER_FIX" ] && [ "$(awk -F, '{ print NF }' "$csv" 2>/dev/null | sort -u)" = 24 ]; then
    pass "figures.sh: header once, 24 columns in every row"
else fail "figures.sh: header once, 24 columns in every row" "$(head -n 2 "$csv" 2>&1)"; fi
if grep -q '^\[1/3\] step1 grid64x64r5 ' "$TMP/fig.out" && grep -q 'too large for the device: stop growing' "$TMP/fig.out"; then
    pass "figures.sh: progress lines; out of memory stops the growth"
else fail "figures.sh: progress lines; out of memory stops the growth" "$(head -n 4 "$TMP/fig.out" | tr '\n' '|')"; fi
CG=0 BUILD=$FB DATA=$TMP/sweep PLAN=3 NO_DRAW=1 "$P/figures.sh" >/dev/null 2>&1
n=$(grep -c '^step,' "$csv")
rows=$(($(wc -l <"$csv") - 1))
if [ "$n" = 1 ] && [ "$rows" = 10 ]; then pass "figures.sh: a second sweep appends, header kept once"
else fail "figures.sh: a second sweep appends, header kept once" "$n headers, $rows rows"; fi
# a data file of the older schema is migrated in place (its rows gain the two columns empty), not left for a second file
mkdir -p "$TMP/sweepold"
old=$TMP/sweepold/fake-gpu-9000-test.csv
{ echo "$OLDH"; echo "step1,stub,Fake GPU 9000 (test),Fake driver 1.0,grid32x32r5,1024,1024,82944,81,s,10,1,1,3.5,10,100,30,60,1e-07,PASS,2025-01-02T03:04:05Z,abc1234"; } >"$old"
CG=0 BUILD=$FB DATA=$TMP/sweepold PLAN=3 NO_DRAW=1 "$P/figures.sh" >"$TMP/figold.out" 2>&1
got=$(awk -F, "$BY_NAME"'{ print col("matrix") "/" NF "/" col("bw_copy_gbs") "/" col("bw_read_gbs") }' "$old" | head -n 2 | tr '\n' ' ')
if [ "$(ls "$TMP/sweepold")" = fake-gpu-9000-test.csv ] && [ "$(head -n 1 "$old")" = "$HEADER_FIX" ] &&
    [ "$got" = "grid32x32r5/24// grid64x64r5/24/90/100 " ] && [ "$(wc -l <"$old")" = 7 ]; then
    pass "figures.sh: an old-schema data file is migrated in place (empty columns), the sweep appended to it"
else fail "figures.sh: an old-schema data file is migrated in place (empty columns), the sweep appended to it" \
    "files: $(ls "$TMP/sweepold" | tr '\n' ' ') rows: $got; $(grep -i 'migr\|columns' "$TMP/figold.out" | tr '\n' '|')"; fi
mkdir -p "$TMP/emptybuild"
expect_error "figures.sh: no binaries" "no step binaries" env BUILD="$TMP/emptybuild" DATA="$TMP/sweep2" NO_DRAW=1 "$P/figures.sh"
expect_error "figures.sh: a bad BUDGET" "BUDGET wants whole seconds" env BUILD="$FB" BUDGET=10m NO_DRAW=1 "$P/figures.sh"
expect_error "figures.sh: a bad PLAN" "PLAN wants a whole number of growth rounds" env BUILD="$FB" PLAN=all NO_DRAW=1 "$P/figures.sh"
# a fixed plan never looks at the clock: with no budget at all, the same runs as above
CG=0 BUILD=$FB DATA=$TMP/sweepplan PLAN=3 BUDGET=0 NO_DRAW=1 "$P/figures.sh" >"$TMP/plan.out" 2>&1
got=$(awk -F, "$BY_NAME"'{ print col("step") "/" col("matrix") "/" col("check") }' "$TMP/sweepplan/fake-gpu-9000-test.csv" 2>/dev/null | tr '\n' ' ')
if [ "$got" = "step1/grid64x64r5/PASS step2/grid64x64r5/SKIP step3/grid64x64r5/ERROR step1/grid128x128r5/PASS step1/grid256x256r5/PASS " ] &&
    grep -q 'a fixed plan: the first sizes and 3 rounds of growth' "$TMP/plan.out"; then
    pass "figures.sh: PLAN=3 runs its rounds whatever the budget (BUDGET=0)"
else fail "figures.sh: PLAN=3 runs its rounds whatever the budget (BUDGET=0)" "rows: $got; $(head -n 2 "$TMP/plan.out" | tr '\n' '|')"; fi
CG=0 BUILD=$FB DATA=$TMP/sweepplan1 PLAN=1 NO_DRAW=1 "$P/figures.sh" >"$TMP/plan1.out" 2>&1
got=$(awk -F, "$BY_NAME"'col("step") == "step1" { print col("matrix") }' "$TMP/sweepplan1/fake-gpu-9000-test.csv" 2>/dev/null | tr '\n' ' ')
if [ "$got" = "grid64x64r5 grid128x128r5 " ] && grep -qF "the plan's rounds of growth are done (1); stopping at 128x128" "$TMP/plan1.out"; then
    pass "figures.sh: PLAN=1 stops after one round of growth"
else fail "figures.sh: PLAN=1 stops after one round of growth" "step1 rows: $got"; fi

# ---- the then-and-now tables in the chapters and the README are the committed data's ----
stale=""
for readme in "$ROOT/README.md" "$ROOT"/step[0-5]-*/README.md; do
    d=$(basename "$(dirname "$readme")") what=all
    [ "$readme" = "$ROOT/README.md" ] || what=${d%%-*}
    grep -qxF '<!-- then-and-now:begin -->' "$readme" || { stale="$stale ${readme#"$ROOT"/}(no block)"; continue; }
    sed -n '/^<!-- then-and-now:begin -->$/,/^<!-- then-and-now:end -->$/p' "$readme" | sed '1d;$d' >"$TMP/tn.have"
    "$P/then-and-now.sh" "$what" >"$TMP/tn.want"
    cmp -s "$TMP/tn.have" "$TMP/tn.want" || stale="$stale ${readme#"$ROOT"/}"
done
[ -z "$stale" ] && pass "then and now: the tables in README.md and chapters 0-5 are plots/data's (make readme-table)" \
    || fail "then and now: the tables in README.md and chapters 0-5 are plots/data's (make readme-table)" "stale:$stale"

# ---- the irregular figure: its rows are the ones a real (tiny) sweep wrote ----
# step6 alone on PoCL, one small power-law matrix and the arrow, one timed run each
if [ -x "$BUILD/step6" ] && "$BUILD/step6" --device cpu --grid 8 --runs 1 --warmup 0 --kernel scalar --quiet >/dev/null 2>&1; then
    IB=$TMP/irrbuild
    mkdir -p "$IB"
    ln -s "$BUILD/step6" "$IB/step6"
    CG=0 SPMV_PROBE_MB=8 BUILD=$IB DATA=$TMP/irr DEVICE=cpu PLAN=0 REAL_MATRICES=0 ARGS="--runs 1 --warmup 0" \
        IRREGULAR="powerlaw:rows=3000,mean=15 arrow:rows=600" NO_DRAW=1 "$P/figures.sh" >"$TMP/irr.out" 2>&1
    st=$?
    icsv=$(ls "$TMP"/irr/*.csv 2>/dev/null | head -n 1)
    ich=$(ls "$TMP"/irr/choice/*.csv 2>/dev/null | head -n 1)
    got=$(awk -F, "$BY_NAME"'col("matrix") ~ /^powerlaw3000-/ && col("precision") == "s" && col("check") == "PASS" { print col("kernel") }' "$icsv" 2>/dev/null | sed 's/-.*//' | sort | tr '\n' ' ')
    if [ $st = 0 ] && [ "$got" = "adaptive scalar vector " ]; then
        pass "figures.sh: a tiny PoCL sweep runs the three step6 kernels on a generated matrix (IRREGULAR)"
    else fail "figures.sh: a tiny PoCL sweep runs the three step6 kernels on a generated matrix (IRREGULAR)" "status $st, kernels '$got': $(tail -n 3 "$TMP/irr.out" | tr '\n' '|')"; fi
    if [ -s "$ich" ] && [ "$(head -n 1 "$ich")" = device,matrix,precision,choice,date,git_rev ] &&
        grep -q ',powerlaw3000-m15-e1.6-s1,s,adaptive,' "$ich" && grep -q ',arrow600-s1,s,adaptive,' "$ich"; then
        pass "figures.sh: step6's choice per matrix and precision in choice/<device>.csv (adaptive for the irregular)"
    else fail "figures.sh: step6's choice per matrix and precision in choice/<device>.csv (adaptive for the irregular)" "$(head -n 4 "$ich" 2>&1 | tr '\n' '|')"; fi
    DRAW_WORK=$TMP/irrw "$P/draw.sh" "$TMP/irr" "$TMP/irrfigs" >/dev/null 2>"$TMP/irrdraw.err"
    slug=$(basename "${icsv:-none}" .csv)
    if [ -s "$TMP/irrfigs/fig-irregular-$slug.png" ] && [ -s "$TMP/irrfigs/fig-irregular-$slug.svg" ] && [ ! -s "$TMP/irrdraw.err" ] &&
        grep -q 'power-law, mean 15' "$TMP/irrfigs/fig-irregular-$slug.svg"; then
        pass "plots: fig-irregular drawn from the sweep, no gnuplot warnings, the matrix named"
    else fail "plots: fig-irregular drawn from the sweep, no gnuplot warnings, the matrix named" "$(ls "$TMP/irrfigs" 2>&1 | tr '\n' ' ') $(head -c 300 "$TMP/irrdraw.err")"; fi
    # every bar of the figure's data is the best PASS row the sweep wrote for that matrix, precision and kernel
    # (the size: the largest all three kernels ran); the % is the row's gflops over its compulsory bound
    bad=$(for p in s d c z; do
        dat=$TMP/irrw/$slug-irr-$p.dat
        [ -s "$dat" ] || { echo "no $p"; continue; }   # (a fixed plan: every precision ran)
        awk -v p="$p" -F, 'FNR == NR { if (FNR == 1) { for (i = 1; i <= NF; i++) C[$i] = i; next }
                if ($C["check"] != "PASS" || $C["precision"] != p) next
                k = $C["kernel"]; sub(/-.*/, "", k); key = $C["matrix"] SUBSEP k
                if (!(key in g) || $C["gflops"] + 0 > g[key]) { g[key] = $C["gflops"] + 0; b[key] = $C["bound_compulsory_gflops"] + 0 }
                if ($C["matrix"] ~ /^powerlaw/) n++
                next }
            FNR == 1 { FS = " "; next }
            { split($0, q, "\""); m = q[6]; split(q[7], v, " ")
              split("scalar vector adaptive", K, " ")
              for (i = 1; i <= 3; i++) { key = m SUBSEP K[i]
                  if (!(key in g)) { print p, m, K[i], v[i], "not in the sweep"; continue }
                  if ((v[i] - g[key]) ^ 2 > (1e-5 * g[key]) ^ 2) print p, m, K[i], v[i], "!=", g[key]
                  if ((v[i + 3] - 100 * g[key] / b[key]) ^ 2 > 0.01) print p, m, K[i], "pct", v[i + 3] }
              rows++ }
            END { if (rows != 2) print p, rows, "matrices drawn, want 2" }' "$icsv" "$dat"
    done)
    if [ -z "$bad" ]; then pass "plots: fig-irregular's bars are the sweep's rows (GFLOP/s and % of the bound)"
    else fail "plots: fig-irregular's bars are the sweep's rows (GFLOP/s and % of the bound)" "$(echo "$bad" | head -n 4 | tr '\n' '|')"; fi
    v=$(awk 'NR > 1 { split($0, q, "\""); split(q[7], a, " "); printf "%s %s;", $1, a[8] }' "$TMP/irrw/$slug-irr-s.dat" 2>/dev/null)
    if [ "$v" = "0 0.27;1 1.27;" ]; then pass "plots: fig-irregular marks step6's choice (the adaptive bar of each matrix)"
    else fail "plots: fig-irregular marks step6's choice (the adaptive bar of each matrix)" "idx/choice_x '$v'"; fi
    got=$(awk 'NR > 1 { split($0, q, "\""); print q[2] }' "$TMP/irrw/$slug-csr-s.dat" 2>/dev/null | grep -c '^powerlaw\|^arrow')
    [ "$got" = 0 ] && pass "plots: the generated matrices are in fig-irregular, not among fig-step6's real ones" \
        || fail "plots: the generated matrices are in fig-irregular, not among fig-step6's real ones" "$got in csr-s.dat"
else
    skip "figures.sh: a tiny PoCL sweep of the irregular matrices" "no build/step6 or no CPU OpenCL device"
fi

# ---- the generated blocks of README.md and plots/README.md are the committed data's ----
expect_ok "blocks: README.md and plots/README.md are current (plots/blocks.sh --check)" "$P/blocks.sh" --check "$ROOT/README.md" "$ROOT/plots/README.md"
for f in README.md plots/README.md; do
    cp "$ROOT/$f" "$TMP/stale.md"
    # one number inside the first generated block, one more than the data says
    awk '/^<!-- block:[a-z]/ { on = 1; print; next } on && !done && match($0, / [0-9]+ rows| [0-9]+, [0-9]+ \|/) {
            n = substr($0, RSTART + 1) + 1; $0 = substr($0, 1, RSTART) n substr($0, RSTART + 1 + length(substr($0, RSTART + 1) + 0)); done = 1 }
         { print }' "$ROOT/$f" >"$TMP/stale.md"
    if cmp -s "$ROOT/$f" "$TMP/stale.md"; then fail "blocks: a stale number in $f's block fails the check" "no number changed"
    else expect_status "blocks: a stale number in $f's block fails the check" 1 "$P/blocks.sh" --check "$TMP/stale.md"; fi
done
# the Results prose (up to the roofline's subsection) states no measured number outside a generated block
results_numbers() { # README: the measured numbers of the Results section outside the blocks
    awk '/^## Results/ { on = 1 } /^### The roofline/ { on = 0 } /^<!-- block:[a-z]/ { blk = 1 } /^<!-- block:end -->/ { blk = 0; next }
        on && !blk' "$1" | grep -oE '[0-9]+(\.[0-9]+)? ?(%|GFLOP/s|GB/s|ms|x |times)'
}
got=$(results_numbers "$ROOT/README.md")
[ -z "$got" ] && pass "README: the Results prose has no measured number outside a generated block" \
    || fail "README: the Results prose has no measured number outside a generated block" "$(echo "$got" | tr '\n' ' ')"
sed 's/^A single sweep is one sample/The cpu kernel reaches 87% of the bound. A single sweep is one sample/' "$ROOT/README.md" >"$TMP/num.md"
got=$(results_numbers "$TMP/num.md")
[ "$got" = "87%" ] && pass "README: ... and a number typed into it is found" || fail "README: ... and a number typed into it is found" "got '$got'"

# ---- fig-irregular without OpenCL: each family at the largest size all three kernels ran,
# cuSPARSE its line, the choice its mark; generated matrices never among fig-step6's ----
mkdir -p "$TMP/irrfix/choice"
{ echo "$HEADER_FIX"
  r() { echo "step6,$1,GPU X,drv,$2,$3,$3,$4,0,s,10,1,1,$5,1,900,0,$6,1e-7,PASS,2026-11-21T00:00:00Z,abc1234,850,900"; }
  r scalar grid64x64r5 4096 331776 2 100; r vector-16 grid64x64r5 4096 331776 3 100; r adaptive grid64x64r5 4096 331776 2.5 100
  for k in scalar vector-16 adaptive cusparse; do r $k powerlaw1000-m15-e1.6-s1 1000 15000 4 200; done
  r scalar powerlaw4000-m15-e1.6-s1 4000 60000 5 200; r adaptive powerlaw4000-m15-e1.6-s1 4000 60000 40 200
  r scalar arrow500-s1 500 1498 1 50; r vector-32 arrow500-s1 500 1498 0.5 50; r adaptive arrow500-s1 500 1498 20 50
} >"$TMP/irrfix/gpu-x.csv"
printf 'device,matrix,precision,choice,date,git_rev\nGPU X,powerlaw1000-m15-e1.6-s1,s,vector,2026-11-20T00:00:00Z,abc1234\nGPU X,powerlaw1000-m15-e1.6-s1,s,adaptive,2026-11-21T00:00:00Z,abc1234\n' \
    >"$TMP/irrfix/choice/gpu-x.csv"
DRAW_WORK=$TMP/irrfixw "$P/draw.sh" "$TMP/irrfix" "$TMP/irrfixfigs" >/dev/null 2>"$TMP/irrfix.err"
got=$(awk 'NR > 1 { split($0, q, "\""); split(q[7], a, " "); printf "%s %s %s %s %s %s %s;", q[6], a[1], a[2], a[3], a[6], a[7], a[8] }' "$TMP/irrfixw/gpu-x-irr-s.dat" 2>/dev/null)
want="powerlaw1000-m15-e1.6-s1 4 4 4 2.0 4 0.27;arrow500-s1 1 0.5 20 40.0 NaN NaN;"
if [ "$got" = "$want" ] && [ ! -s "$TMP/irrfix.err" ] && grep -q 'cuSPARSE (reference)' "$TMP/irrfixfigs/fig-irregular-gpu-x.svg" &&
    [ "$(awk -F'\t' '$1 == "irr_flags" { print $2 }' "$TMP/irrfixw/gpu-x.meta")" = 111111 ]; then
    pass "plots: fig-irregular: the size all kernels ran, % of the bound, cuSPARSE, the latest choice; no warnings"
else fail "plots: fig-irregular: the size all kernels ran, % of the bound, cuSPARSE, the latest choice; no warnings" "got '$got' want '$want' $(head -c 200 "$TMP/irrfix.err")"; fi
got=$(awk 'NR > 1 { split($0, q, "\""); printf "%s;", q[2] }' "$TMP/irrfixw/gpu-x-csr-s.dat" 2>/dev/null)
[ "$got" = "grid64x64r5;" ] && pass "plots: fig-step6 keeps to the grid and the real matrices" \
    || fail "plots: fig-step6 keeps to the grid and the real matrices" "got '$got'"

# ---- fig-step6 from a sweep cut short: a precision with no rows at the matrices drawn has no
# panel, a kernel with no value in a panel no bars, and gnuplot prints no warning ----
mkdir -p "$TMP/cut"
{ echo "$HEADER_FIX"
  r() { echo "step6,$1,CPU Y,drv,grid$2x$2r5,$(($2 * $2)),$(($2 * $2)),$((81 * $2 * $2)),0,$3,10,1,1,$4,1,30,0,$5,1e-7,PASS,2026-11-22T00:00:00Z,abc1234,25,30"; }
  for k in scalar vector-8 adaptive; do r $k 64 s 2 10; r $k 128 s 3 10; r $k 64 d 1 5; done   # d: the small grid only
  r scalar 128 c 1.5 0                                                                           # c: scalar alone, no bound
  # fig-irregular: a generated matrix in float, two kernels, no bound (a run without the probe)
  for k in scalar adaptive; do echo "step6,$k,CPU Y,drv,arrow500-s1,500,500,1498,0,s,10,1,1,0.5,1,0,0,0,1e-7,PASS,2026-11-22T00:00:00Z,abc1234,,"; done
} >"$TMP/cut/cpu-y.csv"
DRAW_WORK=$TMP/cutw "$P/draw.sh" "$TMP/cut" "$TMP/cutfigs" >/dev/null 2>"$TMP/cut.err"
st=$?
meta() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$TMP/cutw/cpu-y.meta"; }
got="$(meta csr)/$(meta csr_flags)/$(meta csr_nodata)/$(meta irr)/$(meta irr_flags)"
if [ $st = 0 ] && [ "$got" = "s c/1110111 1000000/d/s/001010" ] && [ -s "$TMP/cutfigs/fig-irregular-cpu-y.svg" ] && [ ! -s "$TMP/cut.err" ] && [ -s "$TMP/cutfigs/fig-step6-cpu-y.svg" ] &&
    grep -q 'c: complex float' "$TMP/cutfigs/fig-step6-cpu-y.svg" && ! grep -q 'd: double' "$TMP/cutfigs/fig-step6-cpu-y.svg"; then
    pass "plots: fig-step6 with a precision cut short, fig-irregular without bounds: no empty panel, no gnuplot warning"
else fail "plots: fig-step6 with a precision cut short, fig-irregular without bounds: no empty panel, no gnuplot warning" "status $st, panels/flags/left out '$got': $(head -c 300 "$TMP/cut.err")"; fi

# ---- make plots on the committed data: every figure, no gnuplot warning ----
"$P/draw.sh" "$ROOT/plots/data" "$TMP/committed" >/dev/null 2>"$TMP/committed.err"
st=$?
if [ $st = 0 ] && [ ! -s "$TMP/committed.err" ] && [ -s "$TMP/committed/fig-step6-nvidia-h100-80gb-hbm3.png" ]; then
    pass "plots: every figure of plots/data drawn without a gnuplot warning"
else fail "plots: every figure of plots/data drawn without a gnuplot warning" "status $st: $(head -c 300 "$TMP/committed.err")"; fi
