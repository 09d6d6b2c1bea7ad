# tests/t_common_probe.sh - the bandwidth probe on a CPU device: the host probe (C,
# POSIX threads, one per compute unit) is sampled beside the OpenCL one, both are
# printed, and the bounds (and the CSV's bw_measured_gbs) use the fastest of
# the four medians; the row's bw_copy_gbs and bw_read_gbs are the faster of
# the printed copies and of the printed reads; on the host (step0) one probe
# line as before, and its copy and read in the row; step6's rows have both.
# chapters: all
source "$(dirname "$0")/lib.sh"
export SPMV_PROBE_MB=16
expect_output "probe: step1 runs" 'check: PASS' "$BUILD/step1" --grid 45x37 --runs 3 --csv "$TMP/p.csv"
if ! grep -q '^device .*(CPU)' "$TMP/out"; then
    skip "probe: the host probe beside a CPU device, and the bounds from the fastest of four" "the steps' device here is no CPU"
    exit 0
fi
cp "$TMP/out" "$TMP/p.out"
ocl=$(grep -c '^probe    16 MiB, median of 5 (3 between the timed runs, 2 after them): copy [0-9.]* GB/s (read + written), read [0-9.]* GB/s (OpenCL)$' "$TMP/p.out")
host=$(grep -c '^probe    host, [0-9]* threads\{0,1\}, 16 MiB, sampled beside it: copy [0-9.]* GB/s, read [0-9.]* GB/s (C, POSIX threads); bounds use [0-9.]*, the fastest of the four$' "$TMP/p.out")
[ "$ocl" = 1 ] && [ "$host" = 1 ] && pass "probe: a CPU device prints the OpenCL probe and the host probe beside it" \
    || fail "probe: a CPU device prints the OpenCL probe and the host probe beside it" "$(grep '^probe' "$TMP/p.out" | tr '\n' '|')"
# the bound uses the fastest of the four, and the CSV row holds it
got=$(grep '^probe' "$TMP/p.out" | grep -oE '(copy|read|use) [0-9.]+' | awk '$1 != "use" { if ($2 > m) m = $2 } $1 == "use" { u = $2 } END { printf "%.1f %.1f", m, u }')
csvbw=$(awk -F, "$BY_NAME"'FNR == 2 { printf "%.1f", col("bw_measured_gbs") }' "$TMP/p.csv")
set -- $got
if [ -n "$got" ] && [ "$1" = "$2" ] && [ "$csvbw" = "$2" ]; then pass "probe: bounds and CSV use the fastest of the four ($2 GB/s)"
else fail "probe: bounds and CSV use the fastest of the four" "fastest/used '$got', csv '$csvbw'"; fi
# copy_and_read OUT CSV: "ok" when the row's bw_copy_gbs and bw_read_gbs are there and are the
# fastest copy and the fastest read printed (to the 0.1 GB/s printed), bw_measured_gbs the larger
copy_and_read() {
    local printed row
    printed=$(grep '^probe' "$1" | grep -oE '(copy|read) [0-9.]+' |
        awk '$1 == "copy" && $2 + 0 > c + 0 { c = $2 } $1 == "read" && $2 + 0 > r + 0 { r = $2 } END { print c + 0, r + 0 }')
    row=$(awk -F, "$BY_NAME"'FNR == 2 { print col("bw_copy_gbs") "," col("bw_read_gbs") "," col("bw_measured_gbs") }' "$2")
    awk -v p="$printed" -v row="$row" 'function near(x, y) { return x - y < 0.051 && y - x < 0.051 }
        BEGIN { split(p, P, " "); split(row, R, ",")
            if (R[1] == "" || R[2] == "" || P[1] == 0 || P[2] == 0) { printf "row copy,read,measured \"%s\", printed \"%s\"", row, p; exit }
            if (near(R[1], P[1]) && near(R[2], P[2]) && R[3] + 0 == (R[1] + 0 > R[2] + 0 ? R[1] : R[2]) + 0) print "ok"
            else printf "row copy,read,measured %s; printed copy, read %s", row, p }'
}
got=$(copy_and_read "$TMP/p.out" "$TMP/p.csv")
if [ "$got" = ok ]; then pass "probe: the CSV row's bw_copy_gbs and bw_read_gbs: the faster printed copy and read"
else fail "probe: the CSV row's bw_copy_gbs and bw_read_gbs: the faster printed copy and read" "$got"; fi
# --runs 3: a sample before each timed run, and the two more the median needs after them, counted as taken
expect_output "probe: --runs 10 says median of 10 between the timed runs" '^probe    16 MiB, median of 10 between the timed runs: copy' \
    "$BUILD/step1" --grid 45x37 --runs 10
expect_output "probe: step0 (the host) prints one probe line" '^probe    host, 2 threads, 16 MiB, median of' \
    "$BUILD/step0" --grid 45x37 --runs 3 --threads 2 --csv "$TMP/p0.csv"
[ "$(grep -c '^probe' "$TMP/out")" = 1 ] && pass "probe: step0: one probe line" || fail "probe: step0: one probe line" "$(grep '^probe' "$TMP/out" | tr '\n' '|')"
got=$(copy_and_read "$TMP/out" "$TMP/p0.csv")
if [ "$got" = ok ]; then pass "probe: step0's row: the host probe's copy and read, as printed"
else fail "probe: step0's row: the host probe's copy and read, as printed" "$got"; fi
# step6 reports through spmv_report itself (a row per kernel): each row has both, bw_measured_gbs the larger
rm -f "$TMP/p6.csv"
"$BUILD/step6" --grid 24 --runs 2 --csv "$TMP/p6.csv" >/dev/null 2>&1
got=$(awk -F, "$BY_NAME"'{ n++; c = col("bw_copy_gbs"); r = col("bw_read_gbs")
        if (c == "" || r == "" || c + 0 <= 0 || r + 0 <= 0 || col("bw_measured_gbs") + 0 != (c + 0 > r + 0 ? c : r) + 0) bad++ }
    END { print n + 0, bad + 0 }' "$TMP/p6.csv" 2>/dev/null)
case $got in
    "0 "* | *" "[1-9]*) fail "probe: step6's rows: copy and read in each, bw_measured_gbs the larger" "rows, bad: '$got'" ;;
    *) pass "probe: step6's rows: copy and read in each, bw_measured_gbs the larger" ;;
esac
