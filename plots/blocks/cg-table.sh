#!/usr/bin/env bash
# plots/blocks/cg-table.sh SLUG [p=s|d|sd] [m=KINDS] - chapter 7's table of one device
# from plots/data/cg-SLUG.csv (chapter 7's CG results, one row a solve): for
# each Poisson size and precision, step7's plain, fused and pipelined (where
# the file has it) and each yardstick, the last passing row of each: ms an
# iteration, the fused version's speed-up over it, % of the compulsory bound
# (the matrix once + 9 vector sweeps at the probe of the same run; rows made
# before the pipelined version counted 10), and where the tool can tell,
# the split of an iteration as profiled (product + vector kernels + launches
# and waits, each measured, = the profiled iteration, which events make
# longer than the ms an iteration beside it) and its launches. Without the file: one line saying how to make it.
set -u
slug=$1 precs=s mats=poisson sizes=
for a in "${@:2}"; do case $a in p=*) precs=${a#p=} ;; m=*) mats=${a#m=} ;; n=*) sizes=,${a#n=}, ;; esac; done
f=plots/data/cg-$slug.csv
if [ ! -s "$f" ]; then
    echo "(no CG data for $slug yet: \`make figures\` on that device writes $f)"
    exit 0
fi
awk -F, -v precs="$precs" -v mats="$mats" -v sizes="$sizes" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["check"] != "PASS" || $c["matrix"] !~ ("^(" mats "):") || index(precs, $c["precision"]) == 0 { next }
    sizes != "" { nx = $c["matrix"]; sub(/^[a-z0-9]*:nx=/, "", nx); sub(/[ ,].*/, "", nx); if (!index(sizes, "," nx ",")) next }
    {
        k = ($c["step"] == "step7" ? "step7 " : "") $c["kernel"]
        key = $c["rows"] SUBSEP $c["precision"] SUBSEP k
        if (!(key in ms)) { order[++n] = key }
        ms[key] = $c["ms_per_iter"]; pc[key] = $c["pct_compulsory"]
        split3[key] = $c["spmv_ms_per_iter"] != "" && $c["wait_ms_per_iter"] == "" ? sprintf("%.4f + %.4f (the rest not measured)", $c["spmv_ms_per_iter"], $c["vector_ms_per_iter"]) : $c["spmv_ms_per_iter"] != "" ? sprintf("%.4f + %.4f + %.4f = %.4f", $c["spmv_ms_per_iter"], $c["vector_ms_per_iter"], $c["wait_ms_per_iter"], $c["spmv_ms_per_iter"] + $c["vector_ms_per_iter"] + $c["wait_ms_per_iter"]) : "-"
        la[key] = $c["launches_per_iter"] != "" ? $c["launches_per_iter"] : "-"
        nm = $c["matrix"]; sub(/ ny=.*/, "", nm)
        if (nm ~ /^poisson:nx=/) { sub(/^poisson:nx=/, "", nm); nm = nm "²" }
        else { three = nm ~ /^poisson3d/ ? "7-point " : "27-point "; sub(/^[a-z0-9]*:nx=/, "", nm); nm = three nm "³" }
        name[$c["rows"]] = nm
        dev = $c["device"]
    }
    END {
        printf "%s, %s, fixed iterations (`--tol 0`); the last passing row of each:\n\n", mats == "poisson" ? "Poisson n x n" : "Poisson n x n and the 3-D boxes, n³", dev
        print "| n | precision | solver | ms / iteration | fused is faster by | % compulsory | profiled: product + vectors + launches and waits = their iteration (ms) | launches |"
        print "| ---: | --- | --- | ---: | ---: | ---: | --- | ---: |"
        for (i = 1; i <= n; i++) {
            split(order[i], q, SUBSEP)
            f = q[1] SUBSEP q[2] SUBSEP "step7 fused"
            sp = (f in ms) && ms[order[i]] > 0 && q[3] != "step7 fused" ? sprintf("%.2fx", ms[order[i]] / ms[f]) : "-"
            line[q[1] + 0, q[2], i] = sprintf("| %s | %s | %s | %.4f | %s | %s | %s | %s |", name[q[1]], q[2] == "s" ? "float" : "double",
                q[3], ms[order[i]], sp, pc[order[i]] != "" ? sprintf("%.1f%%", pc[order[i]]) : "-", split3[order[i]], la[order[i]])
            rows[q[1] + 0] = 1
        }
        m = 0; for (r in rows) sorted[++m] = r + 0
        for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) if (sorted[b] < sorted[a]) { t = sorted[a]; sorted[a] = sorted[b]; sorted[b] = t }
        np = split(precs, P, "")
        # step7 plain, fused, pipelined, then the yardsticks in the order the file has them
        for (a = 1; a <= m; a++) for (j = 1; j <= np; j++) for (r = 1; r <= 4; r++) for (i = 1; i <= n; i++) {
            split(order[i], q, SUBSEP)
            rk = q[3] == "step7 plain" ? 1 : q[3] == "step7 fused" ? 2 : q[3] == "step7 pipelined" ? 3 : 4
            if (rk == r && (sorted[a], P[j], i) in line) print line[sorted[a], P[j], i]
        }
    }' "$f"
