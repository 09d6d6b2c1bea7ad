#!/usr/bin/env bash
# plots/blocks/mpi-model.sh SLUG [p=s|d] - chapter 8's model
# (step8-mpi/model/model.sh) run on plots/data/mpi/SLUG.csv, its output as
# it prints it, in a code block: with p=, the groups of that precision only;
# of the predictions past the runs, P = 1, 2, 4, 16, 64, 256 and 1024.
set -u
f=plots/data/mpi/$1.csv
if [ ! -s "$f" ]; then
    echo "(no chapter 8 data for $1 yet: plots/mpi-sweep.sh on that device writes it)"
    exit 0
fi
prec=
for a in "${@:2}"; do case $a in p=*) prec=${a#p=} ;; esac; done
echo '```'
step8-mpi/model/model.sh "$f" | awk -v p="$prec" '
    /^model / { split($0, w, ", "); keep = p == "" || w[2] == p }
    /^worst/ { keep = 1 }
    keep && NF == 5 && $1 ~ /^[0-9]+$/ && $1 !~ /^(1|2|4|16|64|256|1024)$/ { next }
    keep'
echo '```'
