# tests/t_step6_adaptive.sh - irregular matrices (--gen) and step 6's load-balanced
# kernel: the generator is deterministic whatever the threads, names its
# parameters in the CSV, refuses bad specs in one line, and reaches every
# step; the three kernels pass, every precision, on the shapes that break
# row-based kernels (a dense first row and column, every nonzero in one row,
# empty rows between long rows, one row over 100,000 entries, 1xN, Nx1,
# power-law matrices of several seeds and exponents), the adaptive kernel in
# its CPU shape (one work-item per block) and in its GPU shape (a work-group
# per block), with long rows whole (one work-group each) and split across
# work-groups (--split 1: every row longer than a block); a kernel that drops
# a split row's partial sum, or the end of a whole long row, FAILs; oclgrind
# finds nothing; the matrix chooses.
# chapters: 6
source "$(dirname "$0")/lib.sh"
bin=$BUILD/step6
QUICK="--runs 1 --warmup 0"

# mutant NAME 'PERL' - $TMP/NAME.cl: the adaptive kernel's file with one
# deliberate bug, made by perl -0pe PERL (the whole file as one string); run
# with --kernel adaptive --kernel-file, it takes that file's place after
# step6-csr/kernel.cl. Says FAIL, and returns 1, when the edit changed
# nothing (the line it breaks has moved or changed).
AK=$ROOT/step6-csr/adaptive/kernel.cl
mutant() {
    perl -0pe "$2" "$AK" >"$TMP/$1.cl"
    cmp -s "$AK" "$TMP/$1.cl" || return 0
    fail "adaptive broken kernel $1 made" "its edit changed nothing in step6-csr/adaptive/kernel.cl"
    return 1
}
export SPMV_PROBE_MB=1
if [ ! -x "$bin" ]; then
    fail "adaptive tests" "no $bin: run make all"
    exit 0
fi

# ---- the generator
for t in 1 2; do
    OMP_NUM_THREADS=$t "$bin" --gen powerlaw:rows=5000,mean=12,exp=1.4 --seed 7 --kernel scalar $QUICK \
        --save-matrix "$TMP/pl$t.mtx" >/dev/null 2>&1
done
if [ -s "$TMP/pl1.mtx" ] && cmp -s "$TMP/pl1.mtx" "$TMP/pl2.mtx"; then
    pass "gen: the same matrix with 1 and 2 threads"
else
    fail "gen: the same matrix with 1 and 2 threads" "the saved files differ or are empty"
fi
"$bin" --gen powerlaw:rows=5000,mean=12,exp=1.4 --seed 8 --kernel scalar $QUICK --save-matrix "$TMP/pl8.mtx" >/dev/null 2>&1
cmp -s "$TMP/pl1.mtx" "$TMP/pl8.mtx" && fail "gen: another seed, another matrix" "seeds 7 and 8 gave the same file" ||
    pass "gen: another seed, another matrix"
# the saved file reads back as the same matrix (the loader's own reader)
expect_output "gen: --save-matrix reads back, same row statistics" \
    "$(grep '^rows ' <("$bin" --gen powerlaw:rows=5000,mean=12,exp=1.4 --seed 7 --kernel scalar $QUICK) | sed 's/[().*]/./g')" \
    "$bin" --matrix "$TMP/pl1.mtx" --kernel scalar $QUICK
# row lengths: distinct sorted columns, lengths as asked
awk 'NR > 1 && !/^%/ { n++; if ($1 == prev_r && $2 <= prev_c) bad++; prev_r = $1; prev_c = $2 }
     END { exit !(n > 0 && bad == 0) }' <(grep -v '^%' "$TMP/pl1.mtx") &&
    pass "gen: columns distinct and ascending in every row" || fail "gen: columns distinct and ascending in every row" "$TMP/pl1.mtx"
expect_output "gen uniform: every row 3 to 5 long" 'length mean 4\.[0-9], max 5,' \
    "$bin" --gen uniform:rows=3001,min=3,max=5 --kernel scalar $QUICK
expect_output "gen arrow: 3n-2 nonzeros, one full row" 'arrow1000-s1: 1000 x 1000, 2998 nonzeros' \
    "$bin" --gen arrow:rows=1000 --kernel scalar $QUICK
# short rows: every row 1 to 4 long (mean 2.5), its columns distinct, ascending and
# within the band of 16 centred on the diagonal (moved inside at the edges); the
# same with 1 and 2 threads; the mean as asked, its longest row 2M-1
for t in 1 2; do
    OMP_NUM_THREADS=$t "$bin" --gen short:rows=3000,band=16 --seed 5 --kernel scalar $QUICK \
        --save-matrix "$TMP/sh$t.mtx" >/dev/null 2>&1
done
if [ -s "$TMP/sh1.mtx" ] && cmp -s "$TMP/sh1.mtx" "$TMP/sh2.mtx"; then pass "gen short: the same matrix with 1 and 2 threads"
else fail "gen short: the same matrix with 1 and 2 threads" "the saved files differ or are empty"; fi
"$bin" --gen short:rows=3000,band=16 --seed 6 --kernel scalar $QUICK --save-matrix "$TMP/sh6.mtx" >/dev/null 2>&1
cmp -s "$TMP/sh1.mtx" "$TMP/sh6.mtx" && fail "gen short: another seed, another matrix" "seeds 5 and 6 gave the same file" ||
    pass "gen short: another seed, another matrix"
# short_shape FILE BAND MAXLEN: "ok" when every row holds 1..MAXLEN distinct ascending
# columns inside its band, else the first row that does not
short_shape() {
    awk -v B="$2" -v K="$3" 'BEGIN { pr = -1 } /^%/ { next } !n { n = $1; next }
        { r = $1 - 1; c = $2 - 1; len[r]++
          lo = r - int(B / 2); if (lo > n - B) lo = n - B; if (lo < 0) lo = 0
          if (c < lo || c >= lo + B) { print "row " r ": column " c " outside [" lo ", " lo + B ")"; bad = 1; exit }
          if (r == pr && c <= pc) { print "row " r ": columns not ascending"; bad = 1; exit }
          pr = r; pc = c }
        END { if (bad) exit; for (r = 0; r < n; r++) if (len[r] < 1 || len[r] > K) { print "row " r ": " len[r] + 0 " entries"; exit }
              print "ok" }' "$1"
}
v=$(short_shape "$TMP/sh1.mtx" 16 4)
[ "$v" = ok ] && pass "gen short: rows 1 to 4 long, columns distinct, ascending, within the band" ||
    fail "gen short: rows 1 to 4 long, columns distinct, ascending, within the band" "$v"
# the check itself: a band of 8 is too narrow for the rows drawn in 16
v=$(short_shape "$TMP/sh1.mtx" 8 4)
[ "$v" != ok ] && pass "gen short: the band check sees columns outside a narrower band" ||
    fail "gen short: the band check sees columns outside a narrower band" "it said ok"
expect_output "gen short: default mean 2.5, rows 1 to 4" 'length mean 2\.5, max 4,' "$bin" --gen short:rows=40000 --kernel scalar $QUICK
expect_output "gen short: named by its parameters" 'short40000-m2.5-b32-s1: 40000 x 40000' "$bin" --gen short:rows=40000 --kernel scalar $QUICK
expect_output "gen short: mean 1.3, rows 1 to 2" 'length mean 1\.3, max 2,' "$bin" --gen short:rows=40000,mean=1.3 --kernel scalar $QUICK
expect_output "gen short: mean 6, rows up to 11" 'length mean (5\.9|6\.0|6\.1), max 11,' "$bin" --gen short:rows=40000,mean=6 --kernel scalar $QUICK
expect_error "gen short: rows longer than the band" "mean=20 makes rows of up to 39 entries, more than the band=32" \
    "$bin" --gen short:rows=100,mean=20
expect_error "gen short: band wider than the matrix" "band=11 is more than the 10 columns" "$bin" --gen short:rows=10,band=11
expect_error "gen short: no cols" "takes rows, mean, band, not 'cols'" "$bin" --gen short:rows=10,cols=20
expect_output "gen powerlaw: mean near what was asked" 'length mean (1[4-6])\.[0-9]' \
    "$bin" --gen powerlaw:rows=40000,mean=15 --kernel scalar $QUICK
rm -f "$TMP/g.csv"
"$bin" --gen powerlaw:rows=3000,cols=5000,mean=9,exp=2 --seed 3 --kernel scalar $QUICK --csv "$TMP/g.csv" >/dev/null 2>&1
grep -q '^step6,scalar,.*,powerlaw3000x5000-m9-e2-s3,3000,5000,' "$TMP/g.csv" &&
    pass "gen: the CSV matrix column names the parameters" ||
    fail "gen: the CSV matrix column names the parameters" "$(tail -n 1 "$TMP/g.csv")"
expect_error "gen: unknown kind" "--gen wants powerlaw:..., uniform:..., arrow:..., short:..., poisson:..., poisson3d:... or stencil27:..., not 'zipf'" "$bin" --gen zipf:rows=10
expect_error "gen: no rows" "needs rows=N" "$bin" --gen powerlaw:mean=3
expect_error "gen: unknown key" "takes rows, cols, mean, exp, not 'min'" "$bin" --gen powerlaw:rows=10,min=3
expect_error "gen: exponent at most 1" "exp wants a number from 1.05" "$bin" --gen powerlaw:rows=10,exp=1
expect_error "gen: not key=value" "'rows' is not key=value" "$bin" --gen uniform:rows
expect_error "gen: min above max" "min=9 is more than max=4" "$bin" --gen uniform:rows=10,min=9,max=4
expect_error "gen: more per row than columns" "max=20 is more than the 10 columns" "$bin" --gen uniform:rows=10,cols=10,max=20
expect_error "gen: 2^31 nonzeros refused" "the kernels index with int" "$bin" --gen uniform:rows=100000,min=30000,max=30000
expect_error "gen: with --matrix" "--gen and --matrix choose the matrix two ways" "$bin" --gen arrow:rows=5 --matrix x.mtx
expect_error "gen: with --grid" "--gen and --grid/--radius choose the matrix two ways" "$BUILD/step1" --gen arrow:rows=5 --grid 8
# sizes are checked before any array of that size exists: 2e9 rows and
# 1.8e9 drawn nonzeros refused with under 200 MB resident, on a 16 GB host
# (SPMV_HOST_MEM_MB: a 128 GB one would hold the second and run it)
for g in uniform:rows=2000000000,min=1,max=1 powerlaw:rows=2000000,mean=900; do
    need_tool "gen $g: refused before allocating" /usr/bin/time time || continue
    SPMV_HOST_MEM_MB=16384 _run /usr/bin/time -f "maxrss %M" "$bin" --gen $g $QUICK
    rss=$(awk '/^maxrss/ { print $2 }' "$TMP/err")
    if [ "$(cat "$TMP/status")" = 2 ] && grep -q "^step6: error: --gen $g.*would" "$TMP/err" && [ -n "$rss" ] && [ "$rss" -lt 200000 ]; then
        pass "gen $g: refused before allocating (${rss} kB resident)"
    else
        fail "gen $g: refused before allocating" "status $(cat "$TMP/status"), rss ${rss:-?} kB: $(head -n 1 "$TMP/err")"
    fi
done
# the DIA steps take --gen and refuse what DIA cannot store, with their usual message
for s in step0 step1 step5; do
    expect_error "$s --gen powerlaw: refused as not banded" "diagonals" "$BUILD/$s" --gen powerlaw:rows=4000,mean=8 $QUICK
done
expect_output "step1 --gen arrow:rows=8: 15 diagonals, DIA takes it" 'check: PASS' "$BUILD/step1" --gen arrow:rows=8 $QUICK

# ---- matrices that break row-based kernels
awk 'BEGIN { print "%%MatrixMarket matrix coordinate real general"; print 50, 120000, 120000
             for (j = 1; j <= 120000; j++) printf "7 %d %.6f\n", j, ((j * 7919) % 2001 - 1000) / 1000 }' >"$TMP/onerow.mtx"
awk 'BEGIN { print "%%MatrixMarket matrix coordinate real general"; print 10, 30000, 60000
             for (r = 3; r <= 9; r += 3) for (j = 1; j <= 20000; j++) printf "%d %d %.6f\n", r, j + r, ((j * r * 31) % 2001 - 1000) / 1000 }' >"$TMP/gaps.mtx"
shapes=("--gen arrow:rows=3000" "--matrix $TMP/onerow.mtx" "--matrix $TMP/gaps.mtx"
        "--gen uniform:rows=1,cols=150000,min=150000,max=150000" "--gen uniform:rows=5000,cols=1,min=0,max=1"
        "--gen powerlaw:rows=4000,mean=20,exp=1.2,cols=30000 --seed 1" "--gen powerlaw:rows=4000,mean=5,exp=2.5 --seed 2"
        "--gen powerlaw:rows=2000,mean=60,exp=1.6 --seed 3")
three() { # three NAME ARGS...: every kernel PASS; adaptive also in the GPU shape, and every long row split (each combine)
    local name=$1; shift
    _run "$bin" "$@" $QUICK
    local st n; st=$(cat "$TMP/status"); n=$(grep -c '^check: PASS' "$TMP/out")
    if [ "$st" = 3 ] && grep -q 'cl_khr_fp64' "$TMP/out"; then
        pass "$name (skipped: no cl_khr_fp64)"
        return
    fi
    [ "$st" = 0 ] && [ "$n" = 3 ] && pass "$name: three kernels" ||
        fail "$name: three kernels" "status $st, $n PASS: $(grep -E '^check|error' "$TMP/out" "$TMP/err" | tr '\n' ' ')"
    local shape
    local shapes=("--local-size 64" "--local-size 64 --split 1" "--local-size 1 --split 1"
        "--local-size 64 --split 1 --combine fixup")
    # the one 64-bit word of --combine last holds one real sum
    case " $* " in *" --precision "[sd]" "*) shapes+=("--local-size 64 --split 1 --combine last") ;; esac
    for shape in "${shapes[@]}"; do
        # shellcheck disable=SC2086
        _run "$bin" "$@" $QUICK --kernel adaptive $shape
        st=$(cat "$TMP/status")
        [ "$st" = 0 ] && grep -q '^check: PASS' "$TMP/out" && pass "$name: adaptive, $shape" ||
            fail "$name: adaptive, $shape" "status $st: $(grep -E '^check|error' "$TMP/out" "$TMP/err" | tr '\n' ' ')"
    done
}
for p in s d c z; do
    for sh in "${shapes[@]}"; do
        # shellcheck disable=SC2086
        three "step6 -p $p ${sh##*/}" $sh --precision $p
    done
done
# (with --local-size 64 a float block holds 3 x 64 = 192 nonzeros:
# adaptive/host.c, share_per_item)
# a row is cut when it is longer than the split: by default a compute
# unit's share of the matrix or a floor for the combine, whichever is more
# (the `cut` line says which; the tests below that count chunks name
# --split, so that they do not depend on the device's compute units); rows
# longer than a block and not cut go whole, one work-group each
# added up by a second kernel (--combine fixup) a split row is cut into
# blocks of `share`; added up by its last chunk through one word (--combine
# last), into about sqrt(length / 1000) chunks (adaptive/host.c, chunks_of);
# counted in (--combine count, the default where the device has a fence of
# device scope, as PoCL has), into blocks of `share` as with the fix-up kernel
for cb in fixup last count; do
    _run "$bin" --matrix "$TMP/onerow.mtx" --kernel adaptive --local-size 1 --combine $cb $QUICK
    cut=$(sed -n 's/^cut  *rows longer than \([0-9]*\) nonzeros are cut across work-groups (\(.*\))$/\1 \2/p' "$TMP/out")
    floor=$(awk -v c=$cb 'BEGIN { print int((c == "fixup" ? 512 : 128) * 1024 / 8) }')
    ok=$(echo "$cut" | awk -v f="$floor" '{ s = $1 }
        / share, / { n = $6; cu = $9; print (s == n && n == int(120000 / cu) && n > f && n > 8192) ? 1 : 0; next }
        / floor / { print (s == f && f > 8192) ? 1 : 0; next } { print 0 }')
    [ "$ok" = 1 ] && grep -q '^check: PASS' "$TMP/out" &&
        pass "adaptive ($cb): the default split is a compute unit's share or the floor, the larger ($cut)" ||
        fail "adaptive ($cb): the default split is a compute unit's share or the floor, the larger" "cut line: '$cut', floor $floor"
done
expect_output "adaptive CPU shape splits a 120,000-entry row (fixup)" \
    'prep +adaptive: [0-9]+ blocks \(0 long rows whole, 15 chunks of 1 rows longer than 65536\)' \
    "$bin" --matrix "$TMP/onerow.mtx" --kernel adaptive --local-size 1 --combine fixup --split 65536 $QUICK
expect_output "adaptive GPU shape splits it into 625 chunks (fixup)" '\(0 long rows whole, 625 chunks of 1 rows longer than 65536\)' \
    "$bin" --matrix "$TMP/onerow.mtx" --kernel adaptive --local-size 64 --combine fixup --split 65536 $QUICK
for ls in 1 64; do
    _run "$bin" --matrix "$TMP/onerow.mtx" --kernel adaptive --local-size $ls --combine last --split 60000 $QUICK
    grep -qE '\(0 long rows whole, 11 chunks of 1 rows longer than 60000\)' "$TMP/out" &&
        grep -q '^combine  last: each split row added up by its last chunk' "$TMP/out" && ! grep -q 'fix-up' "$TMP/out" &&
        grep -q '^check: PASS' "$TMP/out" && pass "adaptive (local $ls) adds the 120,000-entry row up in 11 chunks, in the kernel (last)" ||
        fail "adaptive (local $ls) adds the 120,000-entry row up in 11 chunks, in the kernel (last)" \
            "$(grep -E '^(----|check|prep|combine)' "$TMP/out" | tr '\n' ' ')"
    # blocks of 8,192 at local 1 (15 chunks), 192 at local 64 (625)
    nc=625; [ $ls = 1 ] && nc=15
    for sp in 60000 10000; do
        _run "$bin" --matrix "$TMP/onerow.mtx" --kernel adaptive --local-size $ls --split $sp $QUICK
        grep -qE "\(0 long rows whole, $nc chunks of 1 rows longer than $sp\)" "$TMP/out" &&
            grep -q '^combine  count: each chunk.s sum in its slot' "$TMP/out" && ! grep -q 'fix-up' "$TMP/out" &&
            grep -q '^check: PASS' "$TMP/out" && pass "adaptive (local $ls, split $sp) adds the 120,000-entry row up in $nc chunks, counted in" ||
            fail "adaptive (local $ls, split $sp) adds the 120,000-entry row up in $nc chunks, counted in" \
                "$(grep -E '^(----|check|prep|combine)' "$TMP/out" | tr '\n' ' ')"
    done
done
expect_output "adaptive: three 20,000-entry rows whole" 'prep +adaptive: 7 blocks \(3 long rows whole, 0 chunks' \
    "$bin" --matrix "$TMP/gaps.mtx" --kernel adaptive --local-size 64 --split 30000 $QUICK
expect_output "adaptive: --split 1000 cuts them into blocks of 192 (fixup)" '\(0 long rows whole, 315 chunks of 3 rows longer than 1000\)' \
    "$bin" --matrix "$TMP/gaps.mtx" --kernel adaptive --local-size 64 --split 1000 --combine fixup $QUICK
expect_output "adaptive: --split 1000 cuts them into 5 chunks each (last)" '\(0 long rows whole, 15 chunks of 3 rows longer than 1000\)' \
    "$bin" --matrix "$TMP/gaps.mtx" --kernel adaptive --local-size 64 --split 1000 --combine last $QUICK
expect_output "adaptive: --split below a block means a block" 'rows longer than 192\)' \
    "$bin" --matrix "$TMP/gaps.mtx" --kernel adaptive --local-size 64 --split 1 $QUICK
expect_output "adaptive: the fix-up kernel runs when a row is split (fixup)" 'then the fix-up kernel' \
    "$bin" --gen arrow:rows=3000 --kernel adaptive --local-size 64 --split 1 --combine fixup $QUICK
expect_output "adaptive: complex counts its chunks in too" '^combine  count: each chunk.s sum in its slot.*(OpenCL 3\.0|inline PTX)' \
    "$bin" --gen arrow:rows=3000 --kernel adaptive --local-size 64 --split 1 --precision c $QUICK
expect_error "adaptive: --combine last refused in complex" "--combine last: a complex sum is two numbers" \
    "$bin" --gen arrow:rows=300 --kernel adaptive --split 1 --precision z --combine last
expect_error "adaptive: --combine wants count, last or fixup" "--combine wants count, last or fixup, not 'atomic'" \
    "$bin" --gen arrow:rows=300 --combine atomic
_run "$bin" --gen arrow:rows=3000 --kernel adaptive --local-size 64 $QUICK
[ "$(cat "$TMP/status")" = 0 ] && grep -q '^check: PASS' "$TMP/out" && ! grep -q 'fix-up' "$TMP/out" &&
    pass "adaptive: no fix-up kernel when no row is split" ||
    fail "adaptive: no fix-up kernel when no row is split" "$(grep -E '^(----|check|prep)' "$TMP/out" | tr '\n' ' ')"
expect_error "adaptive: --split wants a positive count" "--split" "$bin" --gen arrow:rows=300 --split 0
expect_error "adaptive: local size not a power of two" "--local-size 48 is not a power of two" \
    "$bin" --gen arrow:rows=300 --kernel adaptive --local-size 48

# ---- the matrix chooses
expect_output "choice: adaptive for a power-law matrix" '^choice +adaptive: rows irregular' \
    "$bin" --gen powerlaw:rows=4000,mean=8 --kernel scalar $QUICK
expect_output "choice: the grid is regular" '^choice +(scalar|vector): rows regular' "$bin" --grid 37x29 --kernel scalar $QUICK
expect_output "choice: marked in the table" '\| adaptive \* ' "$bin" --gen arrow:rows=3000 $QUICK
expect_output "row statistics printed" '^rows +length mean 3\.0, max 3000, spread \(std/mean\) [0-9.]+, typical [0-9.]+ .*, 0 empty' \
    "$bin" --gen arrow:rows=3000 --kernel scalar $QUICK
expect_output "vector group from the typical row, not the mean (arrow: 32, mean 3)" '^---- vector-32:' \
    "$bin" --gen arrow:rows=3000 --kernel vector $QUICK
expect_output "host preparation timed apart, with its payback" '^prep +adaptive.*(pays for itself after [0-9]+ multiplies|never pays for itself)' \
    "$bin" --gen arrow:rows=3000 $QUICK

# a matrix with no rows: one launch of one empty block (rows, rows), which
# once spun forever in the GPU shape (t doubled while 2 t x 0 rows fit)
printf '%%%%MatrixMarket matrix coordinate real general\n0 5 0\n' >"$TMP/norows.mtx"
for ls in 1 64; do
    _run limited 60 "$bin" --matrix "$TMP/norows.mtx" --kernel adaptive --local-size $ls $QUICK
    [ "$(cat "$TMP/status")" = 0 ] && grep -q '^check: PASS' "$TMP/out" &&
        pass "adaptive (local $ls): a matrix with no rows ends and passes" ||
        fail "adaptive (local $ls): a matrix with no rows ends and passes" "status $(cat "$TMP/status")"
done

# ---- a broken adaptive kernel: the last partial sum of every split row dropped
sed 's/p < long_slot\[i + 1\];/p < long_slot[i + 1] - 1;/' "$AK" >"$TMP/broken.cl"
if [ "$(grep -c 'p < long_slot\[i + 1\] - 1;' "$TMP/broken.cl")" != 2 ]; then
    fail "adaptive broken kernel made" "the pattern 'p < long_slot[i + 1];' is not in both fix-up paths of step6-csr/adaptive/kernel.cl"
else
    # sizes so that the dropped chunk is a tenth of the row or more: far past
    # float's tolerance (eps times the row length, relative to sum |a||x|)
    for ls in 1 64; do
        n=2000; [ $ls = 1 ] && n=9000
        for p in s z; do
            expect_status "adaptive broken (local $ls, $p) exits 1" 1 "$bin" --gen arrow:rows=$n --precision $p \
                --kernel adaptive --local-size $ls --split 1 --combine fixup --kernel-file "$TMP/broken.cl" $QUICK
            grep -q '^check: FAIL' "$TMP/out" && pass "adaptive broken (local $ls, $p) says check: FAIL" ||
                fail "adaptive broken (local $ls, $p) says check: FAIL" "$(tail -n 2 "$TMP/out" | tr '\n' ' ')"
        done
    done
fi

# ---- a broken last-chunk combine (float and double): the last chunk writes
# the row without its own sum; the count one short (the chunk before the
# last writes y); the tally word not put back to zero (the first run is
# right, the timed runs after it find the count past the row's chunks and
# leave y as the NaN poison before them)
if mutant nolast 's/\*y_row = tally_sum\(seen\) \+ sum;/*y_row = tally_sum(seen);/' &&
    mutant early 's/tally_count\(seen\) \+ 1 == chunks/tally_count(seen) + 2 == chunks/' &&
    mutant noreset 's/atom_xchg\(tally, 0L\);/;/'; then
    for ls in 1 64; do
        for p in s d; do
            for b in nolast early noreset; do
                expect_status "adaptive last chunk broken ($b, local $ls, $p) exits 1" 1 "$bin" --gen arrow:rows=9000 \
                    --precision $p --kernel adaptive --local-size $ls --split 1 --combine last --kernel-file "$TMP/$b.cl" $QUICK
            done
        done
    done
fi

# ---- a broken counted combine (every precision): the last chunk's sum of
# the row's slots one slot short (in each shape); no chunk's sum stored in
# its slot; the count not put back to zero (the timed runs after the first
# find it past the row's chunks and leave y as the poison before them). On
# one row of 17,000 ones times an x of ones, cut into 3 chunks at local 1
# (blocks of 8,192) and 67-89 at local 64 (blocks of 192-256): a slot left out is 1/89 of the
# row or more, far past the checker's tolerance (with random signs, a lost
# chunk's sum is a random walk, small beside the row's sum |a||x|: the
# float tolerance, eps times the row's length, can hide it)
awk 'BEGIN { print "%%MatrixMarket matrix coordinate real general"; print "1 17000 17000"
             for (j = 1; j <= 17000; j++) print "1 " j " 1" }' >"$TMP/ones.mtx"
awk 'BEGIN { print "%%MatrixMarket matrix array real general"; print "17000 1"
             for (j = 1; j <= 17000; j++) print "1" }' >"$TMP/ones-x.mtx"
if mutant cslots1 's/for \(int i = s0; i < s0 \+ n; i\+\+\)/for (int i = s0; i < s0 + n - 1; i++)/' &&
    mutant cslots64 's/for \(int i = lid; i < n; i \+= LOCAL_SIZE\)/for (int i = lid; i < n - 1; i += LOCAL_SIZE)/' &&
    mutant cnostore 's/partials\[slot\] = sum;\n    DEVICE_FENCE\(\);/DEVICE_FENCE();/' &&
    mutant cnoreset 's/atomic_xchg\((ROW_COUNT|count), 0\);/;/g'; then
    for ls in 1 64; do
        for p in s d c z; do
            for b in cslots$ls cnostore cnoreset; do
                expect_status "adaptive counted combine broken ($b, local $ls, $p) exits 1" 1 "$bin" --matrix "$TMP/ones.mtx" \
                    --x "$TMP/ones-x.mtx" --precision $p --kernel adaptive --local-size $ls --split 1 --combine count \
                    --kernel-file "$TMP/$b.cl" $QUICK
            done
        done
        expect_status "adaptive counted combine, 17,000 ones (local $ls, z) passes" 0 "$bin" --matrix "$TMP/ones.mtx" \
            --x "$TMP/ones-x.mtx" --precision z --kernel adaptive --local-size $ls --split 1 --combine count $QUICK
    done
fi

# ---- integers, checked to the last bit (common/check.h): the arrow of
# 46,500 with small whole-number values and x, so that no partial sum can
# round. Every kernel gives y exactly; and a counted combine that leaves out
# one slot of 243 (the first: local 64, blocks of 192) fails in float and
# complex float, where on random signs the tolerance, eps times 46,510 of
# sum |a||x|, is about the row's own sum and lets it pass
awk 'BEGIN { n = 46500; print "%%MatrixMarket matrix coordinate integer general"; print n, n, 3 * n - 2
             for (j = 1; j <= n; j++) print 1, j, j % 5 - 5
             for (i = 2; i <= n; i++) { print i, 1, i % 7 - 3; print i, i, i % 5 - 2 + (i % 3 ? 0 : 5) } }' \
    >"$TMP/intarrow.mtx"
awk 'BEGIN { n = 46500; print "%%MatrixMarket matrix array integer general"; print n, 1
             for (i = 1; i <= n; i++) print (i * 13) % 7 - 3 }' >"$TMP/intarrow-x.mtx"
INTS="--matrix $TMP/intarrow.mtx --x $TMP/intarrow-x.mtx"
for p in s z; do
    # shellcheck disable=SC2086
    _run "$bin" $INTS --precision $p --kernel all $QUICK
    n=$(grep -c 'within eps\*(n+10); 46500 rows of integers to the last bit$' "$TMP/out")
    [ "$(cat "$TMP/status")" = 0 ] && [ "$n" = 3 ] &&
        pass "integer arrow ($p): all three kernels exact, every row checked to the last bit" ||
        fail "integer arrow ($p): all three kernels exact" "status $(cat "$TMP/status"), $n exact checks: $(grep '^check' "$TMP/out" | tr '\n' ' ')"
done
# the last-chunk word keeps a double sum to 45 bits: integers below 2^44
# come through it exactly, so the check holds it to the last bit too
# shellcheck disable=SC2086
expect_output "integer arrow (d): the last-chunk combine, exact" \
    'within eps\*\(n\+10\); 46500 rows of integers to the last bit$' "$bin" $INTS --precision d \
    --kernel adaptive --local-size 64 --split 1000 --combine last $QUICK
if mutant drop1 's/for \(int i = lid; i < n; i \+= LOCAL_SIZE\)/for (int i = lid + (lid == 0); i < n; i += LOCAL_SIZE)/'; then
    for p in s c; do
        # shellcheck disable=SC2086
        expect_status "adaptive counted combine, one slot of 243 left out, integer arrow ($p) exits 1" 1 "$bin" $INTS \
            --precision $p --kernel adaptive --local-size 64 --split 1000 --combine count --kernel-file "$TMP/drop1.cl" $QUICK
    done
fi

# ---- the stream line: blocks of rows and how full their shares are. 1,000
# rows of 4: on a CPU (local 1) one block of 8,192; in double at local 64 a
# share of 3 x 64 = 192 (adaptive/host.c share_per_item) holds 48 rows, 21 blocks
expect_output "adaptive: stream blocks, local 1" '^stream +1 blocks of rows, 4000 nonzeros: 48\.8% of their shares filled' \
    "$bin" --gen uniform:rows=1000,cols=100,min=4,max=4 --kernel adaptive --local-size 1 $QUICK
expect_output "adaptive: stream blocks, double at local 64 (a share of 192)" \
    '^stream +21 blocks of rows, 4000 nonzeros: 99\.2% of their shares filled' \
    "$bin" --gen uniform:rows=1000,cols=100,min=4,max=4 --kernel adaptive --local-size 64 --precision d $QUICK

# ---- whole rows sharing a work-group (adaptive/kernel.cl SHARED_ROWS): rows of
# 600-1,000 entries, 16 work-items each at local 64 (adaptive/host.c
# WHOLE_MIN_LANES), four rows a work-group, in every precision (3,000 rows:
# a compute unit's share stays above what 16 work-items walk in time on a
# device of up to 600 compute units). Broken:
# every work-item on the block's first row, or the coalesced sweep reading a
# sweep past its row (in fours; and in double, COALESCED_EIGHT, in eights)
SHR="--gen uniform:rows=3000,cols=2000,min=600,max=1000 --kernel adaptive --local-size 64"
for p in s d c z; do
    # shellcheck disable=SC2086
    expect_output "adaptive ($p): 3000 whole rows in 750 work-groups" \
        '^whole +3000 rows longer than 64 in 750 work-groups' "$bin" $SHR --precision $p $QUICK
done
# ... but never fewer work-items than finish a row within a compute unit's
# share (adaptive/host.c whole_lanes): 8 rows of 1,000 at local 256 would go 16
# work-items each, 8 rows to one work-group, if a compute unit's share were
# 16,000 nonzeros (it is at most all 8,000); with the share printed on the
# `whole` line, t is the least power of two from 16 with 1000 * 256 <=
# share * t, and 8 / (256 / t) work-groups (at least 1) walk them, correctly
_run "$bin" --gen uniform:rows=8,cols=2000,min=1000,max=1000 --kernel adaptive --local-size 256 $QUICK
per_cu=$(sed -n 's/^whole .* share, \([0-9]*\) nonzeros)$/\1/p' "$TMP/out")
want=$(awk -v s="$per_cu" 'BEGIN { t = 16; while (t < 256 && 1000 * 256 > s * t) t *= 2; n = 8 / (256 / t); print n < 1 ? 1 : n }')
if [ -n "$per_cu" ] && grep -q '^check: PASS' "$TMP/out" && grep -qE "^whole +8 rows longer than 256 in $want work-groups" "$TMP/out"; then
    pass "adaptive: long rows of a small matrix get the work-items to finish in a compute unit's share ($want work-groups)"
else
    fail "adaptive: long rows of a small matrix get the work-items to finish in a compute unit's share" \
        "share '$per_cu', want $want work-groups: $(grep -E '^(check|whole)' "$TMP/out" | tr '\n' ' ')"
fi
# eight work-items a whole row, not 16, where the whole rows are a quarter
# of the nonzeros or more, in real values (adaptive/host.c WHOLE_MIN_LANES_BULK,
# bulk_lanes): 1,500 rows of 100-200 at local 16 go two a work-group in
# float and double, one in complex; a power-law matrix whose whole rows are
# a fifth of its nonzeros keeps 16
BULK="--gen uniform:rows=1500,cols=4000,min=100,max=200 --kernel adaptive --local-size 16"
for p in s d c z; do
    n=750 each="8 work-items or more each \(real values, whole rows the bulk of the work\)"
    [ $p = c ] || [ $p = z ] && n=1500 each="16 work-items or more each,"
    # shellcheck disable=SC2086
    expect_output "adaptive ($p): whole rows the bulk of the work, $n work-groups" \
        "^whole +1500 rows longer than 16 in $n work-groups, 100\.0% of the nonzeros \(rows of under 512 entries share one, $each" \
        "$bin" $BULK --precision $p $QUICK
done
# (107 work-groups where a compute unit's share, printed, is 4 times the
# longest row or more: then it never gives a row more work-items, main.c
# whole_lanes; on a device of many compute units, the H100's 132, it does)
_run "$bin" --gen powerlaw:rows=20000,mean=15 --kernel adaptive --local-size 64 --precision d $QUICK
per_cu=$(sed -n 's/^whole .* share, \([0-9]*\) nonzeros)$/\1/p' "$TMP/out")
max=$(sed -n 's/^rows .*, max \([0-9]*\),.*/\1/p' "$TMP/out")
n=107; [ -n "$per_cu" ] && [ -n "$max" ] && [ "$per_cu" -lt $((4 * max)) ] && n='[0-9]+'
grep -q '^check: PASS' "$TMP/out" && grep -qE "^whole +424 rows longer than 64 in $n work-groups, 20\.6% of the nonzeros \(rows of under 2048 entries share one, 16 work-items or more each," "$TMP/out" &&
    pass "adaptive (d): whole rows a fifth of the work keep 16 work-items" ||
    fail "adaptive (d): whole rows a fifth of the work keep 16 work-items" "$(grep -E '^(check|rows|whole)' "$TMP/out" | tr '\n' ' ')"
# a row alone in its work-group is walked four neighbouring entries a
# work-item while such rows are no more than a wave of the device (compute
# units x 8 work-groups), coalesced when more (adaptive/host.c plan_blocks, the
# `alone` line): at local 16 every row of 512 entries or more is alone (16
# work-items is the least such a row gets, adaptive/host.c whole_lanes), and 1,500
# of them are more than a wave on any device of under 187 compute units;
# the arrow's one row is not (broken: the coalesced walk reading a sweep
# past its row, below, with the shared rows)
LONE="--gen uniform:rows=1500,cols=4000,min=600,max=700 --kernel adaptive --local-size 16"
for p in s d c z; do
    # shellcheck disable=SC2086
    _run "$bin" $LONE --precision $p $QUICK
    wave=$(sed -n 's/^alone .* one wave, \([0-9]*\) work-groups.*/\1/p' "$TMP/out")
    how="four neighbouring entries"
    [ -n "$wave" ] && [ "$wave" -lt 1500 ] && how="coalesced"
    if [ -n "$wave" ] && grep -q '^check: PASS' "$TMP/out" &&
        grep -qE "^alone +1500 rows walked by a work-group each, $how" "$TMP/out"; then
        pass "adaptive ($p): 1500 rows alone, a wave of $wave work-groups: $how"
    else
        fail "adaptive ($p): 1500 rows alone, walked as the wave says" "$(grep -E '^(check|alone)' "$TMP/out" | tr '\n' ' ')"
    fi
done
expect_output "adaptive: the arrow's one row alone is walked neighbouring entries" \
    '^alone +1 rows walked by a work-group each, four neighbouring entries a work-item \(no more than one wave' \
    "$bin" --gen arrow:rows=2000 --kernel adaptive --local-size 64 $QUICK
# float: rows of 65-192 entries (longer than the work-group, within a block) go whole too
# shellcheck disable=SC2086
expect_output "adaptive float: rows longer than the work-group go whole" \
    '\(300 long rows whole, 0 chunks' "$bin" --gen uniform:rows=300,cols=2000,min=65,max=192 \
    --kernel adaptive --local-size 64 $QUICK
# on a CPU (local 1) every whole row is walked by one work-item: no sharing
_run "$bin" --gen arrow:rows=20000 --kernel adaptive --local-size 1 --precision z --split 100000 $QUICK
grep -q '^check: PASS' "$TMP/out" && grep -qE '^prep .*\(1 long rows whole' "$TMP/out" &&
    ! grep -q '^whole ' "$TMP/out" && pass "adaptive CPU shape: a whole row, not shared" ||
    fail "adaptive CPU shape: a whole row, not shared" "$(grep -E '^(check|whole|prep)' "$TMP/out" | tr '\n' ' ')"
if mutant onerow 's/int i = 3 \* \(first \+ lid \/ t\);/int i = 3 * first;/' &&
    mutant past 's/k \+ 3 \* t < nz1/k + 2 * t < nz1/g' &&
    mutant past8 's/k \+ 7 \* t < nz1/k + 6 * t < nz1/g'; then
    expect_status "adaptive broken shared whole rows (past8: eight a sweep, d) exits 1" 1 "$bin" $SHR --precision d \
        --kernel-file "$TMP/past8.cl" $QUICK
    expect_status "adaptive broken rows alone, coalesced (past8: eight a sweep, d) exits 1" 1 "$bin" $LONE --precision d \
        --kernel-file "$TMP/past8.cl" $QUICK
    for b in onerow past; do
        for p in s d z; do
            # shellcheck disable=SC2086
            expect_status "adaptive broken shared whole rows ($b, $p) exits 1" 1 "$bin" $SHR --precision $p \
                --kernel-file "$TMP/$b.cl" $QUICK
        done
    done
    for p in s d; do
        # shellcheck disable=SC2086
        expect_status "adaptive broken rows alone, coalesced (past, $p) exits 1" 1 "$bin" $LONE --precision $p \
            --kernel-file "$TMP/past.cl" $QUICK
        # shellcheck disable=SC2086
        expect_status "adaptive broken rows shared eight work-items each (past, $p) exits 1" 1 "$bin" $BULK \
            --precision $p --kernel-file "$TMP/past.cl" $QUICK
    done
fi

# ---- a broken stream block: each row's sum stops one product short (the
# row bounds that each work-item loads beside the products, adaptive/kernel.cl), or,
# with 8-byte values (PRODUCTS_IN_FLIGHT: a stream block's loads first, then
# its gathers), the last entry of each block's loads left out
if mutant bounds 's/i1 = ptr\[row \+ 1\] - nz0;/i1 = ptr[row + 1] - nz0 - 1;/' &&
    mutant inflight 's/vj\[j\] = k < nz1 \? val\[k\] : ZERO;/vj[j] = k < nz1 - 1 ? val[k] : ZERO;/'; then
    for bp in bounds:s bounds:d inflight:d inflight:c; do
        b=${bp%:*} p=${bp#*:}
        expect_status "adaptive broken stream block ($b, local 64, $p) exits 1" 1 \
            "$bin" --gen powerlaw:rows=3000,mean=30 --precision "$p" --kernel adaptive --local-size 64 \
            --kernel-file "$TMP/$b.cl" $QUICK
    done
fi

# ---- the CPU shape's four running sums (adaptive/kernel.cl walk_sum): one sum left
# out of the result, or the last entries after the fours left out, FAILs
if mutant nos3 's/return \(s0 \+ s1\) \+ \(s2 \+ s3\);/return (s0 + s1) + s2;/' &&
    mutant notail 's/for \(; k < k1; k\+\+\)/for (; k < k1 - 1; k++)/'; then
    for b in nos3 notail; do
        for p in s z; do
            expect_status "adaptive broken CPU walk ($b, local 1, $p) exits 1" 1 "$bin" --gen powerlaw:rows=2000,mean=30 \
                --precision $p --kernel adaptive --local-size 1 --kernel-file "$TMP/$b.cl" $QUICK
        done
    done
fi

# ---- a broken whole long row: its work-group stops one sweep short (the
# four-at-a-time loop, or with 8-byte values the eight-at-a-time loop,
# WALK_EIGHT, which takes a row of 16 sweeps or more), or leaves out the last
# entries (the loop after them); arrow rows 2000 and 2003: a row of 4 x 500
# entries, and one of 3 more (eight at a time from 2,000 entries at local
# 64, 16 x 64 x 8 bytes; under that, arrow rows 1000, four at a time)
if mutant short 's/(if \(walk\) \{.*?for \(int q = lid; q < n4)/$1 - LOCAL_SIZE/s' &&
    mutant short8 's/(for \(int q = lid; q < n8)/$1 - LOCAL_SIZE/' &&
    mutant tail 's/(if \(walk\) \{.*?for \(int k = nz0 \+ 4 \* n4 \+ lid; k < nz1)/$1 - 1/s'; then
    for p in s z; do
        rows=2000
        [ $p = z ] && rows=1000
        expect_status "adaptive broken whole row, a sweep short (local 64, $p, $rows) exits 1" 1 "$bin" \
            --gen arrow:rows=$rows --precision $p --kernel adaptive --local-size 64 --kernel-file "$TMP/short.cl" $QUICK
        expect_status "adaptive broken whole row, last entry left out (local 64, $p) exits 1" 1 "$bin" --gen arrow:rows=2003 \
            --precision $p --kernel adaptive --local-size 64 --kernel-file "$TMP/tail.cl" $QUICK
    done
    for p in d z; do
        expect_status "adaptive broken whole row, an eight-entry sweep short (local 64, $p) exits 1" 1 "$bin" \
            --gen arrow:rows=2000 --precision $p --kernel adaptive --local-size 64 --kernel-file "$TMP/short8.cl" $QUICK
    done
    expect_status "adaptive whole row of 4 x 500 + 3 entries (local 64, d) passes" 0 "$bin" --gen arrow:rows=2003 \
        --precision d --kernel adaptive --local-size 64 $QUICK
fi

# ---- oclgrind: both shapes, whole and split rows, real and complex
# (without oclgrind each is a SKIP: tests/lib.sh expect_oclgrind)
for ls in 1 32; do
    expect_oclgrind "adaptive under oclgrind, arrow (s, local $ls)" "--data-races --uninitialized" \
        "$bin" --gen arrow:rows=700 --kernel adaptive --local-size $ls --runs 1 --warmup 0
    expect_oclgrind "adaptive under oclgrind, arrow split (s, local $ls)" "--data-races --uninitialized" \
        "$bin" --gen arrow:rows=700 --kernel adaptive --local-size $ls --split 1 --runs 1 --warmup 0
    expect_oclgrind "adaptive under oclgrind, arrow split, fix-up kernel (s, local $ls)" "--data-races --uninitialized" \
        "$bin" --gen arrow:rows=700 --kernel adaptive --local-size $ls --split 1 --combine fixup --runs 1 --warmup 0
    expect_oclgrind "adaptive under oclgrind, arrow split (d, local $ls)" "--data-races --uninitialized" \
        "$bin" --gen arrow:rows=700 --precision d --kernel adaptive --local-size $ls --split 1 --runs 1 --warmup 0
    expect_oclgrind "adaptive under oclgrind, power-law (d, local $ls)" "--data-races --uninitialized" \
        "$bin" --gen powerlaw:rows=300,mean=20,exp=1.3 --precision d --kernel adaptive --local-size $ls --runs 1 --warmup 0
done
# with 8-byte values a row alone of 16 sweeps or more goes eight entries a
# work-item (WALK_EIGHT): the arrow's 700-entry row at local 32, whole; rows
# alone, more than a wave of them, go coalesced: 40 rows of 600-1,000 at
# local 16
expect_oclgrind "adaptive under oclgrind, arrow whole, eight entries a sweep (d, local 32)" "--data-races --uninitialized" \
    "$bin" --gen arrow:rows=700 --precision d --kernel adaptive --local-size 32 --runs 1 --warmup 0
expect_oclgrind "adaptive under oclgrind, rows alone walked coalesced (d, local 16)" "--data-races --uninitialized" \
    "$bin" --gen uniform:rows=40,cols=2000,min=600,max=1000 --precision d --kernel adaptive --local-size 16 --runs 1 \
    --warmup 0
# and rows the bulk of the work, eight work-items each, two a work-group
expect_oclgrind "adaptive under oclgrind, whole rows eight work-items each (s, local 16)" "--data-races --uninitialized" \
    "$bin" --gen uniform:rows=40,cols=2000,min=100,max=200 --kernel adaptive --local-size 16 --runs 1 --warmup 0
# the counted combine: oclgrind 21.10 is OpenCL 1.2, with no fence of
# device scope, so the host picks another combine there, and skips (status
# 3, saying why) when --combine count is asked for. Its kernel code is
# checked all the same, for bounds and uninitialized values, in a copy
# built in place of the last-chunk word (which oclgrind's device takes),
# its fence OpenCL 1.2's mem_fence; not for races: oclgrind does not know
# that the fence and the count order the last chunk's reads of the other
# chunks' slots after their stores, which is what they are there for
if need_tool "adaptive: --combine count skipped where the device has no fence of device scope (oclgrind)" oclgrind; then
SPMV_PROBE_MB=0 SPMV_DEVICE= _run limited 600 oclgrind "$bin" --gen arrow:rows=300 --kernel adaptive --local-size 32 --split 1 \
    --combine count --runs 1 --warmup 0
[ "$(cat "$TMP/status")" = 3 ] && grep -q 'no fence of device scope' "$TMP/out" "$TMP/err" &&
    pass "adaptive: --combine count skipped where the device has no fence of device scope (oclgrind)" ||
    fail "adaptive: --combine count skipped where the device has no fence of device scope (oclgrind)" \
        "status $(cat "$TMP/status"): $(tail -n 2 "$TMP/err" | tr '\n' ' ')"
fi
if mutant count12 's/#ifdef LAST_CHUNK\n#pragma/#ifdef LAST_CHUNK_UNUSED\n#pragma/; s/#elif defined\(COUNT_CHUNKS\)/#elif defined(LAST_CHUNK)\n#define COUNT_CHUNKS/; s/(#define DEVICE_FENCE\(\)) atomic_work_item_fence\([^\n]*/$1 mem_fence(CLK_GLOBAL_MEM_FENCE)/' &&
    grep -q 'DEVICE_FENCE() mem_fence' "$TMP/count12.cl"; then
    for ls in 1 32; do
        for p in s d; do
            expect_oclgrind "adaptive under oclgrind, counted combine, arrow split ($p, local $ls)" "--uninitialized" \
                "$bin" --gen arrow:rows=700 --precision $p --kernel adaptive --local-size $ls --split 1 --runs 2 \
                --warmup 0 --kernel-file "$TMP/count12.cl"
        done
    done
fi
for p in s d; do
    expect_oclgrind "adaptive under oclgrind, rows of 600-1,000 sharing work-groups ($p, local 64)" \
        "--data-races --uninitialized" "$bin" --gen uniform:rows=40,cols=2000,min=600,max=1000 --precision $p \
        --kernel adaptive --local-size 64 --runs 1 --warmup 0
done
# complex: bounds and races. oclgrind 21.10's --uninitialized reports every
# store of a float2/double2 into the GPU shape's local buffer, even of a
# constant zero (tried: the buffer declared in the kernel or passed by the
# host); the NaN poison of the check catches a row left unwritten.
expect_oclgrind "adaptive under oclgrind, power-law (z, local 1)" "--data-races --uninitialized" \
    "$bin" --gen powerlaw:rows=300,mean=20,exp=1.3 --precision z --kernel adaptive --local-size 1 --runs 1 --warmup 0
expect_oclgrind "adaptive under oclgrind, power-law (z, local 32)" "--data-races" \
    "$bin" --gen powerlaw:rows=300,mean=20,exp=1.3 --precision z --kernel adaptive --local-size 32 --runs 1 --warmup 0
expect_oclgrind "adaptive under oclgrind, young1c (c, local 16)" "--data-races" \
    "$bin" --matrix "$ROOT/tests/data/young1c.mtx" --precision c --kernel adaptive --local-size 16 --runs 1 --warmup 0
# double on a GPU keeps the tree in the products' local memory
# (PARTIAL_IN_PROD), behind one more barrier: a block of a row of 1 entry
# and a row of 60, at local 64, is 32 work-items a row, and the first row's
# idle work-items store their zeros where the second row's products are.
# Clean as it is; without that barrier oclgrind must see the race (PoCL
# runs the work-items in an order that hides it)
awk 'BEGIN { srand(7); n = 0; for (r = 1; r <= 60; r++) { k = r % 3 == 1 ? 1 : r % 3 == 2 ? 60 : 200;
     for (j = 1; j <= k; j++) e[n++] = r " " 2 * j - 1 " " rand() - 0.5 }
     print "%%MatrixMarket matrix coordinate real general"; print 60, 400, n; for (i = 0; i < n; i++) print e[i] }' \
    >"$TMP/mix.mtx"
expect_oclgrind "adaptive under oclgrind, the tree in the products' memory (d, local 64)" "--data-races --uninitialized" \
    "$bin" --matrix "$TMP/mix.mtx" --precision d --kernel adaptive --local-size 64 --runs 1 --warmup 0
if mutant nobar 's/    if \(!walk && t > [^\n]*\n        barrier\(CLK_LOCAL_MEM_FENCE\);\n//'; then
    expect_oclgrind_finds "adaptive: oclgrind sees the race when the tree in the products' memory lacks its barrier" \
        'data race at local memory' --data-races "$bin" --matrix "$TMP/mix.mtx" --precision d --kernel adaptive \
        --local-size 64 --kernel-file "$TMP/nobar.cl" --runs 1 --warmup 0
fi
# and oclgrind does see a bad access: a chunk that reads one past its end
if mutant oob 's|(int n4 = \(nz1 - nz0\) / 4;.*?for \(int k = nz0 \+ 4 \* n4 \+ lid; k )< nz1;|$1<= nz1;|s'; then
    expect_oclgrind_finds "adaptive: oclgrind sees a read past the matrix" '[Ii]nvalid read' "" "$bin" \
        --gen uniform:rows=1,cols=300,min=300,max=300 --kernel adaptive --local-size 32 --split 1 \
        --kernel-file "$TMP/oob.cl" --runs 1 --warmup 0
fi

# ---- the row-length histograms: drawn from small generated matrices without a gnuplot warning
if need_tool "rowlengths: three panels, no warning" gnuplot gnuplot-nox; then
    mkdir -p "$TMP/rl"
    ROWLENGTHS_DAT="$TMP/rl/rl.dat" ROWLENGTHS_SPECS="powerlaw:rows=3000,mean=9 arrow:rows=500 grid:20" \
        _run "$ROOT/plots/rowlengths.sh" "$TMP/rl"
    if [ "$(cat "$TMP/status")" = 0 ] && [ -s "$TMP/rl/fig-rowlengths.png" ] && [ -s "$TMP/rl/fig-rowlengths.svg" ] &&
        ! grep -qi 'warning' "$TMP/err" && [ "$(grep -c '^# ' "$TMP/rl/rl.dat")" = 3 ] &&
        awk '$3 == 1 && $1 == 256 && $2 == 1 { found = 1 } END { exit !found }' "$TMP/rl/rl.dat"; then
        pass "rowlengths: three panels, the arrow's 500-long row in the 256-511 bin, no warning"
    else
        fail "rowlengths: three panels, no warning" "$(tr '\n' ' ' <"$TMP/err")"
    fi
fi
