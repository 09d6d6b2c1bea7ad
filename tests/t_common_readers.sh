#!/bin/bash
# t_common_readers.sh - the matrix file readers (common/formats/: mmio.c, hb.c, matrix_read.c) through
# build/tests/readmtx: every real matrix against its MANIFEST row, the pairs of files
# holding the same matrix entry by entry, the symmetry expansions, the Fortran format
# cases, and one malformed file per defect with the message it must give.
#   RESULTS=/tmp/r bash tests/t_common_readers.sh      (READMTX=... to test another build)
# chapters: all
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
READMTX=${READMTX:-$BUILD/tests/readmtx}
D=$ROOT/tests/data

if [ ! -x "$READMTX" ]; then
    fail readers_built "$READMTX missing: build it first (make, or see tests/readmtx.c)"
    exit 0
fi

# same NAME A B: the --dump outputs of two files are identical, byte for byte
same() {
    local name=$1 a=$2 b=$3
    if ! "$READMTX" --dump "$a" >"$TMP/dump_a" 2>"$TMP/err"; then fail "$name" "$a: $(cat "$TMP/err")"; return; fi
    if ! "$READMTX" --dump "$b" >"$TMP/dump_b" 2>"$TMP/err"; then fail "$name" "$b: $(cat "$TMP/err")"; return; fi
    if [ ! -s "$TMP/dump_a" ]; then fail "$name" "empty dump"; return; fi
    if cmp -s "$TMP/dump_a" "$TMP/dump_b"; then pass "$name"
    else fail "$name" "dumps differ: $(diff "$TMP/dump_a" "$TMP/dump_b" | head -n 3 | tr '\n' ' ')"; fi
}

# dump_is NAME FILE EXPECTED: the --dump output equals the expected text exactly
dump_is() {
    local name=$1 file=$2 want=$3
    if ! "$READMTX" --dump "$file" >"$TMP/dump" 2>"$TMP/err"; then fail "$name" "$(cat "$TMP/err")"; return; fi
    if [ "$(cat "$TMP/dump")" = "$want" ]; then pass "$name"
    else fail "$name" "got: $(tr '\n' '|' <"$TMP/dump")"; fi
}

# ---- the real matrices in tests/data, against MANIFEST.tsv -------------------
while IFS=$'\t' read -r file repo path commit format field symmetry rows cols stored notes; do
    [ "$file" = file ] && continue
    f=$D/$file
    nnz=$stored
    expanded=0
    if [ "$symmetry" != general ]; then
        expanded=1
        nnz=$(printf '%s\n' "$notes" | sed -n 's/.* \([0-9][0-9]*\) nonzeros when expanded.*/\1/p')
        [ -n "$nnz" ] || nnz='[0-9]+'
    fi
    expect_output "manifest_$file" "^rows $rows cols $cols nnz $nnz stored $stored field $field symmetry $symmetry expanded $expanded " "$READMTX" "$f"
done <"$D/MANIFEST.tsv"
# every matrix file in tests/data is either a real one (a MANIFEST row) or a
# hand-made one (named in SOURCES.md's table of them)
unlisted=""
for f in "$D"/*.mtx "$D"/*.r?a "$D"/*.psa "$D"/*.cua "$D"/*.cha; do
    b=$(basename "$f")
    cut -f1 "$D/MANIFEST.tsv" | grep -qxF "$b" && continue
    sed -n '/^## Hand-made/,$p' "$D/SOURCES.md" | grep -qF "${b%.*}." || unlisted="$unlisted $b"
done
if [ -z "$unlisted" ]; then pass manifest_covers_every_file
else fail manifest_covers_every_file "in neither MANIFEST.tsv nor SOURCES.md:$unlisted"; fi

# The pairs are identical to the last bit: add32.rua's E26.18 text and add32.mtx's
# 16-digit text round to the same doubles, so no tolerance is needed.
same pair_west0067 "$D/west0067.mtx" "$D/west0067.rua"
same pair_can24 "$D/can___24.mtx" "$D/can_24.psa"
same pair_add32 "$D/add32.mtx" "$D/add32.rua"

# symmetric: expanded = 2 * stored - diagonal, the diagonal counted in the file itself
for m in 494_bus.mtx 1138_bus.mtx bcsstk13.mtx bcsstk33.mtx can___24.mtx; do
    read -r stored diag < <(awk '/^%/ || NF == 0 {next} !size {size = 1; s = $3; next} $1 == $2 {d++} END {print s, d + 0}' "$D/$m")
    expect_output "expansion_count_$m" "nnz $((2 * stored - diag)) stored $stored " "$READMTX" "$D/$m"
done
# the same count for the Harwell-Boeing symmetric files, the diagonal taken from the dump
for m in bcsstk01.rsa can_24.psa; do
    "$READMTX" --dump "$D/$m" >"$TMP/dump" 2>/dev/null
    diag=$(awk '$1 == $2' "$TMP/dump" | wc -l)
    stored=$(awk -F'\t' -v f="$m" '$1 == f {print $10}' "$D/MANIFEST.tsv")
    expect_output "expansion_count_$m" "nnz $((2 * stored - diag)) stored $stored " "$READMTX" "$D/$m"
done
# a symmetric expansion mirrors: entry (i,j) and (j,i) both present with the same value
"$READMTX" --dump "$D/494_bus.mtx" >"$TMP/dump" 2>/dev/null
if [ -s "$TMP/dump" ] && [ -z "$(awk '{k = $1 " " $2; v[k] = $3} END {for (k in v) {split(k, p, " "); if (v[p[2] " " p[1]] != v[k]) print k}}' "$TMP/dump")" ]; then
    pass expansion_mirrors_494_bus
else fail expansion_mirrors_494_bus "some (i,j) lacks an equal (j,i)"; fi
# qc324.cua: complex HB, (3D22.16) fields touching with no blank and no leading zero
# ("0.3907880596378435D+00-.5085988217165716D-01"); A(1,1) as printed on line 1697
expect_output qc324_first_entry '^0 0 0\.390788059637843[0-9]* -0\.0508598821716571[0-9]*$' "$READMTX" --dump "$D/qc324.cua"

# ---- the small copies in tests/data -----------------------------------------
expect_output data_west0067_rua '^rows 67 cols 67 nnz 294 stored 294 field real symmetry general expanded 0 ' "$READMTX" "$D/west0067.rua"
expect_output data_bcsstk01 '^rows 48 cols 48 nnz 400 stored 224 field real symmetry symmetric expanded 1 ' "$READMTX" "$D/bcsstk01.rsa"
expect_output data_fs_183_6 '^rows 183 cols 183 nnz 1069 stored 1069 field real symmetry general ' "$READMTX" "$D/fs_183_6.rua"
expect_output data_lp_afiro_rectangular '^rows 27 cols 51 nnz 102 ' "$READMTX" "$D/lp_afiro.mtx"
expect_output data_young1c_complex '^rows 841 cols 841 nnz 4089 stored 4089 field complex symmetry general expanded 0 sum_re [-0-9.e+]+ sum_im -6076\.98' "$READMTX" "$D/young1c.mtx"
# cha.mtx (CHOLMOD's test file) declares Hermitian but stores A(2,2) = 1.7073 - 1i.
# Like SciPy's and Octave's mmread, the diagonal is kept as stored; the strict
# triangle is mirrored with conjugates.
dump_is data_cha_hermitian_expanded "$D/cha.mtx" "$(cat <<'EOD'
0 0 0.30174595229952927 0
0 1 1.5579100867466829 -0.4760037225690294
0 2 0.87492545021577395 -0.12614853881500188
1 0 1.5579100867466829 0.4760037225690294
1 1 1.7073102613255353 -1
1 2 1.4933320877092915 0.38591964751479341
2 0 0.87492545021577395 0.12614853881500188
2 1 1.4933320877092915 -0.38591964751479341
2 2 1.6432583214706855 0
EOD
)"
same data_pair_west0067 "$D/west0067.mtx" "$D/west0067.rua"
same data_pair_can24 "$D/can___24.mtx" "$D/can_24.psa"
same data_pair_small "$D/small.mtx" "$D/small.rua"

# Hermitian: a_ji = conj(a_ij), by hand from herm3.mtx (0-based dump)
dump_is hermitian_expansion "$D/herm3.mtx" "0 0 2 0
0 1 1 -0.5
0 2 -1 2
1 0 1 0.5
1 1 3 0
2 0 -1 -2
2 2 4 0"
same hermitian_hb_equals_mm "$D/herm3.mtx" "$D/herm3.cha"
expect_output hermitian_banner_case '^rows 3 cols 3 nnz 7 stored 5 field complex symmetry hermitian expanded 1 ' "$READMTX" "$D/herm3.mtx"
dump_is skew_expansion "$D/skew3.mtx" "0 1 -1.5 0
1 0 1.5 0
1 2 2 0
2 1 -2 0"
dump_is integer_upper_crlf "$D/int_upper_crlf.mtx" "0 0 7 0
0 2 -4 0
1 2 5 0
2 0 -4 0
2 1 5 0"
expect_output integer_field '^rows 3 cols 3 nnz 5 stored 3 field integer symmetry symmetric expanded 1 ' "$READMTX" "$D/int_upper_crlf.mtx"

# Fortran formats: each .rua/.rsa against a Matrix Market twin written by hand
same hb_scale_factor "$D/hb_scale.mtx" "$D/hb_scale.rua"
same hb_touching_lowercase_g "$D/hb_touch.mtx" "$D/hb_touch.rua"
same hb_fixed_1p_no_comma "$D/hb_fixed.mtx" "$D/hb_fixed.rsa"

# Dispatch by content: a Harwell-Boeing file and a Matrix Market file without extension
cp "$D/small.rua" "$TMP/small_noext"
expect_output dispatch_hb_by_content '^rows 5 cols 5 nnz 8 ' "$READMTX" "$TMP/small_noext"
cp "$D/herm3.mtx" "$TMP/herm3.dat"
expect_output dispatch_mm_by_content '^rows 3 cols 3 nnz 7 ' "$READMTX" "$TMP/herm3.dat"

# ---- malformed files: status 2, one line, the specific message ---------------
B=$D/bad
bad() { expect_error "bad_$1" "$2" "$READMTX" "$B/$1"; }
# Matrix Market, real / integer / pattern
bad empty.mtx 'empty.mtx:1: empty file'
bad banner_only.mtx 'banner_only.mtx:2: file ends before the size line'
bad bad_banner.mtx 'bad_banner.mtx:1: not a Matrix Market banner'
bad banner_extra.mtx "banner_extra.mtx:1: unexpected 'extra' after the symmetry"
bad array.mtx "array.mtx:1: 'array' (dense) format is not supported"
bad unknown_field.mtx "unknown_field.mtx:1: field 'double' is not supported (supported: real, integer, pattern, complex)"
bad unknown_symmetry.mtx "unknown_symmetry.mtx:1: symmetry 'symmetrical' is not supported"
bad hermitian_real.mtx 'hermitian_real.mtx:1: hermitian symmetry needs the complex field'
bad missing_size.mtx "missing_size.mtx:3: entry count '1.0' in the size line is not an integer"
bad size_short.mtx 'size_short.mtx:2: size line lacks the entry count'
bad negative_size.mtx 'negative_size.mtx:2: negative row count -5'
bad nonnumeric_size.mtx "nonnumeric_size.mtx:2: column count 'five' in the size line is not an integer"
bad size_garbage.mtx "size_garbage.mtx:2: unexpected 'x' after the size line"
bad size_overflow.mtx 'size_overflow.mtx:2: entry count 99999999999999999999 in the size line is too large'
bad huge_rows.mtx 'huge_rows.mtx:2: 3000000000 x 5 matrix: rows and columns are limited to 2147483646'
bad nnz_over_area.mtx 'nnz_over_area.mtx:2: 10 entries declared, more than rows*cols of a 3 x 3 matrix holds (9) and more than the rest of the file can hold (8 bytes'
# More entries than rows*cols are read when the file holds them (repeated
# entries, summed): GraphBLAS's test files, 3 x 1 with 4 entries. A count
# the rest of the file has no room for is refused from the header; one it
# has room for, but not the lines, where the file ends.
printf '%%%%MatrixMarket matrix coordinate real general\n3 1 4\n1 1 1\n2 1 2\n3 1 3\n1 1 4\n' >"$TMP/repeated.mtx"
dump_is repeated_over_area "$TMP/repeated.mtx" "$(printf '0 0 1 0\n0 0 4 0\n1 0 2 0\n2 0 3 0')"
printf '%%%%MatrixMarket matrix coordinate real general\n3 1 5\n1 1 1.0\n2 1 2.0\n3 1 3.0\n1 1 4.0\n' >"$TMP/repeated5.mtx"
expect_error repeated_over_area_truncated 'repeated5.mtx:7: file ends after 4 of the 5 entries' "$READMTX" "$TMP/repeated5.mtx"
sed '2s/3 1 4/3 1 6/' "$TMP/repeated.mtx" >"$TMP/repeated6.mtx"
expect_error repeated_over_file 'repeated6.mtx:2: 6 entries declared, more than rows*cols of a 3 x 1 matrix holds (3) and more than the rest of the file can hold (24 bytes: room for 4 entry lines of 6 bytes or more)' "$READMTX" "$TMP/repeated6.mtx"
bad truncated.mtx 'truncated.mtx:7: file ends after 3 of the 5 entries declared on line 3'
bad truncated_midline.mtx 'truncated_midline.mtx:4: missing value'
bad too_many.mtx 'too_many.mtx:6: more entries than the 2 declared on line 2'
bad row_zero.mtx 'row_zero.mtx:4: row index 0 out of range 1..5'
bad col_big.mtx 'col_big.mtx:4: column index 7 out of range 1..5'
bad index_not_int.mtx "index_not_int.mtx:4: row index '1.5' is not an integer"
bad bad_value.mtx "bad_value.mtx:4: value '1.2.3' is not a number"
bad missing_value.mtx 'missing_value.mtx:4: missing value'
bad nan_value.mtx "nan_value.mtx:4: value 'nan' is not a number"
bad overflow_value.mtx 'overflow_value.mtx:4: value 1e999 is out of the range of a double'
bad trailing_garbage.mtx "trailing_garbage.mtx:4: unexpected 'x' after the entry"
bad int_not_int.mtx "int_not_int.mtx:4: value '2.5' is not an integer (field is integer)"
bad pattern_value.mtx "pattern_value.mtx:4: unexpected '3.0' after the entry (a pattern entry is 'row col')"
bad pattern_skew.mtx 'pattern_skew.mtx:1: pattern skew-symmetric is not a valid combination'
bad sym_nonsquare.mtx 'sym_nonsquare.mtx:2: a symmetric matrix must be square, this one is 4 x 5'
bad sym_over_triangle.mtx 'sym_over_triangle.mtx:2: 7 entries declared, more than one triangle with its diagonal of a 3 x 3 matrix holds (6) and more than the rest of the file can hold'
bad sym_both_triangles.mtx 'sym_both_triangles.mtx:5: entry (1,3) is above the diagonal but line 3 has one below it'
bad skew_diag.mtx 'skew_diag.mtx:4: diagonal entry (2,2) in a skew-symmetric matrix'
# absurd declared sizes are refused before allocating, and at once: under 2 s
# of CPU time and 200 MB resident (the work done, which a busy machine does
# not change, not the wall clock's time)
bad absurd.mtx 'absurd.mtx:2: 2000000000 x 2000000000 matrix with 4000000000000000000 entries declared: 4000000000000000000 nonzeros: the kernels index with int'
bad absurd_memory.mtx 'absurd_memory.mtx:2: 2000000000 x 2000000000 matrix with 400000000000 entries declared: 400000000000 nonzeros: the kernels index with int'
if need_tool bad_absurd_is_quick /usr/bin/time time; then
    slow=""
    for f in absurd.mtx absurd_memory.mtx; do
        /usr/bin/time -f '%U %S %M' -o "$TMP/tv" "$READMTX" "$B/$f" >/dev/null 2>&1 </dev/null
        read -r u s kb < <(tail -n 1 "$TMP/tv")
        awk -v u="$u" -v s="$s" -v kb="$kb" 'BEGIN { exit !(u + s < 2 && kb < 204800) }' || slow="$slow $f: $u s user, $s s system, $kb KB;"
    done
    if [ -z "$slow" ]; then pass bad_absurd_is_quick; else fail bad_absurd_is_quick "$slow"; fi
fi
# Matrix Market, complex
bad complex_missing_imag.mtx 'complex_missing_imag.mtx:4: complex entry lacks its imaginary part'
bad complex_bad_imag.mtx "complex_bad_imag.mtx:4: imaginary part 'i' is not a number"
bad complex_bad_real.mtx "complex_bad_real.mtx:3: real part '1,0' is not a number"
bad complex_trailing.mtx "complex_trailing.mtx:3: unexpected '0.25' after the entry"
bad complex_truncated.mtx 'complex_truncated.mtx:5: file ends after 2 of the 3 entries'
# Harwell-Boeing
bad hb_empty.rua 'hb_empty.rua:1: empty file (expected a Harwell-Boeing header)'
bad hb_truncated_header.rua 'hb_truncated_header.rua:3: file ends in the header: line 3 (the type and size line) is missing'
bad hb_bad_type.rua "hb_bad_type.rua:3: type code 'XUA' is not a Harwell-Boeing type"
bad hb_elemental.rue "hb_elemental.rue:3: elemental (unassembled) matrix, type 'RUE', is not supported"
bad hb_nonnumeric_header.rua "hb_nonnumeric_header.rua:3: NROW '           abc' (columns 15-28) is not an integer"
bad hb_negative_header.rua 'hb_negative_header.rua:3: NROW is negative (-5)'
bad hb_bad_ptrfmt.rua "hb_bad_ptrfmt.rua:4: PTRFMT '6I5)            ' (columns 1-16) is not a format this reader handles: does not start with '('"
bad hb_ptrfmt_nowidth.rua 'hb_ptrfmt_nowidth.rua:4: PTRFMT '"'(6I)            '"' (columns 1-16) is not a format this reader handles: descriptor lacks a width'
bad hb_ptrfmt_real.rua 'hb_ptrfmt_real.rua:4: PTRFMT (6E5.1) must be an integer format'
bad hb_unsupported_desc.rua "hb_unsupported_desc.rua:4: VALFMT '(4A12)' (columns 33-52) is not a format this reader handles: unsupported edit descriptor"
bad hb_nested_fmt.rua "hb_nested_fmt.rua:4: VALFMT '(4(E12.4))' (columns 33-52) is not a format this reader handles"
bad hb_ptr_start.rua 'hb_ptr_start.rua:5: first column pointer is 2, must be 1'
bad hb_ptr_decrease.rua 'hb_ptr_decrease.rua:5: column pointer 3 (2) is less than the one before (3)'
bad hb_ptr_end.rua 'hb_ptr_end.rua:5: last column pointer is 8, must be NNZERO+1 = 9'
bad hb_index_range.rua 'hb_index_range.rua:6: row index 9 out of range 1..5 (column 3)'
bad hb_index_zero.rua 'hb_index_zero.rua:6: row index 0 out of range 1..5'
bad hb_bad_index.rua "hb_bad_index.rua:6: row index '    x' (columns 21-25, format (8I5)) is not an integer"
bad hb_truncated_indices.rua 'hb_truncated_indices.rua:6: file ends in the row index section after 0 of its 1 cards'
bad hb_truncated_values.rua 'hb_truncated_values.rua:8: file ends in the value section after 1 of its 2 cards'
bad hb_bad_number.rua "hb_bad_number.rua:7: value '     3.0X+00' (columns 25-36, format (4E12.4)) is not a number"
bad hb_blank_value.rua 'hb_blank_value.rua:7: value '"'            '"' (columns 25-36, format (4E12.4)) is blank'
bad hb_short_card.rua 'hb_short_card.rua:7: card ends before field 4 (columns 37-48) of format (4E12.4)'
bad hb_totcrd.rua 'hb_totcrd.rua:2: TOTCRD is 5 but PTRCRD+INDCRD+VALCRD+RHSCRD = 4'
bad hb_ptrcrd.rua 'hb_ptrcrd.rua:2: PTRCRD is 2 but 6 column pointers in format (6I5) take 1 cards'
bad hb_valcrd.rua 'hb_valcrd.rua:2: VALCRD is 1 but 8 values in format (4E12.4) take 2 cards'
bad hb_no_values.rua 'hb_no_values.rua:2: VALCRD is 0: type RUA needs a value section'
bad hb_pattern_values.psa 'hb_pattern_values.psa:2: VALCRD is 2 but a pattern matrix (type PUA) has no values'
bad hb_hermitian_real.rha "hb_hermitian_real.rha:3: type 'RHA': Hermitian needs complex values"
bad hb_sym_nonsquare.rsa 'hb_sym_nonsquare.rsa:3: a symmetric matrix must be square, this one is 5 x 6'
bad hb_sym_both.rsa 'hb_sym_both.rsa:6: entry (1,3) is above the diagonal'
bad hb_skew_diag.rza 'hb_skew_diag.rza:6: diagonal entry (2,2) in a skew-symmetric matrix'
bad hb_rhs_truncated.rua 'hb_rhs_truncated.rua:11: file ends in the right-hand-side section after 1 of its 2 cards'
bad hb_extra_cards.rua 'hb_extra_cards.rua:9: more cards than the header declares'
bad hb_complex_truncated.cua 'hb_complex_truncated.cua:9: file ends in the value section after 2 of its 3 cards'

# ---- files that are not matrix files at all ----------------------------------
{ printf '%%%%MatrixMarket matrix coordinate real general\n%% '; head -c 2100000 /dev/zero | tr '\0' x; printf '\n3 3 1\n1 1 1\n'; } >"$TMP/overlong.mtx"
expect_error overlong_line 'overlong.mtx:2: line longer than 1048576 bytes' "$READMTX" "$TMP/overlong.mtx"
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1\0001.0\n' >"$TMP/nul.mtx"
expect_error nul_bytes 'nul.mtx:3: NUL byte in the text' "$READMTX" "$TMP/nul.mtx"
# binary junk (fixed bytes, so the test is the same everywhere), with and without extension
awk 'BEGIN {srand(7); for (i = 0; i < 3000; i++) printf "%c", 1 + int(rand() * 254)}' >"$TMP/junk.bin" 2>/dev/null
expect_error binary_junk_noext 'junk.bin:1: neither a Matrix Market file' "$READMTX" "$TMP/junk.bin"
cp "$TMP/junk.bin" "$TMP/junk.mtx"
expect_error binary_junk_mtx 'junk.mtx:1: not a Matrix Market banner' "$READMTX" "$TMP/junk.mtx"
cp "$TMP/junk.bin" "$TMP/junk.rua"
expect_error binary_junk_rua 'junk.rua:' "$READMTX" "$TMP/junk.rua"
printf '\037\213\010\000junk' >"$TMP/m.mtx.gz"
expect_error gzip_file 'm.mtx.gz:1: gzip-compressed file; decompress it first' "$READMTX" "$TMP/m.mtx.gz"
printf 'hello\nworld\n' >"$TMP/hello.txt"
expect_error neither_format 'hello.txt:1: neither a Matrix Market file' "$READMTX" "$TMP/hello.txt"
: >"$TMP/empty.dat"
expect_error empty_no_extension 'empty.dat:1: empty file: neither Matrix Market nor Harwell-Boeing' "$READMTX" "$TMP/empty.dat"
expect_error missing_file 'no_such_file.mtx:0: cannot open: No such file or directory' "$READMTX" "$TMP/no_such_file.mtx"
expect_error directory 'read error: Is a directory' "$READMTX" "$TMP"
expect_status readmtx_usage 2 "$READMTX"
