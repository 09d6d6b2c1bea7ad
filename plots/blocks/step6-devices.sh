#!/usr/bin/env bash
# plots/blocks/step6-devices.sh SLUG MATRIX... - chapter 6's "What you should
# see" for one device: the MATRIX rows (grid and real matrices) of the latest
# step6 sweep in plots/data/SLUG.csv, in float and double, then the matrices
# of the latest run of the adaptive kernel in plots/irregular/SLUG*.csv; every
# kernel (and cuSPARSE where measured), GFLOP/s and % of the compulsory bound.
# The short-row sweeps (SLUG-short-rows.csv) are step6-short.sh's, not read here.
# STEP6_DATA and STEP6_IRREGULAR name other folders (the tests use them).
set -u
if [ $# -lt 2 ]; then echo "usage: plots/blocks/step6-devices.sh SLUG MATRIX..." >&2; exit 2; fi
slug=$1; shift
data=${STEP6_DATA:-plots/data}/$slug.csv
shopt -s nullglob
irr=()
for f in "${STEP6_IRREGULAR:-plots/irregular}/$slug"*.csv; do
    case $f in *-short-rows.csv) ;; *) irr+=("$f") ;; esac
done
if [ ! -f "$data" ]; then echo "step6-devices: $data not found" >&2; exit 2; fi
exec awk -F, -v mode=devices -v data="$data" -v pick="$*" -v precs=sd \
    -f "$(dirname "$0")/step6.awk" "$data" "${irr[@]}"
