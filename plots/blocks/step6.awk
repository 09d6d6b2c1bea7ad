# plots/blocks/step6.awk - the tables of chapter 6 and of its tuning record,
# read from committed results CSVs by column name (the header), never by
# position. Called by plots/blocks/step6-*.sh with -v mode=... and the CSVs as
# files. Only rows of step6 (or cusparse) with check PASS count. Every table
# ends with a provenance line made from the rows' own device, driver, date and
# git_rev columns.
#
# mode=devices  (step6-devices.sh) one table per device: the grid and real
#   matrices of the data sweep (-v data=FILE: its latest git_rev), then the
#   irregular matrices of the latest run of the adaptive kernel in the
#   irregular files; every kernel: GFLOP/s and % of the compulsory bound.
#   -v pick="m1 m2 ..." the data sweep's matrices, -v precs=sd.
# mode=pivot    (step6-pivot.sh) columns given as -v cols="KERNEL@REV[=Label] ...",
#   rows the matrices x precisions present; each cell the median GFLOP/s and
#   its ratio to -v ref (cusparse: cuSPARSE of the cell's own git_rev;
#   KERNEL: that kernel of the cell's git_rev; KERNEL@REV: that one).
#   -v mre=REGEX filters matrices, -v precs=sdcz, -v range=1 adds min-max.
# mode=vs       (step6-vs.sh) the latest git_rev that ran both the adaptive
#   kernel and cuSPARSE: per matrix and precision, both medians, the ratio of
#   each round (the i-th run of one paired with the i-th of the other) and
#   what that says: ahead (every round 2% or more ahead), behind (every round
#   2% or more behind), level (the rest). -v mre, -v precs as for pivot.
# mode=short    (step6-short.sh) the short-row sweep (plots/irregular/short-rows.sh):
#   for the latest git_rev of each file, one row per mean row length (most
#   first) and precision: each kernel against the fastest of the course's
#   kernels (bold within 5%), cuSPARSE beside them; then, per precision, the
#   means where each kernel is within 5%. Taken within a round (the i-th run
#   of a kernel against the i-th of the scalar kernel, which runs in the
#   same process as vector-2 and adaptive), so that a busy machine's
#   changing speed cancels: a kernel's median ratio to scalar over the
#   rounds, divided by the largest.

function col(n) { return (n in C) ? $C[n] : "" }
function isort(a, n,    i, j, t) { for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t } }
function median(list,    a, n) { n = split(list, a, " "); for (i0 = 1; i0 <= n; i0++) a[i0] += 0; isort(a, n); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function minof(list,    a, n, m, i) { n = split(list, a, " "); m = a[1] + 0; for (i = 2; i <= n; i++) if (a[i] + 0 < m) m = a[i] + 0; return m }
function maxof(list,    a, n, m, i) { n = split(list, a, " "); m = a[1] + 0; for (i = 2; i <= n; i++) if (a[i] + 0 > m) m = a[i] + 0; return m }
function count(list,    a) { return split(list, a, " ") }
function g(x) { return x >= 100 ? sprintf("%.1f", x) : x >= 10 ? sprintf("%.2f", x) : x >= 1 ? sprintf("%.2f", x) : sprintf("%.3f", x) }
function pct(x) { return x >= 0.1 ? sprintf("%.0f%%", 100 * x) : sprintf("%.1f%%", 100 * x) }
function family(k) { return k ~ /^vector-[0-9]+$/ ? "vector" : k }
function short(f) { sub(/^.*\/plots\//, "plots/", f); return f }

FNR == 1 { delete C; for (i = 1; i <= NF; i++) C[$i] = i; nfiles++; next }
{
    st = col("step"); k = col("kernel")
    if ((st != "step6" && st != "cusparse") || col("check") != "PASS") next
    m = col("matrix"); p = col("precision"); r = col("git_rev"); d = col("date")
    f = FILENAME
    key = f SUBSEP r SUBSEP m SUBSEP p SUBSEP k
    if (!(key in GF)) { NK++; KEYS[NK] = key }
    GF[key] = GF[key] " " col("gflops")
    FR[key] = FR[key] " " (col("bound_compulsory_gflops") > 0 ? col("gflops") / col("bound_compulsory_gflops") : 0)
    if (d > LAST[key]) LAST[key] = d
    ROWS[m] = col("rows"); NNZ[m] = col("nnz")
    DEV[f] = col("device"); DRV[f] = col("driver")
    if (k ~ /^cusparse/) DRVC[f] = col("driver"); else DRVK[f] = col("driver")
    if (st == "step6") DRV6[f] = col("driver")
    # provenance per file and revision
    pk = f SUBSEP r
    if (!(pk in PN)) { NP++; PKEY[NP] = pk }
    PN[pk]++
    if (PD0[pk] == "" || d < PD0[pk]) PD0[pk] = d
    if (d > PD1[pk]) PD1[pk] = d
}

function prov_used(    i, s, pk, a, sep, d0, d1) {
    s = ""; sep = ""
    for (i = 1; i <= NP; i++) {
        pk = PKEY[i]
        if (!(pk in USED)) continue
        split(pk, a, SUBSEP)
        d0 = substr(PD0[pk], 1, 10); d1 = substr(PD1[pk], 1, 10)
        s = s sep "`" short(a[1]) "`, git_rev " a[2] " (" USED[pk] " rows, " (d0 == d1 ? d0 : d0 " to " d1) ")"
        sep = "; "
    }
    return s
}
function devices_line(    i, pk, a, seen, s, sep, dv) {
    s = ""; sep = ""
    for (i = 1; i <= NP; i++) {
        pk = PKEY[i]
        if (!(pk in USED)) continue
        split(pk, a, SUBSEP)
        # the file's kernels' driver, then cuSPARSE's: each the driver of the last row of its kind
        dv = DEV[a[1]] ", " (a[1] in DRVK ? DRVK[a[1]] : DRV[a[1]])
        if ((a[1] in DRVK) && (a[1] in DRVC)) dv = dv "; " DEV[a[1]] ", " DRVC[a[1]]
        if (dv in seen) continue
        seen[dv] = 1; s = s sep dv; sep = "; "
    }
    return s
}
# a key's rows, counted once however many cells read them (a reference
# column is read by every cell of its row)
function use(key, n,    a) {
    split(key, a, SUBSEP); USED[a[1] SUBSEP a[2]] += 0
    if (key in COUNTED) return
    COUNTED[key] = 1; USED[a[1] SUBSEP a[2]] += n
}

# ---------- devices ----------
function cell(key, g0,    s) {
    if (!(key in GF)) return "-"
    use(key, count(GF[key]))
    s = g(median(GF[key])) " (" pct(median(FR[key])) ")"
    if (g0 != "") s = s " g" g0
    return s
}
# the revision of FILE whose rows (of kernel K if given; of matrix M and
# precision P if given) came last
function latest_rev(file, kfam, m, p,    i, a, best, bd) {
    best = ""; bd = ""
    for (i = 1; i <= NK; i++) {
        split(KEYS[i], a, SUBSEP)
        if (a[1] != file || a[5] == "cusparse" && kfam != "cusparse") continue
        if (kfam != "" && family(a[5]) != kfam) continue
        if (m != "" && (a[3] != m || a[4] != p)) continue
        if (LAST[KEYS[i]] > bd) { bd = LAST[KEYS[i]]; best = a[2] }
    }
    return best
}
function devices_row(file, rev, m, p, fallback,    i, a, fam, key, out, best, bv, v, mark, fk, fr, fd, ff) {
    delete CELLK; delete CELLG
    for (i = 1; i <= NK; i++) {
        split(KEYS[i], a, SUBSEP)
        if (a[1] != file || a[2] != rev || a[3] != m || a[4] != p) continue
        fam = family(a[5])
        if (fam != "scalar" && fam != "vector" && fam != "adaptive" && fam != "cusparse") continue
        CELLK[fam] = KEYS[i]; if (fam == "vector") { CELLG[fam] = a[5]; sub(/^vector-/, "", CELLG[fam]) }
    }
    if (!("scalar" in CELLK) && !("vector" in CELLK) && !("adaptive" in CELLK)) return ""
    # a kernel the run left out: its latest run on the same matrix in any of the files given
    if (fallback) {
        split("scalar vector adaptive cusparse", FAMS, " ")
        for (j = 1; j <= 4; j++) {
            fam = FAMS[j]
            if (fam in CELLK) continue
            fd = ""
            for (i = 1; i <= NK; i++) {
                split(KEYS[i], a, SUBSEP)
                if (a[3] != m || a[4] != p || family(a[5]) != fam || !(a[1] in IRR)) continue
                if (LAST[KEYS[i]] > fd) { fd = LAST[KEYS[i]]; fk = KEYS[i]; fr = a[2]; ff = a[5] }
            }
            if (fd != "") {
                CELLK[fam] = fk; DAG[fam] = 1
                if (fam == "vector") { CELLG[fam] = ff; sub(/^vector-/, "", CELLG[fam]) }
                OLDREV[fr] = 1
            }
        }
    }
    out = "| " m " | " p " | " ROWS[m] " | " NNZ[m]
    best = ""; bv = -1
    split("scalar vector adaptive cusparse", FAMS, " ")
    for (j = 1; j <= 4; j++) {
        fam = FAMS[j]
        mark = ""
        if (fam in CELLK) { split(CELLK[fam], a, SUBSEP); if (a[2] != rev) mark = " (" a[2] ")" }
        out = out " | " ((fam in CELLK) ? cell(CELLK[fam], CELLG[fam]) mark : "-")
        if ((fam in CELLK) && (v = median(GF[CELLK[fam]])) > bv) { bv = v; best = (fam == "cusparse" ? "cuSPARSE" : fam) }
    }
    delete DAG
    return out " | " best " |"
}
function devices(    n, mats, i, j, rev, irev, ifile, bd, a, key, pr, line, seen, nr, P) {
    print "| matrix | P | rows | nonzeros | scalar | vector (g = lanes a row) | adaptive | cuSPARSE | fastest |"
    print "| --- | --- | ---: | ---: | --- | --- | --- | --- | --- |"
    nr = 0
    # each matrix and precision from the latest sweep that ran it (a sweep of
    # the grids alone leaves the real matrices to the one before)
    n = split(pick, mats, " ")
    for (i = 1; i <= n; i++)
        for (j = 1; j <= length(precs); j++) {
            rev = latest_rev(data, "", mats[i], substr(precs, j, 1))
            line = rev == "" ? "" : devices_row(data, rev, mats[i], substr(precs, j, 1), 0)
            if (line != "") { print line; nr++ }
        }
    # the irregular files: the latest run of the adaptive kernel
    bd = ""
    for (i = 1; i <= NK; i++) {
        split(KEYS[i], a, SUBSEP)
        if (a[1] == data) continue
        IRR[a[1]] = 1
        if (a[5] == "adaptive" && LAST[KEYS[i]] > bd) { bd = LAST[KEYS[i]]; ifile = a[1]; irev = a[2] }
    }
    if (irev != "") {
        for (i = 1; i <= NK; i++) {
            split(KEYS[i], a, SUBSEP)
            if (a[1] != ifile || a[2] != irev || a[5] != "adaptive" || index(precs, a[4]) == 0) continue
            if ((a[3] SUBSEP a[4]) in seen) continue
            seen[a[3] SUBSEP a[4]] = 1
            line = devices_row(ifile, irev, a[3], a[4], 1)
            if (line != "") { print line; nr++ }
        }
    }
    if (nr == 0) { print "step6-devices: no step6 rows for these matrices" > "/dev/stderr"; exit 2 }
    print ""
    printf "GFLOP/s, median of the rounds, and in brackets %% of the compulsory bound (from the bandwidth probed in the same run); the fastest kernel of each row named. %s. Rows: %s.", devices_line(), prov_used()
    s = ""; for (r in OLDREV) s = s (s == "" ? "" : ", ") r
    if (s != "") printf " A revision in brackets after a cell: that kernel was not in the run of the row, and its latest run on the same matrix (%s) stands in.", s
    print ""
}

# ---------- pivot ----------
function pivot(    n, cs, i, j, a, b, lab, kk, rr, mats, nm, key, refkey, out, v, rv, rk, rrev, refs, nref, x, P, any) {
    n = split(cols, cs, " ")
    for (i = 1; i <= n; i++) {
        lab = cs[i]; if (index(lab, "=") > 0) { LAB[i] = substr(lab, index(lab, "=") + 1); gsub(/_/, " ", LAB[i]); lab = substr(lab, 1, index(lab, "=") - 1) } else LAB[i] = ""
        split(lab, b, "@"); CK[i] = b[1]; CR[i] = b[2]
        if (LAB[i] == "") LAB[i] = CK[i] " at " CR[i]
    }
    # rows: every matrix x precision that one of the columns has, in file order
    nm = 0
    for (i = 1; i <= NK; i++) {
        split(KEYS[i], a, SUBSEP)
        if (mre != "" && a[3] !~ mre) continue
        if (index(precs, a[4]) == 0) continue
        for (j = 1; j <= n; j++) if (a[5] == CK[j] && a[2] == CR[j]) break
        if (j > n) continue
        if ((a[3] SUBSEP a[4]) in HAVE) continue
        HAVE[a[3] SUBSEP a[4]] = 1; nm++; RM[nm] = a[3]; RP[nm] = a[4]
    }
    if (nm == 0) { print "step6-pivot: no rows for " cols > "/dev/stderr"; exit 2 }
    # the order: matrix as first seen, then precision s d c z
    out = "| device | matrix | P"
    for (j = 1; j <= n; j++) out = out " | " LAB[j]
    if (ref == "cusparse") {
        nref = 0
        for (j = 1; j <= n; j++) {
            if (CR[j] in REFCOL) continue
            for (i = 1; i <= NK; i++) { split(KEYS[i], a, SUBSEP); if (a[2] == CR[j] && a[5] == "cusparse") break }
            if (i > NK) continue
            nref++; REFCOL[CR[j]] = nref; REFREV[nref] = CR[j]
        }
        for (j = 1; j <= nref; j++) out = out " | cuSPARSE" (nref > 1 ? " at " REFREV[j] : "")
    }
    print out " |"
    out = "| --- | --- | ---"
    for (j = 1; j <= n + (ref == "cusparse" ? nref : 0); j++) out = out " | ---"
    print out " |"
    split("s d c z", P, " ")
    for (x = 1; x <= nm; x++) {
        if ((RM[x]) in DONE) continue
        DONE[RM[x]] = 1
        for (pp = 1; pp <= 4; pp++) {
            if (!((RM[x] SUBSEP P[pp]) in HAVE)) continue
            out = ""; any = 0
            for (j = 1; j <= n; j++) {
                key = findkey(CK[j], CR[j], RM[x], P[pp])
                if (key == "") { out = out " | -"; continue }
                any = 1
                use(key, count(GF[key]))
                v = median(GF[key])
                rk = ref == "cusparse" ? cuskey(key, RM[x], P[pp]) : index(ref, "@") ? findkey(substr(ref, 1, index(ref, "@") - 1), substr(ref, index(ref, "@") + 1), RM[x], P[pp]) : findkey(ref, CR[j], RM[x], P[pp])
                out = out " | " g(v)
                if (range && count(GF[key]) > 1) out = out " [" g(minof(GF[key])) "-" g(maxof(GF[key])) "]"
                if (rk != "") { use(rk, count(GF[rk])); out = out " (" sprintf("%.2f", v / median(GF[rk])) ")" }
                if (dev == "") dev = DEVOF(key)
            }
            if (ref == "cusparse")
                for (j = 1; j <= nref; j++) {
                    rk = findkey("cusparse", REFREV[j], RM[x], P[pp])
                    if (rk == "") { out = out " | -"; continue }
                    use(rk, count(GF[rk])); out = out " | " g(median(GF[rk]))
                    if (range && count(GF[rk]) > 1) out = out " [" g(minof(GF[rk])) "-" g(maxof(GF[rk])) "]"
                }
            if (any) print "| " SHORTDEV(dev) " | " RM[x] " | " P[pp] out " |"
        }
    }
    print ""
    printf "GFLOP/s, the median of the rounds%s; in brackets the ratio to %s. %s. Rows: %s.\n", range ? " [and their range]" : "", \
        ref == "cusparse" ? "cuSPARSE's median in the same call (the faster algorithm of each run; for a build run beside another revision, the cuSPARSE rows of that call)" : "the median of " ref " in the same call", devices_line(), prov_used()
}
function DEVOF(key,    a) { split(key, a, SUBSEP); return DEV[a[1]] }
function SHORTDEV(d) { return d ~ /H100/ ? "H100" : d ~ /H200/ ? "H200" : d ~ /pthread/ ? "PoCL CPU" : d }
# seconds since the start of the month, enough to tell calls apart
function secs(d) { return substr(d, 9, 2) * 86400 + substr(d, 12, 2) * 3600 + substr(d, 15, 2) * 60 + substr(d, 18, 2) }
# cuSPARSE of the cell's call: its own git_rev, else (a build run beside
# another revision) the cuSPARSE rows of the same file nearest in time, within an hour
function cuskey(ck, m, p,    a, b, i, k, best, bd, dd) {
    split(ck, a, SUBSEP)
    k = findkey("cusparse", a[2], m, p)
    if (k != "") return k
    best = ""; bd = 3600
    for (i = 1; i <= NK; i++) {
        split(KEYS[i], b, SUBSEP)
        if (b[1] != a[1] || b[3] != m || b[4] != p || b[5] != "cusparse") continue
        dd = secs(LAST[KEYS[i]]) - secs(LAST[ck]); if (dd < 0) dd = -dd
        if (dd < bd) { bd = dd; best = KEYS[i] }
    }
    return best
}
function findkey(k, r, m, p,    i, a) {
    for (i = 1; i <= NK; i++) {
        split(KEYS[i], a, SUBSEP)
        if (a[2] == r && a[3] == m && a[4] == p && a[5] == k) return KEYS[i]
    }
    return ""
}

# ---------- vs ----------
function vs(    i, a, bd, rev, file, nm, x, ka, kc, ra, rc, na, nc, lo, hi, q, s, verdict, ahead, behind, level, kern, P, pp, out) {
    bd = ""
    for (i = 1; i <= NK; i++) {
        split(KEYS[i], a, SUBSEP)
        if (a[5] == "adaptive" && findkey("cusparse", a[2], a[3], a[4]) != "" && LAST[KEYS[i]] > bd) { bd = LAST[KEYS[i]]; rev = a[2]; file = a[1] }
    }
    if (rev == "") { print "step6-vs: no run with both the adaptive kernel and cuSPARSE" > "/dev/stderr"; exit 2 }
    print "| matrix | P | kernel | GFLOP/s | cuSPARSE | ratio per round | against cuSPARSE |"
    print "| --- | --- | --- | --- | --- | --- | --- |"
    split("s d c z", P, " ")
    nm = 0
    for (i = 1; i <= NK; i++) {
        split(KEYS[i], a, SUBSEP)
        if (a[1] != file || a[2] != rev || a[5] == "cusparse" || family(a[5]) == "scalar") continue
        if (a[3] in SEENM || mre != "" && a[3] !~ mre) continue
        SEENM[a[3]] = 1; nm++; MM[nm] = a[3]
    }
    for (x = 1; x <= nm; x++) for (pp = 1; pp <= 4; pp++) {
        if (index(precs, P[pp]) == 0) continue
        kc = findkey("cusparse", rev, MM[x], P[pp])
        ka = findkey("adaptive", rev, MM[x], P[pp]); kern = "adaptive"
        if (ka == "") for (i = 1; i <= NK; i++) { split(KEYS[i], a, SUBSEP); if (a[2] == rev && a[3] == MM[x] && a[4] == P[pp] && family(a[5]) == "vector") { ka = KEYS[i]; kern = a[5] } }
        if (ka == "" || kc == "") continue
        use(ka, count(GF[ka])); use(kc, count(GF[kc]))
        na = split(GF[ka], ra, " "); nc = split(GF[kc], rc, " ")
        s = ""; lo = 99; hi = 0
        for (q = 1; q <= na && q <= nc; q++) { v = ra[q] / rc[q]; s = s (s == "" ? "" : ", ") sprintf("%.2f", v); if (v < lo) lo = v; if (v > hi) hi = v }
        verdict = lo >= 1.02 ? "ahead" : hi <= 0.98 ? "behind" : "level"
        if (verdict == "ahead") ahead = ahead (ahead == "" ? "" : ", ") MM[x] " " P[pp]
        if (verdict == "behind") behind = behind (behind == "" ? "" : ", ") MM[x] " " P[pp]
        print "| " MM[x] " | " P[pp] " | " kern " | " g(median(GF[ka])) " | " g(median(GF[kc])) " | " s " | " verdict " |"
    }
    print ""
    printf "GPU time of both (profiling events; cuSPARSE's faster algorithm, timed behind a spin so that its host work is not counted), medians; each round's ratio is our kernel's GFLOP/s over cuSPARSE's in the same round. Ahead (by 2%% or more in every round): %s. Behind (by 2%% or more in every round): %s. The rest is level. %s. Rows: %s.\n", \
        ahead == "" ? "none" : ahead, behind == "" ? "none" : behind, devices_line(), prov_used()
}

# ---------- short ----------
function short_mean(m) { return ROWS[m] > 0 ? NNZ[m] / ROWS[m] : 0 }
function short_spec_mean(m,    a) { return match(m, /-m[0-9.]+-/) ? substr(m, RSTART + 2, RLENGTH - 3) : "" }
function short_ranges(list,    a, n, i, out, lo, hi) { # "8 6 5 ..." (descending, each a mean where it is within 5%) as ranges
    n = split(list, a, " "); out = ""
    for (i = 1; i <= n; i++) {
        if (a[i] == "|") continue
        lo = hi = a[i]
        while (i < n && a[i + 1] != "|") { i++; lo = a[i] }
        out = out (out == "" ? "" : ", ") (lo == hi ? lo : lo "-" hi)
    }
    return out == "" ? "none" : out
}
# the median over the rounds of the i-th GFLOP/s of list L over the i-th of REF
function mg_ratio(L, REF,    a, b, n, i, l) {
    n = split(L, a, " "); split(REF, b, " "); l = ""
    for (i = 1; i <= n; i++) if (b[i] > 0) l = l " " a[i] / b[i]
    return l == "" ? 0 : median(l)
}
function pname(P) { return P == "s" ? "float" : P == "d" ? "double" : P == "c" ? "complex float" : "complex double" }
function short_devices(    i, pk, a, seen, s, sep, dv) {
    s = ""; sep = ""
    for (i = 1; i <= NP; i++) {
        pk = PKEY[i]
        if (!(pk in USED)) continue
        split(pk, a, SUBSEP)
        # the kernels' driver, then cuSPARSE's (the file's last row may be cuSPARSE's)
        dv = DEV[a[1]] ", " (a[1] in DRVK ? DRVK[a[1]] : DRV6[a[1]])
        if ((a[1] in DRVK) && (a[1] in DRVC)) dv = dv "; " DEV[a[1]] ", " DRVC[a[1]]
        if (dv in seen) continue
        seen[dv] = 1; s = s sep dv; sep = "; "
    }
    return s
}
# SN rows (file SF, matrix SM, precision SP, sorted by file, precision, mean
# falling), each kernel's fraction of the fastest in FRAC[n, kernel], the
# fastest in SBK; the kernels (cuSPARSE apart) in KK[1..NKK], scalar first.
# A file is one sweep (short-rows.sh writes it afresh): its rows of every
# git_rev count, in the order they were written.
function short_compute(    i, a, mats, ks, kk, nm, ord, j, pp, P, f, m, key, ref, best, R, MG) {
    nm = 0
    for (i = 1; i <= NK; i++) {
        split(KEYS[i], a, SUBSEP)
        if (a[3] !~ /^short/ || index(precs, a[4]) == 0) continue
        key = a[1] SUBSEP a[3] SUBSEP a[4] SUBSEP a[5]
        MG[key] = MG[key] GF[KEYS[i]]; use(KEYS[i], count(GF[KEYS[i]]))
        if (!((a[1] SUBSEP a[3]) in mats)) {
            mats[a[1] SUBSEP a[3]] = 1; nm++
            ord[nm] = sprintf("%s%s%012.4f%s%s", a[1], SUBSEP, 1e6 - short_mean(a[3]), SUBSEP, a[3])
        }
        if (a[5] == "cusparse") SCUS = 1
        else if (!(a[5] in ks)) { ks[a[5]] = 1; NKK++; kk[NKK] = (a[5] == "scalar" ? "0" : a[5] == "adaptive" ? "2" : sprintf("1%04d", substr(a[5], 8) + 0)) SUBSEP a[5] }
    }
    if (nm == 0) { print "step6 blocks: no short-row rows (--gen short) in the files given" > "/dev/stderr"; exit 2 }
    isort(ord, nm); isort(kk, NKK)
    for (j = 1; j <= NKK; j++) { split(kk[j], a, SUBSEP); KK[j] = a[2] }
    for (i = 1; i <= nm; i++) { split(ord[i], a, SUBSEP); if (!(a[1] in FSEEN)) { FSEEN[a[1]] = 1; NFL++; FILES[NFL] = a[1] } }
    SN = 0
    for (f = 1; f <= NFL; f++) for (pp = 1; pp <= length(precs); pp++) {
        P = substr(precs, pp, 1)
        for (i = 1; i <= nm; i++) {
            split(ord[i], a, SUBSEP)
            if (a[1] != FILES[f]) continue
            m = a[3]
            ref = a[1] SUBSEP m SUBSEP P SUBSEP "scalar"
            if (!(ref in MG)) continue
            best = 0; delete R
            for (j = 1; j <= NKK; j++) {
                key = a[1] SUBSEP m SUBSEP P SUBSEP KK[j]
                if ((key in MG) && (R[KK[j]] = mg_ratio(MG[key], MG[ref])) > best) { best = R[KK[j]]; SBK[SN + 1] = KK[j] }
            }
            if (best == 0) continue
            SN++; SF[SN] = a[1]; SM[SN] = m; SP[SN] = P
            SBG[SN] = median(MG[a[1] SUBSEP m SUBSEP P SUBSEP SBK[SN]])
            for (j = 1; j <= NKK; j++) if (KK[j] in R) FRAC[SN, KK[j]] = R[KK[j]] / best
            key = a[1] SUBSEP m SUBSEP P SUBSEP "cusparse"
            if (key in MG) FRAC[SN, "cusparse"] = mg_ratio(MG[key], MG[ref]) / best
        }
    }
}
function short_table(    n, j, hdr, sep, out, v, WIN, HASP, pp, P, any, rows) {
    short_compute()
    hdr = "| mean | P |"; sep = "| ---: | --- |"
    for (j = 1; j <= NKK; j++) { hdr = hdr " " KK[j] " |"; sep = sep " ---: |" }
    if (SCUS) { hdr = hdr " cuSPARSE |"; sep = sep " ---: |" }
    print hdr " fastest |"; print sep " --- |"
    for (n = 1; n <= SN; n++) {
        HASP[SP[n]] = 1; rows = ROWS[SM[n]]
        out = sprintf("| %.2f | %s |", short_mean(SM[n]), SP[n])
        for (j = 1; j <= NKK; j++) {
            if (!((n, KK[j]) in FRAC)) { out = out " - |"; WIN[SP[n], KK[j]] = WIN[SP[n], KK[j]] " |"; continue }
            v = FRAC[n, KK[j]]
            out = out (v >= 0.95 ? sprintf(" **%.2f** |", v) : sprintf(" %.2f |", v))
            WIN[SP[n], KK[j]] = WIN[SP[n], KK[j]] " " (v >= 0.95 ? sprintf("%.2f", short_mean(SM[n])) : "|")
        }
        if (SCUS) out = out (((n, "cusparse") in FRAC) ? sprintf(" %.2f |", FRAC[n, "cusparse"]) : " - |")
        print out " " SBK[n] " " g(SBG[n]) " |"
    }
    print ""
    printf "Each kernel against the fastest of the course's kernels (in bold: within 5%% of it), taken within each round (the median over the rounds of its GFLOP/s over the scalar kernel's, divided by the largest); the fastest named with its median GFLOP/s; mean: nonzeros per row; %s rows. Within 5%% at these means:", rows
    for (pp = 1; pp <= length(precs); pp++) {
        P = substr(precs, pp, 1); any = ""
        if (!(P in HASP)) continue
        for (j = 1; j <= NKK; j++) any = any (any == "" ? "" : "; ") KK[j] " " short_ranges(WIN[P, KK[j]])
        printf " %s, %s.", pname(P), any
    }
    printf " %s. Rows: %s.\n", short_devices(), prov_used()
}
# compact=1: a row per device and precision, a column per mean, each cell the
# kernels within 5% of the fastest there
function short_compact(    n, i, j, v, cols, nc, C2, hdr, sep, key, out, a, seen, lastkey) {
    short_compute()
    for (n = 1; n <= SN; n++) {
        v = short_spec_mean(SM[n])
        if (!(v in seen)) { seen[v] = 1; nc++; cols[nc] = sprintf("%012.4f", 1e6 - v) SUBSEP v }
        CELL[SF[n], SP[n], v] = ""
        for (j = 1; j <= NKK; j++) if (((n, KK[j]) in FRAC) && FRAC[n, KK[j]] >= 0.95) CELL[SF[n], SP[n], v] = CELL[SF[n], SP[n], v] (CELL[SF[n], SP[n], v] == "" ? "" : ", ") KK[j]
    }
    isort(cols, nc)
    hdr = "| mean row length |"; sep = "| --- |"
    for (i = 1; i <= nc; i++) { split(cols[i], a, SUBSEP); C2[i] = a[2]; hdr = hdr " " a[2] " |"; sep = sep " --- |" }
    print hdr; print sep
    for (n = 1; n <= SN; n++) {
        key = SF[n] SUBSEP SP[n]
        if (key == lastkey) continue
        lastkey = key
        out = "| " SHORTDEV(DEV[SF[n]]) " " pname(SP[n]) " |"
        for (i = 1; i <= nc; i++) out = out " " (((SF[n], SP[n], C2[i]) in CELL) ? CELL[SF[n], SP[n], C2[i]] : "-") " |"
        print out
    }
    print ""
    printf "The kernels within 5%% of the fastest of the course's kernels (scalar, vector-G for each group the sweep ran, adaptive) on `--gen short` rows of the mean above (%s), each taken within its rounds against the scalar kernel (`plots/blocks/step6-short.sh FILE` gives the ratios). %s. Rows: %s.\n", \
        short_rows_list(), short_devices(), prov_used()
}
# list=1: "DEVICE<tab>MATRIX<tab>P<tab>KERNEL<tab>FRACTION" lines, for tests
function short_list(    n, j) {
    short_compute()
    for (n = 1; n <= SN; n++) for (j = 1; j <= NKK; j++)
        if ((n, KK[j]) in FRAC) printf "%s\t%s\t%s\t%s\t%.4f\n", DEV[SF[n]], SM[n], SP[n], KK[j], FRAC[n, KK[j]]
}
function short_rows_list(    n, s, seen) {
    s = ""
    for (n = 1; n <= SN; n++) if (!(SF[n] in seen)) { seen[SF[n]] = 1; s = s (s == "" ? "" : "; ") SHORTDEV(DEV[SF[n]]) ": " ROWS[SM[n]] " rows" }
    return s
}

END {
    if (nfiles == 0) { print "step6 blocks: no CSV given" > "/dev/stderr"; exit 2 }
    if (mode == "devices") devices()
    else if (mode == "pivot") pivot()
    else if (mode == "vs") vs()
    else if (mode == "short") { if (list) short_list(); else if (compact) short_compact(); else short_table() }
    else { print "step6 blocks: unknown mode " mode > "/dev/stderr"; exit 2 }
}
