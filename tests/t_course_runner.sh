# tests/t_course_runner.sh - the test runner cleans up after itself: tests/run.sh on
# three small scripts made here (one passes, one fails a check, one leaves a
# folder in its TMPDIR), in a copy of tests/ with a private TMPDIR, so that
# nothing else on the machine can be counted: afterwards that TMPDIR holds
# only the failing script's folder, named in its failure line, and the
# leaking script fails, naming what it left. A script run alone (bash
# tests/t_x.sh) removes its own folder when it passes, keeps and names it
# when it fails. And a real script of the suite, run the same way, leaves
# nothing behind.
# chapters: none
source "$(dirname "$0")/lib.sh"
F=$TMP/fake
mkdir -p "$F/tests" "$TMP/private"
cp "$ROOT/tests/run.sh" "$ROOT/tests/lib.sh" "$F/tests/"
cat >"$F/tests/t_ok.sh" <<'EOF'
# chapters: 3
source "$(dirname "$0")/lib.sh"
echo data >"$TMP/scratch"; mkdir "$TMP/sub"; d=$(mktemp -d); rm -rf "$d"
pass "ok: scratch written"
EOF
cat >"$F/tests/t_bad.sh" <<'EOF'
# chapters: none
source "$(dirname "$0")/lib.sh"
echo evidence >"$TMP/evidence"
fail "bad: a check that fails" "on purpose"
EOF
cat >"$F/tests/t_leak.sh" <<'EOF'
# chapters: 1 2
source "$(dirname "$0")/lib.sh"
mktemp -d >/dev/null
pass "leak: passes, but leaves a folder behind"
EOF
TMPDIR=$TMP/private bash "$F/tests/run.sh" t_ok t_bad t_leak >"$TMP/run.out" 2>&1
st=$?
kept=$(cd "$TMP/private" && ls -A | sed 's/\.[^.]*$//' | paste -sd ' ')
bad=$(cd "$TMP/private" && ls -d spmv-t_bad.* 2>/dev/null)
if [ "$st" = 1 ] && grep -q '^2 passed, 2 failed$' "$TMP/run.out" && [ "$kept" = "spmv-t_bad spmv-t_leak" ] &&
    [ "$(cat "$TMP/private/$bad/work/evidence" 2>/dev/null)" = evidence ]; then
    pass "run.sh: a passing script's folder and TMPDIR removed, a failing one's kept"
else fail "run.sh: a passing script's folder and TMPDIR removed, a failing one's kept" "status $st, left: '$kept'; $(tail -n 4 "$TMP/run.out" | tr '\n' '|')"; fi
if grep -qxF "FAIL bad: a check that fails [files: $TMP/private/$bad/work]" "$TMP/run.out"; then
    pass "run.sh: the failure line names the folder kept"
else fail "run.sh: the failure line names the folder kept" "$(grep '^FAIL bad' "$TMP/run.out" | tr '\n' '|')"; fi
if grep -qE '^FAIL tests/t_leak.sh: left files in its TMPDIR: tmp\.[A-Za-z0-9]+ \[files: ' "$TMP/run.out"; then
    pass "run.sh: a script that leaves a folder in its TMPDIR fails, naming it"
else fail "run.sh: a script that leaves a folder in its TMPDIR fails, naming it" "$(grep 't_leak' "$TMP/run.out" | tr '\n' '|')"; fi

# ---- --step N: the scripts of chapter N and those of every chapter (all), STEPS=stepN for the loops
cat >"$F/tests/t_lib.sh" <<'EOF'
# chapters: all
source "$(dirname "$0")/lib.sh"
want_step step3 && ! want_step step4 && pass "lib: STEPS=${STEPS:-} wants step3 alone" || fail "lib: STEPS=${STEPS:-}" "not step3 alone"
EOF
mkdir -p "$F/step3-x" "$F/step4-y"
rm -rf "$TMP/private" && mkdir "$TMP/private"
TMPDIR=$TMP/private bash "$F/tests/run.sh" --step 3 >"$TMP/step.out" 2>&1
st=$?
ran=$(sed -n 's#^---- tests/\(t_[a-z]*\)\.sh$#\1#p' "$TMP/step.out" | paste -sd ' ')
if [ "$st" = 0 ] && [ "$ran" = "t_lib t_ok" ] && grep -q '^2 passed, 0 failed$' "$TMP/step.out"; then
    pass "run.sh --step 3: chapter 3's scripts and every chapter's, STEPS=step3"
else fail "run.sh --step 3: chapter 3's scripts and every chapter's, STEPS=step3" "status $st, ran '$ran': $(tail -n 3 "$TMP/step.out" | tr '\n' '|')"; fi
expect_error "run.sh --step 9: no such chapter" "run.sh: --step wants a chapter number (3 4), not '9'" bash "$F/tests/run.sh" --step 9
printf 'source "$(dirname "$0")/lib.sh"\npass nochapters\n' >"$F/tests/t_nochapters.sh"
expect_error "run.sh: a script without its chapters line is refused" "tests/t_nochapters.sh has no '# chapters:' line" \
    bash "$F/tests/run.sh"
rm -f "$F/tests/t_nochapters.sh" "$F/tests/t_lib.sh"
# every script of the suite says its chapters
none=""
for t in "$ROOT"/tests/t_*.sh; do grep -qE '^# chapters: (all|none|[0-9])' "$t" || none="$none $(basename "$t")"; done
[ -z "$none" ] && pass "every tests/t_*.sh says its chapters" || fail "every tests/t_*.sh says its chapters" "not:$none"

# run alone: lib.sh's own folder (no RESULTS: nothing counted in this run's)
P=$TMP/private
rm -rf "$P" && mkdir "$P"
TMP= RESULTS= TMPDIR=$P bash "$F/tests/t_ok.sh" >"$TMP/alone.out" 2>&1
left=$(cd "$P" && ls -A)
[ -z "$left" ] && grep -q '^PASS ok' "$TMP/alone.out" && pass "lib.sh: a script run alone removes its folder when it passes" ||
    fail "lib.sh: a script run alone removes its folder when it passes" "left: '$left'"
TMP= RESULTS= TMPDIR=$P bash "$F/tests/t_bad.sh" >"$TMP/alone.out" 2>&1
left=$(cd "$P" && ls -A)
if [ -n "$left" ] && [ -f "$P/$left/evidence" ] && grep -qxF -- "---- the failed checks' files are kept in $P/$left" "$TMP/alone.out"; then
    pass "lib.sh: a script run alone keeps and names its folder when a check fails"
else fail "lib.sh: a script run alone keeps and names its folder when a check fails" "left: '$left'; $(tail -n 2 "$TMP/alone.out" | tr '\n' '|')"; fi

# a real script of the suite (t_step4_rounds: plots/rounds.sh makes a folder with mktemp), in a private TMPDIR
rm -rf "$P" && mkdir "$P"
TMPDIR=$P BUILD=$BUILD bash "$ROOT/tests/run.sh" t_step4_rounds >"$TMP/real.out" 2>&1
st=$?
left=$(cd "$P" && ls -A)
if [ "$st" = 0 ] && [ -z "$left" ] && grep -qE '^[1-9][0-9]* passed, 0 failed' "$TMP/real.out"; then
    pass "run.sh t_step4_rounds: passes and leaves nothing in its TMPDIR"
else fail "run.sh t_step4_rounds: passes and leaves nothing in its TMPDIR" "status $st, left '$left': $(tail -n 3 "$TMP/real.out" | tr '\n' '|')"; fi
