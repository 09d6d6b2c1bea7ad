#!/usr/bin/env bash
# plots/draw.sh [INDIR [OUTDIR]] - what `make plots` does: redraw every figure
# from the results CSVs in INDIR (default plots/data), as PNG and SVG in OUTDIR
# (default plots). Needs only bash, awk and gnuplot; no OpenCL.
#
# Per CSV (one per device; SLUG is its file name without .csv):
#   fig-STEP-SLUG       a DIA step: GFLOP/s against rows, its model and compulsory bounds
#   fig-dia-SLUG        every DIA step on one plot
#   fig-bars-SLUG       a bar per step at the largest grid every step ran with all its kernels, % of compulsory
#   fig-step6-SLUG      step6 (CSR): per matrix (the grid and the real ones), scalar, vector
#                       and adaptive, a panel per precision, cuSPARSE as a line where
#                       vendor/cusparse ran
#   fig-cg-SLUG         chapter 7 (a file cg-SLUG.csv): ms per CG iteration against rows,
#                       and fig-cg-residual from INDIR/cg-history/ (plots/cg-draw.sh)
#   fig-mpi-SLUG        chapter 8 (INDIR/mpi/SLUG.csv): the model of an iteration on 1 to
#                       1024 ranks, weak and strong (step8-mpi/model/model.sh), PNG only
#   fig-irregular-SLUG  step6 on the generated irregular matrices (--gen: power-law,
#                       arrow): a bar per kernel with its % of the compulsory bound,
#                       cuSPARSE as a line, step6's own choice marked (INDIR/choice/SLUG.csv)
#   fig-roofline-SLUG   GFLOP/s against FLOPs per byte (log-log) under the probe's slopes
#                       (read and copy; the one measured bandwidth where the data has no
#                       others): each step at its model and compulsory intensity, step6 per precision
# and, when more than one device has data:
#   fig-devices         % of the compulsory bound per step, a bar group per device
# and, when a CSV holds the article's published figures (check PUBLISHED) and
# another holds measurements:
#   fig-thenandnow      % of the model and of the compulsory bound per step: the
#                       article's 2010 GPU (published, hatched) beside each device
# A published row is never drawn as a measurement: prep.awk and the README table
# take PASS rows only; plots/then-and-now.sh reads the PUBLISHED ones.
# A figure with no data for a device is not drawn. FAIL and ERROR rows are
# listed in a footnote, never drawn as speeds; SKIP rows are named in the title.
# DRAW_WORK=DIR keeps the filtered .dat files there (the tests read them).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PLOTS=$ROOT/plots
IN=${1:-$PLOTS/data}
OUT=${2:-$PLOTS}
HEADER=step,kernel,device,driver,matrix,rows,cols,nnz,diags,precision,runs,ms_median,ms_min,gflops,gbs,bw_measured_gbs,bound_model_gflops,bound_compulsory_gflops,max_rel_err,check,date,git_rev,bw_copy_gbs,bw_read_gbs

if ! command -v gnuplot >/dev/null; then
    echo "draw: gnuplot is not installed (apt-get install gnuplot-nox)" >&2
    exit 2
fi
if [ -n "${DRAW_WORK:-}" ]; then
    W=$DRAW_WORK
    mkdir -p "$W"
else
    W=$(mktemp -d)
    trap 'rm -rf "$W"' EXIT
fi
mkdir -p "$OUT"

q() { local s=${1//\'/\'\'}; printf "'%s'" "$s"; }   # a gnuplot single-quoted string
gp() { # SCRIPT NAME=VALUE...: run one figure script; values are strings unless NAME is numeric (n:NAME)
    local script=$1 e="dir=$(q "$PLOTS/")" a
    shift
    for a in "$@"; do
        case $a in
            n:*) a=${a#n:}; e="$e; ${a%%=*}=${a#*=}" ;;
            *) e="$e; ${a%%=*}=$(q "${a#*=}")" ;;
        esac
    done
    gnuplot -e "$e" "$PLOTS/$script"
}
footnote() { # NOTES-FILE GROUP...: "not plotted: a, b, c and N more"
    local f=$1
    shift
    [ -s "$f" ] || return 0
    awk -F'\t' -v groups=" $* " 'index(groups, " " $1 " ") { t[++n] = $2 }
        END { if (!n) exit; s = "not plotted (no speed): "; for (i = 1; i <= n && i <= 4; i++) s = s (i > 1 ? ", " : "") t[i]
              if (n > 4) s = s sprintf(" and %d more", n - 4); print s }' "$f"
}
drawn=0
say() { echo "draw: $1"; drawn=$((drawn + 1)); }

shopt -s nullglob
csvs=("$IN"/*.csv)
if [ ${#csvs[@]} -eq 0 ]; then
    echo "draw: no results in $IN (make figures writes them)"
    exit 0
fi
devs=()
for csv in "${csvs[@]}"; do
    slug=$(basename "$csv" .csv)
    case $slug in cg-*) continue ;; esac   # chapter 7's CG rows: plots/cg-draw.sh
    # today's header, or the older one without bw_copy_gbs and bw_read_gbs
    # (prep.awk reads columns by name: such a roofline has the one measured slope)
    case $(head -n 1 "$csv" | tr -d '\r') in
        "$HEADER" | "${HEADER%,bw_copy_gbs,bw_read_gbs}") ;;
        *) echo "draw: $csv does not start with the results header; left out" >&2
           continue ;;
    esac
    chf=""
    [ -f "$IN/choice/$slug.csv" ] && chf=$IN/choice/$slug.csv
    awk -F, -v W="$W" -v slug="$slug" -v choice="$chf" -f "$PLOTS/prep.awk" "$csv"
    declare -A M=()
    while IFS=$'\t' read -r k v; do M[$k]=$v; done <"$W/$slug.meta"
    notes=$W/$slug.notes
    common=(dev="${M[device]}" dates="${M[dates]}" host="${M[host]}")

    # a. one figure per DIA step; b. all of them together
    allf="" alllt="" allextra=8   # in the all-steps figure a step's second kernel gets a colour of its own
    for s in step0 step1 step2 step3 step4 step5; do
        files="" lts="" extra=8
        for entry in ${M[dia]}; do
            IFS='|' read -r st k f <<<"$entry"
            [ "$st" = "$s" ] || continue
            if [ -z "$files" ]; then
                lt=$((${s#step} + 1)) allt=$lt
            else
                lt=$extra allt=$allextra
                extra=$((extra + 1)) allextra=$((allextra + 1))
            fi
            files="$files${files:+ }$f" lts="$lts${lts:+ }$lt"
            allf="$allf${allf:+ }$f" alllt="$alllt${alllt:+ }$allt"
        done
        [ -n "$files" ] || continue
        what=$s
        [ "$s" = step0 ] && what="step0 (C on the host: ${M[host]})"
        gp step.gp files="$files" lts="$lts" what="$what" "${common[@]}" out="$OUT/fig-$s-$slug" \
            foot="$(footnote "$notes" "$s")"
        say "fig-$s-$slug"
    done
    if [ -n "$allf" ]; then
        comp=${M[comp]:-${M[comp0]}} comp0=""
        [ -n "${M[comp]:-}" ] && comp0=${M[comp0]:-}
        gp dia.gp files="$allf" lts="$alllt" comp="$comp" comp0="$comp0" "${common[@]}" out="$OUT/fig-dia-$slug" \
            foot="$(footnote "$notes" step0 step1 step2 step3 step4 step5)"
        say "fig-dia-$slug"
    fi
    # c. bars at the largest grid every step ran with all its kernels
    if [ -n "${M[bars]:-}" ]; then
        size=${M[bars_size]}
        [ "${M[bars_all]}" = 1 ] || size="$size (not every step ran one size: the one most did)"
        gp bars.gp file="${M[bars]}" size="$size" "${common[@]}" out="$OUT/fig-bars-$slug" \
            foot="$(footnote "$notes" step0 step1 step2 step3 step4 step5)"
        say "fig-bars-$slug"
        devs+=("$slug")
    fi
    # c'. the roofline: the bars' steps and step6 per precision under the bandwidth slopes
    if [ -n "${M[roof]:-}" ] && [ -n "${M[roof_bw]:-}" ]; then
        gp roofline.gp file="${M[roof]}" n:n="${M[roof_n]}" n:nm="${M[roof_nm]}" bw="${M[roof_bw]}" bw0="${M[roof_bw0]}" \
            bwr="${M[roof_bwr]}" bwc="${M[roof_bwc]}" \
            xr="${M[roof_x]}" yr="${M[roof_y]}" "${common[@]}" out="$OUT/fig-roofline-$slug" \
            rangefile="$W/$slug-roof.range" foot="$(footnote "$notes" step0 step1 step2 step3 step4 step5 csr)"
        say "fig-roofline-$slug"
    fi
    # d. step6, a panel per precision
    if [ -n "${M[csr]:-}" ]; then
        files=""
        for p in ${M[csr]}; do files="$files${files:+ }$W/$slug-csr-$p.dat"; done
        skips=$(printf '%s' "${M[skips]}" | tr ',' '\n' | sed -n 's/^ *step6 //p' | tr '\n' ' ' | sed 's/ $//')
        gp csr.gp files="$files" precs="${M[csr]}" flags="${M[csr_flags]}" n:nmat="${M[csr_n]}" n:ymin="${M[csr_ymin]}" \
            n:ymax="${M[csr_ymax]}" skips="$skips" "${common[@]}" out="$OUT/fig-step6-$slug" \
            foot="$(footnote "$notes" csr)"
        say "fig-step6-$slug"
    fi
    # e. step6 on the irregular matrices, a panel per precision
    if [ -n "${M[irr]:-}" ]; then
        files=""
        for p in ${M[irr]}; do files="$files${files:+ }$W/$slug-irr-$p.dat"; done
        gp irregular.gp files="$files" precs="${M[irr]}" flags="${M[irr_flags]}" n:nmat="${M[irr_n]}" n:ymin="${M[irr_ymin]}" \
            n:ymax="${M[irr_ymax]}" "${common[@]}" out="$OUT/fig-irregular-$slug" foot="$(footnote "$notes" csr)"
        say "fig-irregular-$slug"
    fi
    echo "${M[device]}" >"$W/$slug.device"
    unset M
done

# e. more than one device: % of the compulsory bound per step, a group per device
if [ ${#devs[@]} -gt 1 ]; then
    for slug in "${devs[@]}"; do
        awk -v d="$(cat "$W/$slug.device")" 'NR > 1 { split($0, a, "\""); split(a[2], w, " ");
            s = w[1] == "step6" ? "step6 CSR" : w[1]; print d "\t" s "\t" $NF }' "$W/$slug-bars.dat"
    done >"$W/devices.tsv"
    awk -F'\t' '{ if (!($2 in seen)) { seen[$2] = 1; cols[++nc] = $2 } if (!($1 in dseen)) { dseen[$1] = 1; devs[++nd] = $1 }
            v[$1, $2] = $3 }
        END { n = 0; for (i = 1; i <= nc; i++) order[++n] = cols[i]
              for (i = 2; i <= n; i++) { t = order[i]; for (j = i - 1; j >= 1 && order[j] > t; j--) order[j + 1] = order[j]; order[j + 1] = t }
              printf "device"; for (i = 1; i <= n; i++) printf " \"%s\"", order[i]; print ""
              for (d = 1; d <= nd; d++) { printf "\"%s\"", devs[d]
                  for (i = 1; i <= n; i++) printf " %s", ((devs[d], order[i]) in v) ? v[devs[d], order[i]] : "NaN"; print "" }
              lts = ""; for (i = 1; i <= n; i++) { s = order[i]; sub(/^step/, "", s); lts = lts (i > 1 ? " " : "") (s + 1) }
              print lts > "/dev/stderr" }' "$W/devices.tsv" >"$W/devices.dat" 2>"$W/devices.lts"
    dates=$(for slug in "${devs[@]}"; do awk -F'\t' '$1 == "dates" { print $2 }' "$W/$slug.meta"; done |
        tr ' ' '\n' | grep -E '^[0-9]{4}-' | sort | awk 'NR == 1 { a = $0 } { b = $0 } END { print a == b ? a : a " to " b }')
    ncol=$(( $(head -n 1 "$W/devices.dat" | grep -o '"' | wc -l) / 2 + 1 ))
    gp devices.gp file="$W/devices.dat" n:ncol="$ncol" lts="$(cat "$W/devices.lts")" dates="$dates" out="$OUT/fig-devices"
    say "fig-devices (${#devs[@]} devices)"
fi
# g. chapter 7: ms per CG iteration per device, the residual history
. "$PLOTS/cg-draw.sh"
# h. chapter 8: the model of an iteration on P ranks, weak and strong, per device
for f in "$IN"/mpi/*.csv; do
    [ -s "$f" ] || continue
    slug=$(basename "$f" .csv)
    case $slug in *-step7|*-petsc|*-cuda|rounding-*) continue ;; esac
    if "$ROOT/step8-mpi/model/model.sh" "$f" "$OUT/fig-mpi-$slug.png" >/dev/null 2>&1; then
        say "fig-mpi-$slug (chapter 8's model)"
    fi
done
# f. then and now: the article's published figures beside today's measurements
if "$PLOTS/then-and-now.sh" dat "$W" "$IN" 2>/dev/null; then
    nd=$(awk -F'\t' '$1 == "ndev" { print $2 }' "$W/thenandnow.meta")
    dates=$(awk -F'\t' '$1 == "dates" { print $2 }' "$W/thenandnow.meta")
    gp thenandnow.gp model="$W/thenandnow-model.dat" comp="$W/thenandnow-comp.dat" n:nd="$nd" dates="$dates" out="$OUT/fig-thenandnow"
    say "fig-thenandnow (the article's published figures and $((nd - 1)) measured devices)"
fi
echo "draw: $drawn figures (PNG and SVG) in $OUT"
