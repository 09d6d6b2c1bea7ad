# plots/cg-draw.sh - chapter 7's figures; sourced by plots/draw.sh (its gp,
# say, W, IN, OUT and PLOTS), never run alone.
#   fig-cg-SLUG       IN/cg-SLUG.csv: ms per CG iteration against rows, step7
#                     plain and fused and each yardstick, the compulsory bound;
#                     a panel per precision with data (plots/cg.gp)
#   fig-cg-residual   IN/cg-history/MATRIX.csv: the residual against the
#                     iteration on a real SPD matrix, per solver and precision
#                     (plots/cg-residual.gp; plots/cg-history.sh writes the data)
CG_HEADER=step,kernel,device,driver,matrix,rows,cols,nnz,precision,iterations,check_every,extra_iterations,converged,rel_residual,true_residual,tol,ms_per_iter,ms_total,spmv_ms_per_iter,vector_ms_per_iter,wait_ms_per_iter,launches_per_iter,bytes_per_iter,bytes_compulsory_per_iter,bw_measured_gbs,pct_version_bound,pct_compulsory,check,date,git_rev
for csv in "$IN"/cg-*.csv; do
    slug=$(basename "$csv" .csv)
    slug=${slug#cg-}
    if [ "$(head -n 1 "$csv" | tr -d '\r')" != "$CG_HEADER" ]; then
        echo "draw: $csv does not start with chapter 7's CG header; left out" >&2
        continue
    fi
    awk -F, -v W="$W" -v slug="$slug" -f "$PLOTS/cg-prep.awk" "$csv"
    declare -A C=()
    while IFS=$'\t' read -r k v; do C[$k]=$v; done <"$W/$slug-cg.meta"
    [ -n "${C[precs]}" ] || { unset C; continue; }   # no time to draw
    plots=""
    for p in ${C[precs]}; do plots="$plots${plots:+ }$W/$slug-cg-$p.plot"; done
    gp cg.gp plots="$plots" precs="${C[precs]}" dev="${C[device]}" dates="${C[dates]}" foot="${C[notes]}" \
        out="$OUT/fig-cg-$slug"
    say "fig-cg-$slug"
    unset C
done
hist=("$IN"/cg-history/*.csv)
if [ ${#hist[@]} -gt 0 ]; then
    f=${hist[0]}   # the first matrix (one figure: fig-cg-residual)
    if [ "$(head -n 1 "$f" | tr -d '\r')" != "source,precision,iteration,residual" ]; then
        echo "draw: $f does not start with source,precision,iteration,residual; left out" >&2
    else
        # one series per source and precision: a .dat each, and the plot command
        awk -F, -v W="$W" 'NR > 1 { k = $1 " (" ($2 == "s" ? "float" : "double") ")"
                if (!(k in f)) { f[k] = W "/cg-hist-" (++n) ".dat"; key[n] = k; print "iteration \"" k "\"" > f[k] }
                print $3, $4 > f[k] }
            END { cmd = "plot"
                  for (i = 1; i <= n; i++) { close(f[key[i]])
                      cmd = cmd sprintf("%s \047%s\047 using 1:2 with lines lt %d lw 1.5 title columnheader(2)", i > 1 ? "," : "", f[key[i]], i + 1) }
                  print cmd > (W "/cg-hist.plot") }' "$f"
        dates=$(git -C "$ROOT" log -1 --format=%cs -- "$f" 2>/dev/null)
        [ -n "$dates" ] && git -C "$ROOT" diff --quiet -- "$f" 2>/dev/null || dates=$(date -u -r "$f" +%Y-%m-%d)
        gp cg-residual.gp plotfile="$W/cg-hist.plot" matrix="$(basename "$f" .csv)" dates="$dates" \
            out="$OUT/fig-cg-residual"
        say "fig-cg-residual ($(basename "$f" .csv))"
    fi
fi
