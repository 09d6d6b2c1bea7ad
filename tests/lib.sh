# tests/lib.sh - sourced by every tests/t_*.sh; tests/run.sh adds up the results.
#
# Each check prints one line "PASS name" or "FAIL name: why" and appends it to
# $RESULTS, which run.sh counts. A check that cannot fail is a defect: every
# helper here compares against an expectation that a wrong program misses.
#
#   pass NAME / fail NAME WHY
#   skip NAME WHY                         a check this machine cannot make (no oclgrind, no
#                                         gnuplot, no CPU device): counted apart, never as a pass
#   need_tool NAME TOOL [PACKAGE]         true when TOOL runs here (a command, or a path such as
#                                         /usr/bin/time); else skip NAME, naming PACKAGE, and false
#   have_cpu_device / need_cpu_device NAME  an OpenCL CPU device (PoCL) for --device cpu; need_:
#                                         else skip NAME and false
#   device_info                           the device the steps pick (SPMV_DEVICE or the default),
#                                         as they print it: DEVICE_TYPE (CPU, GPU, ...), DEVICE_SEL
#                                         (P:D), DEVICE_NAME
#   expect_ok NAME CMD...                 status 0
#   expect_status NAME STATUS CMD...      exactly that status
#   expect_error NAME 'substring' CMD...  status 2 and the substring in stderr, on one line
#   expect_output NAME 'regex' CMD...     status 0 and stdout matches the (grep -E) regex
#   want_step STEP                        STEP (step3) is one to test: in $STEPS (tests/run.sh
#                                         --step N sets it), or every step when it is unset
#   limited CPU_S CMD...                  CMD, killed if it uses more than CPU_S seconds of CPU time
#                                         (ulimit -t: a kernel that loops forever ends; the work
#                                         done, which a busy machine does not change, unlike the
#                                         wall clock's time), or blocks for 30 minutes
#   expect_oclgrind NAME "FLAGS" CMD...   under oclgrind FLAGS: status 0, check: PASS, no report
#   expect_oclgrind_finds NAME 'regex' "FLAGS" CMD...
#                                         under oclgrind FLAGS, a broken kernel: its report
#                                         (stderr) matches the (grep -E) regex
#   awk -F, "$BY_NAME"' col("check") == "PASS"' FILE   a results CSV's columns by the names in
#                                         its header (the first line; col of a name it lacks: "")
set -u
ROOT=${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD=${BUILD:-$ROOT/build}
RESULTS=${RESULTS:-/dev/null}
FAILED=0
# run alone (bash tests/t_x.sh), not by run.sh: a scratch folder of its own,
# removed when the script ends unless a check failed (then it is named)
_own_tmp="" _own_ompi=""
if [ -z "${TMP:-}" ]; then
    TMP=$(mktemp -d)
    _own_tmp=$TMP
fi
# Open MPI's run-time folders (chapter 8's runs) in a place of their own,
# not in a test's TMPDIR: its daemon removes them after the run has ended.
# run.sh makes one for the whole run; a script run alone, its own, removed
# when it ends
if [ -z "${OMPI_MCA_orte_tmpdir_base:-}" ]; then
    OMPI_MCA_orte_tmpdir_base=$(mktemp -d /tmp/spmv-ompi.XXXXXX)
    export OMPI_MCA_orte_tmpdir_base
    _own_ompi=$OMPI_MCA_orte_tmpdir_base
fi
_lib_cleanup() {
    [ -n "$_own_ompi" ] && rm -rf "$_own_ompi"
    if [ -n "$_own_tmp" ]; then
        if [ "$FAILED" = 0 ]; then rm -rf "$_own_tmp"; else echo "---- the failed checks' files are kept in $_own_tmp"; fi
    fi
}
trap _lib_cleanup EXIT

BY_NAME='function col(n) { return (n in C) ? $C[n] : "" } FNR == 1 { delete C; for (i = 1; i <= NF; i++) C[$i] = i; next }'

pass() { echo "PASS $1"; echo "PASS $1" >>"$RESULTS"; }
fail() { echo "FAIL $1: $2"; echo "FAIL $1" >>"$RESULTS"; FAILED=1; }
skip() { echo "SKIP $1: $2"; printf 'SKIP %s\t%s\n' "$1" "$2" >>"$RESULTS"; }   # run.sh: the reason after the tab

# what a check needs that a machine may lack (scripts/deps.sh installs it where it can)
need_tool() { # NAME TOOL [PACKAGE]
    case $2 in
        /*) [ -x "$2" ] && return 0 ;;
        *) command -v "$2" >/dev/null 2>&1 && return 0 ;;
    esac
    skip "$1" "$2 is not installed (apt-get install ${3:-$2}; scripts/deps.sh installs it where it can)"
    return 1
}
have_cpu_device() { "$BUILD/devices" 2>/dev/null | grep -qE '^[0-9]+:[0-9]+ +CPU '; }
need_cpu_device() { # NAME
    have_cpu_device && return 0
    skip "$1" "no OpenCL CPU device here (PoCL: apt-get install pocl-opencl-icd)"
    return 1
}
# the device the steps run on here, from step1's own "device" line
# (device   P:D NAME (KIND), PLATFORM); empty where there is none
device_info() {
    [ -n "${DEVICE_SEL:-}" ] && return 0
    local line
    line=$(SPMV_PROBE_MB=0 "$BUILD/step1" --grid 1 --runs 1 --warmup 0 2>/dev/null | grep -m 1 '^device ')
    DEVICE_TYPE=$(echo "$line" | sed -n 's/^device  *[0-9]*:[0-9]* .* (\([A-Z]*\)), .*/\1/p')
    DEVICE_SEL=$(echo "$line" | awk '{ print $2 }')
    DEVICE_NAME=$(echo "$line" | sed -n 's/^device  *[0-9]*:[0-9]* \(.*\) ([A-Z]*), .*/\1/p')
}

# STEPS="step3" (tests/run.sh --step 3): a script that loops over the steps
# tests those alone; unset, every step
want_step() { [ -z "${STEPS:-}" ] || [[ " $STEPS " == *" $1 "* ]]; }

limited() { # CPU_S CMD...
    local s=$1; shift
    ( ulimit -t "$s"; exec timeout 1800 "$@" )
}

_run() { # run CMD, keep stdout/stderr/status in $TMP
    "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    echo $? >"$TMP/status"
}
# skipped_build TARGET VAR=VALUE LINE BIN WHAT: `make -s TARGET` in a fresh build
# folder, with VAR=VALUE hiding a tool, says LINE alone, exits 0 and builds no BIN
skipped_build() {
    _run make -s -C "$ROOT" BUILD="$TMP/no-$1" "$2" "$1"
    if [ "$(cat "$TMP/status")" = 0 ] && grep -qxF -- "$3" "$TMP/out" && [ "$(grep -c . "$TMP/out")" = 1 ] &&
        [ ! -e "$TMP/no-$1/$4" ]; then
        pass "$5"
    else fail "$5" "status $(cat "$TMP/status"): $(tr '\n' '|' <"$TMP/out") $(head -c 300 "$TMP/err")"; fi
    rm -rf "$TMP/no-$1"
}

# all_pass NAME STATUS HEADER CMD...: CMD ends with STATUS and says "check: PASS"
# at least once, and once for each line that starts with HEADER where there
# are such lines (a kernel of step 6, a version of step 7); a device without
# doubles instead: status 3, said
all_pass() {
    local name=$1 want=$2 header=$3; shift 3
    _run "$@"
    local st; st=$(cat "$TMP/status")
    local n; n=$(grep -c '^check: PASS' "$TMP/out")
    local k; k=$(grep -c "^$header" "$TMP/out")
    if [ "$st" = 3 ] && grep -q 'cl_khr_fp64' "$TMP/out"; then
        pass "$name (skipped: no cl_khr_fp64)"
    elif [ "$st" = "$want" ] && [ "$n" -ge 1 ] && { [ "$k" = 0 ] || [ "$n" = "$k" ]; }; then
        pass "$name"
    else
        fail "$name" "status $st (want $want), $n PASS of $k: $(grep -E '^(solve|true|check|restart)|error' "$TMP/out" "$TMP/err" | tr '\n' ' ' | cut -c1-400)"
    fi
}

expect_ok() {
    local name=$1; shift
    _run "$@"
    local st; st=$(cat "$TMP/status")
    if [ "$st" = 0 ]; then pass "$name"; else fail "$name" "status $st: $(tail -n 3 "$TMP/err" "$TMP/out" | tr '\n' ' ')"; fi
}

expect_status() {
    local name=$1 want=$2; shift 2
    _run "$@"
    local st; st=$(cat "$TMP/status")
    if [ "$st" = "$want" ]; then pass "$name"; else fail "$name" "status $st, expected $want: $(tail -n 2 "$TMP/err" | tr '\n' ' ')"; fi
}

expect_error() {
    local name=$1 want=$2; shift 2
    _run "$@"
    local st; st=$(cat "$TMP/status")
    if [ "$st" != 2 ]; then
        fail "$name" "status $st, expected 2: $(tail -n 2 "$TMP/err" | tr '\n' ' ')"
    elif ! grep -qF -- "$want" "$TMP/err"; then
        fail "$name" "stderr lacks '$want': $(tr '\n' ' ' <"$TMP/err")"
    elif [ "$(grep -c . "$TMP/err")" -ne 1 ]; then
        fail "$name" "error is not one line: $(tr '\n' '|' <"$TMP/err")"
    else
        pass "$name"
    fi
}

expect_output() {
    local name=$1 re=$2; shift 2
    _run "$@"
    local st; st=$(cat "$TMP/status")
    if [ "$st" != 0 ]; then
        fail "$name" "status $st: $(tail -n 3 "$TMP/err" "$TMP/out" | tr '\n' ' ')"
    elif ! grep -qE -- "$re" "$TMP/out"; then
        fail "$name" "output lacks /$re/: $(tail -n 5 "$TMP/out" | tr '\n' ' ')"
    else
        pass "$name"
    fi
}

expect_oclgrind_finds() {
    local name=$1 re=$2 flags=$3; shift 3
    need_tool "$name" oclgrind || return 0
    # shellcheck disable=SC2086
    SPMV_PROBE_MB=0 SPMV_DEVICE= _run limited 600 oclgrind $flags "$@"   # its one device, whatever SPMV_DEVICE says
    if grep -qE -- "$re" "$TMP/err"; then
        pass "$name"
    else
        fail "$name" "oclgrind reported no /$re/: $(tail -n 2 "$TMP/err" | tr '\n' ' ')"
    fi
}

expect_oclgrind() {
    local name=$1 flags=$2; shift 2
    need_tool "$name" oclgrind || return 0
    # shellcheck disable=SC2086
    SPMV_PROBE_MB=0 SPMV_DEVICE= _run limited 600 oclgrind $flags "$@"   # its one device, whatever SPMV_DEVICE says
    local st; st=$(cat "$TMP/status")
    local found; found=$(grep -iE 'invalid|error|race|uninitiali[sz]ed' "$TMP/err" | sort | uniq -c | head -n 5)
    if [ "$st" != 0 ] || ! grep -q '^check: PASS' "$TMP/out"; then
        fail "$name" "status $st: $(tail -n 3 "$TMP/out" "$TMP/err" | tr '\n' ' ')"
    elif [ -n "$found" ]; then
        fail "$name" "oclgrind reported: $(echo "$found" | tr '\n' '|')"
    else
        pass "$name"
    fi
}
