# tests/t_step6_cusparse.sh - vendor/cusparse, the cuSPARSE reference of step6:
# `make cusparse` says it skipped and succeeds where there is no nvcc; where
# there is, it builds build/cusparse; without a GPU the program says so in one
# line and exits 3 (a SKIP row, no crash), with one it checks and times the
# grid; its OpenCL-only flags are refused; figures.sh runs it beside step6 on
# an NVIDIA device (with that device's name) and not on another (stubs made
# here, in $TMP only). The figure with cuSPARSE rows: tests/t_course_plots.sh.
# chapters: 6   (its yardstick)
source "$(dirname "$0")/lib.sh"
bin=$BUILD/cusparse
export SPMV_PROBE_MB=16

# ---- no nvcc: the target skips, one line, status 0, nothing built ----
skipped_build cusparse NVCC=/nonexistent "cusparse: skipped (no nvcc / cuSPARSE found)" cusparse \
    "make cusparse without nvcc: one line 'skipped', status 0, nothing built"
# make all goes through cusparse-if-cuda: the same skip, and make succeeds
_run make -s -C "$ROOT" BUILD="$BUILD" NVCC=/nonexistent cusparse-if-cuda
if [ "$(cat "$TMP/status")" = 0 ] && grep -qx "cusparse: skipped (no nvcc / cuSPARSE found)" "$TMP/out"; then
    pass "make all's cusparse step without nvcc: skipped, status 0"
else
    fail "make all's cusparse step without nvcc: skipped, status 0" "status $(cat "$TMP/status"): $(tr '\n' '|' <"$TMP/out" "$TMP/err")"
fi

# ---- nvcc here: it builds ----
nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
if [ -z "$nvcc" ] || [ ! -e "$(dirname "$(dirname "$(readlink -f "$nvcc")")")/include/cusparse.h" ]; then
    echo "(no nvcc and cuSPARSE here: build/cusparse not tried)"
else
    expect_ok "make cusparse with nvcc ($nvcc) builds" make -s -C "$ROOT" BUILD="$BUILD" cusparse
    if [ -x "$bin" ]; then pass "build/cusparse is there"; else fail "build/cusparse is there" "missing after make cusparse"; fi
fi

if [ -x "$bin" ]; then
    expect_error "cusparse refuses --local-size" "does not take --local-size: it is an OpenCL option" "$bin" --grid 8 --local-size 64
    expect_error "cusparse refuses a kernel source" "does not take --kernel-file: it is an OpenCL option" "$bin" --grid 8 --kernel-file x.cl
    expect_error "cusparse: an unknown algorithm" "--kernel wants one of alg1,alg2,both" "$bin" --kernel alg3
    expect_output "cusparse --help" '^usage: cusparse' "$bin" --help
    if nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
        # a GPU: both algorithms, checked and timed, and the row names the GPU
        for p in s z; do
            _run "$bin" --grid 32 --precision $p --runs 2 --warmup 1 --csv "$TMP/gpu-$p.csv"
            row=$(tail -n 1 "$TMP/gpu-$p.csv" 2>/dev/null)
            if [ "$(cat "$TMP/status")" = 0 ] && [ "$(grep -c '^check: PASS' "$TMP/out")" = 2 ] &&
                [[ $row == step6,cusparse,NVIDIA* ]] && [[ $row == *,PASS,* ]]; then
                pass "cusparse on the GPU, precision $p: both algorithms PASS, a cusparse row naming the GPU"
            else
                fail "cusparse on the GPU, precision $p: both algorithms PASS, a cusparse row naming the GPU" \
                    "status $(cat "$TMP/status"): $(grep -E '^check|error' "$TMP/out" "$TMP/err" | tr '\n' ' ') row: $row"
            fi
        done
        # the time is the GPU's: the host's part of the call hidden behind a
        # spin kernel, which SPMV_CUSPARSE_SPIN_US sets (0: none)
        expect_output "cusparse times behind a spin kernel" 'CUDA events, behind a [0-9]+ us spin' \
            "$bin" --grid 32 --runs 2 --kernel alg1
        expect_output "cusparse with SPMV_CUSPARSE_SPIN_US=0: the host's part included" \
            "the host's part included: SPMV_CUSPARSE_SPIN_US=0" env SPMV_CUSPARSE_SPIN_US=0 "$bin" --grid 32 --runs 2 --kernel alg1
        expect_error "cusparse: SPMV_CUSPARSE_SPIN_US not a number" "SPMV_CUSPARSE_SPIN_US=fast: give microseconds" \
            env SPMV_CUSPARSE_SPIN_US=fast "$bin" --grid 32 --runs 2
    else
        # no GPU: one line on stderr, status 3, a SKIP row, no crash
        _run "$bin" --grid 8 --csv "$TMP/skip.csv"
        st=$(cat "$TMP/status")
        row=$(tail -n 1 "$TMP/skip.csv" 2>/dev/null)
        if [ "$st" = 3 ] && [ "$(grep -c . "$TMP/err")" = 1 ] && grep -q '^cusparse: skipped: no CUDA device' "$TMP/err" &&
            [[ $row == step6,cusparse,-,*,SKIP,* ]]; then
            pass "cusparse without a GPU: one line, status 3, a SKIP row"
        else
            fail "cusparse without a GPU: one line, status 3, a SKIP row" "status $st: $(tr '\n' '|' <"$TMP/err") row: $row"
        fi
    fi
fi

# ---- figures.sh: cuSPARSE beside step6 on an NVIDIA GPU, not elsewhere ----
HEADER=$(head -n 1 "$ROOT/tests/data/plots/fixture-gpu.csv")
# stub NAME DEVICE KERNEL: writes one PASS row for the grid or matrix it was given, and its arguments to NAME.args
stub() {
    cat >"$3/$1" <<EOF
#!/usr/bin/env bash
echo "\$*" >>"$3/$1.args"
csv="" m="" p=s
while [ \$# -gt 0 ]; do case \$1 in --csv) csv=\$2; shift ;; --grid) m=grid\${2%%x*}x\${2%%x*}r5; shift ;;
    --matrix) m=\$(basename "\$2" .mtx); shift ;; --precision) p=\$2; shift ;; esac; shift; done
[ -s "\$csv" ] || echo "$HEADER" >"\$csv"
echo "step6,$4,$2,drv,\$m,4096,4096,100,0,\$p,10,1,1,3.5,10,100,0,60,1e-07,PASS,2026-01-02T03:04:05Z,abc1234,90,100" >>"\$csv"
EOF
    chmod +x "$3/$1"
}
mkdir -p "$TMP/fb-nv" "$TMP/fb-cpu"
stub step6 "NVIDIA Fake 100" "$TMP/fb-nv" vector-8
stub cusparse "NVIDIA Fake 100" "$TMP/fb-nv" cusparse
stub step6 "Some CPU" "$TMP/fb-cpu" vector-8
stub cusparse "Some CPU" "$TMP/fb-cpu" cusparse
# (a fixed plan: the grid, one real matrix, and the grid once more)
mkdir -p "$TMP/mats" && cp "$ROOT/tests/data/west0067.mtx" "$TMP/mats/"
CG=0 BUILD=$TMP/fb-nv DATA=$TMP/sweep-nv PLAN=1 REAL_MATRICES=0 MATRICES=$TMP/mats NO_DRAW=1 "$ROOT/plots/figures.sh" >"$TMP/nv.out" 2>&1
got=$(awk -F, "$BY_NAME"'col("kernel") == "cusparse" && (col("matrix") == "grid64x64r5" || col("matrix") == "west0067") { print col("matrix") "/" col("precision") }' \
    "$TMP/sweep-nv/nvidia-fake-100.csv" 2>/dev/null | sort | tr '\n' ' ')
want=$(for m in grid64x64r5 west0067; do for p in c d s z; do echo "$m/$p"; done; done | sort | tr '\n' ' ')
if [ "$got" = "$want" ]; then pass "figures.sh: cuSPARSE beside step6 on the grid and every matrix, four precisions"
else fail "figures.sh: cuSPARSE beside step6 on the grid and every matrix, four precisions" "rows: '$got'; $(tail -n 3 "$TMP/nv.out" | tr '\n' '|')"; fi
if [ -s "$TMP/fb-nv/cusparse.args" ] && ! grep -v -- '--device NVIDIA Fake 100 ' "$TMP/fb-nv/cusparse.args" | grep -q .; then
    pass "figures.sh: cuSPARSE gets --device with the GPU's name from step6's rows"
else fail "figures.sh: cuSPARSE gets --device with the GPU's name from step6's rows" "$(head -n 2 "$TMP/fb-nv/cusparse.args" 2>&1 | tr '\n' '|')"; fi
CG=0 BUILD=$TMP/fb-cpu DATA=$TMP/sweep-cpu PLAN=0 REAL_MATRICES=0 MATRICES=$TMP/mats NO_DRAW=1 "$ROOT/plots/figures.sh" >"$TMP/cpu.out" 2>&1
st=$?
if [ $st = 0 ] && [ ! -e "$TMP/fb-cpu/cusparse.args" ] && ! grep -q ',cusparse,\|ERROR' "$TMP/sweep-cpu/some-cpu.csv" &&
    grep -q 'cusparse s grid64x64r5  not run: Some CPU is not an NVIDIA GPU' "$TMP/cpu.out"; then
    pass "figures.sh: not an NVIDIA device: cuSPARSE not run, no row, says why"
else fail "figures.sh: not an NVIDIA device: cuSPARSE not run, no row, says why" "status $st: $(grep cusparse "$TMP/cpu.out" | head -n 2 | tr '\n' '|')"; fi
