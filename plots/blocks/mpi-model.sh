#!/usr/bin/env bash
# plots/blocks/mpi-model.sh SLUG [p=s|d] - chapter 8's model
# (step8-mpi/model/model.sh) run on plots/data/mpi/SLUG.csv, its output as
# it prints it, in a code block: with p=, on the rows of that precision only
# (so its overall errors are theirs); its summary lines, not each row's
# (model.sh prints those); of the predictions past the runs, P = 1, 4, 8,
# 16, 32, 64 and 1024. With `brief`, only the fit rule, each version's
# fitted parts and its fit and held-out errors, and the overall errors (the
# chapter's summary; step8-mpi/model/README.md has the whole output).
set -u
f=plots/data/mpi/$1.csv
if [ ! -s "$f" ]; then
    echo "(no chapter 8 data for $1 yet: plots/mpi-sweep.sh on that device writes it)"
    exit 0
fi
prec= brief=0
for a in "${@:2}"; do
    case $a in
        p=*) prec=${a#p=} ;;
        brief) brief=1 ;;
        *) echo "mpi-model.sh: unknown argument '$a' (p=s|d, brief)" >&2; exit 2 ;;
    esac
done
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
awk -F, -v p="$prec" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "precision") c = i; print; next } p == "" || $c == p' "$f" >"$rows"
echo '```'
step8-mpi/model/model.sh "$rows" | awk -v brief="$brief" '
    brief && !/^(fit|model|overall|held-out [0-9])/ { next }
    $1 ~ /^[0-9]+$/ && ($NF == "fit" || $NF == "held-out") || $1 == "ranks" && $2 == "grid" { next }
    NF == 5 && $1 ~ /^[0-9]+$/ && $1 !~ /^(1|4|8|16|32|64|1024)$/ { next }
    { print }'
echo '```'
