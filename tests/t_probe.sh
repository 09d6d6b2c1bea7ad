# tests/t_probe.sh - the bandwidth probe on a CPU device: the host probe (C,
# OpenMP, a thread per compute unit) is sampled beside the OpenCL one, both are
# printed, and the bounds (and the CSV's bw_measured_gbs) use the fastest of
# the four medians; on the host (step0) one probe line as before.
source "$(dirname "$0")/lib.sh"
export SPMV_PROBE_MB=16
expect_output "probe: step1 runs" 'check: PASS' "$BUILD/step1" --grid 45x37 --runs 3 --csv "$TMP/p.csv"
if ! grep -q '^device .*(CPU)' "$TMP/out"; then
    pass "probe: the default device is no CPU: the host probe beside it is not checked here"
    exit 0
fi
cp "$TMP/out" "$TMP/p.out"
ocl=$(grep -c '^probe    16 MiB, median of [0-9]* between the timed runs: copy [0-9.]* GB/s (read + written), read [0-9.]* GB/s (OpenCL)$' "$TMP/p.out")
host=$(grep -c '^probe    host, [0-9]* threads\{0,1\}, 16 MiB, sampled beside it: copy [0-9.]* GB/s, read [0-9.]* GB/s (C, OpenMP); bounds use [0-9.]*, the fastest of the four$' "$TMP/p.out")
[ "$ocl" = 1 ] && [ "$host" = 1 ] && pass "probe: a CPU device prints the OpenCL probe and the host probe beside it" \
    || fail "probe: a CPU device prints the OpenCL probe and the host probe beside it" "$(grep '^probe' "$TMP/p.out" | tr '\n' '|')"
# the bound uses the fastest of the four, and the CSV row holds it
got=$(grep '^probe' "$TMP/p.out" | grep -oE '(copy|read|use) [0-9.]+' | awk '$1 != "use" { if ($2 > m) m = $2 } $1 == "use" { u = $2 } END { printf "%.1f %.1f", m, u }')
csvbw=$(awk -F, 'NR == 2 { printf "%.1f", $16 }' "$TMP/p.csv")
set -- $got
if [ -n "$got" ] && [ "$1" = "$2" ] && [ "$csvbw" = "$2" ]; then pass "probe: bounds and CSV use the fastest of the four ($2 GB/s)"
else fail "probe: bounds and CSV use the fastest of the four" "fastest/used '$got', csv '$csvbw'"; fi
expect_output "probe: step0 (the host) prints one probe line" '^probe    host, 2 threads, 16 MiB, median of' \
    "$BUILD/step0" --grid 45x37 --runs 3 --threads 2
[ "$(grep -c '^probe' "$TMP/out")" = 1 ] && pass "probe: step0: one probe line" || fail "probe: step0: one probe line" "$(grep '^probe' "$TMP/out" | tr '\n' '|')"
