# tests/t_course_fresh.sh - the README's first command on a machine that has
# never seen the course: `make run` starts without Open MPI's mpicc, its deps
# step installs it, and the same `make run` builds and runs chapter 8.
#
# The machine is stood in for: a PATH of links to every command here except
# mpicc, and a deps step (DEPS_SH) that "installs" mpicc by linking the real one
# into that PATH. A Makefile that reads `mpicc --showme` when make starts
# (`:=`) gets no include flags and step8 fails to compile (`mpi.h: No such
# file or directory`); one that reads them after deps.sh has run builds it.
# Then: `make run` (chapter 8 alone, a tiny grid) exits 0 and leaves nothing
# in /tmp of its own. MAKEFILE_UNDER_TEST=FILE runs another Makefile in its
# place: `git show 071e738:Makefile`, which read the flags with `:=`, fails here.
# chapters: none
source "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 2

real=$(command -v mpicc 2>/dev/null)
if [ -z "$real" ] || [ ! -f "$BUILD/libspmv.a" ]; then
    skip "fresh machine: make run installs mpicc, then builds chapter 8" "needs mpicc here (apt-get install libopenmpi-dev) and a built $BUILD/libspmv.a (make all)"
    exit 0
fi

# a PATH without mpicc: links to every command of this PATH's folders
B=$TMP/bin
mkdir -p "$B"
IFS=: read -r -a dirs <<<"$PATH"
for d in "${dirs[@]}"; do
    [ -d "$d" ] || continue
    for f in "$d"/*; do
        n=${f##*/}
        case $n in mpicc|mpicc.*) continue ;; esac
        [ -e "$B/$n" ] || ln -s "$f" "$B/$n" 2>/dev/null
    done
done
if env PATH="$B" sh -c 'command -v mpicc' >/dev/null 2>&1; then
    fail "fresh machine: the stand-in PATH has no mpicc" "$(env PATH="$B" sh -c 'command -v mpicc')"
    exit 0
fi
# the deps step: what apt-get install libopenmpi-dev does for mpicc
cat >"$TMP/deps.sh" <<EOF
#!/bin/sh
ln -sf "$real" "$B/mpicc"
echo "deps: installed libopenmpi-dev (a stand-in: mpicc linked into the PATH)"
EOF
chmod +x "$TMP/deps.sh"

# a build folder with the library made (the common objects, as this build
# made them), so that only chapter 8 compiles here
FB=$TMP/build
mkdir -p "$FB"
cp -p "$BUILD/libspmv.a" "$BUILD/gitrev.h" "$FB/"
cp -rp "$BUILD/common" "$FB/"
cp -p "$BUILD/devices" "$FB/" 2>/dev/null

# what the course's programs would leave in /tmp (not the test runners' own
# folders, spmv-ompi.* and spmv-t_*, which another run of the tests may be making)
ours() { ls -A /tmp | grep -E '^(spmv|ompi|pocl|openmpi)' | grep -vE '^spmv-(ompi\.|t_)' | sort; }
ours >"$TMP/tmp-before"
env PATH="$B" make ${MAKEFILE_UNDER_TEST:+-f "$MAKEFILE_UNDER_TEST"} --no-print-directory -s BUILD="$FB" DEPS_SH="$TMP/deps.sh" run RUN_STEPS=step8 \
    ARGS="--gen poisson:nx=24,ny=17 --precision d" >"$TMP/run.out" 2>&1
st=$?
if [ "$st" = 0 ] && [ -x "$FB/step8" ] && grep -q '^step8 .*PASS' "$TMP/run.out"; then
    pass "fresh machine: make run installs mpicc in its deps step, then builds and runs chapter 8 (status 0)"
else
    fail "fresh machine: make run installs mpicc in its deps step, then builds and runs chapter 8" \
         "status $st: $(grep -m 1 -E 'error|Error|No such' "$TMP/run.out" || tail -n 2 "$TMP/run.out" | tr '\n' ' ')"
fi
# the flags came from the mpicc the deps step provided
if grep -q "deps: installed libopenmpi-dev (a stand-in" "$TMP/run.out"; then
    pass "fresh machine: make run ran its deps step before building"
else
    fail "fresh machine: make run ran its deps step before building" "$(head -n 3 "$TMP/run.out" | tr '\n' ' ')"
fi
ours >"$TMP/tmp-after"
new=$(comm -13 "$TMP/tmp-before" "$TMP/tmp-after" | paste -sd ' ')
if [ -z "$new" ]; then pass "fresh machine: make run leaves nothing of its own in /tmp"
else fail "fresh machine: make run leaves nothing of its own in /tmp" "$new"; fi
