# tests/t_course_answers.sh - every exercise has an answer, and each answer still holds.
#
# 1. `make answers` (scripts/answers.sh) on the default device at small sizes,
#    the chapters named by their folders (step7-cg; `make answers STEPS=step7`
#    or STEPS=step7-cg builds build/step1 from a fresh clone too):
#    each exercise's row is a PASS when its claims held, a FAIL when WRONG, a
#    SKIP (with its reason) where this machine lacks what it needs.
# 2. Each chapter with exercises has stepN-*/ANSWERS.md (at most 300 lines),
#    a "## N." section for each exercise of its README, an answers.sh that runs
#    each of them, and one line in the Exercises section linking to it.
# 3. Output quoted in an answer is real: the lines of a fenced block after
#    <!-- answer-output: N --> each appear (as fixed text, leading spaces
#    trimmed; a line "…" stands for lines left out) in what exercise N printed.
#    Output that only one kind of device prints (PoCL's build line, a rank
#    line with the device's name, rounding counts) names it in the marker:
#    <!-- answer-output: N cpu --> (or gpu: the device's kind), or
#    <!-- answer-output: N NAME --> (a case-insensitive piece of the device's
#    name, spaces allowed: pthread-skylake-avx512-AMD EPYC). Such a block is
#    checked, as strictly, where the answers ran on such a device, and SKIP
#    (naming both devices) elsewhere; so is every block of an exercise that
#    SKIP here (no oclgrind, a CPU answer on a GPU), with its reason.
# 4. Its numbers come from committed data: plots/blocks.sh --check finds every
#    generated block of the answers fresh.
# chapters: 0 1 2 3 4 5 6 7 8 9   (each chapter's answers: STEPS)
source "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 2
export SPMV_PROBE_MB=16

# exercises N of a chapter README: the numbered items of its Exercises section
exercises() { awk '/^## Exercises/ { on = 1; next } /^## / { on = 0 } on && /^[0-9]+\. / { sub(/\..*/, ""); print }' "$1"; }

chapters=()
for r in step[0-9]-*/README.md; do
    want_step "${r%%-*}" || continue   # STEPS: those chapters alone
    [ -n "$(exercises "$r")" ] && chapters+=("${r%/README.md}")
done

# ---- 2. every exercise has an answer
for d in "${chapters[@]+"${chapters[@]}"}"; do
    a=$d/ANSWERS.md s=$d/answers/answers.sh
    if [ ! -f "$a" ] || [ ! -f "$s" ]; then fail "answers: $d has ANSWERS.md and answers/answers.sh" "missing"; continue; fi
    n=$(wc -l <"$a")
    if [ "$n" -le 300 ]; then pass "answers: $a is at most 300 lines ($n)"; else fail "answers: $a is at most 300 lines" "$n lines"; fi
    missing="" unrun=""
    for e in $(exercises "$d/README.md"); do
        grep -qE "^## $e\. " "$a" || missing="$missing $e"
        grep -qE "^ *exercise $e " "$s" || unrun="$unrun $e"
    done
    if [ -z "$missing$unrun" ]; then pass "answers: $d: every exercise has its section in ANSWERS.md and runs in answers.sh"
    else fail "answers: $d: every exercise has its section in ANSWERS.md and runs in answers.sh" "no section:$missing; not run:$unrun"; fi
    links=$(awk '/^## Exercises/ { on = 1; next } /^## / { on = 0 } on' "$d/README.md" | grep -c '](ANSWERS.md)')
    if [ "$links" = 1 ]; then pass "answers: $d/README.md's Exercises section links to its answers once"
    else fail "answers: $d/README.md's Exercises section links to its answers once" "$links links"; fi
done

# ---- 1. every answer holds here
# `make answers STEPS=step7` from a fresh clone: the build it starts holds build/step1 (the
# device line comes from it) whatever STEPS names; the folder's name (step7-cg) works too
for st in step7 step7-cg; do
    if make -s -n answers STEPS=$st BUILD="$TMP/fresh" >"$TMP/plan" 2>&1 && grep -qE -- "-o $TMP/fresh/step1\$" "$TMP/plan"; then
        pass "answers: make answers STEPS=$st builds build/step1 from a fresh clone"
    else fail "answers: make answers STEPS=$st builds build/step1 from a fresh clone" "$(tail -n 2 "$TMP/plan" | tr '\n' ' ')"; fi
done
SPMV_DEVICE=${SPMV_DEVICE:-cpu}
export SPMV_DEVICE
if ! "$BUILD/step1" --grid 8 --runs 1 >/dev/null 2>&1; then
    skip "answers: make answers" "no OpenCL device answers --device $SPMV_DEVICE here"
else
    # the chapters by their folders' names (step7-cg), as a user may name them (STEPS: those alone)
    ANSWERS_SMALL=1 ANSWERS_OUT=$TMP/out scripts/answers.sh "${chapters[@]}" >"$TMP/table" 2>"$TMP/log"
    st=$?
    rows=$(awk '/^chapter +ex / { on = 1; next } /^\(on / { on = 0 } on && /^step[0-9] /' "$TMP/table")
    if [ -n "$rows" ]; then pass "answers: make answers prints its table"; else fail "answers: make answers prints its table" "status $st: $(tail -n 3 "$TMP/log" | tr '\n' ' ')"; fi
    while read -r ch ex rest; do
        what=$(sed -E 's/ +(ok|WRONG|SKIP) .*$//; s/ +(ok|WRONG|SKIP)$//' <<<"$rest")
        case " $rest " in
            *" ok "*) pass "answers: $ch exercise $ex: $what" ;;
            *" SKIP "*) skip "answers: $ch exercise $ex: $what" "$(awk -v c="$ch" -v e="$ex" '$1 == c && $2 == e { getline; sub(/^ +SKIP: /, ""); print; exit }' "$TMP/table")" ;;
            *) fail "answers: $ch exercise $ex: $what" "$(awk -v c="$ch" -v e="$ex" '$1 == c && $2 == e { getline; sub(/^ +/, ""); print; exit }' "$TMP/table")" ;;
        esac
    done <<<"$rows"
    # ---- 3. quoted output is what the exercise printed (where this device prints it)
    device_info   # DEVICE_TYPE, DEVICE_NAME: the device the answers ran on (same SPMV_DEVICE)
    here="${DEVICE_NAME:-unknown} (${DEVICE_TYPE:-unknown})"
    for d in "${chapters[@]+"${chapters[@]}"}"; do
        a=$d/ANSWERS.md ch=${d%%-*}
        [ -f "$a" ] || continue
        # exercise, the device the quote names (- any), the line
        awk '/^<!-- answer-output: [0-9]+( [^ ].*)? -->$/ {
                 ex = $3; dev = $0; sub(/ -->$/, "", dev); sub(/^<!-- answer-output: [0-9]+ ?/, "", dev)
                 want = 1; on = 0; next }
             want && /^ *```/ { if (on) { want = 0; on = 0 } else on = 1; next }
             on { sub(/^ +/, ""); if ($0 != "…" && $0 != "") print ex "\t" (dev == "" ? "-" : dev) "\t" $0 }' "$a" >"$TMP/quoted"
        [ -s "$TMP/quoted" ] || continue
        bad="" checked=0 elsewhere="" skipped=""
        while IFS=$'\t' read -r ex dev text; do
            # an exercise that SKIP here printed nothing to quote: its own reason
            why=$(awk -v c="$ch" -v e="$ex" '$1 == c && $2 == e { getline; if ($1 == "SKIP:") { sub(/^ +SKIP: /, ""); print } exit }' "$TMP/table")
            if [ -n "$why" ]; then
                [[ $skipped == *" $ex	"* ]] || skipped="$skipped $ex	$why
"
                continue
            fi
            if [ "$dev" != - ]; then
                case ${dev,,} in
                    cpu | gpu | accelerator) on="a ${dev^^} device"; [ "${dev^^}" = "${DEVICE_TYPE:-}" ] ;;
                    *) on=$dev; [[ ${DEVICE_NAME:-} && ${DEVICE_NAME,,} == *"${dev,,}"* ]] ;;
                esac || {
                    [[ $elsewhere == *"exercise $ex on $on;"* ]] || elsewhere="$elsewhere exercise $ex on $on;"
                    continue
                }
            fi
            checked=$((checked + 1))
            f=$TMP/out/$ch-$ex.out
            [ -f "$f" ] || { bad="$bad exercise $ex did not run;"; continue; }
            grep -qF -- "$text" "$f" || bad="$bad exercise $ex does not print '$text';"
        done <"$TMP/quoted"
        if [ -n "$bad" ]; then fail "answers: $a: the output it quotes is what its exercises print" "$bad"
        elif [ "$checked" -gt 0 ]; then pass "answers: $a: the output it quotes is what its exercises print ($checked lines)"
        fi
        [ -z "$elsewhere" ] || skip "answers: $a: the output it quotes from${elsewhere%;}" "quoted on another device (its marker names it); this run's device is $here"
        while IFS=$'\t' read -r ex why; do
            ex=${ex# }
            [ -z "$ex" ] || skip "answers: $a: the output exercise $ex quotes (the exercise SKIP here)" "$why"
        done <<<"$skipped"
    done
fi

# ---- 4. the answers' generated blocks are fresh
files=$(for d in "${chapters[@]+"${chapters[@]}"}"; do echo "$d/ANSWERS.md"; done | xargs -r grep -l '^<!-- block:' 2>/dev/null)
if [ -n "$files" ]; then
    # shellcheck disable=SC2086
    if out=$(plots/blocks.sh --check $files 2>&1); then pass "answers: every generated block of the answers is fresh"
    else fail "answers: every generated block of the answers is fresh" "$(echo "$out" | head -n 4 | tr '\n' '|')"; fi
fi
