#!/usr/bin/env bash
# plots/migrate.sh CSV... - bring results CSVs written before the probe's copy
# and read columns to today's header, in place.
#
# The binaries once wrote 22 columns, ending date,git_rev; now two more follow,
# bw_copy_gbs and bw_read_gbs (the probe's two medians; bw_measured_gbs, the
# faster of them, was all an older row kept). Migrating adds the two columns to
# the header and leaves them empty in every older row: the numbers were not
# kept, so none is made up (the roofline then draws the one measured slope).
# A file with a round column first (plots/rounds/) keeps it. A file already in
# today's schema is left as it is; any other header, or a row whose columns do
# not match its header, is refused (exit 2) and the file left untouched.
# figures.sh runs it on the file a sweep appends to.
set -u
HEADER=step,kernel,device,driver,matrix,rows,cols,nnz,diags,precision,runs,ms_median,ms_min,gflops,gbs,bw_measured_gbs,bound_model_gflops,bound_compulsory_gflops,max_rel_err,check,date,git_rev,bw_copy_gbs,bw_read_gbs
ADDED=,bw_copy_gbs,bw_read_gbs
OLD=${HEADER%"$ADDED"}

if [ $# -eq 0 ]; then
    echo "usage: plots/migrate.sh CSV... (adds the empty columns${ADDED//,/ } to results CSVs of the older schema)" >&2
    exit 2
fi
status=0
for f in "$@"; do
    if [ ! -f "$f" ]; then
        echo "migrate: $f: no such file" >&2
        status=2
        continue
    fi
    head=$(head -n 1 "$f" | tr -d '\r')
    case $head in
        "$HEADER" | "round,$HEADER") echo "migrate: $f: already has${ADDED//,/ }"; continue ;;
        "$OLD" | "round,$OLD") ;;
        *) echo "migrate: $f: not a results CSV of either schema (its header: ${head:0:60}...); left as it is" >&2
           status=2; continue ;;
    esac
    tmp=$(mktemp "$f.XXXXXX") || { status=2; continue; }
    if awk -F, -v added="$ADDED" 'NR == 1 { n = NF; print $0 added; next }
            NF != n { printf "migrate: %s line %d: %d columns, its header %d\n", FILENAME, NR, NF, n > "/dev/stderr"; exit 1 }
            { print $0 "," "," }' "$f" >"$tmp"; then
        # the file keeps its mode; only its content changes
        cat "$tmp" >"$f" && echo "migrate: $f: added${ADDED//,/ } (empty in its $(($(wc -l <"$f") - 1)) rows)"
    else
        echo "migrate: $f: left as it is" >&2
        status=2
    fi
    rm -f "$tmp"
done
exit $status
