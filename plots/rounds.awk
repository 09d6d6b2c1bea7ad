# plots/rounds.awk - the table of `make rounds` (plots/rounds.sh), from its CSV:
# a round column, then the columns every binary writes (common/report.h).
#
# For each matrix and kernel, in the order they first appear: the median over
# the rounds of GFLOP/s, of the % of the compulsory bound (each run against
# its own probe) and of the probe's GB/s, with the range; for the OpenCL
# kernels also the speed-up over the fastest step 0 loop of the same round
# and matrix. Rows whose check did not pass count as FAIL or SKIP, never as
# a speed.
#
#   awk -F, -f plots/rounds.awk build/rounds/rounds.csv

function sort_n(a, n,    i, j, t) {
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
}
function median(a, n) {
    sort_n(a, n)
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
# "median (min-max)" of the list in s (space-separated), in format f
function summary(s, f, unit,    a, n, m, i) {
    n = split(s, a, " ")
    if (n == 0)
        return ""
    for (i = 1; i <= n; i++)
        a[i] += 0
    m = median(a, n)
    if (n == 1)
        return sprintf(f unit, m)
    return sprintf(f unit " (" f "-" f unit ")", m, a[1], a[n])
}

NR == 1 {
    for (i = 1; i <= NF; i++)
        col[$i] = i
    need = "round step kernel device driver matrix gflops bw_measured_gbs bound_compulsory_gflops check"
    n = split(need, names, " ")
    for (i = 1; i <= n; i++)
        if (!(names[i] in col)) {
            printf "rounds.awk: the CSV has no column '%s'\n", names[i] > "/dev/stderr"
            bad = 1
            exit 2
        }
    next
}
{
    round = $col["round"]; step = $col["step"]; kernel = $col["kernel"]; m = $col["matrix"]
    key = m SUBSEP step SUBSEP kernel
    if (!(key in seen)) {
        seen[key] = 1
        order[++nkeys] = key
    }
    rounds[round] = 1
    if ($col["check"] != "PASS" || $col["gflops"] + 0 <= 0) {
        state[key] = state[key] ? state[key] : $col["check"]
        next
    }
    g = $col["gflops"] + 0
    gf[key] = gf[key] " " g
    bc = $col["bound_compulsory_gflops"] + 0
    if (bc > 0)
        pc[key] = pc[key] " " 100 * g / bc
    bw[key] = bw[key] " " $col["bw_measured_gbs"]
    speed[key, round] = g
    if (step == "step0") {
        if (g > best0[m, round])
            best0[m, round] = g
    } else if (!device) {
        device = $col["device"]
        driver = $col["driver"]
    }
    if (step == "step0" && !host)
        host = $col["device"]
}
END {
    if (bad)
        exit 2
    nr = 0
    for (r in rounds)
        nr++
    printf "OpenCL device: %s (%s); step 0: %s. Median over %d round%s (min-max in brackets).\n\n",
        device ? device : "-", driver ? driver : "-", host ? host : "-", nr, nr == 1 ? "" : "s"
    print "| matrix | step | kernel | GFLOP/s | % of compulsory bound | probe GB/s | x fastest step 0 loop |"
    print "|---|---|---|---|---|---|---|"
    for (i = 1; i <= nkeys; i++) {
        key = order[i]
        split(key, p, SUBSEP)
        if (gf[key] == "") {
            printf "| %s | %s | %s | %s | | | |\n", p[1], p[2], p[3], state[key]
            continue
        }
        x = ""
        if (p[2] != "step0") {
            list = ""
            for (r in rounds)
                if (((key, r) in speed) && best0[p[1], r] > 0)
                    list = list " " speed[key, r] / best0[p[1], r]
            x = summary(list, "%.2f", "x")
        }
        if (x == "")
            x = "-"
        note = state[key] ? " (" state[key] " in some rounds)" : ""
        printf "| %s | %s | %s | %s%s | %s | %s | %s |\n", p[1], p[2], p[3], summary(gf[key], "%.2f", ""), note,
            summary(pc[key], "%.0f", "%%"), summary(bw[key], "%.1f", ""), x
    }
}
