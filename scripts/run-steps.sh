#!/usr/bin/env bash
# scripts/run-steps.sh BUILD "ARGS" STEP... - what `make run` does: run each
# step with the same options, then print one summary table read from the CSV
# rows the steps wrote (never from their printed text), then the chart of the
# run (scripts/run-chart.sh: BUILD/run.png, .svg and the terminal).
set -u
build=$1 args=$2
shift 2
csv=$build/run.csv
rm -f "$csv"
# ARGS="--csv FILE" is the user's own CSV: each step writes its rows to a
# fresh file of this run, and they go to both the summary's CSV and FILE
# (header when FILE is new), so neither --csv wins over the other
read -r -a argv <<<"$args"
user_csv="" keep=()
for ((i = 0; i < ${#argv[@]}; i++)); do
    case ${argv[i]} in
        --csv) user_csv=${argv[i + 1]:-}; i=$((i + 1)) ;;
        --csv=*) user_csv=${argv[i]#--csv=} ;;
        *) keep+=("${argv[i]}") ;;
    esac
done
if [ -n "$user_csv" ] || [[ " $args " == *" --csv "* ]]; then
    if [ -z "$user_csv" ]; then echo "run: --csv needs a file name" >&2; exit 2; fi
fi
args="${keep[*]}"
one=$build/run-one.csv
declare -A status
# step6 (CSR) reads any matrix: without options it runs its default set, the
# grid and real matrices from tests/data, every kernel on each (young1c is
# complex: it runs in complex float, as the file says)
root=$(cd "$(dirname "$0")/.." && pwd)
step6_set=("" "--matrix $root/tests/data/west0067.mtx" "--matrix $root/tests/data/bfwa62.mtx"
           "--matrix $root/tests/data/lp_afiro.mtx" "--matrix $root/tests/data/1138_bus.mtx"
           "--matrix $root/tests/data/young1c.mtx")
# Beside each step's own run, the runs that tell a CPU's story: step 0's
# fastest loop (blocked: a block's y stays in cache) on every core of the
# host, on every device, the host's baseline; and on a CPU device (as the
# device step 4 reported answers `devices --type`), step 4's CPU-shaped kernel
# beside its vector kernel. Not when ARGS choose the loop or kernel themselves
# (--kernel, --threads, --kernel-file).
cores=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
chosen=0
for a in "${keep[@]}"; do
    case $a in --kernel|--kernel=*|--threads|--threads=*|--kernel-file|--kernel-file=*) chosen=1 ;; esac
done
cpu_device() { # the device of the rows in CSV FILE is a CPU
    local dev
    dev=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["device"]; exit }' "$1" 2>/dev/null)
    [ -n "$dev" ] && [ -x "$build/devices" ] && [ "$("$build/devices" --type "$dev" 2>/dev/null)" = CPU ]
}
# step 7 solves A x = b for a symmetric A: the grid of --grid is not one
# (its weights are random), so there --grid W[xH] becomes the Poisson matrix
# on that grid (--gen poisson:nx=W,ny=H), and --radius, --runs and --warmup
# (a product's; a solve runs once) go; its rows follow
# another header (the CG results), in $cgcsv, and have their own summary line
cgcsv=$build/run-cg.csv cgone=$build/run-cg-one.csv
rm -f "$cgcsv"
# step 8 is chapter 7's solver over MPI ranks: RANKS (default 2) ranks under
# mpirun (-q: a failed rank's status and line, not mpirun's banner), its rows
# in chapter 8's own CSV, $mpicsv, with a summary line of their own
mpicsv=$build/run-mpi.csv
rm -f "$mpicsv"
# step 9's rows: chapter 9's time-to-solution CSV
pcgcsv=$build/run-pcg.csv
rm -f "$pcgcsv"
mpirun_cmd() {
    local m=(mpirun -q -n "${RANKS:-2}")
    [ "$(id -u)" = 0 ] && m+=(--allow-run-as-root)
    [ "${RANKS:-2}" -gt "$cores" ] && m+=(--oversubscribe)
    echo "${m[*]}"
}
cg_args() {
    local out=() a w h
    for ((i = 0; i < ${#keep[@]}; i++)); do
        a=${keep[i]}
        case $a in
            --grid|--grid=*)
                if [ "$a" = --grid ]; then i=$((i + 1)); a=${keep[i]:-}; else a=${a#--grid=}; fi
                w=${a%%[xX]*} h=${a#*[xX]}
                out+=(--gen "poisson:nx=$w,ny=$h") ;;
            --radius|--runs|--warmup) i=$((i + 1)) ;;
            --radius=*|--runs=*|--warmup=*) ;;
            *) out+=("$a") ;;
        esac
    done
    echo "${out[*]}"
}
for s in "$@"; do
    echo "==================== $s ===================="
    sets=("")
    [ "$s" = step6 ] && [ -z "$args" ] && sets=("${step6_set[@]}")
    [ "$s" = step0 ] && [ "$chosen" = 0 ] && sets+=("--kernel blocked --threads $cores")
    status[$s]=0
    for ((j = 0; j < ${#sets[@]}; j++)); do
        m=${sets[j]}
        case $s:$m in
            step0:--kernel*) echo "---- $s $m: the host's fastest loop on all its cores, the baseline of every device ----" ;;
            step4:--kernel*) echo "---- $s $m: the kernel shaped for a CPU, beside vector ----" ;;
        esac
        rm -f "$one"
        if [ "$s" = step8 ]; then
            # shellcheck disable=SC2046
            $(mpirun_cmd) "$build/$s" $(cg_args) --csv "$mpicsv"
            st=$?
            status[$s]=$st
            [ "$st" = 4 ] && status[$s]=0
            echo
            continue
        fi
        if [ "$s" = step9 ]; then   # preconditioned CG: its rows in chapter 9's own CSV
            # shellcheck disable=SC2046
            "$build/$s" $(cg_args) --csv "$pcgcsv"
            st=$?
            status[$s]=$st
            [ "$st" = 4 ] && status[$s]=0
            echo
            continue
        fi
        if [ "$s" = step7 ]; then
            rm -f "$cgone"
            # shellcheck disable=SC2046
            "$build/$s" $(cg_args) --csv "$cgone"
            st=$?
            if [ -s "$cgone" ]; then
                [ -s "$cgcsv" ] || head -n 1 "$cgone" >"$cgcsv"
                tail -n +2 "$cgone" >>"$cgcsv"
            fi
            status[$s]=$st
            [ "$st" = 4 ] && status[$s]=0   # --maxiter reached: its check MAXITER in the summary, not a failure of the course
            echo
            continue
        fi
        # shellcheck disable=SC2086
        "$build/$s" $args $m --csv "$one"
        st=$?
        if [ "$s" = step4 ] && [ "$j" = 0 ] && [ "$chosen" = 0 ] && [ "$st" = 0 ] && cpu_device "$one"; then
            sets+=("--kernel cpu")
        fi
        if [ -s "$one" ]; then
            [ -s "$csv" ] || head -n 1 "$one" >"$csv"
            tail -n +2 "$one" >>"$csv"
            if [ -n "$user_csv" ]; then
                [ -s "$user_csv" ] || head -n 1 "$one" >"$user_csv"
                tail -n +2 "$one" >>"$user_csv"
            fi
        fi
        # the worst status wins: a failure (1, 2) over a skip (3) over a pass (0)
        case $st in 0) ;; 3) [ "${status[$s]}" = 0 ] && status[$s]=3 ;; *) status[$s]=$st ;; esac
        echo
    done
done
echo "==================== summary ===================="
printf '%-6s %-14s %-22s %10s %9s %12s  %s\n' step kernel matrix GFLOP/s "% model" "% compulsory" check
# step 0's rows are the host's C (row-t1: one thread), step 4's cpu the CPU-shaped kernel: said after the check
bad=0
for s in "$@"; do
    st=${status[$s]}
    # every row of the step (step6 writes one per kernel and matrix), its columns by name
    row=$(awk -F, -v s="$s" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["step"] == s {
            g = $c["gflops"]; bm = $c["bound_model_gflops"]; bc = $c["bound_compulsory_gflops"]
            pm = bm > 0 ? sprintf("%.1f%%", 100 * g / bm) : "-";
            pc = bc > 0 ? sprintf("%.1f%%", 100 * g / bc) : "-";
            check = $c["check"] == "SKIP" ? "skipped" : $c["check"];
            what = ""
            if (s == "step0" && match($c["kernel"], /-t[0-9]+$/)) {
                t = substr($c["kernel"], RSTART + 2); what = sprintf("  (host C, %d thread%s)", t, t == 1 ? "" : "s") }
            if (s == "step4" && $c["kernel"] == "cpu") what = "  (CPU-shaped kernel)"
            printf "%-6s %-14s %-22s %10.2f %9s %12s  %s%s\n", $c["step"], $c["kernel"], $c["matrix"], g, pm, pc, check, what }' \
        "$csv" 2>/dev/null)
    if [ "$s" = step7 ]; then   # the CG rows: ms an iteration, % of each bound
        row=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            { pv = $c["pct_version_bound"] != "" ? sprintf("%.1f%%", $c["pct_version_bound"]) : "-"
              pc = $c["pct_compulsory"] != "" ? sprintf("%.1f%%", $c["pct_compulsory"]) : "-"
              ms = $c["ms_per_iter"] != "" ? sprintf("%.4f ms an iteration", $c["ms_per_iter"]) : "no time (not PASS)"
              printf "%-6s %-14s %-22s %10s %9s %12s  %s  (CG: %s, %d iterations)\n",
                     $c["step"], $c["kernel"], $c["matrix"], "-", pv, pc, $c["check"], ms, $c["iterations"] }' "$cgcsv" 2>/dev/null)
    fi
    if [ "$s" = step8 ]; then   # the distributed CG: ms an iteration, the ranks, the halo and reductions
        row=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            { ms = $c["ms_per_iter"] != "" ? sprintf("%.4f ms an iteration", $c["ms_per_iter"]) : "no time (not PASS)"
              printf "%-6s %-14s %-22s %10s %9s %12s  %s  (CG on %d ranks: %s, %d iterations)\n",
                     $c["step"], $c["kernel"], $c["matrix"], "-", "-", "-", $c["check"], $c["ranks"],
                     ms, $c["iterations"] }' "$mpicsv" 2>/dev/null)
    fi
    if [ "$s" = step9 ]; then   # time to solution: iterations, setup + solve
        row=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            { t = $c["total_ms"] != "" ? sprintf("%.1f ms to solve (setup %.1f)", $c["total_ms"], $c["setup_ms"]) : "no time (not PASS)"
              printf "%-6s %-14s %-22s %10s %9s %12s  %s  (PCG: %s, %d iterations)\n",
                     $c["step"], $c["kernel"], $c["matrix"], "-", "-", "-", $c["check"], t, $c["iterations"] }' "$pcgcsv" 2>/dev/null)
    fi
    if [ -n "$row" ]; then
        echo "$row"
    else
        printf '%-6s %-14s %-22s %10s %9s %12s  %s\n' "$s" - - - - - "ERROR (status $st)"
    fi
    case $st in 0|3) ;; *) bad=1 ;; esac
done
# (from the SpMV rows, and step 7's where it ran: each file's own header)
dev=$(for f in "$csv" "$cgcsv" "$mpicsv"; do [ -s "$f" ] && cat "$f"; done |
    awk -F, '$1 == "step" { delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["step"] != "step0" && $c["device"] != "" { d = $c["device"] } END { print d }')
echo "(device of the last OpenCL step: ${dev:-none}; rows in $csv$( [ -s "$cgcsv" ] && echo ", step7's in $cgcsv")$( [ -s "$mpicsv" ] && echo ", step8's in $mpicsv")$( [ -s "$pcgcsv" ] && echo ", step9's in $pcgcsv"))"
# ---- the chart of this run (issue 14): never changes the run's status; the
# chart is of SpMV rates, so a run of step 7 or 8 alone (solvers: ms an
# iteration, in their own CSVs) has none ----
if [ -s "$csv" ] || { [ ! -s "$cgcsv" ] && [ ! -s "$mpicsv" ]; }; then
    "$root/scripts/run-chart.sh" "$csv" "$build/run"
fi
# ---- end of the chart ----
exit $bad
