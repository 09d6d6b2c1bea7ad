# tests/t_deps.sh - common/deps.sh on a machine that lacks things: as a user
# without sudo it names the exact packages in one line (status 2); as root it
# calls apt-get install with exactly the missing ones. Commands are stubbed
# on a private PATH; nothing is installed.
source "$(dirname "$0")/lib.sh"
B=$TMP/bin
mkdir -p "$B"
for c in bash ls grep tr cat dirname env; do ln -sf "$(command -v $c)" "$B/$c"; done
printf '#!/bin/sh\nexit 1\n' >"$B/dpkg-query"                 # nothing reported installed
printf '#!/bin/sh\nexit 1\n' >"$B/sudo"                       # no password-less sudo
printf '#!/bin/sh\necho "apt-get $*" >>"%s/apt.log"\n' "$TMP" >"$B/apt-get"
printf '#!/bin/sh\necho %s\n' 1000 >"$B/id"
chmod +x "$B"/*
# no gcc, make, gnuplot or oclgrind on this PATH; the loader and the ICD are files
expect_status "deps: user without sudo gets status 2" 2 env PATH="$B" CC=gcc bash "$ROOT/common/deps.sh"
want="run: sudo apt-get install -y opencl-c-headers gnuplot-nox oclgrind gcc make"
if grep -qF "$want" "$TMP/err" && [ "$(grep -c . "$TMP/err")" = 1 ]; then
    pass "deps: one line naming the exact packages"
else
    fail "deps: one line naming the exact packages" "$(tr '\n' '|' <"$TMP/err")"
fi
printf '#!/bin/sh\necho 0\n' >"$B/id"
rm -f "$TMP/apt.log"
expect_ok "deps: root installs with apt-get" env PATH="$B" CC=gcc bash "$ROOT/common/deps.sh"
grep -q "apt-get install -y -qq opencl-c-headers gnuplot-nox oclgrind gcc make" "$TMP/apt.log" \
    && pass "deps: apt-get asked for exactly the missing packages" \
    || fail "deps: apt-get asked for exactly the missing packages" "$(cat "$TMP/apt.log" 2>/dev/null)"
# and on this machine, where everything is installed, it says nothing
expect_ok "deps: nothing missing here" bash "$ROOT/common/deps.sh"
[ -s "$TMP/out" ] && fail "deps: silent when nothing is missing" "$(cat "$TMP/out")" || pass "deps: silent when nothing is missing"
# `deps.sh run` (make run) asks only for what builds and runs the steps
printf '#!/bin/sh\necho 1000\n' >"$B/id"
expect_status "deps run: user without sudo gets status 2" 2 env PATH="$B" CC=gcc bash "$ROOT/common/deps.sh" run
grep -qF "run: sudo apt-get install -y opencl-c-headers gcc make" "$TMP/err" \
    && pass "deps run: neither gnuplot nor oclgrind" || fail "deps run: neither gnuplot nor oclgrind" "$(tr '\n' '|' <"$TMP/err")"
