#!/usr/bin/env bash
# plots/then-and-now.sh MODE [DATADIR] - the article's published numbers (the
# CSV rows whose check is PUBLISHED) beside today's measured rows, each
# against its own bound; rows chosen by plots/thenandnow.awk.
#   stepN    the Markdown table of chapter N (step0 .. step5)
#   all      the top README's table: per step, the best kernel of each device
#   update   rewrite the blocks between <!-- then-and-now:begin --> and
#            <!-- then-and-now:end --> in README.md (all) and stepN-*/README.md
#            (stepN); `make readme-table` runs it
#   dat DIR  the figure's data (draw.sh): DIR/thenandnow-model.dat and
#            -comp.dat (% of the model and of the compulsory bound, a column
#            per device, the article's first) and DIR/thenandnow.meta
# The article's rows are its published figures, never measurements: it gave
# one bound per step (the model's bytes at its peak bandwidth) and no
# compulsory bound, so its compulsory cells are "-".
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-}
DATA=$ROOT/plots/data
datout=""
case $mode in
    step[0-5]|all|update) DATA=${2:-$DATA} ;;
    dat) datout=${2:-}; DATA=${3:-$DATA}; [ -n "$datout" ] || mode="" ;;
    *) mode="" ;;
esac
if [ -z "$mode" ]; then
    echo "usage: plots/then-and-now.sh step0..step5 | all | update [DATADIR] | dat OUTDIR [DATADIR]" >&2
    exit 2
fi
shopt -s nullglob
csvs=("$DATA"/*.csv)
rows() { [ ${#csvs[@]} -gt 0 ] && awk -F, -f "$ROOT/plots/thenandnow.awk" "${csvs[@]}"; }

# The Markdown, from the rows: one table per step, or the summary of all steps.
table() { # WHAT (stepN or all)
    rows | awk -F'\t' -v what="$1" '
    function f(x) { return x >= 10 ? sprintf("%.1f", x) : sprintf("%.2f", x) }
    function pct(a, b) { return b > 0 ? sprintf("%.0f%%", 100 * a / b) : "-" }
    function bytes(bw, bm) { return bm > 0 ? sprintf("%.0f B", 2 * bw / bm) : "?" }
    { n++; for (i = 1; i <= 10; i++) F[n, i] = $i }
    $1 != "published" && !($1 in seen) { seen[$1] = 1; grp[++ng] = $1 }
    END {
        if (what != "all") {
            print "| device | kernel | grid | GFLOP/s | model bound (bytes per 2 FLOPs at the bandwidth) | % of it | compulsory bound | % of it |"
            print "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"
            for (r = 1; r <= n; r++) {
                s = F[r, 2]
                if (!(s == what || (s == "step1-4" && what ~ /^step[1-4]$/))) continue
                p = F[r, 1] == "published"
                dev = p ? F[r, 4] ", " F[r, 10] " (the article'"'"'s published figure, not a measurement)" : F[r, 4] " (" F[r, 10] ")"
                k = F[r, 3] (s == "step1-4" ? ", steps 1-4" : "")
                grid = p ? "the article'"'"'s sizes" (F[r, 5] ~ /average/ ? ", averaged" : "") : F[r, 5]
                printf "| %s | %s | %s | %s | %s (%s at %s GB/s%s) | %s | %s | %s |\n", dev, k, grid, f(F[r, 6]), f(F[r, 7]),
                    bytes(F[r, 9], F[r, 7]), f(F[r, 9]), p ? " peak" : "", pct(F[r, 6], F[r, 7]),
                    p ? "-" : f(F[r, 8]), p ? "-" : sprintf("%.1f%%", 100 * F[r, 6] / F[r, 8])
            }
            exit
        }
        # all: per step 1-5, the article and each device'"'"'s best kernel
        for (r = 1; r <= n; r++) {
            k = F[r, 1] SUBSEP F[r, 2]
            if (!(k in b) || F[r, 6] > F[b[k], 6]) b[k] = r
            if (F[r, 1] == "published" && F[r, 2] ~ /^step[1-5]$/) pubdev = F[r, 4]
            if (F[r, 1] != "published" && F[r, 2] != "step0") gdev[F[r, 1]] = F[r, 4]
        }
        h = "| step | " pubdev ", 2010 (published, not measured): GFLOP/s, % of its model bound |"; sep = "| --- | --- |"
        for (j = 1; j <= ng; j++) { h = h " " gdev[grp[j]] ": kernel, GFLOP/s | % of model bound | % of compulsory bound |"; sep = sep " --- | ---: | ---: |" }
        print h; print sep
        for (st = 1; st <= 5; st++) {
            s = "step" st; k = "published" SUBSEP s
            line = "| " s " | " ((k in b) ? f(F[b[k], 6]) ", " pct(F[b[k], 6], F[b[k], 7]) : "-") " |"
            for (j = 1; j <= ng; j++) {
                k = grp[j] SUBSEP s
                if (!(k in b)) { line = line " - | - | - |"; continue }
                r = b[k]
                line = line sprintf(" %s, %s | %s | %.1f%% |", F[r, 3], f(F[r, 6]), pct(F[r, 6], F[r, 7]), 100 * F[r, 6] / F[r, 8])
            }
            print line
        }
        for (r = 1; r <= n; r++) if (F[r, 1] == "published" && F[r, 2] !~ /^step[1-5]$/)
            printf "\n%s, %s (published, not measured), %s: %s GFLOP/s, %s of its bound of %s.\n", F[r, 4], F[r, 10],
                F[r, 2] == "step0" ? "the article'"'"'s " F[r, 3] : F[r, 3] " over " F[r, 2], f(F[r, 6]), pct(F[r, 6], F[r, 7]), f(F[r, 7])
    }'
}

case $mode in
    step*|all) table "$mode" ;;
    dat)
        mkdir -p "$datout"
        rows | awk -F'\t' -v out="$datout" '
            { n++; for (i = 1; i <= 10; i++) F[n, i] = $i }
            $1 != "published" && !($1 in seen) && $2 != "step0" { seen[$1] = 1; grp[++ng] = $1; gdev[$1] = $4 }
            $1 == "published" && $2 ~ /^step[1-5]$/ { pubdev = $4 }
            END {
                if (pubdev == "" || ng == 0) exit 1
                for (r = 1; r <= n; r++) { k = F[r, 1] SUBSEP F[r, 2]; if (!(k in b) || F[r, 6] > F[b[k], 6]) b[k] = r }
                split("naive aligned local float4 image", name, " ")
                for (m = 0; m < 2; m++) {
                    f = out "/thenandnow-" (m ? "comp" : "model") ".dat"
                    printf "idx step \"%s, 2010 (published)\"", pubdev > f
                    for (j = 1; j <= ng; j++) printf " \"%s (measured)\"", gdev[grp[j]] > f
                    printf "\n" > f
                    for (st = 1; st <= 5; st++) {
                        s = "step" st; k = "published" SUBSEP s
                        printf "%d \"%s %s\" %s", st - 1, s, name[st], (!m && (k in b)) ? sprintf("%.4g", 100 * F[b[k], 6] / F[b[k], 7]) : "NaN" > f
                        for (j = 1; j <= ng; j++) {
                            k = grp[j] SUBSEP s; r = b[k]
                            printf " %s", !(k in b) ? "NaN" : sprintf("%.4g", 100 * F[r, 6] / (m ? F[r, 8] : F[r, 7])) > f
                        }
                        printf "\n" > f
                    }
                    close(f)
                }
                for (r = 1; r <= n; r++) if (F[r, 1] != "published") { if (lo == "" || F[r, 10] < lo) lo = F[r, 10]; if (F[r, 10] > hi) hi = F[r, 10] }
                printf "ndev\t%d\ndates\t%s\n", ng + 1, lo == hi ? lo : lo " to " hi > (out "/thenandnow.meta")
            }' ;;
    update)
        for readme in "$ROOT/README.md" "$ROOT"/step[0-5]-*/README.md; do
            grep -qxF '<!-- then-and-now:begin -->' "$readme" || continue
            d=$(basename "$(dirname "$readme")")
            what=all
            [ "$readme" = "$ROOT/README.md" ] || what=${d%%-*}
            t=$(mktemp)
            table "$what" >"$t"
            awk -v t="$t" '$0 == "<!-- then-and-now:begin -->" { print; while ((getline l < t) > 0) print l; skip = 1; next }
                $0 == "<!-- then-and-now:end -->" { skip = 0 } !skip' "$readme" >"$t.new" && cat "$t.new" >"$readme"
            rm -f "$t" "$t.new"
            echo "then-and-now: ${readme#"$ROOT"/}"
        done ;;
esac
