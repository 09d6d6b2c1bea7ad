#!/usr/bin/env bash
# plots/blocks/mpi-model.sh SLUG [ROWS] - chapter 8's model
# (step8-mpi/model/model.sh) run on plots/data/mpi/SLUG.csv, its output as
# it prints it, in a code block; ROWS the weak-scaling rows a rank.
set -u
f=plots/data/mpi/$1.csv
if [ ! -s "$f" ]; then
    echo "(no chapter 8 data for $1 yet: plots/mpi-sweep.sh on that device writes it)"
    exit 0
fi
echo '```'
ROWS=${2:-16777216} step8-mpi/model/model.sh "$f"
echo '```'
