# tests/t_step6_doc.sh - chapter 6 and its tuning record speak from committed
# data: their generated blocks are up to date (plots/blocks.sh --check), a
# number edited by hand inside a block is caught, and each block script's
# table follows the data it reads (one gflops value changed in a copy of a
# CSV changes the table); the chapter (at most 450 lines) and the tuning
# record (at most 500) keep their shape, link each other, and hold no
# word of how it was written and no commit hash outside the generated blocks. No OpenCL.
# chapters: 6
source "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 2
CH=step6-csr/README.md
TU=step6-csr/adaptive/TUNING.md
B=plots/blocks

# ---- the blocks are fresh ----
TV=step6-csr/TUNING.md   # the vector kernel's record
if out=$(plots/blocks.sh --check "$CH" "$TU" "$TV" 2>&1); then pass "step6doc: the blocks of the chapter and TUNING.md match the committed data"
else fail "step6doc: the blocks of the chapter and TUNING.md match the committed data" "$(echo "$out" | head -n 8 | tr '\n' '|')"; fi

# ---- a number edited by hand inside a block is stale ----
# the first GFLOP/s cell of the chapter's first table, 1 added to its first digit's place
cp "$CH" "$TMP/chapter.md"
awk 'BEGIN { done = 0 } /^<!-- block:step6-devices/ { inb = 1 } /^<!-- block:end -->/ { inb = 0 }
     inb && !done && /^\| grid/ { n = split($0, c, "|"); v = c[6]; sub(/^ */, "", v); split(v, w, " ")
        nv = sprintf("%.2f", w[1] + 1); sub(w[1], nv, $0); done = 1 } { print }' "$CH" >"$TMP/chapter.md"
if cmp -s "$CH" "$TMP/chapter.md"; then fail "step6doc: a hand-edited number in a block is caught" "could not edit a number in $CH"
else
    plots/blocks.sh --check "$TMP/chapter.md" >"$TMP/stale.out" 2>&1
    st=$?
    if [ $st = 1 ] && grep -q 'is stale' "$TMP/stale.out"; then pass "step6doc: a hand-edited number in a block is caught (status 1, stale)"
    else fail "step6doc: a hand-edited number in a block is caught" "status $st: $(head -n 3 "$TMP/stale.out" | tr '\n' '|')"; fi
fi

# ---- every block script follows its data ----
# bump FILE OUT KERNEL MATRIX PREC: a copy of FILE with the gflops of the first
# matching row (by column names, not positions) set to 12345.6
bump() {
    awk -F, -v OFS=, -v k="$3" -v m="$4" -v p="$5" '
        FNR == 1 { for (i = 1; i <= NF; i++) C[$i] = i; print; next }
        !done && $C["kernel"] == k && $C["matrix"] == m && $C["precision"] == p { $C["gflops"] = 12345.6; done = 1 }
        { print }' "$1" >"$2"
}
changed() { # NAME CMD-BEFORE-OUT CMD-AFTER-OUT
    if cmp -s "$2" "$3"; then fail "$1" "the table did not change"
    elif grep -q '12345' "$3" && ! grep -q '12345' "$2"; then pass "$1"
    else fail "$1" "the changed value is not in the table: $(diff "$2" "$3" | head -n 4 | tr '\n' '|')"; fi
}
mkdir -p "$TMP/data" "$TMP/irr"
slug=pthread-skylake-avx512-amd-epyc
cp "plots/irregular/$slug.csv" "$TMP/irr/"
# the data sweep: which git_rev is latest decides the rows; bump one of each of its rows
rev=$(awk -F, "$BY_NAME"' col("step") == "step6" { if (col("date") > d) { d = col("date"); r = col("git_rev") } } END { print r }' "plots/data/$slug.csv")
awk -F, -v OFS=, -v r="$rev" 'FNR == 1 { for (i = 1; i <= NF; i++) C[$i] = i; print; next }
    $C["git_rev"] == r && $C["kernel"] == "scalar" && $C["matrix"] == "bcsstk13" && $C["precision"] == "d" { $C["gflops"] = 12345.6 } { print }' \
    "plots/data/$slug.csv" >"$TMP/data/$slug.csv"
STEP6_DATA=plots/data STEP6_IRREGULAR="$TMP/irr" bash $B/step6-devices.sh $slug bcsstk13 >"$TMP/dev.before" 2>&1
STEP6_DATA="$TMP/data" STEP6_IRREGULAR="$TMP/irr" bash $B/step6-devices.sh $slug bcsstk13 >"$TMP/dev.after" 2>&1
changed "step6doc: step6-devices.sh follows plots/data (bcsstk13 d scalar)" "$TMP/dev.before" "$TMP/dev.after"
# ... and leaves the short-row sweep (SLUG-short-rows.csv, step6-short.sh's) out of it
cp "plots/irregular/$slug-short-rows.csv" "$TMP/irr/"
STEP6_DATA=plots/data STEP6_IRREGULAR="$TMP/irr" bash $B/step6-devices.sh $slug bcsstk13 >"$TMP/dev.short" 2>&1
cmp -s "$TMP/dev.before" "$TMP/dev.short" && pass "step6doc: step6-devices.sh leaves the short-row sweep out" \
    || fail "step6doc: step6-devices.sh leaves the short-row sweep out" "$(diff "$TMP/dev.before" "$TMP/dev.short" | head -n 3 | tr '\n' '|')"
# ... and the % of the bound moves with it
grep -q '^| bcsstk13 | d |.*12345.6 (' "$TMP/dev.after" && pass "step6doc: step6-devices.sh prints the changed GFLOP/s with its % of the bound" \
    || fail "step6doc: step6-devices.sh prints the changed GFLOP/s with its % of the bound" "$(grep bcsstk13 "$TMP/dev.after" | head -n 2 | tr '\n' '|')"

g=plots/irregular/nvidia-h100-80gb-hbm3-gputime.csv
lastrev=$(awk -F, "$BY_NAME"' col("kernel") == "adaptive" { if (col("date") > d) { d = col("date"); r = col("git_rev") } } END { print r }' "$g")
awk -F, -v OFS=, -v r="$lastrev" 'FNR == 1 { for (i = 1; i <= NF; i++) C[$i] = i; print; next }
    $C["git_rev"] == r && $C["kernel"] == "adaptive" && $C["matrix"] ~ /^arrow/ && $C["precision"] == "s" { $C["gflops"] = 12345.6 } { print }' "$g" >"$TMP/gputime.csv"
bash $B/step6-vs.sh "$g" p=s >"$TMP/vs.before" 2>&1
bash $B/step6-vs.sh "$TMP/gputime.csv" p=s >"$TMP/vs.after" 2>&1
changed "step6doc: step6-vs.sh follows its CSV (the arrow in float)" "$TMP/vs.before" "$TMP/vs.after"
grep -q '^| arrow[^|]* | s | adaptive | 12345.6 |.* | ahead |' "$TMP/vs.after" \
    && pass "step6doc: step6-vs.sh's verdict follows the ratio (a faster arrow is ahead)" \
    || fail "step6doc: step6-vs.sh's verdict follows the ratio (a faster arrow is ahead)" "$(grep arrow "$TMP/vs.after" | tr '\n' '|')"
grep -q "git_rev $lastrev" "$TMP/vs.after" && pass "step6doc: the provenance line names the rows' git_rev" \
    || fail "step6doc: the provenance line names the rows' git_rev" "$(tail -n 1 "$TMP/vs.after" | cut -c1-200)"

w=plots/irregular/nvidia-h100-80gb-hbm3-walk4.csv
bump "$w" "$TMP/walk4.csv" adaptive-walk4-share2 powerlaw65536-m188-e1.6-s1 d
args="cols=adaptive-walk4-share4@bd4e09d+dirty=share_4,adaptive-walk4-share2@bd4e09d+dirty=share_2 m=powerlaw65536"
bash $B/step6-pivot.sh "$w" $args >"$TMP/pv.before" 2>&1
bash $B/step6-pivot.sh "$TMP/walk4.csv" $args >"$TMP/pv.after" 2>&1
changed "step6doc: step6-pivot.sh follows its CSV (one round of a share-2 run)" "$TMP/pv.before" "$TMP/pv.after"

# the short-row table: every round of the adaptive kernel at mean 2.5 in float
# made 12345.6 makes it the fastest there, and the compact table names it
sh=plots/irregular/nvidia-h100-80gb-hbm3-short-rows.csv
awk -F, -v OFS=, 'FNR == 1 { for (i = 1; i <= NF; i++) C[$i] = i; print; next }
    $C["kernel"] == "adaptive" && $C["matrix"] ~ /-m2\.5-/ && $C["precision"] == "s" { $C["gflops"] = 12345.6 } { print }' \
    "$sh" >"$TMP/short.csv"
bash $B/step6-short.sh "$sh" p=s >"$TMP/sh.before" 2>&1
bash $B/step6-short.sh "$TMP/short.csv" p=s >"$TMP/sh.after" 2>&1
changed "step6doc: step6-short.sh follows its CSV (adaptive at mean 2.5, float)" "$TMP/sh.before" "$TMP/sh.after"
grep -q '^| 2\.50 | s | 0\.0[0-9] |.* adaptive 12345\.6 |$' "$TMP/sh.after" \
    && pass "step6doc: step6-short.sh names the fastest and scales the others to it" \
    || fail "step6doc: step6-short.sh names the fastest and scales the others to it" "$(grep '^| 2.50 | s' "$TMP/sh.after")"
bash $B/step6-short.sh "$TMP/short.csv" p=s compact=1 >"$TMP/shc.after" 2>&1
grep -q '^| H100 float | scalar | scalar | scalar | scalar | scalar | adaptive | scalar |' "$TMP/shc.after" \
    && pass "step6doc: step6-short.sh compact=1 lists the kernels within 5% (adaptive alone at 2.5)" \
    || fail "step6doc: step6-short.sh compact=1 lists the kernels within 5% (adaptive alone at 2.5)" "$(grep H100 "$TMP/shc.after")"

# bad arguments: one line, status 2
bash $B/step6-pivot.sh "$w" cols=nosuch@0000000 >"$TMP/out" 2>"$TMP/err"; st=$?
[ $st = 2 ] && [ "$(wc -l <"$TMP/err")" = 1 ] && pass "step6doc: a pivot of no rows is one line on stderr, status 2" \
    || fail "step6doc: a pivot of no rows is one line on stderr, status 2" "status $st: $(head -c 200 "$TMP/err")"

# ---- the shape ----
n=$(wc -l <"$CH"); m=$(wc -l <"$TU")
[ "$n" -le 450 ] && pass "step6doc: the chapter is at most 450 lines ($n)" || fail "step6doc: the chapter is at most 450 lines" "$n"
[ "$m" -le 500 ] && pass "step6doc: TUNING.md is at most 500 lines ($m)" || fail "step6doc: TUNING.md is at most 500 lines" "$m"
want="## Goal|## What changed|## Why it should be faster|## Run|## What you should see|## The adaptive kernel|## Check it yourself|## Exercises|## Pitfalls"
got=$(grep '^## ' "$CH" | sed 's/ (.*//' | paste -sd'|')
[ "$got" = "$want" ] && pass "step6doc: the chapter has the sections of chapters 1-5, in order" \
    || fail "step6doc: the chapter has the sections of chapters 1-5, in order" "$got"
[ "$(grep -c 'adaptive/TUNING.md' "$CH")" = 1 ] && grep -q '(\.\./README\.md)' "$TU" \
    && pass "step6doc: the chapter links the tuning record once, and it links back" \
    || fail "step6doc: the chapter links the tuning record once, and it links back" "$(grep -c 'adaptive/TUNING.md' "$CH") links"
grep -q 'plots/fig-rowlengths.png' "$CH" && pass "step6doc: the chapter shows the row-length figure" \
    || fail "step6doc: the chapter shows the row-length figure" "no plots/fig-rowlengths.png"
bad=$(grep -l -i -w "sess""ion" "$CH" "$TU" "$TV" step4-vector/README.md)
[ -z "$bad" ] && pass "step6doc: no word of how it was written in the chapter, TUNING.md or chapter 4" || fail "step6doc: no word of how it was written in the chapter, TUNING.md or chapter 4" "$bad"
hashes=$(for f in "$CH" "$TU" "$TV"; do awk '/^<!-- block:end -->$/ { b = 0; next } /^<!-- block:/ { b = 1; next } !b' "$f"; done \
    | grep -ow '[0-9a-f]\{7,40\}' | grep '[a-f]' | grep '[0-9]' | sort -u | paste -sd' ')
[ -z "$hashes" ] && pass "step6doc: no commit hash in the prose (only in generated provenance)" \
    || fail "step6doc: no commit hash in the prose (only in generated provenance)" "$hashes"
