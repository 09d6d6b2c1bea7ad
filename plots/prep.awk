# plots/prep.awk - one results CSV in, the small data files gnuplot draws out.
#
#   awk -F, -v W=WORKDIR -v slug=SLUG -f plots/prep.awk plots/data/SLUG.csv
#
# Only rows with check PASS and a speed above 0 become points: a FAIL, SKIP or
# ERROR row is never a speed; FAIL and ERROR rows go to the notes (footnotes),
# SKIP rows to the skips. Where a size was run more than once, the best
# median-time GFLOP/s is kept. Writes, under W:
#   SLUG.meta                    key<TAB>value: device, host, dates, lists
#   SLUG-dia-STEP-KERNEL.dat     rows gflops model_bound compulsory_bound (DIA steps, r5 grids)
#   SLUG-comp.dat, -comp0.dat    the compulsory bound of the OpenCL steps, of step0 (host)
#   SLUG-bars.dat                per step at the largest grid every DIA step ran with all its kernels
#   SLUG-csr-P.dat               step6 in precision P: per matrix (the grid and the real ones),
#                                scalar and vector, cuSPARSE (vendor/cusparse: kernel cusparse*),
#                                the reference, and the adaptive kernel
#   SLUG-irr-P.dat               step6 in precision P on the generated irregular matrices
#                                (powerlaw..., arrow..., uniform...: --gen): per matrix family,
#                                at the largest size all three kernels ran, each kernel's GFLOP/s
#                                and % of its compulsory bound, cuSPARSE, and step6's choice
#                                (-v choice=FILE: the sweep's choice/SLUG.csv, where it has one)
#   SLUG-roof.dat                the roofline: the bars' rows and step6 per precision, each at
#                                its model and its compulsory intensity (FLOPs per byte)
#   SLUG.notes                   GROUP<TAB>text for each FAIL or ERROR row
# Columns are found by their names in the header (CONVENTIONS.md section 8):
# a file from before bw_copy_gbs and bw_read_gbs (or migrated, with them
# empty) is read the same, its roofline with the one measured slope.

function num(x) { return x + 0 }
function fname(s) { gsub(/[^A-Za-z0-9._-]/, "_", s); return s }
function day(d) { return substr(d, 1, 10) }
function sortnum(a, n,    i, j, t) {   # insertion sort of a[1..n], numbers
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && num(a[j]) > num(t); j--) a[j + 1] = a[j]; a[j + 1] = t }
}
function meta(k, v) { printf "%s\t%s\n", k, v > (W "/" slug ".meta") }
function isdia(s) { return s ~ /^step[0-5]$/ }
function median(a, n) { sortnum(a, n); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function log2(x) { return log(x) / log(2) }
function floor_(x) { return x == int(x) || x > 0 ? int(x) : int(x) - 1 }
function ceil_(x) { return -floor_(-x) }
# the roofline: each DIA step at the bars' grid and step6 per precision, at its model intensity
# (the article's 12, 8 or 4 bytes per 2 FLOPs) and its compulsory one, with the bandwidth slopes
# (the OpenCL steps' probe: the medians over their rows of bw_measured_gbs, and of bw_copy_gbs and
# bw_read_gbs where rows have them; step0's host probe) and a log-log range that holds every point
function roofline(    f, st, s, k, p, pi, mi, ci, g, nb, nb0, nbc, b, b0, bcp, brd, pcap, kk, q) {
    f = W "/" slug "-roof.dat"; nb = nb0 = nbc = 0; lo = hi = glo = ghi = 0
    for (st = 0; st <= 6; st++) {
        s = "step" st
        if (st < 6) {
            if (!((s, brow) in stepbest) || brow + 0 > cap[s] || stepbw[s, brow] <= 0) continue
            g = stepbest[s, brow]; mi = stepbm[s, brow] / stepbw[s, brow]; ci = stepbc[s, brow] / stepbw[s, brow]
            rline(f, s " " stepk[s, brow], mi, ci, g, stepbw[s, brow], st + 1)
            if (st == 0) b0[++nb0] = stepbw[s, brow]
            else {
                b[++nb] = stepbw[s, brow]
                if (stepbwc[s, brow] > 0 && stepbwr[s, brow] > 0) { bcp[++nbc] = stepbwc[s, brow]; brd[nbc] = stepbwr[s, brow] }
            }
            continue
        }
        split("s d c z", P, " ")
        for (pi = 1; pi <= 4; pi++) {
            p = P[pi]; pcap = 0
            for (kk in rkmax) { split(kk, q, SUBSEP); if (q[1] == p && (pcap == 0 || rkmax[kk] < pcap)) pcap = rkmax[kk] }
            k = p SUBSEP pcap
            if (!(k in rbest)) continue
            rline(f, sprintf("step6 %s %s grid%dx%dr5", rk[k], p, sqrt(pcap), sqrt(pcap)), "NaN", rbc[k] / rbw[k], rbest[k], rbw[k], 7, p)
            b[++nb] = rbw[k]
            if (rbwc[k] > 0 && rbwr[k] > 0) { bcp[++nbc] = rbwc[k]; brd[nbc] = rbwr[k] }
        }
    }
    close(f)
    if (!nrl) return
    meta("roof", f); meta("roof_n", nrl); meta("roof_nm", nrlm + 0)
    meta("roof_bw", nb ? sprintf("%.4g", median(b, nb)) : "")
    meta("roof_bwc", nbc ? sprintf("%.4g", median(bcp, nbc)) : "")   # empty: rows from before the
    meta("roof_bwr", nbc ? sprintf("%.4g", median(brd, nbc)) : "")   # copy and read columns
    meta("roof_bw0", nb0 ? sprintf("%.4g", b0[1]) : "")
    meta("roof_x", sprintf("%.6g %.6g", 2 ^ (floor_(log2(rlo)) - 1), 2 ^ (ceil_(log2(rhi)) + 1)))
    meta("roof_y", sprintf("%.6g %.6g", 10 ^ floor_(log(rglo / 2) / log(10)), 10 ^ ceil_(log(rghi * 2) / log(10))))
}
function rline(f, label, mi, ci, g, bw, lt, tag) {   # a block per point: its label is the block's column header
    printf "%s\"%s\" model_I comp_I gflops bw lt tag\n", nrl ? "\n\n" : "", label > f
    printf "0 %s %.6g %.6g %.6g %d %s\n", mi == "NaN" ? mi : sprintf("%.6g", mi), ci, g, bw, lt, tag == "" ? "-" : tag > f
    nrl++; if (mi != "NaN") nrlm++
    if (mi != "NaN" && (rlo == 0 || mi < rlo)) rlo = mi
    if (rlo == 0 || ci < rlo) rlo = ci
    if (mi != "NaN" && mi > rhi) rhi = mi
    if (ci > rhi) rhi = ci
    if (rglo == 0 || g < rglo) rglo = g
    if (g > rghi) rghi = g
}

function col(name) { return (name in C) ? $C[name] : "" }
function isgen(m) { return m ~ /^(powerlaw|uniform|arrow)[0-9]/ }   # a --gen matrix (common/gen.c names)
function family(m) { sub(/^[a-z]+[0-9]+(x[0-9]+)?/, "&@", m); sub(/[0-9]+(x[0-9]+)?@/, "", m); return m }
function commas(n,    s) { s = sprintf("%d", n); while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s); return s }
function human(n) { return n >= 1e6 ? sprintf("%.1fM", n / 1e6) : n >= 1e4 ? sprintf("%.0fk", n / 1e3) : sprintf("%d", n) }
function famkey(f,    a) {
    split(f, a, "-")
    return (a[1] == "powerlaw" ? "1" : a[1] == "arrow" ? "2" : "3") sprintf("%012.3f", substr(a[2], a[1] == "powerlaw" ? 2 : 1) + 0) f
}
function famlabel(f,    a, n, i, m, e, out) {   # powerlaw-m15-e1.6-s1 -> power-law, mean 15
    n = split(f, a, "-")
    if (a[1] == "powerlaw") {
        for (i = 2; i <= n; i++) { if (a[i] ~ /^m/) m = substr(a[i], 2); if (a[i] ~ /^e/) e = substr(a[i], 2) }
        out = "power-law, mean " m (e != "" && e != "1.6" ? ", exp " e : "")
    } else if (a[1] == "uniform") out = "uniform " a[2] "-" a[3]
    else out = a[1]
    return out
}
BEGIN {   # step6's choice per matrix and precision (figures.sh: choice/SLUG.csv), the latest row last
    if (choice != "") while ((getline line < choice) > 0) {
        split(line, q, ","); if (q[1] != "device") chosen[q[2], q[3]] = q[4]
    }
}
NR == 1 {
    for (i = 1; i <= NF; i++) C[$i] = i
    ncol = NF
    n = split("step kernel device matrix rows nnz diags precision gflops bw_measured_gbs bound_model_gflops " \
              "bound_compulsory_gflops check date", need, " ")
    for (i = 1; i <= n; i++) if (!(need[i] in C)) {
        printf "prep.awk: %s has no column %s\n", FILENAME, need[i] > "/dev/stderr"; bad = 1; exit 2
    }
    next
}
NF != ncol { next }
{
    step = col("step"); kernel = col("kernel"); dev = col("device"); mat = col("matrix"); rows = num(col("rows"))
    nnz = num(col("nnz")); diags = num(col("diags")); prec = col("precision"); g = num(col("gflops"))
    bw = num(col("bw_measured_gbs")); bm = num(col("bound_model_gflops")); bc = num(col("bound_compulsory_gflops"))
    bwc = num(col("bw_copy_gbs")); bwr = num(col("bw_read_gbs")); check = col("check")
    d = day(col("date"))
    if (d != "" && (dfrom == "" || d < dfrom)) dfrom = d
    if (d > dto) dto = d
    if (dev != "" && dev != "-" && dev != "@DEVICE@") {
        if (step == "step0") { if (host == "") host = dev }
        else if (device == "") device = dev
        if (anydev == "") anydev = dev
    }
    if (check == "FAIL" || check == "ERROR") {
        grp = isdia(step) ? "dia" : step
        notes[++nnotes] = (isdia(step) ? step : "csr") "\t" step " " kernel " " mat (step == "step6" ? " " prec : "") ": " check
        next
    }
    vendor = step == "step6" && kernel ~ /^cusparse/   # vendor/cusparse: a reference, not a step6 kernel
    if (check == "SKIP") { if (!vendor) skipped[step " " prec] = 1; next }   # (no CUDA device: no line, no claim)
    if (check != "PASS" || g <= 0 || rows <= 0) next

    if (isdia(step) && mat ~ /^grid[0-9]+x[0-9]+r5$/) {
        key = step SUBSEP kernel
        if (!(key in series)) { series[key] = 1; skeys[++nseries] = key }
        k = key SUBSEP rows
        if (!(k in best) || g > best[k]) {
            if (!(k in best)) { nrows[key]++; rowlist[key, nrows[key]] = rows }
            best[k] = g; bmod[k] = bm; bcomp[k] = bc
            bytes[key] = bm > 0 ? 2 * nnz * bw / (bm * diags * rows) : 0
        }
        stepsize[step, rows] = 1; hasstep[step] = 1
        if (!(key in kmax) || rows > kmax[key]) kmax[key] = rows
        if (!((step, rows) in stepbest) || g > stepbest[step, rows]) {
            stepbest[step, rows] = g; stepbm[step, rows] = bm; stepbc[step, rows] = bc; stepk[step, rows] = kernel
            stepbw[step, rows] = bw; stepbwc[step, rows] = bwc; stepbwr[step, rows] = bwr
        }
        allrows[rows] = 1
        c = step == "step0" ? "comp0" : "comp"
        if (!((c, rows) in cbest) || bc > cbest[c, rows]) cbest[c, rows] = bc
    }
    if (step == "step6") {
        kf = kernel; sub(/-.*/, "", kf)   # "vector-16" (its group size) is a vector row; cusparse-alg2 a cusparse one
        k = mat SUBSEP prec SUBSEP kf
        if (!(k in csr) || g > csr[k]) { csr[k] = g; csrbc[k] = bc }
        if (vendor) next   # drawn where step6 ran, never a bar or a size of its own
        if (isgen(mat)) {   # the irregular figure's: a family at its sizes
            fm = family(mat)
            if (!(fm in gfam)) { gfam[fm] = 1; gfams[++ngfam] = fm }
            gk[fm, prec, rows, kf] = 1; gmat[fm, rows] = mat; gnnz[fm, rows] = nnz; gsz[fm, prec, rows] = 1; gprec[prec] = 1
            next
        }
        if (mat ~ /^grid/ && rows > topgrid) { topgrid = rows; topgridname = mat }
        if (mat ~ /^grid/) gridname[rows] = mat
        csrmat[mat] = nnz; csrprec[prec] = 1; csrpk[mat, prec] = 1
        if (mat ~ /^grid/ && prec == "s" && (!(kf in s6kmax) || rows > s6kmax[kf])) s6kmax[kf] = rows
        if (mat ~ /^grid/ && prec == "s" && (!((rows) in s6best) || g > s6best[rows])) {
            s6best[rows] = g; s6bc[rows] = bc; s6k[rows] = kernel
        }
        if (mat ~ /^grid/ && bw > 0) {   # the roofline's step6: per precision, the largest grid all its kernels ran
            if (!((prec, kf) in rkmax) || rows > rkmax[prec, kf]) rkmax[prec, kf] = rows
            k = prec SUBSEP rows
            if (!(k in rbest) || g > rbest[k]) { rbest[k] = g; rbc[k] = bc; rbw[k] = bw; rbwc[k] = bwc; rbwr[k] = bwr; rk[k] = kernel }
        }
    }
}

END {
    if (bad) exit 2
    meta("device", device != "" ? device : (anydev != "" ? anydev : slug))
    meta("host", host)
    meta("dates", dfrom == dto ? dfrom : dfrom " to " dto)

    # ---- DIA series, one file each, rows ascending ----
    list = ""
    for (i = 1; i <= nseries; i++) {
        key = skeys[i]; split(key, kk, SUBSEP)
        n = nrows[key]; delete r
        for (j = 1; j <= n; j++) r[j] = rowlist[key, j]
        sortnum(r, n)
        f = W "/" slug "-dia-" kk[1] "-" fname(kk[2]) ".dat"
        B = sprintf("%.0f", bytes[key])
        printf "rows \"%s %s\" \"%s model bound (%s B per 2 FLOPs)\" \"compulsory bound\"\n", kk[1], kk[2], kk[1], B > f
        for (j = 1; j <= n; j++) { k = key SUBSEP r[j]; printf "%d %.6g %.6g %.6g\n", r[j], best[k], bmod[k], bcomp[k] > f }
        close(f)
        list = list (list == "" ? "" : " ") kk[1] "|" kk[2] "|" f
    }
    meta("dia", list)

    # ---- compulsory bounds over all OpenCL steps, and step0's (host) ----
    n = 0; delete r
    for (x in allrows) r[++n] = x
    sortnum(r, n)
    for (ci = 0; ci < 2; ci++) {
        c = ci ? "comp0" : "comp"; f = W "/" slug "-" c ".dat"; wrote = 0
        for (j = 1; j <= n; j++) if ((c, r[j]) in cbest) {
            if (!wrote) printf "rows \"%s\"\n", ci ? "step0 compulsory bound (host)" : "compulsory bound" > f
            printf "%d %.6g\n", r[j], cbest[c, r[j]] > f; wrote = 1
        }
        if (wrote) { close(f); meta(c, f) }
    }

    # ---- bars: the largest grid every DIA step ran with all its kernels (else the
    # one most steps ran): a kernel that stopped growing earlier (a slower loop, a
    # spent budget) pulls its step back, so that the bar is the step's best there ----
    for (key in kmax) { split(key, kk, SUBSEP); if (!(kk[1] in cap) || kmax[key] < cap[kk[1]]) cap[kk[1]] = kmax[key] }
    s6cap = 0
    for (kf in s6kmax) if (s6cap == 0 || s6kmax[kf] < s6cap) s6cap = s6kmax[kf]
    nsteps = 0
    for (s in hasstep) nsteps++
    brow = 0; bcount = 0
    for (j = n; j >= 1; j--) {
        cnt = 0
        for (s in hasstep) if ((s, r[j]) in stepsize && r[j] + 0 <= cap[s]) cnt++
        if (cnt > bcount) { bcount = cnt; brow = r[j] }
        if (cnt == nsteps) break
    }
    if (brow > 0) {
        f = W "/" slug "-bars.dat"; i = 0
        printf "idx label gflops model compulsory pct\n" > f
        for (st = 0; st <= 5; st++) {
            s = "step" st
            if ((s, brow) in stepbest && brow + 0 <= cap[s]) {
                printf "%d \"%s %s\" %.6g %.6g %.6g %.6g\n", i++, s, stepk[s, brow], stepbest[s, brow], stepbm[s, brow],
                    stepbc[s, brow], 100 * stepbest[s, brow] / stepbc[s, brow] > f
            }
        }
        if (brow in s6best && brow + 0 <= s6cap)
            printf "%d \"%s %s (CSR)\" %.6g NaN %.6g %.6g\n", i++, "step6", s6k[brow], s6best[brow], s6bc[brow],
                100 * s6best[brow] / s6bc[brow] > f
        close(f)
        side = sqrt(brow)
        meta("bars", f); meta("bars_size", sprintf("grid%dx%dr5 (%d rows)", side, side, brow))
        meta("bars_all", bcount == nsteps ? "1" : "0")
        roofline()
    }

    # ---- step6: per precision, per matrix (smallest first; of the grids, the largest every
    # kernel ran in float, so that no kernel's column is empty: gnuplot would warn) ----
    if (s6cap > 0 && (s6cap in gridname)) topgridname = gridname[s6cap]
    nm = 0; delete m
    for (x in csrmat) if (x !~ /^grid/ || x == topgridname) m[++nm] = x
    for (a = 2; a <= nm; a++) {   # by nnz
        t = m[a]; for (b = a - 1; b >= 1 && csrmat[m[b]] > csrmat[t]; b--) m[b + 1] = m[b]; m[b + 1] = t
    }
    plist = ""; vlist = ""; lo = 0; hi = 0
    split("s d c z", P, " ")
    for (pi = 1; pi <= 4; pi++) {
        p = P[pi]
        if (!(p in csrprec)) continue
        f = W "/" slug "-csr-" p ".dat"
        printf "idx matrix scalar vector scalar_bound vector_bound cusparse adaptive adaptive_bound\n" > f
        for (j = 1; j <= nm; j++) {
            line = sprintf("%d \"%s\"", j - 1, m[j])
            for (ki = 0; ki < 2; ki++) {
                k = m[j] SUBSEP p SUBSEP (ki ? "vector" : "scalar")
                line = line ((k in csr) ? sprintf(" %.6g", csr[k]) : " NaN")
                if (k in csr) { if (lo == 0 || csr[k] < lo) lo = csr[k]; if (csr[k] > hi) hi = csr[k]; chas[p, ki + 1] = 1 }
            }
            for (ki = 0; ki < 2; ki++) {
                k = m[j] SUBSEP p SUBSEP (ki ? "vector" : "scalar")
                line = line ((k in csr && csrbc[k] > 0) ? sprintf(" %.6g", csrbc[k]) : " NaN")
                if (k in csr && csrbc[k] > 0) { if (csrbc[k] > hi) hi = csrbc[k]; chas[p, ki + 5] = 1 }
            }
            k = m[j] SUBSEP p SUBSEP "cusparse"
            line = line ((k in csr) ? sprintf(" %.6g", csr[k]) : " NaN")
            if (k in csr) { if (lo == 0 || csr[k] < lo) lo = csr[k]; if (csr[k] > hi) hi = csr[k]; chas[p, 4] = 1 }
            k = m[j] SUBSEP p SUBSEP "adaptive"
            line = line ((k in csr) ? sprintf(" %.6g", csr[k]) : " NaN") ((k in csr && csrbc[k] > 0) ? sprintf(" %.6g", csrbc[k]) : " NaN")
            if (k in csr) { if (lo == 0 || csr[k] < lo) lo = csr[k]; if (csr[k] > hi) hi = csr[k]; chas[p, 3] = 1 }
            if (k in csr && csrbc[k] > 0) { if (csrbc[k] > hi) hi = csrbc[k]; chas[p, 7] = 1 }
            print line > f
        }
        close(f)
        # a precision none of whose kernels ran at these matrices (a sweep cut short) has no panel
        if (!((p, 1) in chas) && !((p, 2) in chas) && !((p, 3) in chas)) { nodata = nodata (nodata == "" ? "" : " ") p; continue }
        plist = plist (plist == "" ? "" : " ") p
        fl = ""
        for (ki = 1; ki <= 7; ki++) fl = fl (((p, ki) in chas) ? 1 : 0)
        vlist = vlist (vlist == "" ? "" : " ") fl
    }
    if (plist != "") {
        meta("csr", plist)
        meta("csr_flags", vlist)   # per precision: scalar, vector, adaptive, cuSPARSE, the three bounds (1/0 each)
        if (nodata != "") meta("csr_nodata", nodata)   # precisions left out: no kernel ran at the matrices drawn
        meta("csr_ymin", 10 ^ int(log(lo) / log(10) - (lo < 1 ? 1 : 0)))
        meta("csr_ymax", 10 ^ (int(log(hi * 1.5) / log(10)) + 1))
        meta("csr_n", nm)
    }
    irregular()
    sk = ""
    for (x in skipped) sk = sk (sk == "" ? "" : ", ") x
    meta("skips", sk)
    for (i = 1; i <= nnotes; i++) print notes[i] > (W "/" slug ".notes")
    close(W "/" slug ".meta")
}

# the irregular figure: per precision, each generated family (by name) at the largest size all
# three step6 kernels ran there (else the largest with the most of them): a row per family
#   idx family rows_label matrix scalar vector adaptive pct_s pct_v pct_a cusparse choice_x choice_y bound
function irregular(    p, pi, i, fm, r, best, bn, n, kk, ki, f, line, lo, hi, plist, vlist, g, pc, ch, cx, cy, bmax, nmax, KN) {
    split("scalar vector adaptive", KN, " ")
    for (i = 2; i <= ngfam; i++) {   # power-law by mean, then the arrow, then uniform
        fm = gfams[i]; for (n = i - 1; n >= 1 && famkey(gfams[n]) > famkey(fm); n--) gfams[n + 1] = gfams[n]; gfams[n + 1] = fm
    }
    split("s d c z", P, " "); lo = hi = 0; plist = vlist = ""; nmax = 0
    for (pi = 1; pi <= 4; pi++) {
        p = P[pi]
        if (!(p in gprec)) continue
        f = W "/" slug "-irr-" p ".dat"; i = 0
        printf "idx family size matrix scalar vector adaptive pct_scalar pct_vector pct_adaptive cusparse choice_x choice_y bound\n" > f
        for (fi = 1; fi <= ngfam; fi++) {
            fm = gfams[fi]; best = 0; bn = 0
            for (kk in gsz) {
                split(kk, q, SUBSEP)
                if (q[1] != fm || q[2] != p) continue
                r = q[3] + 0; n = 0
                for (ki = 1; ki <= 3; ki++) if ((fm, p, q[3], KN[ki]) in gk) n++
                if (n > bn || (n == bn && r > best)) { bn = n; best = r }
            }
            if (!bn) continue
            mt = gmat[fm, best]
            line = sprintf("%d \"%s\" \"%s rows, %s nnz\" \"%s\"", i, famlabel(fm), human(best), human(gnnz[fm, best]), mt)
            pc = ""; bmax = 0
            for (ki = 1; ki <= 3; ki++) {
                k = mt SUBSEP p SUBSEP KN[ki]
                line = line ((k in csr) ? sprintf(" %.6g", csr[k]) : " NaN")
                pc = pc ((k in csr && csrbc[k] > 0) ? sprintf(" %.1f", 100 * csr[k] / csrbc[k]) : " NaN")
                if (k in csr) { if (lo == 0 || csr[k] < lo) lo = csr[k]; if (csr[k] > hi) hi = csr[k]; if (csrbc[k] > bmax) bmax = csrbc[k]; ikh[p, ki] = 1 }
            }
            k = mt SUBSEP p SUBSEP "cusparse"
            line = line pc ((k in csr) ? sprintf(" %.6g", csr[k]) : " NaN")
            if (k in csr) { if (csr[k] > hi) hi = csr[k]; if (lo == 0 || csr[k] < lo) lo = csr[k]; ihas[p] = 1 }
            ch = (mt, p) in chosen ? chosen[mt, p] : ""; sub(/-.*/, "", ch)
            cx = cy = "NaN"
            for (ki = 1; ki <= 3; ki++) if (ch == KN[ki] && ((mt SUBSEP p SUBSEP ch) in csr)) { cx = i + (ki - 2) * 0.27; cy = csr[mt SUBSEP p SUBSEP ch] }
            if (cx != "NaN") ihasch[p] = 1
            if (bmax > hi) hi = bmax
            if (bmax > 0) ibnd[p] = 1
            print line " " cx " " (cy == "NaN" ? cy : sprintf("%.6g", cy)) " " (bmax > 0 ? sprintf("%.6g", bmax) : "NaN") > f
            i++
        }
        close(f)
        if (i > nmax) nmax = i
        plist = plist (plist == "" ? "" : " ") p
        vlist = vlist (vlist == "" ? "" : " ") ((p in ihas) ? 1 : 0) ((p in ihasch) ? 1 : 0) \
            (((p, 1) in ikh) ? 1 : 0) (((p, 2) in ikh) ? 1 : 0) (((p, 3) in ikh) ? 1 : 0) ((p in ibnd) ? 1 : 0)
    }
    if (plist == "") return
    meta("irr", plist)
    meta("irr_flags", vlist)   # per precision: cuSPARSE drawn, a choice marked, scalar, vector, adaptive, a bound (1/0 each)
    meta("irr_n", nmax)
    meta("irr_ymin", 10 ^ int(log(lo) / log(10) - (lo < 1 ? 1 : 0)))
    meta("irr_ymax", 10 ^ (int(log(hi * 2.5) / log(10)) + 1))
}
