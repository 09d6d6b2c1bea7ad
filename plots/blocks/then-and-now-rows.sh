#!/usr/bin/env bash
# plots/blocks/then-and-now-rows.sh stepN|all - where the measured rows of a
# then-and-now table come from (plots/blocks.sh runs it for
# <!-- block:then-and-now-rows stepN -->, under the table): the rows that
# plots/thenandnow.awk picks, as plots/then-and-now.sh does, grouped by their
# own device, driver, git_rev and date columns. Exit 2: a bad argument.
set -u
what=${1:-}
case $what in step[0-5]|all) ;; *) echo "usage: plots/blocks/then-and-now-rows.sh step0..step5|all" >&2; exit 2 ;; esac
awk -F, -f plots/thenandnow.awk plots/data/*.csv | awk -F'\t' -v what="$what" '
$1 == "published" { next }
what == "all" && $2 == "step0" { next }
what != "all" && $2 != what { next }
{ k = $4 " (" $11 ")"; if (!(k in seen)) { seen[k] = 1; order[++n] = k }
  r = $12 " of " $10; if (!((k, r) in have)) { have[k, r] = 1; revs[k] = revs[k] (revs[k] ? ", " : "") r } }
END {
    if (n == 0) { print "then-and-now-rows: no measured rows for " what > "/dev/stderr"; exit 2 }
    printf "Measured rows: "
    for (i = 1; i <= n; i++) printf "%s%s, `make figures` at %s", (i > 1 ? "; " : ""), order[i], revs[order[i]]
    print " (`plots/data/`)."
}'
