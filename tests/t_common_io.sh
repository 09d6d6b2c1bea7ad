# tests/t_common_io.sh - the course checked from outside (common/load.c, report.c): --info, the
# matrix, x and y written as Matrix Market files, x read back with --x.
#   the same matrix in two formats gives the same --info numbers;
#   --save-matrix then --matrix of the saved file gives them again, for every
#   shared matrix, also those DIA refuses (the matrix is saved as soon as it is
#   read, before csr_to_dia can refuse it, so step0 saves it and then exits 2);
#   every malformed --x file is one error line, status 2;
#   --save-x then --x gives the same y; steps agree on y within the checker's
#   tolerance (build/tests/mmvec reads the files back, with the course's reader);
#   SciPy reads the files and finds norm(A@x - y)/norm(A@x) small, when it is here.
# chapters: all
source "$(dirname "$0")/lib.sh"
S0=$BUILD/step0 S1=$BUILD/step1 S6=$BUILD/step6 MMVEC=$BUILD/tests/mmvec
D=$ROOT/tests/data
export SPMV_PROBE_MB=${SPMV_PROBE_MB:-16}
Q="--runs 1 --warmup 0"

# info CMD...: run CMD (any status: a refused matrix still prints --info first)
# and print its --info line; empty if there was none.
info() {
    "$@" --info >"$TMP/info_out" 2>"$TMP/info_err" </dev/null
    grep -m1 '^info ' "$TMP/info_out"
}
# numbers LINE [FIRST]: the fields of an --info line from FIRST on (default 3:
# without the file and the format), ' | '-separated
numbers() { printf '%s\n' "$1" | awk -F' [|] ' -v f="${2:-3}" '{ s = $f; for (i = f + 1; i <= NF; i++) s = s " | " $i; print s }'; }

# ---- --info ------------------------------------------------------------------
l=$(info "$S0" --matrix "$D/west0067.mtx" $Q)
if printf '%s\n' "$l" | grep -qE "^info +file $D/west0067.mtx [|] format matrix-market [|] field real [|] symmetry general [|] rows 67 [|] cols 67 [|] stored 294 [|] nonzeros 294 [|] diagonals 70 [|] sum -?[0-9.e+-]+ [|] frobenius [0-9.e+-]+$"; then
    pass "info line of west0067.mtx has every field"
else fail "info line of west0067.mtx has every field" "got '$l'"; fi
# a pattern matrix: every value 1, so the sum is the nonzero count and the norm its square root
l=$(info "$S0" --matrix "$D/can___24.mtx" $Q)
if printf '%s\n' "$l" | grep -qE '[|] field pattern [|] symmetry symmetric, expanded [|] rows 24 [|] cols 24 [|] stored 92 [|] nonzeros 160 [|] diagonals 41 [|] sum 160 [|] frobenius 12.649110640673518$'; then
    pass "info of can___24.mtx: expanded, sum 160, norm sqrt(160)"
else fail "info of can___24.mtx: expanded, sum 160, norm sqrt(160)" "got '$l'"; fi
# the generator: 7x5 grid, radius 1 is the 5-point stencil, 35 + 2*6*5 + 2*7*4 = 151 entries on 5 diagonals
l=$(info "$S0" --grid 7x5 --radius 1 $Q)
if printf '%s\n' "$l" | grep -qE '^info +generator: 7x5 grid, radius 1, seed 1 [|] format generator [|] field real [|] symmetry general [|] rows 35 [|] cols 35 [|] stored 151 [|] nonzeros 151 [|] diagonals 5 [|]'; then
    pass "info of the 7x5 radius-1 grid"
else fail "info of the 7x5 radius-1 grid" "got '$l'"; fi
l1=$(info "$S1" --grid 7x5 --radius 1 $Q)
if [ -n "$l" ] && [ "$l" = "$l1" ]; then pass "info of the grid: step0 and step1 print the same line"
else fail "info of the grid: step0 and step1 print the same line" "step0 '$l', step1 '$l1'"; fi
# complex: the sum's real and imaginary parts apart, the Frobenius norm one
# real number (step0 prints it, then refuses the matrix)
l=$(info "$S0" --matrix "$D/young1c.mtx" $Q)
if printf '%s\n' "$l" | grep -qE '[|] field complex [|] .*[|] sum re -?[0-9.e+-]+ im -?[0-9.e+-]+ [|] frobenius [0-9.e+-]+$' &&
   grep -q 'young1c is complex' "$TMP/info_err"; then
    pass "info of complex young1c.mtx: real and imaginary sums, one norm, then the DIA refusal"
else fail "info of complex young1c.mtx: real and imaginary sums, one norm, then the DIA refusal" "got '$l' $(cat "$TMP/info_err")"; fi
# the norm is sqrt(sum |a_ij|^2): a_11 = 3+4i and 2+3i (a repeated entry,
# summed first: 5+7i) and a_22 = 5i give |5+7i|^2 + |5i|^2 = 74 + 25 = 99;
# the parts' own norms (sqrt 25 = 5, sqrt 74) are not it
printf '%%%%MatrixMarket matrix coordinate complex general\n2 2 3\n1 1 3 4\n1 1 2 3\n2 2 0 5\n' >"$TMP/c.mtx"
l=$(info "$S0" --matrix "$TMP/c.mtx" $Q)
want=$(awk 'BEGIN { printf "%.17g", sqrt(99) }')
if [ "${l##*| frobenius }" = "$want" ]; then pass "info of a complex matrix: the Frobenius norm sqrt(sum |a|^2), one number"
else fail "info of a complex matrix: the Frobenius norm sqrt(sum |a|^2), one number" "want frobenius $want, got '$l'"; fi

# same_info NAME A B: the two files print the same --info numbers, file and format aside
same_info() {
    local name=$1 a b
    a=$(info "$S0" --matrix "$2" $Q)
    b=$(info "$S0" --matrix "$3" $Q)
    if [ -z "$a" ] || [ -z "$b" ]; then fail "$name" "no --info line: '$a' '$b'"
    elif [ "$(numbers "$a")" = "$(numbers "$b")" ]; then pass "$name"
    else fail "$name" "'$(numbers "$a")' vs '$(numbers "$b")'"; fi
}
same_info "info pair west0067 mtx/rua" "$D/west0067.mtx" "$D/west0067.rua"
same_info "info pair can24 mtx/psa" "$D/can___24.mtx" "$D/can_24.psa"
same_info "info pair small mtx/rua" "$D/small.mtx" "$D/small.rua"
same_info "info pair hb_fixed mtx/rsa" "$D/hb_fixed.mtx" "$D/hb_fixed.rsa"
same_info "info pair hb_scale mtx/rua" "$D/hb_scale.mtx" "$D/hb_scale.rua"
same_info "info pair herm3 mtx/cha (complex)" "$D/herm3.mtx" "$D/herm3.cha"
same_info "info pair add32 mtx/rua" "$D/add32.mtx" "$D/add32.rua"
# and two different matrices do not (the comparison can fail)
a=$(info "$S0" --matrix "$D/west0067.mtx" $Q); b=$(info "$S0" --matrix "$D/bfwa62.mtx" $Q)
if [ -n "$a" ] && [ "$(numbers "$a")" != "$(numbers "$b")" ]; then pass "info differs for different matrices"
else fail "info differs for different matrices" "'$a' '$b'"; fi

# ---- --save-matrix round trip ------------------------------------------------
# The saved file is 'coordinate real|complex general': stored and symmetry change
# (it is expanded), so compare from rows on (fields 5..: rows cols stored nonzeros ...)
# without stored, which is the nonzero count in the saved file.
rt_numbers() { numbers "$1" 5 | sed 's/ [|] stored [0-9]*//'; }
round_trip() {
    local f=$1 n; n=$(basename "$f")
    rm -f "$TMP/rt.mtx"
    local a b
    a=$(info "$S0" --matrix "$f" --save-matrix "$TMP/rt.mtx" $Q)
    local st0; st0=$(grep -c . "$TMP/info_err")
    if [ ! -s "$TMP/rt.mtx" ]; then fail "save-matrix round trip $n" "no file: $(cat "$TMP/info_err")"; return; fi
    b=$(info "$S0" --matrix "$TMP/rt.mtx" $Q)
    local want_field=real; printf '%s\n' "$a" | grep -q '[|] field complex [|]' && want_field=complex
    if [ -z "$a" ] || [ -z "$b" ]; then fail "save-matrix round trip $n" "no --info line: '$a' '$b' $(cat "$TMP/info_err")"
    elif [ "$(head -1 "$TMP/rt.mtx")" != "%%MatrixMarket matrix coordinate $want_field general" ]; then
        fail "save-matrix round trip $n" "banner '$(head -1 "$TMP/rt.mtx")'"
    elif [ "$(rt_numbers "$a")" != "$(rt_numbers "$b")" ]; then
        fail "save-matrix round trip $n" "'$(rt_numbers "$a")' vs '$(rt_numbers "$b")'"
    else pass "save-matrix round trip $n${2:-}$([ "$st0" -gt 0 ] && echo ' (DIA refuses it: saved before the refusal)')"; fi
}
# every real matrix (MANIFEST.tsv), and the hand-made complex Hermitian pair
for f in $(tail -n +2 "$D/MANIFEST.tsv" | cut -f1) herm3.cha herm3.mtx; do round_trip "$D/$f"; done
# the grid (single precision weights: %.17g keeps them exactly)
a=$(info "$S0" --grid 13x11 --save-matrix "$TMP/grid.mtx" $Q); b=$(info "$S0" --matrix "$TMP/grid.mtx" $Q)
if [ -n "$a" ] && [ "$(rt_numbers "$a")" = "$(rt_numbers "$b")" ]; then pass "save-matrix round trip of the grid"
else fail "save-matrix round trip of the grid" "'$a' vs '$b'"; fi
"$S0" --matrix "$D/can___24.mtx" --save-matrix "$TMP/can.mtx" $Q >/dev/null 2>&1
if grep -q '^% pattern matrix: written as real, every stored entry 1.0$' "$TMP/can.mtx" &&
   [ "$(awk '!/^%/ && n++ && $3 != 1 { bad = 1 } END { print bad + 0 }' "$TMP/can.mtx")" = 0 ]; then
    pass "a pattern matrix is saved as real 1.0, and says so"
else fail "a pattern matrix is saved as real 1.0, and says so" "$(head -4 "$TMP/can.mtx" | tr '\n' '|')"; fi
# a tampered saved file no longer round-trips (the comparison can fail)
sed '$ s/ [^ ]*$/ 7/' "$TMP/rt.mtx" >"$TMP/rt_bad.mtx"
a=$(info "$S0" --matrix "$TMP/rt.mtx" $Q); b=$(info "$S0" --matrix "$TMP/rt_bad.mtx" $Q)
if [ -n "$b" ] && [ "$(rt_numbers "$a")" != "$(rt_numbers "$b")" ]; then pass "a changed value changes the info numbers"
else fail "a changed value changes the info numbers" "'$a' '$b'"; fi

# ---- --x: malformed files ----------------------------------------------------
W=$D/west0067.mtx
vals() { awk -v n="$1" 'BEGIN { for (i = 1; i <= n; i++) printf "%.6f\n", (i % 13) / 7 - 0.9 }'; }
{ echo '%%MatrixMarket matrix array real general'; echo '% x'; echo '67 1'; vals 67; } >"$TMP/x_ok.mtx"
{ echo '%%MatrixMarket matrix array real general'; echo '66 1'; vals 66; } >"$TMP/x_len.mtx"
{ echo '%%MatrixMarket matrix array real general'; echo '67 1'; vals 66; } >"$TMP/x_few.mtx"
{ echo '%%MatrixMarket matrix array real general'; echo '67 1'; vals 68; } >"$TMP/x_many.mtx"
{ echo '%%MatrixMarket matrix array real general'; echo '67 1'; vals 9; echo '0.5x'; vals 57; } >"$TMP/x_value.mtx"
{ echo '%%MatrixMarket matrix array real general'; echo '67 1'; vals 3; echo '0.5 0.25'; vals 63; } >"$TMP/x_two.mtx"
{ echo '%%MatrixMarket matrix array real general'; echo '67 2'; vals 134; } >"$TMP/x_cols.mtx"
{ echo '%%MatrixMarket matrix array real general'; echo '1 67'; vals 67; } >"$TMP/x_row.mtx"
{ echo '%%MatrixMarket matrix array real general'; echo '67 1 67'; vals 67; } >"$TMP/x_size3.mtx"
{ echo '%%MatrixMarket matrix array real general'; echo '% no size line'; } >"$TMP/x_nosize.mtx"
{ echo '%%MatrixMarket vector array real general'; echo '67 1'; vals 67; } >"$TMP/x_object.mtx"
{ echo 'MatrixMarket matrix array real general'; echo '67 1'; vals 67; } >"$TMP/x_banner.mtx"
{ echo '%%MatrixMarket matrix array pattern general'; echo '67 1'; vals 67; } >"$TMP/x_pattern.mtx"
{ echo '%%MatrixMarket matrix array real symmetric'; echo '67 1'; vals 67; } >"$TMP/x_sym.mtx"
{ echo '%%MatrixMarket matrix array complex general'; echo '67 1'; paste -d' ' <(vals 67) <(vals 67); } >"$TMP/x_complex.mtx"
{ echo '%%MatrixMarket matrix array integer general'; echo '67 1'; vals 67; } >"$TMP/x_int_bad.mtx"
: >"$TMP/x_empty.mtx"
expect_error "--x of the wrong length" "x_len.mtx:2: x has 66 entries but the matrix has 67 columns" "$S1" --matrix "$W" --x "$TMP/x_len.mtx"
expect_error "--x a coordinate file" "west0067.mtx:1: a 'coordinate' (sparse) file; x must be a dense 'array' file" "$S1" --matrix "$W" --x "$W"
expect_error "--x too few values" "x_few.mtx:69: file ends after 66 of the 67 values declared on line 2" "$S1" --matrix "$W" --x "$TMP/x_few.mtx"
expect_error "--x too many values" "x_many.mtx:70: more values than the 67 declared on line 2" "$S1" --matrix "$W" --x "$TMP/x_many.mtx"
expect_error "--x unparsable value" "x_value.mtx:12: value '0.5x' is not a number" "$S1" --matrix "$W" --x "$TMP/x_value.mtx"
expect_error "--x two values on a real line" "x_two.mtx:6: unexpected '0.25' after the value" "$S1" --matrix "$W" --x "$TMP/x_two.mtx"
expect_error "--x with 2 columns" "x_cols.mtx:2: x must be a column vector ('N 1' on the size line), not 67 x 2" "$S1" --matrix "$W" --x "$TMP/x_cols.mtx"
expect_error "--x a row vector" "not 1 x 67: write it as a column" "$S0" --matrix "$W" --x "$TMP/x_row.mtx"
expect_error "--x size line with an entry count" "x_size3.mtx:2: unexpected '67' after the size line" "$S1" --matrix "$W" --x "$TMP/x_size3.mtx"
expect_error "--x missing size line" "x_nosize.mtx:3: file ends before the size line 'N 1'" "$S1" --matrix "$W" --x "$TMP/x_nosize.mtx"
expect_error "--x bad banner object" "x_object.mtx:1: banner object 'vector' is not supported" "$S1" --matrix "$W" --x "$TMP/x_object.mtx"
expect_error "--x no banner" "x_banner.mtx:1: not a Matrix Market banner" "$S0" --matrix "$W" --x "$TMP/x_banner.mtx"
expect_error "--x pattern field" "field 'pattern' is not supported for x" "$S1" --matrix "$W" --x "$TMP/x_pattern.mtx"
expect_error "--x symmetric" "symmetry 'symmetric' is not supported for x" "$S1" --matrix "$W" --x "$TMP/x_sym.mtx"
expect_error "--x complex for a real run" "x_complex.mtx:1: x is complex but this run is real" "$S1" --matrix "$W" --x "$TMP/x_complex.mtx"
expect_error "--x integer field with decimals" "x_int_bad.mtx:3: value '-0.757143' is not an integer" "$S1" --matrix "$W" --x "$TMP/x_int_bad.mtx"
expect_error "--x empty file" "x_empty.mtx:1: empty file" "$S1" --matrix "$W" --x "$TMP/x_empty.mtx"
expect_error "--x missing file" "none.mtx:0: cannot open" "$S1" --matrix "$W" --x "$TMP/none.mtx"
expect_error "--x needs a value" "--x needs a value" "$S1" --matrix "$W" --x
expect_output "--x a good file passes" 'check: PASS' "$S1" --matrix "$W" --x "$TMP/x_ok.mtx" $Q
{ echo '%%MatrixMarket matrix array integer general'; echo '67 1'; awk 'BEGIN { for (i = 1; i <= 67; i++) print i % 5 - 2 }'; } >"$TMP/x_int.mtx"
expect_output "--x an integer file passes" 'check: PASS' "$S0" --matrix "$W" --x "$TMP/x_int.mtx" $Q
expect_error "--save-y into a missing folder" "--save-y: cannot write $TMP/no/y.mtx" "$S1" --grid 8 --save-y "$TMP/no/y.mtx" $Q
expect_error "--save-matrix into a missing folder" "--save-matrix: cannot write $TMP/no/A.mtx" "$S0" --grid 8 --save-matrix "$TMP/no/A.mtx" $Q

# ---- --save-x, --x, --save-y -------------------------------------------------
values() { grep -v '^%' "$1"; }   # the file without its comment lines
"$S1" --matrix "$W" --save-matrix "$TMP/A.mtx" --save-x "$TMP/x1.mtx" --save-y "$TMP/y1.mtx" $Q >"$TMP/out" 2>&1
if [ "$(head -1 "$TMP/x1.mtx")" = '%%MatrixMarket matrix array real general' ] && [ "$(values "$TMP/x1.mtx" | head -1)" = '67 1' ] &&
   [ "$(values "$TMP/x1.mtx" | wc -l)" = 68 ] && [ "$(values "$TMP/y1.mtx" | head -1)" = '67 1' ] && [ "$(values "$TMP/y1.mtx" | wc -l)" = 68 ]; then
    pass "save-x and save-y write 'array real general' files of 67 x 1"
else fail "save-x and save-y write 'array real general' files of 67 x 1" "$(head -3 "$TMP/x1.mtx" "$TMP/y1.mtx" | tr '\n' '|')"; fi
# --seed changes a random x, --x overrides it: same y as the run that saved it
"$S1" --matrix "$W" --seed 2 --save-y "$TMP/y_seed2.mtx" $Q >/dev/null 2>&1
"$S1" --matrix "$W" --seed 2 --x "$TMP/x1.mtx" --save-x "$TMP/x2.mtx" --save-y "$TMP/y2.mtx" $Q >/dev/null 2>&1
if [ -s "$TMP/y2.mtx" ] && [ "$(values "$TMP/y1.mtx")" = "$(values "$TMP/y2.mtx")" ]; then pass "save-x then --x gives the same y (step1)"
else fail "save-x then --x gives the same y (step1)" "$(diff <(values "$TMP/y1.mtx") <(values "$TMP/y2.mtx") | head -3 | tr '\n' ' ')"; fi
if [ -s "$TMP/y_seed2.mtx" ] && [ "$(values "$TMP/y1.mtx")" != "$(values "$TMP/y_seed2.mtx")" ]; then pass "another seed's x gives another y"
else fail "another seed's x gives another y" "same y"; fi
if [ "$(values "$TMP/x1.mtx")" = "$(values "$TMP/x2.mtx")" ]; then pass "an x read with --x saves back to the same file"
else fail "an x read with --x saves back to the same file" "$(diff "$TMP/x1.mtx" "$TMP/x2.mtx" | head -3 | tr '\n' ' ')"; fi
"$S0" --grid 20x9 --save-x "$TMP/gx.mtx" --save-y "$TMP/gy1.mtx" $Q >/dev/null 2>&1
"$S0" --grid 20x9 --x "$TMP/gx.mtx" --save-y "$TMP/gy2.mtx" $Q >/dev/null 2>&1
if [ -s "$TMP/gy2.mtx" ] && [ "$(values "$TMP/gy1.mtx")" = "$(values "$TMP/gy2.mtx")" ]; then pass "save-x then --x gives the same y (step0, grid)"
else fail "save-x then --x gives the same y (step0, grid)" "y files differ"; fi

# y only from a passing run: a broken kernel leaves no file, and removes an old one
printf '%s\n' '__kernel void dia_spmv(__global const float *A, const int pitch, const int rows, const int cols,' \
    '    const int diags, __global const int *offsets, __global const float *x, __global float *y)' \
    '{ int row = get_global_id(0); if (row < rows) y[row] = 1.0f; }' >"$TMP/broken.cl"
echo stale >"$TMP/y_bad.mtx"
expect_status "broken kernel fails its check" 1 "$S1" --matrix "$W" --kernel-file "$TMP/broken.cl" --save-y "$TMP/y_bad.mtx" $Q
if [ ! -e "$TMP/y_bad.mtx" ] && grep -q "the check failed, so y is not written to $TMP/y_bad.mtx (the old file there was removed)" "$TMP/out"; then
    pass "a failed check writes no y, and says so"
else fail "a failed check writes no y, and says so" "$(ls "$TMP/y_bad.mtx" 2>&1) $(grep saved "$TMP/out")"; fi

# ---- the saved files, read back -----------------------------------------------
if [ -x "$MMVEC" ]; then
    expect_output "mmvec: step1's y passes the checker against the saved A and x" 'check PASS' "$MMVEC" check "$TMP/A.mtx" "$TMP/x1.mtx" "$TMP/y1.mtx" s
    expect_status "mmvec: step1's y against the other seed's y fails" 1 "$MMVEC" agree "$TMP/A.mtx" "$TMP/x1.mtx" "$TMP/y1.mtx" "$TMP/y_seed2.mtx" s
    "$S0" --matrix "$D/west0067.rua" --x "$TMP/x1.mtx" --save-y "$TMP/y0.mtx" $Q >/dev/null 2>&1
    expect_output "mmvec: step0 and step1 agree on y within the checker's tolerance" 'agree PASS' "$MMVEC" agree "$TMP/A.mtx" "$TMP/x1.mtx" "$TMP/y0.mtx" "$TMP/y1.mtx" s
    for b in "$BUILD"/step[2-5]; do   # the other DIA chapters write y through spmv_save_y too
        [ -x "$b" ] && want_step "$(basename "$b")" || continue
        s=$(basename "$b"); rm -f "$TMP/y_$s.mtx"
        "$b" --matrix "$W" --x "$TMP/x1.mtx" --save-y "$TMP/y_$s.mtx" $Q >/dev/null 2>&1
        if [ $? = 3 ]; then echo "note: $s skipped on this device"; continue; fi
        expect_output "mmvec: $s and step1 agree on y" 'agree PASS' "$MMVEC" agree "$TMP/A.mtx" "$TMP/x1.mtx" "$TMP/y_$s.mtx" "$TMP/y1.mtx" s
    done
    for v in diag blocked; do   # step0's other loop orders, threaded: another summation order, same answer
        "$S0" --matrix "$W" --x "$TMP/x1.mtx" --kernel "$v" --threads 3 --save-y "$TMP/y0$v.mtx" $Q >/dev/null 2>&1
        expect_output "mmvec: step0 $v (3 threads) and step1 agree on y" 'agree PASS' "$MMVEC" agree "$TMP/A.mtx" "$TMP/x1.mtx" "$TMP/y0$v.mtx" "$TMP/y1.mtx" s
    done
    expect_output "mmvec: norm(A*x - y)/norm(A*x) < 1e-5 for step1's files" 'residual [0-9.]+e-0[6-9]|residual [0-9.]+e-[1-9][0-9]|residual 0 ' "$MMVEC" residual "$TMP/A.mtx" "$TMP/x1.mtx" "$TMP/y1.mtx"
    # one changed value in y is caught
    awk 'NR == 10 { $1 = $1 + 0.01 } { print }' "$TMP/y1.mtx" >"$TMP/y1_bad.mtx"
    expect_status "mmvec: a changed y value fails the check" 1 "$MMVEC" check "$TMP/A.mtx" "$TMP/x1.mtx" "$TMP/y1_bad.mtx" s
    if [ -x "$S6" ]; then
        # step6 (CSR) on the same matrix and x: single, scalar and vector kernels, then double
        for k in scalar vector; do
            "$S6" --matrix "$TMP/A.mtx" --x "$TMP/x1.mtx" --precision s --kernel "$k" --save-y "$TMP/y6$k.mtx" $Q >"$TMP/out6" 2>&1
            expect_output "mmvec: step1 and step6 $k (s) agree on y" 'agree PASS' "$MMVEC" agree "$TMP/A.mtx" "$TMP/x1.mtx" "$TMP/y1.mtx" "$TMP/y6$k.mtx" s
        done
        "$S6" --matrix "$TMP/A.mtx" --x "$TMP/x1.mtx" --precision d --save-y "$TMP/y6d.mtx" $Q >"$TMP/out6" 2>&1
        if grep -q '^skipped' "$TMP/out6"; then echo "note: step6 --precision d skipped on this device"
        else expect_output "mmvec: step6 double y passes the double checker" 'check PASS' "$MMVEC" check "$TMP/A.mtx" "$TMP/x1.mtx" "$TMP/y6d.mtx" d; fi
        # a complex run: a real x gets zero imaginary parts, x and y are saved complex
        "$S6" --matrix "$D/young1c.mtx" --precision z --save-matrix "$TMP/Az.mtx" --save-x "$TMP/xz.mtx" --save-y "$TMP/yz.mtx" $Q >"$TMP/out6" 2>&1
        if grep -q '^skipped' "$TMP/out6"; then echo "note: step6 --precision z skipped on this device"
        else
            expect_output "mmvec: step6 complex y passes the checker" 'check PASS' "$MMVEC" check "$TMP/Az.mtx" "$TMP/xz.mtx" "$TMP/yz.mtx" z
            vals 841 | awk 'BEGIN { print "%%MatrixMarket matrix array real general"; print "841 1" } { print }' >"$TMP/x841.mtx"
            "$S6" --matrix "$D/young1c.mtx" --precision z --x "$TMP/x841.mtx" --save-x "$TMP/xz2.mtx" $Q >/dev/null 2>&1
            if [ "$(head -1 "$TMP/xz2.mtx")" = '%%MatrixMarket matrix array complex general' ] &&
               [ "$(values "$TMP/xz2.mtx" | awk 'NR > 1 && $2 != 0' | wc -l)" = 0 ] && [ "$(values "$TMP/xz2.mtx" | wc -l)" = 842 ]; then
                pass "a real --x in a complex run gets zero imaginary parts"
            else fail "a real --x in a complex run gets zero imaginary parts" "$(head -4 "$TMP/xz2.mtx" | tr '\n' '|')"; fi
        fi
    else
        echo "note: $S6 absent: the step1-against-step6 comparison runs once step6-csr is built"
    fi
else
    fail "mmvec built" "$MMVEC missing (make builds every tests/*.c)"
fi

# ---- SciPy, when it is installed (a SKIP when it is not; .ci/run
# installs Debian's python3-scipy, make test too) --------------------------------
PY=
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import scipy' >/dev/null 2>&1; then PY=$p; break; fi
done
[ -n "$PY" ] || skip "scipy.io.mmread reads A, x, y (and step6's complex ones)" "python3-scipy is not installed (make test installs it: apt-get install python3-scipy)"
if [ -n "$PY" ]; then
    expect_output "scipy.io.mmread reads A, x, y: norm(A@x - y)/norm(A@x) < 1e-5" '^ok ' "$PY" -c '
import sys, numpy as np, scipy.io as sio
A = sio.mmread(sys.argv[1]); x = sio.mmread(sys.argv[2]); y = sio.mmread(sys.argv[3])
assert x.shape == (A.shape[1], 1) and y.shape == (A.shape[0], 1), (A.shape, x.shape, y.shape)
e = np.linalg.norm(A @ x - y) / np.linalg.norm(A @ x)
print("ok" if e < 1e-5 else "bad", e)' "$TMP/A.mtx" "$TMP/x1.mtx" "$TMP/y1.mtx"
    # complex double through step6: young1c (complex general) and cha (Hermitian, expanded)
    if [ -x "$S6" ]; then
        for m in young1c cha; do
            "$S6" --matrix "$ROOT/tests/data/$m.mtx" --precision z --kernel vector --runs 1 --warmup 0 \
                --save-matrix "$TMP/Az.mtx" --save-x "$TMP/xz.mtx" --save-y "$TMP/yz.mtx" >/dev/null 2>&1
            expect_output "scipy reads the complex A, x, y of step6 on $m: relative error < 1e-12" '^ok ' "$PY" -c '
import sys, numpy as np, scipy.io as sio
A = sio.mmread(sys.argv[1]); x = sio.mmread(sys.argv[2]); y = sio.mmread(sys.argv[3])
assert np.iscomplexobj(x) and np.iscomplexobj(y), "not complex"
e = np.linalg.norm(A @ x - y) / np.linalg.norm(A @ x)
print("ok" if e < 1e-12 else "bad", e)' "$TMP/Az.mtx" "$TMP/xz.mtx" "$TMP/yz.mtx"
        done
    fi
fi

# ---- --help ------------------------------------------------------------------
for b in "$S0" "$S1" "$S6"; do
    [ -x "$b" ] || continue
    expect_output "$(basename "$b") --help lists the io flags" '--save-matrix FILE' "$b" --help
    for f in '--info' '--x FILE' '--save-x FILE' '--save-y FILE'; do
        grep -q -- "$f" "$TMP/out" || fail "$(basename "$b") --help lists $f" "missing"
    done
done
