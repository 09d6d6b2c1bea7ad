# tests/t_step6_choice.sh - chapter 6's rule (step6-csr/choice/csrchoice.c), through
# build/tests/choice (the rule on one matrix, for a GPU or a CPU, no device):
#   1. it makes the choice recorded in plots/data/choice/ for every matrix
#      there that can be rebuilt here (tests/data's files, the grid, the
#      generated matrices up to 1,048,576 rows), with the device kind and
#      the adaptive block of the recorded device and precision;
#   2. on the short-row sweeps (plots/irregular/*-short-rows.csv, the latest
#      revision of each), the kernel it picks for each mean and precision ran
#      within 5% of the fastest of the course's kernels;
#   3. step6 prints the same choice line as the tool (PoCL, short matrices
#      either side of the rule's 65,536 rows), and where the short rows end.
# chapters: 6 7 8   (chapter 6's rule, which steps 7 and 8 use too)
source "$(dirname "$0")/lib.sh"
tool=$BUILD/tests/choice
if [ ! -x "$tool" ]; then
    fail "choice tests" "no $tool: run make all"
    exit 0
fi
# the adaptive kernel's block on the device kind, in the precision (step6: adaptive_open)
share() { # gpu|cpu P
    if [ "$1" = cpu ]; then echo 8192; else case $2 in c) echo 512 ;; z) echo 1024 ;; *) echo 768 ;; esac; fi
}
kind_of() { # DEVICE-NAME: gpu or cpu
    case ${1,,} in *pthread* | *cpu* | *xeon* | *epyc*) echo cpu ;; *) echo gpu ;; esac
}
# the matrix options that rebuild a recorded matrix name; empty when it cannot be (too large, unknown)
matrix_args() { # NAME
    local n=$1 f
    if [[ $n =~ ^grid([0-9]+)x([0-9]+)r([0-9]+)$ ]]; then
        echo "--grid ${BASH_REMATCH[1]}x${BASH_REMATCH[2]} --radius ${BASH_REMATCH[3]}"
    elif [[ $n =~ ^powerlaw([0-9]+)-m([0-9.]+)-e([0-9.]+)-s([0-9]+)$ ]]; then
        [ "${BASH_REMATCH[1]}" -le 1048576 ] &&
            echo "--gen powerlaw:rows=${BASH_REMATCH[1]},mean=${BASH_REMATCH[2]},exp=${BASH_REMATCH[3]} --seed ${BASH_REMATCH[4]}"
    elif [[ $n =~ ^arrow([0-9]+)-s([0-9]+)$ ]]; then
        [ "${BASH_REMATCH[1]}" -le 1048576 ] && echo "--gen arrow:rows=${BASH_REMATCH[1]} --seed ${BASH_REMATCH[2]}"
    elif [[ $n =~ ^short([0-9]+)-m([0-9.]+)-b([0-9]+)-s([0-9]+)$ ]]; then
        echo "--gen short:rows=${BASH_REMATCH[1]},mean=${BASH_REMATCH[2]},band=${BASH_REMATCH[3]} --seed ${BASH_REMATCH[4]}"
    else
        for f in "$ROOT/tests/data/$n".{mtx,rua,rsa,psa,cua}; do
            [ -f "$f" ] && { echo "--matrix $f"; return; }
        done
    fi
}
# the rule's picks for one matrix: "KIND SHARE KERNEL" lines (vector as vector-G) in $TMP/picks
picks() { # KIND:SHARE,... MATRIX-ARGS...
    "$BUILD/tests/choice" "$@" 2>"$TMP/choice.err" | awk '/^kernel / { print $2, $3, $4 }' >"$TMP/picks"
}
picked() { # KIND SHARE: from $TMP/picks
    awk -v k="$1" -v s="$2" '$1 == k && $2 == s { print $3; exit }' "$TMP/picks"
}

# ---- 1. the recorded choices of chapter 6's table
for f in "$ROOT"/plots/data/choice/*.csv; do
    [ -f "$f" ] || continue
    base=$(basename "$f" .csv)
    k=$(kind_of "$(awk -F, "$BY_NAME"' { print col("device"); exit }' "$f")")
    asked=$(for p in s d c z; do printf '%s:%s,' "$k" "$(share "$k" $p)"; done)
    n=0 bad=""
    for m in $(awk -F, "$BY_NAME"' { print col("matrix") }' "$f" | sort -u); do
        args=$(matrix_args "$m")
        [ -n "$args" ] || continue
        # shellcheck disable=SC2086
        picks "${asked%,}" $args
        while IFS=, read -r p ch; do
            got=$(picked "$k" "$(share "$k" "$p")")
            n=$((n + 1))
            [ "${got%%-*}" = "$ch" ] || bad="$bad $m/$p: $ch, now ${got:-nothing ($(head -c 200 "$TMP/choice.err"))};"
        done < <(awk -F, -v m="$m" "$BY_NAME"' col("matrix") == m { print col("precision") "," col("choice") }' "$f")
    done
    if [ "$n" -lt 20 ]; then fail "choice: the recorded choices of $base" "only $n rebuilt"
    elif [ -z "$bad" ]; then pass "choice: the recorded choices of $base, all $n the same"
    else fail "choice: the recorded choices of $base" "$bad"; fi
done

# ---- 2. within 5% of the fastest on the short-row sweeps (the fractions of
# plots/blocks/step6-short.sh: each kernel against the fastest, within rounds)
for f in "$ROOT"/plots/irregular/*-short-rows.csv; do
    [ -f "$f" ] || continue
    base=$(basename "$f" .csv)
    bash "$ROOT/plots/blocks/step6-short.sh" "$f" p=sdcz list=1 >"$TMP/frac.tsv" 2>"$TMP/frac.err"
    n=0 bad=""
    while IFS=$'\t' read -r dev m p; do
        k=$(kind_of "$dev")
        # shellcheck disable=SC2046
        picks "$k:$(share "$k" "$p")" $(matrix_args "$m")
        got=$(picked "$k" "$(share "$k" "$p")")
        v=$(awk -F'\t' -v m="$m" -v p="$p" -v k="$got" '$2 == m && $3 == p && $4 == k { print $5 }' "$TMP/frac.tsv")
        n=$((n + 1))
        awk -v v="${v:-0}" 'BEGIN { exit !(v >= 0.95) }' || bad="$bad $m/$p: ${got:-nothing} ${v:-not run};"
    done < <(cut -f 1-3 "$TMP/frac.tsv" | sort -u)
    if [ "$n" -lt 2 ]; then fail "choice: within 5% of the fastest on $base" "only $n means and precisions read: $(head -c 300 "$TMP/frac.err")"
    elif [ -z "$bad" ]; then pass "choice: within 5% of the fastest on $base, all $n means and precisions"
    else fail "choice: within 5% of the fastest on $base" "$bad"; fi
done

# ---- 3. step6 prints what the tool prints (on a CPU device); short rows go to
# the adaptive kernel there from 65,536 rows on, and below it keep the rule of
# the rows' spread
if need_cpu_device "choice: step6 and the tool agree"; then
    for spec in short:rows=70000,mean=2.5 short:rows=60000,mean=2.5; do
        want=$("$tool" cpu:8192 --gen $spec | grep '^choice ')
        got=$(SPMV_PROBE_MB=1 "$BUILD/step6" --device cpu --gen $spec --kernel scalar --runs 1 --warmup 0 2>&1 | grep '^choice ')
        if [ -n "$want" ] && [ "$want" = "$got" ]; then pass "choice: step6 and the tool agree on $spec (${want#choice   })"
        else fail "choice: step6 and the tool agree on $spec" "tool '$want', step6 '$got'"; fi
    done
    case $got in
        "choice   scalar: rows regular"*) pass "choice: 60,000 short rows on a CPU, scalar (too few rows to be called short)" ;;
        *) fail "choice: 60,000 short rows on a CPU, scalar (too few rows to be called short)" "$got" ;;
    esac
    expect_output "choice: 70,000 short rows on a CPU, adaptive" '^choice   adaptive: rows short \(longest 4 <= 15, 70000 rows\)' \
        env SPMV_PROBE_MB=1 "$BUILD/step6" --device cpu --gen short:rows=70000 --kernel scalar --runs 1 --warmup 0
fi
# ---- and the GPU's side of the same rule (no GPU needed: the tool)
picks gpu:768 --gen short:rows=70000,mean=6
[ "$(picked gpu 768)" = scalar ] && pass "choice: 70,000 short rows (mean 6, spread 0.53) on a GPU, scalar" ||
    fail "choice: 70,000 short rows (mean 6, spread 0.53) on a GPU, scalar" "$(cat "$TMP/picks")"
picks gpu:768 --gen short:rows=70000,mean=8.5
[ "$(picked gpu 768)" = adaptive ] && pass "choice: rows up to 16 long are no longer short (mean 8.5: adaptive on a GPU)" ||
    fail "choice: rows up to 16 long are no longer short (mean 8.5: adaptive on a GPU)" "$(cat "$TMP/picks")"
# medium rows (none past 64, mean 12 or more, spread under 0.75, 65,536 rows or
# more): the vector kernel on a GPU, where the spread alone chose adaptive;
# a CPU keeps the adaptive kernel
picks gpu:768,cpu:8192 --gen short:rows=70000,mean=16,band=64
[ "$(picked gpu 768)" = vector-4 ] && [ "$(picked cpu 8192)" = adaptive ] &&
    pass "choice: medium rows (mean 16, spread 0.56): vector on a GPU, adaptive on a CPU" ||
    fail "choice: medium rows (mean 16, spread 0.56): vector on a GPU, adaptive on a CPU" "$(cat "$TMP/picks")"
picks gpu:768 --gen short:rows=60000,mean=16,band=64
[ "$(picked gpu 768)" = adaptive ] && pass "choice: 60,000 medium rows keep the rule of the spread (adaptive on a GPU)" ||
    fail "choice: 60,000 medium rows keep the rule of the spread (adaptive on a GPU)" "$(cat "$TMP/picks")"
