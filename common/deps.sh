#!/usr/bin/env bash
# common/deps.sh [run] - check what the course needs and install what is missing.
#
# Needs: the OpenCL headers and ICD loader (to build), an OpenCL driver (PoCL
# runs OpenCL on the CPU, so any laptop will do), gnuplot (figures), oclgrind
# (the kernel bounds checks in `make test`) and GNU time (the tests' memory
# limits). On Debian/Ubuntu it
# installs them with apt-get when run as root or with password-less sudo;
# otherwise it prints the one command to run and exits 2.
set -u
missing=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
need() { # need PACKAGE TEST...
    local pkg=$1; shift
    if ! "$@" >/dev/null 2>&1 && ! have_pkg "$pkg"; then missing+=("$pkg"); fi
}
header() { printf '#include <CL/cl.h>\n' | ${CC:-gcc} -DCL_TARGET_OPENCL_VERSION=120 -E -x c - -o /dev/null; }
loader() {
    local d
    for d in /usr/lib/*-linux-gnu /usr/lib /usr/local/lib $(echo "${LIBRARY_PATH:-}" | tr ':' ' '); do
        [ -e "$d/libOpenCL.so" ] && return 0
    done
    return 1
}
icd() { ls /etc/OpenCL/vendors/*.icd ${OCL_ICD_VENDORS:-/nonexistent}/*.icd 2>/dev/null | grep -q .; }

need opencl-c-headers header
need ocl-icd-opencl-dev loader
need pocl-opencl-icd icd
# `common/deps.sh run` (make run) needs only what builds and runs the steps, so
# a GPU machine with its vendor's driver and no network runs the course as it is
if [ "${1:-all}" != run ]; then
    need gnuplot-nox command -v gnuplot
    need oclgrind command -v oclgrind
    need time test -x /usr/bin/time   # the tests' resident-memory limits (tests/t_host.sh)
fi
command -v ${CC:-gcc} >/dev/null 2>&1 || missing+=(gcc)
command -v make >/dev/null 2>&1 || missing+=(make)

[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "deps: missing ${missing[*]}: install the OpenCL headers, ICD loader, an OpenCL driver (PoCL), gnuplot and oclgrind with your package manager" >&2
    exit 2
fi
if [ "$(id -u)" = 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo="sudo"
else
    echo "deps: missing packages; run: sudo apt-get install -y ${missing[*]}" >&2
    exit 2
fi
echo "deps: installing ${missing[*]} with apt-get"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null || { echo "deps: apt-get update failed; run: sudo apt-get install -y ${missing[*]}" >&2; exit 2; }
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null || { echo "deps: apt-get install failed; run: sudo apt-get install -y ${missing[*]}" >&2; exit 2; }
echo "deps: installed ${missing[*]}"
