#!/usr/bin/env bash
# scripts/deps.sh [run] - check what the course needs and install what is missing.
#
# Required (nothing builds or runs without them): a C compiler, make, the
# OpenCL headers and ICD loader, Open MPI (chapter 8), and an OpenCL driver (PoCL runs OpenCL on the
# CPU, so any laptop will do). Optional: gnuplot (the chart of `make run`);
# for `make test` (no argument) also oclgrind (the kernel bounds checks), GNU
# time (the tests' memory limits), SciPy (an outside check of saved files,
# chapter 7's SciPy yardstick), PETSc (petsc-dev: chapter 7's KSPCG yardstick,
# about 500 MB and under a minute to install) and, beside another driver (a GPU's), PoCL
# (the tests that need a CPU device). On Debian/Ubuntu it installs what is
# missing with apt-get when run as root or with password-less sudo.
# What it cannot install: a required package stops it, with the one command
# to run (status 2); an optional one does not (status 0): `make run` goes on
# and its chart says how to get gnuplot; `make test` says in one line what is
# missing, and the tests that need it are reported as SKIP.
# DEPS_TRIED=FILE (the Makefile's build/.deps-tried) keeps the optional
# packages an install could not get, so that `run` does not try them again on
# every run of a machine with no package network (`make clean` forgets them).
set -u
mode=${1:-all}
missing=() optional=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
need() { # need PACKAGE TEST...: required
    local pkg=$1; shift
    if ! "$@" >/dev/null 2>&1 && ! have_pkg "$pkg"; then missing+=("$pkg"); fi
}
want() { # want PACKAGE TEST...: optional
    local pkg=$1; shift
    if ! "$@" >/dev/null 2>&1 && ! have_pkg "$pkg"; then optional+=("$pkg"); fi
}
header() { printf '#include <CL/cl.h>\n' | ${CC:-gcc} -DCL_TARGET_OPENCL_VERSION=120 -E -x c - -o /dev/null; }
loader() {
    local d
    for d in /usr/lib/*-linux-gnu /usr/lib /usr/local/lib $(echo "${LIBRARY_PATH:-}" | tr ':' ' '); do
        [ -e "$d/libOpenCL.so" ] && return 0
    done
    return 1
}
icds() { # the drivers the ICD loader reads: OCL_ICD_VENDORS (a folder, or one file) in place of /etc/OpenCL/vendors
    local v=${OCL_ICD_VENDORS:-/etc/OpenCL/vendors}
    if [ -d "$v" ]; then ls "$v"/*.icd 2>/dev/null; elif [ -f "$v" ]; then echo "$v"; fi
}
icd() { icds | grep -q .; }
pocl() { icds | grep -qi pocl; }
mpicc_() { command -v mpicc; }
mpirun_() { command -v mpirun; }
petsc() { pkg-config --exists petsc 2>/dev/null || test -e /usr/lib/petsc/include/petsc.h; }

need opencl-c-headers header
need ocl-icd-opencl-dev loader
need pocl-opencl-icd icd
need libopenmpi-dev mpicc_   # chapter 8: its ranks talk through MPI (Open MPI)
need openmpi-bin mpirun_
command -v ${CC:-gcc} >/dev/null 2>&1 || missing+=(gcc)
command -v make >/dev/null 2>&1 || missing+=(make)
want gnuplot-nox command -v gnuplot
# `make run` needs no more; a GPU machine with its vendor's driver and no
# network runs the course as it is
if [ "$mode" != run ]; then
    want oclgrind command -v oclgrind
    want time test -x /usr/bin/time   # the tests' resident-memory limits (tests/t_common_host.sh)
    want python3-scipy /usr/bin/python3 -c 'import scipy'   # an outside check of the saved A, x, y (tests/t_common_io.sh)
    want petsc-dev petsc   # chapter 7's PETSc yardstick (make petsc, tests/t_step7_vendor.sh)
    icd && want pocl-opencl-icd pocl  # beside a GPU's driver: the tests' CPU device
fi
all=("${missing[@]}" "${optional[@]}")
[ ${#all[@]} -eq 0 ] && exit 0

# say_optional WHY: the optional packages left out, in one line (make run: its chart says it)
say_optional() {
    [ "$mode" = run ] && return
    echo "deps: $1: ${optional[*]}; the tests that need them are reported as SKIP" \
         "(to install them: sudo apt-get install -y ${optional[*]})"
}
# run mode: what an earlier install could not get is not tried again
if [ "$mode" = run ] && [ ${#missing[@]} -eq 0 ] && [ -n "${DEPS_TRIED:-}" ] && [ -f "$DEPS_TRIED" ]; then
    again=0
    for p in "${optional[@]}"; do grep -qxF "$p" "$DEPS_TRIED" || again=1; done
    [ $again = 0 ] && exit 0
fi

sudo=none
if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        sudo=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo="sudo"
    fi
fi
if [ "$sudo" = none ]; then
    if [ ${#missing[@]} -gt 0 ]; then
        if ! command -v apt-get >/dev/null 2>&1; then
            echo "deps: missing ${all[*]}: install the OpenCL headers, ICD loader, an OpenCL driver (PoCL), gnuplot and oclgrind with your package manager" >&2
        else
            echo "deps: missing packages; run: sudo apt-get install -y ${all[*]}" >&2
        fi
        exit 2
    fi
    say_optional "not installed here"
    exit 0
fi

echo "deps: installing ${all[*]} with apt-get"
export DEBIAN_FRONTEND=noninteractive
# no package network: fail within a minute, not after apt's two-minute timeouts
net=(-o Acquire::Retries=0 -o Acquire::http::Timeout=20 -o Acquire::https::Timeout=20)
# apt's own messages are shown only when a required package fails
why=""
if ! log=$($sudo apt-get update -qq "${net[@]}" 2>&1); then
    why="apt-get update failed"
elif log=$($sudo apt-get install -y -qq "${all[@]}" "${net[@]}" 2>&1); then
    [ -n "${DEPS_TRIED:-}" ] && rm -f "$DEPS_TRIED"
    echo "deps: installed ${all[*]}"
    exit 0
else
    why="apt-get install failed"
    # one package that cannot be had keeps none of the others out: the
    # required ones together, then each optional one alone
    if [ ${#missing[@]} -eq 0 ] || log=$($sudo apt-get install -y -qq "${missing[@]}" "${net[@]}" 2>&1); then missing=(); fi
    left=()
    for p in "${optional[@]}"; do $sudo apt-get install -y -qq "$p" "${net[@]}" >/dev/null 2>&1 || left+=("$p"); done
    optional=("${left[@]}")
fi
if [ ${#missing[@]} -gt 0 ]; then
    [ -n "$log" ] && echo "$log" | tail -n 5 >&2
    echo "deps: $why; run: sudo apt-get install -y ${all[*]}" >&2
    exit 2
fi
if [ ${#optional[@]} -gt 0 ]; then
    [ -n "${DEPS_TRIED:-}" ] && { mkdir -p "${DEPS_TRIED%/*}" && printf '%s\n' "${optional[@]}" >"$DEPS_TRIED"; } 2>/dev/null
    say_optional "$why, so these are not installed"
else
    [ -n "${DEPS_TRIED:-}" ] && rm -f "$DEPS_TRIED"
    echo "deps: installed ${all[*]}"
fi
exit 0
