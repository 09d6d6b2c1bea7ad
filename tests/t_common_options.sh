# tests/t_common_options.sh - the options chapter 1 says every program takes (step1-naive/README.md), taken
# by every program (step 0 too: it notes the OpenCL ones it cannot use), and
# step 6's precision from the file when --precision is not given.
# chapters: all
source "$(dirname "$0")/lib.sh"
export SPMV_PROBE_MB=${SPMV_PROBE_MB:-16}
D=$ROOT/tests/data

# ---- every step takes every common option (chapter 1: "Picking a device", "Reading the output"; chapter 0:
# "Check it yourself"), all on one line, as make run ARGS="..." gives them to every step ----
for bin in "$BUILD"/step[0-9]; do
    s=$(basename "$bin")
    want_step "$s" || continue
    case $s in step7|step8|step9) continue ;; esac   # solvers: b, not x; a symmetric matrix, not the grid (tests/t_step7.sh, t_step8.sh, t_step9.sh)
    rm -f "$TMP/o.csv"
    "$bin" --device 0:0 --grid 16x12 --radius 2 --seed 3 --runs 1 --warmup 0 --csv "$TMP/o.csv" --info \
        --save-x "$TMP/x.mtx" --save-y "$TMP/y.mtx" --save-matrix "$TMP/A.mtx" >"$TMP/out" 2>"$TMP/err"
    st=$?
    if [ "$st" = 0 ] && grep -q '^check: PASS' "$TMP/out" && [ -s "$TMP/y.mtx" ] &&
        awk -F, "$BY_NAME"'col("matrix") != "grid16x12r2" || col("check") != "PASS" { bad = 1 } END { exit bad || NR < 2 }' "$TMP/o.csv"; then
        pass "$s takes every common option"
    else
        fail "$s takes every common option" "status $st: $(head -c 300 "$TMP/err")"
    fi
done

# ---- each step's --help: its own options, each once, its defaults and exit statuses; an option it
# does not take is refused in one line naming it and listing those it takes, the --help's list
# (tests/t_common_host.sh: every listed option is taken, every other refused) ----
CG_FLAGS="--tol --maxiter --check-every --b --save-b --history"
EVERY="--grid --radius --matrix --gen --seed --precision --info --x --save-x --save-y --save-matrix --runs --warmup
 --device --local-size --kernel-file --cl-opts --kernel --threads --block --group-size --split --combine $CG_FLAGS
 --csv --quiet --estimate --help"
for bin in "$BUILD"/step[0-9]; do
    s=$(basename "$bin")
    want_step "$s" || continue
    "$bin" --help >"$TMP/help" 2>&1
    listed=$(grep -oE '^  --[a-z-]+' "$TMP/help" | tr -d ' ')
    twice=$(printf '%s\n' "$listed" | sort | uniq -d | paste -sd ' ')
    [ -z "$twice" ] && pass "$s --help names each option once" || fail "$s --help names each option once" "twice: $twice"
    cg=""
    for f in $CG_FLAGS; do printf '%s\n' "$listed" | grep -qx -- "$f" && cg="$cg $f"; done
    case $s in
        step7|step8|step9) [ -n "$cg" ] && pass "$s --help lists the solver's options" || fail "$s --help lists the solver's options" "none" ;;
        *) [ -z "$cg" ] && pass "$s --help lists no solver option" || fail "$s --help lists no solver option" "$cg" ;;
    esac
    want=$(printf '%s\n' "$listed" | paste -sd ' ' | sed 's/ /, /g')
    refused=0
    for f in $EVERY; do
        printf '%s\n' "$listed" | grep -qx -- "$f" && continue
        refused=$((refused + 1))
        expect_error "$s refuses $f, listing what it takes" "$s does not take $f" "$bin" "$f" 1
        grep -qF -- "; it takes $want" "$TMP/err" && pass "$s refusing $f lists the options of its --help" ||
            fail "$s refusing $f lists the options of its --help" "$(cat "$TMP/err")"
        [ $refused = 3 ] && break   # a few of each step's
    done
    expect_error "$s: an option of no step is refused, listing what it takes" "unknown option --bogus; $s takes $want" "$bin" --bogus
    st=$(awk '/^Exit status: / { on = 1; sub(/^Exit status: /, "") } on { sub(/^ +/, ""); printf "%s ", $0 }' "$TMP/help")
    case $s in
        step[0-4]) [[ $st == *"2 bad input"* && $st != *"3 "* && $st != *"4 "* ]] ;;
        step[56]) [[ $st == *"3 skipped"* && $st != *"4 "* ]] ;;
        step7|step8) [[ $st == *"3 skipped"* && $st == *"4 --maxiter reached before --tol"* ]] ;;
    esac && pass "$s --help: the exit statuses it can return" || fail "$s --help: the exit statuses it can return" "'$st'"
done
if [ -x "$BUILD/step7" ] && want_step step7; then
    "$BUILD/step7" --help >"$TMP/help" 2>&1
    grep -q '^The matrix (default: --gen poisson:nx=256' "$TMP/help" && ! grep -q '512x512' "$TMP/help" &&
        grep -qE '^  --precision P +s \(float\) or d \(double\) ' "$TMP/help" &&
        grep -qE '^  --save-x FILE +write the solution x' "$TMP/help" &&
        pass "step7 --help: its default matrix, its precisions, --save-x the solution" ||
        fail "step7 --help: its default matrix, its precisions, --save-x the solution" "$(head -n 12 "$TMP/help" | tr '\n' '|')"
fi
if want_step step1; then
    "$BUILD/step1" --help >"$TMP/help" 2>&1
    grep -qE '^  --local-size L +work-group size \(default 128\)' "$TMP/help" &&
        grep -qE '^  --save-x FILE +write x as the run uses it' "$TMP/help" &&
        pass "step1 --help: its own local size, --save-x the x it used" ||
        fail "step1 --help: its own local size, --save-x the x it used" "$(grep -E 'local-size|save-x' "$TMP/help" | tr '\n' '|')"
fi

# ---- step 0 runs on the host: the OpenCL options are taken, and one line says they are not used ----
if want_step step0; then
    expect_output "step0 takes the OpenCL options, runs on the host" \
        '^note +step0 runs on the host, in C, on no OpenCL device: --device 0:0, --local-size \.\.\., --cl-opts \.\.\., --kernel-file \.\.\. not used$' \
        "$BUILD/step0" --device 0:0 --local-size 64 --cl-opts -DX --kernel-file "$TMP/none.cl" --grid 16 --runs 1
    [ "$(grep -c '^note' "$TMP/out")" = 1 ] && grep -q '^check: PASS' "$TMP/out" \
        && pass "step0 OpenCL options: one note, checked run" || fail "step0 OpenCL options: one note, checked run" "$(tr '\n' '|' <"$TMP/out")"
    expect_error "step0 --local-size still wants a number" "--local-size wants a whole number" "$BUILD/step0" --local-size many
    expect_status "step0 --device gpu --quiet: status 0" 0 "$BUILD/step0" --device gpu --quiet --grid 8 --runs 1
    grep -q '^note' "$TMP/out" && fail "step0 --quiet: no note" "$(tr '\n' '|' <"$TMP/out")" || pass "step0 --quiet prints no note"
fi

# ---- step 6: a complex file without --precision runs in complex float, with one line saying so ----
if want_step step6; then
    for f in young1c.mtx qc324.cua; do
        n=${f%.*}
        rm -f "$TMP/p.csv"
        expect_output "step6 $f without --precision: complex float, one line says so" \
            "^note +$n is complex: run in complex float \\(--precision z: complex double\\)$" \
            "$BUILD/step6" --matrix "$D/$f" --runs 1 --warmup 0 --csv "$TMP/p.csv"
        if grep -q '^values   complex float (8 bytes)' "$TMP/out" && [ "$(grep -c '^note' "$TMP/out")" = 1 ] &&
            awk -F, "$BY_NAME"'col("precision") != "c" || col("check") != "PASS" { bad = 1 } END { exit bad || NR != 4 }' "$TMP/p.csv"; then
            pass "step6 $f without --precision: every kernel in complex float, checked"
        else
            fail "step6 $f without --precision: every kernel in complex float, checked" "$(cut -d, -f1,2,10,20 "$TMP/p.csv" 2>&1 | tr '\n' '|')"
        fi
    done
    rm -f "$TMP/p.csv"
    expect_output "step6 --precision z overrides the file" '^values   complex double \(16 bytes\)' \
        "$BUILD/step6" --matrix "$D/qc324.cua" --precision z --kernel scalar --runs 1 --warmup 0 --csv "$TMP/p.csv"
    if ! grep -q '^note' "$TMP/out" && [ "$(awk -F, "$BY_NAME"'{ print col("precision") }' "$TMP/p.csv")" = z ]; then
        pass "step6 --precision z: no note, the row says z"
    else
        fail "step6 --precision z: no note, the row says z" "$(tr '\n' '|' <"$TMP/p.csv")"
    fi
    rm -f "$TMP/p.csv"
    expect_output "step6 real file without --precision: float" '^values   float \(4 bytes\)' \
        "$BUILD/step6" --matrix "$D/west0067.mtx" --kernel scalar --runs 1 --warmup 0 --csv "$TMP/p.csv"
    ! grep -q '^note' "$TMP/out" && [ "$(awk -F, "$BY_NAME"'{ print col("precision") }' "$TMP/p.csv")" = s ] \
        && pass "step6 real file: no note, the row says s" || fail "step6 real file: no note, the row says s" "$(tr '\n' '|' <"$TMP/out")"
    expect_error "step6 --precision s of a complex HB file: refused" "qc324 is complex: run it with --precision c or z (complex float or double), not s (float)" \
        "$BUILD/step6" --matrix "$D/qc324.cua" --precision s
    expect_error "step6 --precision d of a complex file: refused" "young1c is complex: run it with --precision c or z" \
        "$BUILD/step6" --matrix "$D/young1c.mtx" --precision d
fi
# the DIA steps are real: a complex file is refused there, saying where to run it
for s in step1 step2 step3 step4 step5; do   # the first of them STEPS names
    want_step $s || continue
    expect_error "$s complex file: use step6-csr" "qc324 is complex; the DIA steps are single precision real: use step6-csr" \
        "$BUILD/$s" --matrix "$D/qc324.cua"
    break
done

# ---- devices --type SEL: the type of the device SEL selects, as the listing gives it ----
want=$("$BUILD/devices" | awk '$1 == "0:0" { print $2 }')
expect_output "devices --type 0:0: one word" '^(GPU|CPU|accelerator|other)$' "$BUILD/devices" --type 0:0
[ "$(cat "$TMP/out")" = "$want" ] && pass "devices --type 0:0 agrees with the listing ($want)" \
    || fail "devices --type 0:0 agrees with the listing" "'$(cat "$TMP/out")' vs '$want'"
expect_error "devices --type no match" "no OpenCL device matches 'no-such-device'" "$BUILD/devices" --type no-such-device
expect_error "devices bad flag" "usage: devices [--type SEL]" "$BUILD/devices" --bogus
