# tests/t_common_host.sh - the host side at scale and the flags that shape a run:
#   a header declaring an absurd size (rows, columns, entries, each alone and
#   together; Matrix Market and Harwell-Boeing) and an absurd --grid are
#   refused right after the header, in under 2 s of CPU time and 200 MB
#   resident (the work done, not the time the machine took to do it),
#   with a message naming what would not fit; the host's memory: every
#   step refuses what its estimated peak would not fit (SPMV_HOST_MEM_MB
#   pretends a host), --estimate prints that peak, held against the resident
#   size measured;
#   the parallel host code gives the same bits with 1 and 2 OpenMP threads
#   (the matrix, x, the reference and the check, seen from outside);
#   --quiet prints only result lines; --csv FILE under make run;
#   --kernel NAME and --kernel-file FILE, and their misuse;
#   every step's --help: each flag it lists is taken, each kernel it names
#   runs, each flag it does not list is refused.
# chapters: all
source "$(dirname "$0")/lib.sh"
S0=$BUILD/step0 S1=$BUILD/step1 S6=$BUILD/step6
D=$ROOT/tests/data
export SPMV_PROBE_MB=${SPMV_PROBE_MB:-16}
Q="--runs 1 --warmup 0"

# ---- absurd sizes, refused before anything of that size exists ----
mm() { # FILE ROWS COLS ENTRIES
    printf '%%%%MatrixMarket matrix coordinate real general\n%s %s %s\n1 1 1.0\n' "$2" "$3" "$4" >"$1"
}
hb() { # FILE ROWS COLS ENTRIES: a Harwell-Boeing header, then one column of the matrix
    {
        printf '%-72s%-8s\n' "ABSURD SIZE (test)" ABSURD
        printf '%14d%14d%14d%14d\n' 3 1 1 1
        printf '%-14s%14d%14d%14d%14d\n' RUA "$2" "$3" "$4" 0
        printf '%-16s%-16s%-20s\n' '(2I10)' '(1I10)' '(1E20.12)'
        printf '%10d%10d\n' 1 2
        printf '%10d\n' 1
        printf '%20.12E\n' 1.0
    } >"$1"
}
mm "$TMP/rows.mtx" 2000000000 10 1
mm "$TMP/cols.mtx" 10 3000000000 1
mm "$TMP/entries.mtx" 100000 100000 9000000000
mm "$TMP/all.mtx" 2000000000 2000000000 3000000000
hb "$TMP/rows.rua" 2000000000 10 1
hb "$TMP/cols.rua" 10 3000000000 1
hb "$TMP/entries.rua" 100000 100000 9000000000
hb "$TMP/all.rua" 2000000000 2000000000 3000000000

TIME=/usr/bin/time
# refused NAME REGEX ASKED CMD...: status 2 within 2 s of CPU time (user +
# system: a refusal from the header takes ~0.02 s, a reader that went on
# through the declared entries would take minutes; CPU time, unlike the wall
# clock, does not grow when the machine is busy with other work) and 200 MB
# resident (a GPU's runtime alone takes ~110 MB), and one line on stderr that
# matches the grep -E REGEX and holds the text ASKED ("": any)
refused() {
    local name=$1 re=$2 asked=$3; shift 3
    need_tool "$name" "$TIME" time || return 0
    "$TIME" -f '%U %S %M' -o "$TMP/tv" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    local st=$? user sys secs kb
    read -r user sys kb < <(tail -n 1 "$TMP/tv")
    secs=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    if [ "$st" != 2 ]; then fail "$name" "status $st: $(tail -n 2 "$TMP/err" | tr '\n' ' ')"
    elif [ "$(grep -c . "$TMP/err")" -ne 1 ] || ! grep -qE -- "$re" "$TMP/err" || ! grep -qF -- "$asked" "$TMP/err"; then
        fail "$name" "message: $(tr '\n' '|' <"$TMP/err")"
    elif ! awk -v s="$secs" 'BEGIN { exit !(s < 2.0) }'; then fail "$name" "took $secs s of CPU time"
    elif [ "$kb" -ge 204800 ]; then fail "$name" "$kb KB resident"
    else pass "$name"; fi
}
# On a 16 GB laptop (SPMV_HOST_MEM_MB: the same refusals on a 128 GB GPU host,
# where some of these sizes would fit and run), naming what would not fit
fast_refusal() { # NAME STEP FILE|--grid G
    local name=$1; shift
    SPMV_HOST_MEM_MB=16384 refused "$name" 'would (take|need)|index with int|limited to' "" "$@"
}
for f in rows cols entries all; do
    for ext in mtx rua; do
        for s in step0 step1 step6; do
            fast_refusal "absurd $f.$ext refused by $s" "$BUILD/$s" --matrix "$TMP/$f.$ext"
        done
    done
done
# the issue's three-line file: what would not fit is named, with its size
fast_refusal "step6: 2e9 rows and columns" "$S6" --matrix "$TMP/all.mtx"
for s in step1 step6; do
    SPMV_HOST_MEM_MB=16384 "$BUILD/$s" --matrix "$TMP/rows.mtx" >/dev/null 2>"$TMP/err"
    # which limit bites first depends on the machine: a buffer of the device, or the host's memory
    if grep -qE '(row pointers|y|x) would take [0-9.]+ GiB on the device, more than .* allows in one buffer \([0-9.]+ GiB\)|the host would need [0-9.]+ [GMK]iB at its peak, [a-z ]+ \(.*reference [0-9.]+ [GMK]iB.*\), more than the [0-9.]+ [GMK]iB available \(' "$TMP/err"; then
        pass "$s: the refusal names what would not fit and both sizes"
    else fail "$s: the refusal names what would not fit and both sizes" "$(cat "$TMP/err")"; fi
done
# the host-only step names the host's memory
SPMV_HOST_MEM_MB=16384 "$S0" --matrix "$TMP/rows.mtx" >/dev/null 2>"$TMP/err"
if grep -qE 'the host would need [0-9.]+ GiB at its peak, .*, more than the [0-9.]+ [GMK]iB available \(' "$TMP/err"; then pass "step0: the refusal names the host's memory"
else fail "step0: the refusal names the host's memory" "$(cat "$TMP/err")"; fi
# under a hard limit on the address space, the host-only step still refuses
# cleanly (nothing of the declared size is even reserved)
( ulimit -v 204800; "$S0" --matrix "$TMP/all.mtx" >/dev/null 2>"$TMP/err"; echo $? >"$TMP/st" )
if [ "$(cat "$TMP/st")" = 2 ] && grep -q "would need .*available (ulimit -v)" "$TMP/err"; then pass "step0 under ulimit -v 200 MB: refused with the reason"
else fail "step0 under ulimit -v 200 MB: refused with the reason" "status $(cat "$TMP/st"): $(cat "$TMP/err")"; fi
for s in step0 step1 step6; do
    fast_refusal "$s --grid 40000 refused at once" "$BUILD/$s" --grid 40000
done
fast_refusal "step6 --grid 16000 (2^31 nonzeros) refused at once" "$S6" --grid 16000
# a host with the memory for 2e8 random rows (an H100 machine's 128 GB): the
# DIA steps refuse them from their first rows, before drawing the rest (the
# matrix has at least the diagonals of those rows), at once and small
dia_probe() { # NAME STEP SPEC (on the host's memory, or SPMV_HOST_MEM_MB's)
    refused "$1" 'more than 1024 occupied diagonals in its first' "" "$2" --gen "$3"
}
for s in step0 step1 step5; do
    SPMV_HOST_MEM_MB=200000 dia_probe "$s refuses 2e8 random rows from the first ones" "$BUILD/$s" uniform:rows=200000000,min=1,max=1
done
SPMV_HOST_MEM_MB=200000 dia_probe "step3 refuses a long arrow from its first row" "$BUILD/step3" arrow:rows=3000000
# and a generated matrix a DIA step can hold still runs
expect_output "step1 runs a generated matrix of few diagonals" '^check: PASS' "$BUILD/step1" --gen uniform:rows=40,min=1,max=5 --runs 1
# a size that fits is not refused
mm "$TMP/fits.mtx" 1000000 1000000 1
expect_output "a 1000000 x 1000000 file with one entry runs" 'check: PASS' "$S6" --matrix "$TMP/fits.mtx" --kernel scalar $Q

# ---- the host's memory: every step estimates its peak before it allocates ----
# (common/capacity.h): the matrix as read and converted, x, y, the reference,
# the copies each step keeps, the probe and the runtime, against the memory
# available. SPMV_HOST_MEM_MB=N pretends a host of N MiB: the GPU host's 128
# GB, a 16 GB laptop, or just above and below a run's own estimate.
ALL_STEPS=""
for s in step0 step1 step2 step3 step4 step5 step6; do want_step $s && ALL_STEPS="$ALL_STEPS $s"; done
host_refusal() { # NAME ASKED BIN ARGS...: refused, naming what was asked (ASKED), the host's
                 # estimate and the memory available
    local name=$1 asked=$2; shift 2
    refused "$name" 'the host would need [0-9.]+ [GMK]iB at its peak, [a-zA-Z -]+ \(.*\), more than the [0-9.]+ [GMK]iB available \([^)]+\)' \
        "$asked" "$@"
}
estimate_mib() { # STEP ARGS...: the MiB that --estimate prints, or nothing
    "$@" --estimate 2>/dev/null | sed -n 's/^host     needs \([0-9.]*\) MiB at its peak, .* available (.*)$/\1/p'
}
U2E9=uniform:rows=2000000000,min=1,max=1
mm "$TMP/big.mtx" 1000000 1000000 2000000000
hb "$TMP/big.rua" 1000000 1000000 2000000000
for s in $ALL_STEPS; do
    SPMV_HOST_MEM_MB=65536 host_refusal "$s: --gen $U2E9 refused on a 64 GB host" "--gen $U2E9" "$BUILD/$s" --gen $U2E9
    SPMV_HOST_MEM_MB=1024 host_refusal "$s: --grid 4096 refused on a 1 GB host" "grid 4096x4096" "$BUILD/$s" --grid 4096
    SPMV_HOST_MEM_MB=16384 host_refusal "$s: a header of 2e9 entries refused on a 16 GB host, from the header" \
        "big.mtx:2: 1000000 x 1000000 matrix with 2000000000 entries declared" "$BUILD/$s" --matrix "$TMP/big.mtx"
done
SPMV_HOST_MEM_MB=16384 host_refusal "step6: a Harwell-Boeing header of 2e9 entries refused on a 16 GB host" \
    "big.rua:3: 1000000 x 1000000 matrix with 2000000000 entries declared" "$S6" --matrix "$TMP/big.rua"
# the issue's request on this machine's own memory (MemAvailable): refused
# by every step whose estimate is more than the machine has
total_mib=$(awk '$1 == "MemTotal:" { printf "%d", $2 / 1024 }' /proc/meminfo 2>/dev/null)
for s in $ALL_STEPS; do
    mib=$(estimate_mib "$BUILD/$s" --gen $U2E9)
    if [ -z "$mib" ] || [ -z "$total_mib" ]; then fail "$s: --gen $U2E9 on this host's memory" "no estimate ('$mib') or no MemTotal"
    elif awk -v m="$mib" -v t="$total_mib" 'BEGIN { exit !(m > t) }'; then
        host_refusal "$s: --gen $U2E9 refused on this host's $total_mib MiB" "--gen $U2E9" "$BUILD/$s" --gen $U2E9
    elif [ "$s" != step6 ]; then   # it fits (a 128 GB host): a DIA step refuses it from its first rows
        dia_probe "$s: --gen $U2E9 on this host's $total_mib MiB, which holds its $mib MiB: refused from its first rows" \
            "$BUILD/$s" $U2E9
    else skip "$s: --gen $U2E9 on this host's memory" "its estimate, $mib MiB, fits in this host's $total_mib MiB"; fi
done
# --estimate: prints the estimate without building anything; --grid 4096 is admitted on a 128 GB host
for s in $ALL_STEPS; do
    SPMV_HOST_MEM_MB=131072 "$TIME" -f '%e %M' -o "$TMP/tv" "$BUILD/$s" --grid 4096 --estimate >"$TMP/out" 2>"$TMP/err"
    st=$?
    read -r secs kb < <(tail -n 1 "$TMP/tv")
    mib=$(sed -n 's/^host     needs \([0-9.]*\) MiB at its peak, .*; 131072.0 MiB available (SPMV_HOST_MEM_MB=131072)$/\1/p' "$TMP/out")
    # at least the matrix: DIA 81 diagonals of 4096^2 floats; CSR 1,357,529,424 nonzeros of 12 bytes
    least=$([ $s = step6 ] && echo 15536 || echo 5184)
    if [ -z "$mib" ]; then fail "$s --grid 4096 --estimate on a 128 GB host" "status $st: $(cat "$TMP/out" "$TMP/err" | tr '\n' '|')"
    elif ! awk -v m="$mib" -v l="$least" 'BEGIN { exit !(m >= l && m < 131072) }'; then
        fail "$s --grid 4096 --estimate on a 128 GB host" "$mib MiB: not within [$least, 131072)"
    elif ! awk -v s="$secs" 'BEGIN { exit !(s < 2.0) }' || [ "$kb" -ge 204800 ]; then
        fail "$s --grid 4096 --estimate on a 128 GB host" "$secs s, $kb KB: it built something"
    else pass "$s --grid 4096 --estimate on a 128 GB host: $mib MiB, admitted ($secs s)"; fi
done
# the boundary: a run is admitted with 1 MiB more than its estimate, refused with 1 MiB less
for run in "step1 --grid 64" "step0 --matrix $D/bfwa62.mtx" "step6 --matrix $D/bcsstk33.mtx --precision z" \
           "step6 --gen powerlaw:rows=20000,mean=15 --kernel adaptive" "step4 --grid 50x70 --kernel cpu"; do
    set -- $run
    bin=$BUILD/$1; shift
    mib=$(estimate_mib "$bin" "$@")
    if [ -z "$mib" ]; then fail "host boundary: $run" "no estimate"; continue; fi
    above=$(awk -v m="$mib" 'BEGIN { printf "%d", m + 2 }') below=$(awk -v m="$mib" 'BEGIN { printf "%d", m - 1 }')
    SPMV_HOST_MEM_MB=$above "$bin" "$@" $Q >"$TMP/out" 2>"$TMP/err"
    st=$?
    SPMV_HOST_MEM_MB=$below "$bin" "$@" $Q >/dev/null 2>"$TMP/err2"
    st2=$?
    if [ "$st" != 0 ] || ! grep -q '^check: PASS' "$TMP/out"; then
        fail "host boundary: $run" "with $above MiB: status $st: $(cat "$TMP/err")"
    elif [ "$st2" != 2 ] || ! grep -q "the host would need .* more than the $below MiB available (SPMV_HOST_MEM_MB=$below)" "$TMP/err2"; then
        fail "host boundary: $run" "with $below MiB: status $st2: $(cat "$TMP/err2")"
    else pass "host boundary: $run runs with $above MiB, refused with $below (estimate $mib)"; fi
done
# the estimate against the peak resident size measured (GNU time's %M): not
# under 0.8x (the host would run out), not over 3x (it refuses what fits).
# Both in all, and for the matrix's part alone (less a 16x16 grid's run with
# the same options: the runtime and the probe, which the estimate allows
# 128 and 64 MiB for, PoCL takes about 83 and 64), where the matrix is large
# enough to be measured so. A run that compiles its kernel peaks higher than
# one that finds it in the compile cache (NVIDIA's ~/.nv/ComputeCache: about
# 70 MiB at any size), so each is run once before it is measured.
rss_mib() { # BIN ARGS...: the run's peak resident MiB, or nothing if it did not pass
    "$TIME" -f '%M' -o "$TMP/tv" "$@" $Q >"$TMP/out" 2>"$TMP/err" && grep -q '^check: PASS' "$TMP/out" &&
        awk '{ m = $1 / 1024 } END { printf "%.1f", m }' "$TMP/tv"
}
ratio_ok() { awk -v e="$1" -v m="$2" 'BEGIN { exit !(m > 0 && e / m >= 0.8 && e / m <= 3) }'; }
for run in "step0 :: --grid 768" "step1 :: --grid 768" "step5 :: --grid 512" "step6 --precision d :: --grid 512" "step6 --precision c :: --grid 384" \
           "step6 --kernel adaptive :: --gen powerlaw:rows=500000,mean=15" "step6 --precision z :: --matrix $D/bcsstk33.mtx" \
           "step1 :: --matrix $D/bfwa62.mtx" "step6 :: --matrix $D/bayer10.mtx"; do
    opts=${run%% :: *} matrix=${run#* :: }
    set -- $opts
    bin=$BUILD/$1; shift
    name=$(echo "host estimate against RSS: $(basename "$bin") $* $matrix" | tr -s ' ')
    "$bin" "$@" $matrix $Q >/dev/null 2>&1; "$bin" "$@" --grid 16 $Q >/dev/null 2>&1
    est=$(estimate_mib "$bin" "$@" $matrix) rss=$(rss_mib "$bin" "$@" $matrix)
    est0=$(estimate_mib "$bin" "$@" --grid 16) rss0=$(rss_mib "$bin" "$@" --grid 16)
    if [ -z "$est" ] || [ -z "$rss" ] || [ -z "$est0" ] || [ -z "$rss0" ]; then
        fail "$name" "estimates '$est' '$est0', runs '$rss' '$rss0': $(cat "$TMP/err")"; continue
    fi
    de=$(awk -v a="$est" -v b="$est0" 'BEGIN { printf "%.1f", a - b }') dm=$(awk -v a="$rss" -v b="$rss0" 'BEGIN { printf "%.1f", a - b }')
    big=$(awk -v m="$dm" 'BEGIN { print (m >= 40) }')
    if ! ratio_ok "$est" "$rss"; then fail "$name" "estimate $est MiB, measured $rss MiB"
    elif [ "$big" = 1 ] && ! ratio_ok "$de" "$dm"; then fail "$name" "the matrix's part: estimate $de MiB, measured $dm MiB"
    else pass "$name: $est MiB estimated, $rss measured$([ "$big" = 1 ] && echo "; the matrix's part $de and $dm")"; fi
done
expect_output "--help names --estimate and SPMV_HOST_MEM_MB" 'SPMV_HOST_MEM_MB=N' "$S1" --help

# ---- the parallel host code: 1 and 2 threads give the same bits ----
same_runs() { # NAME STEP ARGS...: --save-matrix, --save-x, --info and the check line agree
    local name=$1 bin=$2; shift 2
    for t in 1 2; do
        OMP_NUM_THREADS=$t "$bin" "$@" --info --save-matrix "$TMP/A$t.mtx" --save-x "$TMP/x$t.mtx" $Q \
            >"$TMP/o$t" 2>"$TMP/e$t"
        echo $? >>"$TMP/o$t"
    done
    if [ ! -s "$TMP/A1.mtx" ] || [ ! -s "$TMP/x1.mtx" ]; then fail "$name" "nothing saved: $(cat "$TMP/e1")"
    elif ! cmp -s "$TMP/A1.mtx" "$TMP/A2.mtx"; then fail "$name" "the matrices differ"
    elif ! cmp -s "$TMP/x1.mtx" "$TMP/x2.mtx"; then fail "$name" "the x differ"
    elif [ "$(grep -E '^(info|check)' "$TMP/o1")" != "$(grep -E '^(info|check)' "$TMP/o2")" ] ||
         ! grep -q '^check: PASS' "$TMP/o1"; then
        fail "$name" "info/check lines differ: $(grep -E '^(info|check)' "$TMP/o1" "$TMP/o2" | tr '\n' '|')"
    else pass "$name"; fi
    rm -f "$TMP"/A?.mtx "$TMP"/x?.mtx
}
same_runs "OMP 1 = 2 threads: step6 grid" "$S6" --grid 150x130 --kernel scalar
same_runs "OMP 1 = 2 threads: step6 bcsstk33 (symmetric expansion)" "$S6" --matrix "$D/bcsstk33.mtx" --kernel scalar
same_runs "OMP 1 = 2 threads: step6 qc324 complex double" "$S6" --matrix "$D/qc324.cua" --precision z --kernel scalar
same_runs "OMP 1 = 2 threads: step1 grid" "$S1" --grid 150x130
same_runs "OMP 1 = 2 threads: step1 bcsstk01 (Harwell-Boeing, expanded, CSR to DIA)" "$S1" --matrix "$D/bcsstk01.rsa"

# ---- --quiet: only result lines ----
quiet_only() { # NAME WANT_FIRST BIN ARGS...: every line a result line, the verdict first
    local name=$1 first=$2 bin=$3; shift 3
    "$bin" "$@" --quiet >"$TMP/q" 2>"$TMP/qe"
    local st=$? bad
    bad=$(grep -vE '^(check: (PASS|FAIL)|time     |speed    |bound    |skipped: )' "$TMP/q" | head -n 3 | tr '\n' '|')
    if [ ! -s "$TMP/q" ]; then fail "$name" "no output (status $st): $(cat "$TMP/qe")"
    elif [ -n "$bad" ]; then fail "$name" "other lines: $bad"
    elif [ "$(head -n 1 "$TMP/q")" != "$first" ]; then fail "$name" "first line '$(head -n 1 "$TMP/q")'"
    else pass "$name"; fi
}
quiet_only "--quiet step1: check, time, speed, bound lines only" "check: PASS" "$S1" --grid 32 $Q
quiet_only "--quiet step6 both kernels" "check: PASS" "$S6" --grid 32 $Q
quiet_only "--quiet step0" "check: PASS" "$S0" --grid 32 $Q
n=$(grep -c '^time ' "$TMP/q"); [ "$n" = 1 ] && pass "--quiet step0: one time line" || fail "--quiet step0: one time line" "$n"
"$S1" --grid 32 $Q --quiet >"$TMP/q" 2>/dev/null
if [ "$(cut -c1-9 "$TMP/q" | tr '\n' '|')" = "check: PA|time     |speed    |bound    |bound    |" ]; then
    pass "--quiet step1: exactly verdict, time, speed and two bounds, in order"
else fail "--quiet step1: exactly verdict, time, speed and two bounds, in order" "$(tr '\n' '|' <"$TMP/q")"; fi
sed 's/diag < diags; diag++/diag < diags - 1; diag++/' "$ROOT/step1-naive/kernel.cl" >"$TMP/broken1.cl"
"$S1" --grid 32 $Q --quiet --kernel-file "$TMP/broken1.cl" >"$TMP/q" 2>"$TMP/qe"
st=$?
if [ "$st" = 1 ] && [ "$(cat "$TMP/q")" = "check: FAIL" ]; then pass "--quiet with a broken kernel: the one line check: FAIL, status 1"
else fail "--quiet with a broken kernel: the one line check: FAIL, status 1" "status $st: $(tr '\n' '|' <"$TMP/q")"; fi
expect_error "--quiet keeps errors on stderr" "unknown option --bogus" "$S1" --quiet --bogus

# ---- --csv FILE under make run: written as well as the summary's ----
rm -f "$TMP/mine.csv"
_run make -s -C "$ROOT" step1 run ARGS="--grid 24 $Q --csv $TMP/mine.csv"
if [ "$(cat "$TMP/status")" = 0 ] && [ "$(head -n 1 "$TMP/mine.csv" 2>/dev/null | cut -d, -f1-3)" = "step,kernel,device" ] &&
   [ "$(awk -F, "$BY_NAME"'col("step") == "step1" && col("matrix") == "grid24x24r5" && col("check") == "PASS"' "$TMP/mine.csv" | wc -l)" = 1 ] &&
   grep -q '^step1 .*grid24x24r5 .*PASS' "$TMP/out"; then
    pass "make step1 run ARGS=\"--csv FILE\": FILE has the header and the row, the summary too"
else fail "make step1 run ARGS=\"--csv FILE\": FILE has the header and the row, the summary too" \
    "status $(cat "$TMP/status"); $(head -n 3 "$TMP/mine.csv" 2>&1 | tr '\n' '|') $(tail -n 3 "$TMP/out" | tr '\n' '|')"; fi
_run make -s -C "$ROOT" step1 run ARGS="--grid 24 $Q --csv=$TMP/mine.csv"
n=$(grep -c '^step,' "$TMP/mine.csv"); rows=$(($(wc -l <"$TMP/mine.csv") - 1))
if [ "$n" = 1 ] && [ "$rows" = 2 ]; then pass "make run --csv=FILE again: appended, header once"
else fail "make run --csv=FILE again: appended, header once" "$n headers, $rows rows"; fi

# ---- --kernel NAME and --kernel-file FILE ----
K6=$ROOT/step6-csr/kernel.cl
expect_output "step6 --kernel-file and --kernel together" 'check: PASS' "$S6" --grid 16 --kernel-file "$K6" --kernel scalar $Q
expect_error "step6 --kernel FILE.cl: use --kernel-file" "for a kernel source file use --kernel-file $K6" "$S6" --kernel "$K6"
expect_error "step6 --kernel-file NAME: use --kernel" "not the kernel name 'vector': to choose a kernel, use --kernel vector" "$S6" --kernel-file vector
expect_error "step6 --kernel unknown name" "--kernel wants one of scalar,vector,adaptive,all, not 'fast'" "$S6" --kernel fast
expect_error "step4 --kernel-file cpu: use --kernel" "use --kernel cpu" "$BUILD/step4" --kernel-file cpu
expect_error "step1 --kernel FILE.cl: use --kernel-file" "use --kernel-file" "$S1" --kernel "$ROOT/step1-naive/kernel.cl"
expect_error "step1 --kernel-file not a file" "--kernel-file wants a kernel source file (FILE.cl), not 'naive'" "$S1" --kernel-file naive
expect_output "step0 takes --kernel-file, notes it unused" '^note .*: --kernel-file \.\.\. not used$' "$S0" --kernel-file x.cl --grid 8 --runs 1
expect_error "step0 --kernel unknown loop" "--kernel wants one of" "$S0" --kernel fast

# ---- --help: what it lists is taken, what it does not is refused ----
ALL_FLAGS="--grid --radius --matrix --gen --seed --precision --info --x --save-x --save-y --save-matrix --runs --warmup
 --device --local-size --kernel-file --cl-opts --kernel --threads --block --group-size --split --combine --csv --quiet
 --estimate --tol --maxiter --check-every --b --save-b --history"
printf '%%%%MatrixMarket matrix array real general\n64 1\n' >"$TMP/x64.mtx"
for i in $(seq 64); do echo 0.5; done >>"$TMP/x64.mtx"
value_of() { # a value the flag takes
    case $1 in
        --grid) echo 8 ;; --radius) echo 1 ;; --matrix) echo "$D/west0067.mtx" ;; --gen) echo poisson:nx=8 ;;
        --seed) echo 3 ;; --split) echo 4 ;; --combine) echo fixup ;;
        --precision) echo d ;; --x) echo "$TMP/x64.mtx" ;; --save-x|--save-y|--save-matrix|--csv) echo "$TMP/h.out" ;;
        --runs) echo 1 ;; --warmup) echo 0 ;; --device) echo 0:0 ;; --local-size) echo 8 ;;
        --kernel-file) echo "$ROOT/step1-naive/kernel.cl" ;; --cl-opts) echo "-DNOTHING" ;;
        --threads|--block|--group-size) echo 2 ;;
        --tol) echo 1e-6 ;; --maxiter|--check-every) echo 5 ;; --b) echo "$TMP/x64.mtx" ;; --save-b|--history) echo "$TMP/h.out" ;;
    esac
}
for bin in "$BUILD"/step[0-9] "$BUILD"/cusparse "$BUILD"/cusparse-cg; do
    [ -x "$bin" ] || continue   # the CUDA yardsticks: where nvcc built them
    s=$(basename "$bin")
    case $s in cusparse) want_step step6 ;; cusparse-cg) want_step step7 ;; *) want_step "$s" ;; esac || continue
    "$bin" --help >"$TMP/help" 2>&1
    listed=$(grep -oE '^  --[a-z-]+' "$TMP/help" | tr -d ' ' | sort -u)
    bad=""
    for f in $ALL_FLAGS; do
        v=$(value_of "$f")
        # the first kernel --help names (its list may start on the next line)
        [ "$f" = --kernel ] && v=$(awk '/--kernel NAME .*which kernel:/ { sub(/.*which kernel: */, ""); w = 1 }
            w && match($0, /[a-z0-9-]+/) { print substr($0, RSTART, RLENGTH); exit }' "$TMP/help")
        [ "$f" = --kernel ] && [ -z "$v" ] && v=name
        if printf '%s\n' "$listed" | grep -qx -- "$f"; then
            # listed: taken (parsed, then --help stops the run)
            if [ -n "$v" ]; then "$bin" "$f" "$v" --help >/dev/null 2>"$TMP/he"; else "$bin" "$f" --help >/dev/null 2>"$TMP/he"; fi
            [ $? = 0 ] || bad="$bad $f(refused: $(head -c 80 "$TMP/he"))"
        else
            if [ -n "$v" ]; then "$bin" "$f" "$v" --help >/dev/null 2>"$TMP/he"; else "$bin" "$f" --help >/dev/null 2>"$TMP/he"; fi
            [ $? = 2 ] || bad="$bad $f(not listed, taken)"
        fi
    done
    if [ -z "$bad" ]; then pass "$s --help: every listed flag taken, every other refused"
    else fail "$s --help: every listed flag taken, every other refused" "$bad"; fi
    # every kernel it names runs (or skips: status 3)
    names=$(sed -n 's/.*--kernel NAME .*which kernel: \([a-z0-9,-]*\).*/\1/p' "$TMP/help" | tr ',' ' ')
    # (the solvers, step7, step8, step9 and cusparse-cg, solve a symmetric system: the grid's random weights are not one, the
    # Poisson matrix is; a solve runs once: no --runs)
    m="--grid 16 $Q"; case $s in step7 | step8 | step9 | cusparse-cg) m="--gen poisson:nx=16" ;; esac
    for k in $names; do
        # shellcheck disable=SC2086
        "$bin" $m --kernel "$k" >/dev/null 2>"$TMP/he"
        st=$?
        # (step9's sync-free solve is refused, status 2 and one line, where it could hang: not an NVIDIA GPU)
        if [ "$s:$k:$st" = step9:ic0-syncfree:2 ] && grep -q "only NVIDIA's GPUs" "$TMP/he"; then st=3; fi
        case $st in 0|3) pass "$s --help names kernel $k: it runs" ;; *) fail "$s --help names kernel $k: it runs" "status $st: $(head -c 200 "$TMP/he")" ;; esac
    done
done
