#!/usr/bin/env bash
# plots/irregular/medium-rows/variants/bench.sh - the rounds behind entry 2 of
# step6-csr/TUNING.md: cuSPARSE, then each variant of the vector kernel, on
# each matrix and precision, ROUNDS times over; one CSV row per run.
#
#   git apply plots/irregular/medium-rows/variants/rows.patch   # step6's global size for -DVECTOR_ROWS
#   make build/step6 && make cusparse CUDA_ARCH=-arch=sm_90
#   OUT=dir MATS="short:rows=2000000,mean=16,band=64 stencil27:nx=100" PRECS="s d" ROUNDS=3 \
#     VARIANTS="$(cat plots/irregular/medium-rows/variants/call5.txt)" plots/irregular/medium-rows/variants/bench.sh
#
# VARIANTS: one line each, LABEL|KERNEL FILE|CL OPTIONS|MORE FLAGS (empty
# fields: step6's own). A row's kernel column is LABEL, %k in it replaced by
# step6's own label of the run (vector-4: the group). A KERNEL FILE named
# variants/NAME.cl is made here from variants/NAME.patch, step6-csr/kernel.cl
# with csr_vector replaced (kept as patches, not copies of chapter 6's file):
#   width.cl   VECTOR_ROWS rows a group (all their loads first), VECTOR_WIDTH
#              entries a load (int2/int4 and float2/float4 where a row's
#              aligned piece is whole)
#   pipe.cl    VECTOR_ROWS rows a group in turn, the next row's bounds loaded
#              while this one runs; pipe2.cl the next row's entries too
#   stream.cl  a warp per 32 rows: its nonzeros read 32 neighbours a load
#              (VECTOR_UNROLL loads a lane a pass), the products in local
#              memory, each work-item adding up its own row from there
#              (--group-size 32 -DVECTOR_ROWS=32); -DPREFETCH loads the next
#              pass before adding up this one
# Writes $OUT/rows.csv and prints each cell's median and its ratio to the
# median of cuSPARSE over the same rounds.
set -u
CSV=$OUT/rows.csv
T=$(mktemp)
VD=$(mktemp -d)
trap 'rm -rf "$T" "$VD"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
for pf in "$here"/*.patch; do
    n=$(basename "$pf" .patch)
    [ "$n" = rows ] && continue
    patch -s -o "$VD/$n.cl" step6-csr/kernel.cl "$pf" || { echo "bench: $pf does not apply to step6-csr/kernel.cl" >&2; exit 2; }
done
for r in $(seq "$ROUNDS"); do
    for m in $MATS; do
        for p in $PRECS; do
            rm -f "$T"
            build/cusparse --gen "$m" --precision "$p" --quiet --csv "$T" >"$OUT/last.txt" 2>&1 || tail -n 3 "$OUT/last.txt"
            if [ -f "$T" ]; then [ -f "$CSV" ] || head -n 1 "$T" >"$CSV"; tail -n +2 "$T" >>"$CSV"; fi
            while IFS='|' read -r lab kf opts extra; do
                [ -z "$lab" ] && continue
                rm -f "$T"
                # shellcheck disable=SC2206  # extra is a word list
                args=(--gen "$m" --precision "$p" --quiet --csv "$T" $extra)
                [[ $kf == */variants/*.cl ]] && kf=$VD/$(basename "$kf")   # made from its patch above
                [ -n "$kf" ] && args+=(--kernel-file "$kf")
                [ -n "$opts" ] && args+=(--cl-opts "$opts")
                build/step6 "${args[@]}" >"$OUT/last.txt" 2>&1 || { echo "failed: $lab $m $p"; tail -n 3 "$OUT/last.txt"; }
                [ -f "$T" ] || continue
                [ -f "$CSV" ] || head -n 1 "$T" >"$CSV"
                tail -n +2 "$T" | awk -F, -v OFS=, -v l="$lab" '$2 ~ /^vector/ { k = l; sub(/%k/, $2, k); $2 = k } { print }' >>"$CSV"
            done <<<"$VARIANTS"
        done
    done
    echo "round $r done at $SECONDS s"
done
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) C[$i] = i; next }
    { key = $C["matrix"] " " $C["precision"]; k = $C["kernel"]; G[key, k] = G[key, k] " " $C["gflops"]; K[key] = K[key] " " k }
    function med(s,   a, n, i, j, t) { n = split(s, a, " "); for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    END { for (key in K) { print key; n = split(K[key], ks, " "); delete seen
            for (i = 1; i <= n; i++) { k = ks[i]; if (k in seen) continue; seen[k] = 1
                c = ((key, "cusparse") in G) ? med(G[key, "cusparse"]) : 0
                printf "  %-28s %8.1f  %s\n", k, med(G[key, k]), c ? sprintf("%.3f", med(G[key, k]) / c) : "-" } } }' "$CSV"
