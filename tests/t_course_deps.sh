# tests/t_course_deps.sh - scripts/deps.sh on a machine that lacks things: as a user
# without sudo it names the exact packages in one line (status 2); as root it
# calls apt-get install with exactly the missing ones (Open MPI among the
# required: chapter 8); `run` mode (make run)
# asks for gnuplot-nox too, never oclgrind; an optional package (gnuplot-nox,
# oclgrind, time, SciPy, PoCL beside another driver) that cannot be installed is
# one line and status 0, a required one stops it (status 2). Commands are
# stubbed on a private PATH (apt-get fails where APT_FAIL says: "update", or
# an install naming one of its packages); nothing is installed.
# chapters: none
source "$(dirname "$0")/lib.sh"
B=$TMP/bin
mkdir -p "$B"
for c in bash ls grep tr cat dirname env rm tail mkdir; do ln -sf "$(command -v $c)" "$B/$c"; done
printf '#!/bin/sh\nexit 1\n' >"$B/dpkg-query"                 # nothing reported installed
printf '#!/bin/sh\nexit 1\n' >"$B/sudo"                       # no password-less sudo
cat >"$B/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >>"$TMP/apt.log"
[ "\$1" = update ] && [ "\${APT_FAIL:-}" = update ] && { echo "E: no network" >&2; exit 100; }
if [ "\$1" = install ]; then
    for p in "\$@"; do case " \${APT_FAIL:-} " in *" \$p "*) echo "E: Unable to locate package \$p" >&2; exit 100 ;; esac; done
fi
exit 0
EOF
printf '#!/bin/sh\necho %s\n' 1000 >"$B/id"
chmod +x "$B"/*
# the loader and one driver, PoCL, as files (whatever this machine has)
mkdir -p "$TMP/lib" "$TMP/vendors" "$TMP/gpu-vendors"
: >"$TMP/lib/libOpenCL.so"
echo libpocl.so.2 >"$TMP/vendors/pocl.icd"
echo libnvidia-opencl.so.1 >"$TMP/gpu-vendors/nvidia.icd"
deps() { env PATH="$B" CC=gcc LIBRARY_PATH="$TMP/lib" OCL_ICD_VENDORS="$TMP/vendors" "$@"; }
# one_line NAME WANT FILE: FILE is one line holding WANT
one_line() {
    if grep -qF -- "$2" "$3" && [ "$(grep -c . "$3")" = 1 ]; then pass "$1"; else fail "$1" "$(tr '\n' '|' <"$3")"; fi
}
# asked NAME WANT: apt-get was asked to install exactly WANT (its last install)
asked() {
    local got; got=$(grep 'apt-get install' "$TMP/apt.log" 2>/dev/null | tail -n 1)
    if [ "${got%% -o *}" = "apt-get install -y -qq $2" ]; then pass "$1"; else fail "$1" "apt-get was asked: '$got'"; fi
}
# no gcc, make, Open MPI (mpicc, mpirun), gnuplot or oclgrind on this PATH; GNU time is /usr/bin/time, where this machine has it
T=""; [ -x /usr/bin/time ] || T=" time"
S=""; /usr/bin/python3 -c 'import scipy' 2>/dev/null || S=" python3-scipy"
P=""; pkg-config --exists petsc 2>/dev/null || test -e /usr/lib/petsc/include/petsc.h || P=" petsc-dev"
T="$T$S$P"
expect_status "deps: user without sudo gets status 2" 2 deps bash "$ROOT/scripts/deps.sh"
one_line "deps: one line naming the exact packages" "run: sudo apt-get install -y opencl-c-headers libopenmpi-dev openmpi-bin gcc make gnuplot-nox oclgrind$T" "$TMP/err"
printf '#!/bin/sh\necho 0\n' >"$B/id"
rm -f "$TMP/apt.log"
expect_ok "deps: root installs with apt-get" deps bash "$ROOT/scripts/deps.sh"
asked "deps: apt-get asked for exactly the missing packages" "opencl-c-headers libopenmpi-dev openmpi-bin gcc make gnuplot-nox oclgrind$T"
# and on this machine, where everything is installed, it says nothing
if command -v gnuplot >/dev/null && command -v oclgrind >/dev/null && [ -x /usr/bin/time ] && [ -z "$S$P" ] && have_cpu_device; then
    expect_ok "deps: nothing missing here" bash "$ROOT/scripts/deps.sh"
    [ -s "$TMP/out" ] && fail "deps: silent when nothing is missing" "$(cat "$TMP/out")" || pass "deps: silent when nothing is missing"
else
    skip "deps: nothing missing here, and silent" "this machine lacks gnuplot, oclgrind, /usr/bin/time, SciPy, PETSc or a CPU device"
fi
# `deps.sh run` (make run) asks for what builds and runs the steps, and gnuplot for its chart
printf '#!/bin/sh\necho 1000\n' >"$B/id"
expect_status "deps run: user without sudo gets status 2" 2 deps bash "$ROOT/scripts/deps.sh" run
one_line "deps run: gnuplot-nox asked, oclgrind not" "run: sudo apt-get install -y opencl-c-headers libopenmpi-dev openmpi-bin gcc make gnuplot-nox" "$TMP/err"
printf '#!/bin/sh\necho 0\n' >"$B/id"
rm -f "$TMP/apt.log"
expect_ok "deps run: root installs with apt-get" deps bash "$ROOT/scripts/deps.sh" run
asked "deps run: apt-get asked for gnuplot-nox with the rest" "opencl-c-headers libopenmpi-dev openmpi-bin gcc make gnuplot-nox"

# ---- a required package that cannot be installed stops it ----
rm -f "$TMP/apt.log"
expect_status "deps: a required package that apt-get cannot install: status 2" 2 deps env APT_FAIL=gcc bash "$ROOT/scripts/deps.sh"
tail -n 1 "$TMP/err" >"$TMP/last"
one_line "deps: ... and the last line says what to run" "deps: apt-get install failed; run: sudo apt-get install -y opencl-c-headers libopenmpi-dev openmpi-bin gcc make gnuplot-nox oclgrind$T" "$TMP/last"
expect_status "deps: no package network, a required package missing: status 2" 2 deps env APT_FAIL=update bash "$ROOT/scripts/deps.sh" run
grep -q '^deps: apt-get update failed; run: sudo apt-get install -y opencl-c-headers libopenmpi-dev openmpi-bin gcc make gnuplot-nox$' "$TMP/err" &&
    pass "deps: ... and says what to run" || fail "deps: ... and says what to run" "$(tr '\n' '|' <"$TMP/err")"

# ---- only optional packages missing: a C compiler, make and Open MPI here, the headers found ----
for c in gcc make mpicc mpirun; do printf '#!/bin/sh\nexit 0\n' >"$B/$c"; chmod +x "$B/$c"; done
printf '#!/bin/sh\necho 1000\n' >"$B/id"
expect_ok "deps: user without sudo, only optional packages missing: status 0" deps bash "$ROOT/scripts/deps.sh"
one_line "deps: ... one line naming them and the SKIPs" "deps: not installed here: gnuplot-nox oclgrind$T; the tests that need them are reported as SKIP" "$TMP/out"
[ -s "$TMP/err" ] && fail "deps: ... nothing on stderr" "$(cat "$TMP/err")" || pass "deps: ... nothing on stderr"
expect_ok "deps run: user without sudo, no gnuplot: status 0" deps bash "$ROOT/scripts/deps.sh" run
[ -s "$TMP/out" ] || [ -s "$TMP/err" ] && fail "deps run: ... silent (the chart says how to get gnuplot)" "$(cat "$TMP/out" "$TMP/err")" ||
    pass "deps run: ... silent (the chart says how to get gnuplot)"
# as root with no package network (the GPU machine): tried, one line, status 0
printf '#!/bin/sh\necho 0\n' >"$B/id"
rm -f "$TMP/apt.log"
expect_ok "deps: root, apt-get update fails, only optional missing: status 0" deps env APT_FAIL=update DEPS_TRIED="$TMP/new/tried" bash "$ROOT/scripts/deps.sh"
grep -q "^deps: apt-get update failed, so these are not installed: gnuplot-nox oclgrind$T; the tests that need them are reported as SKIP" "$TMP/out" &&
    [ "$(grep -c '^deps:' "$TMP/out")" = 2 ] && [ ! -s "$TMP/err" ] && pass "deps: ... says so in one line after the try" ||
    fail "deps: ... says so in one line after the try" "$(tr '\n' '|' <"$TMP/out") $(tr '\n' '|' <"$TMP/err")"
# make run there: not tried again while build/.deps-tried names them
rm -f "$TMP/apt.log"
expect_ok "deps run: root, what failed before: status 0" deps env APT_FAIL=update DEPS_TRIED="$TMP/new/tried" bash "$ROOT/scripts/deps.sh" run
[ ! -e "$TMP/apt.log" ] && [ ! -s "$TMP/out" ] && pass "deps run: ... not tried again, silent" ||
    fail "deps run: ... not tried again, silent" "$(cat "$TMP/apt.log" 2>/dev/null | tr '\n' '|') $(cat "$TMP/out")"
# one optional package apt-get cannot find: the others are installed all the same
rm -f "$TMP/apt.log" "$TMP/tried"
expect_ok "deps: root, oclgrind not to be had: status 0" deps env APT_FAIL=oclgrind DEPS_TRIED="$TMP/tried" bash "$ROOT/scripts/deps.sh"
grep -q '^apt-get install -y -qq gnuplot-nox -o' "$TMP/apt.log" && grep -q '^deps: apt-get install failed, so these are not installed: oclgrind;' "$TMP/out" &&
    [ "$(cat "$TMP/tried" 2>/dev/null)" = oclgrind ] && pass "deps: ... gnuplot-nox installed alone, oclgrind named and noted" ||
    fail "deps: ... gnuplot-nox installed alone, oclgrind named and noted" "$(tr '\n' '|' <"$TMP/apt.log") $(tr '\n' '|' <"$TMP/out")"
# a GPU's driver and no PoCL: make test asks for PoCL (its CPU device), make run does not
rm -f "$TMP/apt.log"
expect_ok "deps: a GPU's driver only: root installs" deps env OCL_ICD_VENDORS="$TMP/gpu-vendors" bash "$ROOT/scripts/deps.sh"
asked "deps: ... PoCL asked beside the GPU's driver" "gnuplot-nox oclgrind$T pocl-opencl-icd"
rm -f "$TMP/apt.log"
expect_ok "deps run: a GPU's driver only: root installs" deps env OCL_ICD_VENDORS="$TMP/gpu-vendors" bash "$ROOT/scripts/deps.sh" run
asked "deps run: ... gnuplot-nox, no PoCL" "gnuplot-nox"
