# tests/t_course_docs.sh - the chapters (0-5 and 7) and the course README say what the data and
# the programs say.
#
# 1. Blocks: `plots/blocks.sh --check` finds every generated block fresh (its
#    text is what plots/blocks/NAME.sh prints from the committed CSVs).
# 2. Numbers in prose: every "N%", "N GFLOP/s" and "N.NNx" outside code, generated
#    blocks and the then-and-now and results tables must appear in those
#    generated tables of the same file, as printed there; the few numbers that
#    are not measurements (a storage padding, a threshold) are listed below
#    with why. A number left over from an older sweep fails.
# 3. Samples: a fenced block after <!-- sample: CMD --> is a real run's output.
#    CMD (a small size) runs fresh; the first word of each of its lines (its
#    name: device, check:, probe, ...) must be the sample's, in the same order.
#    A sample with a line "…" may leave lines out there; without one it must
#    have them all. A line the program no longer prints fails. Chapter 7's
#    matrix, spmv, build and cg lines (the code's launch sizes and options,
#    nothing measured) must be the fresh run's, word for word.
# 4. Commands: every fenced block of shell commands under a chapter's Run,
#    What you should see, Check it yourself and Exercises (and chapter 0's
#    Check it yourself) runs, line by line, as a student would copy it, with
#    these changes for a test on PoCL:
#      build/ is $BUILD/, make is `make -s BUILD=$BUILD`, /tmp/ is a scratch folder,
#      and so is the folder of --save-matrix, --save-x and --save-y files;
#      small sizes: a --grid of 256 or more becomes --grid 64, a program or
#      `make stepN run` without --grid or --matrix gets --grid 64, --runs N
#      becomes --runs 1 (added where missing), --device SEL is dropped
#      (the test runs on the default device); step7's Poisson grid of 256
#      or more becomes 48 x 48, and step7 without --gen or --matrix gets
#      --gen poisson:nx=48 (the course's grid is not symmetric);
#      `sed -i EXPR stepN-*/main.c` edits a copy, and `make stepN && build/stepN ...`
#      builds that copy (the compile command of `make -n`) and runs it;
#      `git checkout ...` then has nothing to undo and is skipped.
#    (Both run with SPMV_DEVICE=cpu, and are skipped where there is no CPU device.)
#    A line passes with status 0 and, when it runs a step, `check: PASS` in its
#    output; a comment after it (`# status 1, `check: FAIL``) names another
#    status and the text to find in stdout or stderr. `sed -i` must change
#    its file (a stale pattern fails).
# 5. `make diff STEP=3` prints in the order the README says.
# 6. Each row of a chapter-table block is the fastest passing row of the CSV,
#    found here apart from the block script.
# 7. Chapter 2's answer says what alignment bought on the H100 as its rows do.
# chapters: none
source "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 2
export SPMV_PROBE_MB=16
DOCS=${DOCS:-README.md step0-c-reference/README.md step1-naive/README.md step2-aligned/README.md step3-local/README.md
    step4-vector/README.md step5-image/README.md step7-cg/README.md step7-cg/results/README.md step8-mpi/README.md step8-mpi/results/README.md step9-pcg/README.md
    step8-mpi/model/README.md}
# mpirun as this user runs it: as root Open MPI wants --allow-run-as-root
# (the chapters say so), and more ranks than cores --oversubscribe
MPIRUN_ROOT=""; [ "$(id -u)" = 0 ] && MPIRUN_ROOT=" --allow-run-as-root"
# the numbers in prose that are not measured (FILE TOKEN: why)
ALLOW='step0-c-reference/README.md 0.8%: the padding of the 512 x 512 grid (computed)
step0-c-reference/README.md 94%: the padding of west0067 (computed)
step2-aligned/README.md 0.003%: the padding a pitch adds (computed)
step5-image/README.md 3%: the gap between two bound formulas (computed)
* 100%: the bound itself
step8-mpi/README.md 10%: the margin of the check of a --tol 0 run (step8-mpi/main.c)
step8-mpi/README.md 1%: the error put into one product entry to see whether the check catches it
step7-cg/README.md 1%: the error put into one product entry to see whether the check catches it
step9-pcg/README.md 1%: the error put into one row of a triangular solve to see whether the check catches it
step2-aligned/README.md 6.7 GFLOP/s: a bound worked out from a round 40 GB/s
step3-local/README.md 6.7 GFLOP/s: a bound worked out from a round 40 GB/s
step3-local/README.md 10 GFLOP/s: a bound worked out from a round 40 GB/s
step5-image/README.md 20 GFLOP/s: a bound worked out from a round 40 GB/s
step1-naive/README.md 500 GFLOP/s: a bound worked out from a round 3 TB/s'

# ---- 1. blocks
# shellcheck disable=SC2086
out=$(plots/blocks.sh --check $DOCS 2>&1)
if [ $? = 0 ]; then pass "docs: every generated block is fresh (plots/blocks.sh --check)"
else fail "docs: every generated block is fresh (plots/blocks.sh --check)" "$(echo "$out" | head -n 6 | tr '\n' '|')"; fi

# ---- 2. numbers in prose
# prose FILE: "LINENO<TAB>text" of the lines outside code, generated text and comments (in the
# README, not the Results section up to its roofline, whose narration issue 30 rewrites)
prose() {
    awk '/^ *```/ { code = !code; next } code { next }
         /^## Results/ { res = 1 } /^### The roofline/ { res = 0 } res { next }
         /^<!-- block:end -->$/ || /^<!-- (then-and-now|results):end -->$/ { blk = 0; next }
         /^<!-- block:/ || /^<!-- (then-and-now|results):begin -->$/ { blk = 1; next }
         blk || /^<!--/ { next }
         { print FNR "\t" $0 }' "$1"
}
generated() {
    awk '/^<!-- block:end -->$/ || /^<!-- (then-and-now|results):end -->$/ { blk = 0 }
         blk { print }
         /^<!-- block:/ && !/block:end/ || /^<!-- (then-and-now|results):begin -->$/ { blk = 1 }' "$1"
}
numbers() { grep -oE '(^|[ (,])[0-9]+(\.[0-9]+)?(%| GFLOP/s)|(^|[ (,])[0-9]+\.[0-9]+x([^0-9A-Za-z]|$)' | sed 's/^[ (,]//; s/x[^0-9A-Za-z]*$/x/'; }
# the article's published rows (plots/data/catanzaro2010-published.csv): GFLOP/s and % of its bound
published=$(awk -F, "$BY_NAME"' col("check") == "PUBLISHED" && col("bound_model_gflops") > 0 {
    printf "%.1f GFLOP/s\n%.0f%%\n", col("gflops"), 100 * col("gflops") / col("bound_model_gflops") }' plots/data/catanzaro2010-published.csv)
for f in $DOCS; do
    # a table cell "1462.4" stands for "1462.4 GFLOP/s" in prose, "1.87x" for a speed-up
    gen=$( (generated "$f" | grep -oE '(^|[ (,|])[0-9]+(\.[0-9]+)?%?' | sed 's/^[ (,|]//' |
            awk '{ print } !/%$/ { print $0 " GFLOP/s"; print $0 "x" }'; echo "$published") | sort -u)
    bad=""
    while IFS=$'\t' read -r n text; do
        while read -r tok; do
            [ -z "$tok" ] && continue
            grep -qxF -- "$tok" <<<"$gen" && continue
            grep -qE "^($f|\*) $(sed 's/[.]/[.]/g' <<<"$tok"):" <<<"$ALLOW" && continue
            bad="$bad $f:$n '$tok'"
        done < <(numbers <<<"$text")
    done < <(prose "$f")
    if [ -z "$bad" ]; then pass "docs: $f: every number in its prose is in its generated tables"
    else fail "docs: $f: every number in its prose is in its generated tables" "not in the data:$bad"; fi
done

# ---- 3. samples (on PoCL: the samples are its output, two probe lines and all)
export SPMV_DEVICE=cpu
if ! "$BUILD/step1" --grid 8 --runs 1 >/dev/null 2>&1; then
    skip "docs: samples and commands" "no CPU OpenCL device (PoCL) here: the samples are PoCL's output"
    DOCS_RUN=0
fi
names() { awk 'NF { print ($1 == "…" || $1 == "...") ? "…" : $1 }'; }
# in_order SAMPLE FRESH: the sample's names are the fresh run's, in order ("…" may skip lines)
in_order() {
    awk -v s="$1" -v f="$2" 'BEGIN {
        ns = split(s, S, "\n"); nf = split(f, F, "\n"); j = 1; gap = 0
        for (i = 1; i <= ns; i++) {
            if (S[i] == "…") { gap = 1; continue }
            if (gap) { while (j <= nf && F[j] != S[i]) j++ } 
            if (j > nf || F[j] != S[i]) { printf "line %d (%s) is not next in the fresh run", i, S[i]; exit 1 }
            j++; gap = 0
        }
        if (!gap && j <= nf) { printf "the fresh run prints more: %s", F[j]; exit 1 }
    }'
}
[ "${DOCS_RUN:-1}" = 1 ] && for f in $DOCS; do
    awk '/^ *<!-- sample: .* -->$/ { sub(/^ *<!-- sample: /, ""); sub(/ -->$/, ""); cmd = $0; want = 1; next }
         want && /^ *```/ { if (on) { print cmd "\t" body; want = 0; on = 0; body = "" } else on = 1; next }
         on { sub(/^ +/, ""); body = body (body == "" ? "" : "\\n") $0 }' "$f" |
    while IFS=$'\t' read -r cmd body; do
        sample=$(printf '%b\n' "$body" | names)
        run=${cmd//build\//$BUILD/}
        run=${run//mpirun /mpirun$MPIRUN_ROOT }
        full=$(bash -c "$run" 2>&1)
        fresh=$(names <<<"$full")
        why=$(in_order "$sample" "$fresh")
        # step 7's lines that follow from the code alone (the matrix, the launch sizes, the build, the
        # version's launches and sweeps) are printed as the sample has them, paths from the root
        if [ "$f" = step7-cg/README.md ] && [ -z "$why" ]; then
            while IFS= read -r l; do
                grep -qxF -- "$l" <<<"${full//$ROOT\//}" || why="$why the fresh run prints no line '$l';"
            done < <(printf '%b\n' "$body" | grep -E '^(matrix|spmv|build|cg) ')
        fi
        if [ -z "$why" ]; then pass "docs: $f: the sample of '$cmd' has the program's lines in order"
        else fail "docs: $f: the sample of '$cmd' has the program's lines in order" "$why"; fi
    done
done

# ---- 4. commands
small() { # the line with the test's changes (see the header)
    local l=$1
    l=$(sed -E 's/(^|[ "])--device [^ "]+ ?/\1/g; s/--runs [0-9]+/--runs 1/g' <<<"$l")
    l=$(sed -E 's/--grid ([0-9]+)(x[0-9]+)?/--grid \1\2 /g' <<<"$l" |
        awk '{ while (match($0, /--grid [0-9]+(x[0-9]+)? /)) { g = substr($0, RSTART + 7, RLENGTH - 8); split(g, d, "x")
                 out = out substr($0, 1, RSTART - 1) "--grid~" (d[1] + 0 >= 256 ? "64" : g); $0 = substr($0, RSTART + RLENGTH - 1) }
               print out $0 }' | sed 's/--grid~/--grid /g')
    if [[ $l =~ make\ (step[0-9])\ run ]] && [[ $l != *ARGS=* ]]; then l="$l ARGS=\"\""; fi
    # step7, the solver: its matrix is the Poisson one (a Poisson grid of 256 or more becomes 48 x 48);
    # the course's grid is not symmetric (make step7 run turns --grid into the Poisson matrix itself)
    l=$(sed -E 's/poisson:nx=([0-9]{3,})(,ny=[0-9]+)?/poisson:nx=48/g' <<<"$l")
    if [[ $l == *build/step7* && $l != *--gen* && $l != *--matrix* ]]; then l=${l//build\/step7/build/step7 --gen poisson:nx=48}; fi
    # step8, chapter 7's solver over MPI ranks: the same, and its mpirun as this user runs it
    if [[ $l == *build/step8* && $l != *--gen* && $l != *--matrix* ]]; then l=${l//build\/step8/build/step8 --gen poisson:nx=48}; fi
    l=${l//mpirun /mpirun$MPIRUN_ROOT }
    if [[ $l == *build/step9* && $l != *--gen* && $l != *--matrix* ]]; then l=${l//build\/step9/build/step9 --gen poisson:nx=48}; fi
    if [[ $l != *--grid* && $l != *--matrix* && $l != *build/step[789]* && $l != *make\ step8\ run* ]]; then
        l=$(sed -E 's#(build/step[0-9]+)#\1 --grid 64#g; s#ARGS="#ARGS="--grid 64 #' <<<"$l")
    fi
    if [[ $l != *--runs* && $l != *build/step[789]* && $l != *make\ step8\ run* ]]; then   # a solve runs once: steps 7, 8 and 9 take no --runs
        l=$(sed -E 's#(build/step[0-9]+)#\1 --runs 1#g; s#ARGS="#ARGS="--runs 1 #' <<<"$l")
    fi
    l=${l//\/tmp\//$TMP/w/}   # first: $BUILD may itself lie under /tmp (a clone there)
    l=${l//build\//$BUILD/}
    l=$(sed -E "s#--save-(matrix|x|y) ([^ /\"]+)#--save-\\1 $TMP/w/\\2#g" <<<"$l")
    l=$(sed -E "s#(^|[;&|] *)make #\1make -s BUILD=$BUILD #g" <<<"$l")
    printf '%s' "$l"
}
mkdir -p "$TMP/w" "$TMP/edit"
# the commands of a file, one "SECTION<TAB>LINE" each, blocks of shell commands only
commands() {
    awk '/^## / { sec = substr($0, 4) } /^### / { if (sec !~ /^(Run|What you should see|Check it yourself|Exercises)$/) sec = "" }
         /^ *<!-- sample:/ { skip = 1 }
         /^ *```/ { if (on) { on = 0; next } if (skip) { skipping = 1; skip = 0; on = 1; next }
                    on = 1; skipping = 0; first = 1; next }
         !on { next } skipping { next }
         { line = $0; sub(/^ +/, "", line)
           if (first) { first = 0; shell = line ~ /^(make |build\/|cp |sed |oclgrind |mpirun |for |git |SPMV_[A-Z0-9_]+=)/ }
           if (shell && sec ~ /^(Run|What you should see|Check it yourself|Exercises)$/ && line != "") print sec "\t" line }' "$1"
}
[ "${DOCS_RUN:-1}" = 1 ] && for f in $DOCS; do
    edited=""
    while IFS=$'\t' read -r sec line; do
        cmd=$line note=""   # a comment: two spaces or more, then "# "
        if [[ $line =~ ^(.*[^ ])\ \ +#\ (.*)$ ]]; then cmd=${BASH_REMATCH[1]} note=${BASH_REMATCH[2]}; fi
        want=0; [[ $note =~ status\ ([0-9]) ]] && want=${BASH_REMATCH[1]}
        looks=(); rest=$note
        while [[ $rest =~ \`([^\`]+)\`(.*) ]]; do looks+=("${BASH_REMATCH[1]}"); rest=${BASH_REMATCH[2]}; done
        name="docs: $f ($sec): $cmd"
        case $cmd in
            git\ checkout*) continue ;;
            sed\ -i*step[0-9]-*/main.c)
                src=$(grep -oE 'step[0-9]-[a-z0-9-]+/main.c' <<<"$cmd")
                mkdir -p "$TMP/edit/${src%/*}"; cp "$src" "$TMP/edit/$src"
                bash -c "${cmd/$src/$TMP/edit/$src}"
                if cmp -s "$src" "$TMP/edit/$src"; then fail "$name" "the sed changed nothing in $src"; else pass "$name"; edited=$src; fi
                continue ;;
        esac
        if [[ $cmd =~ ^make\ (step[0-9])\ \&\&\ build/(step[0-9])(.*)$ ]] && [ -n "$edited" ]; then
            s=${BASH_REMATCH[1]}
            cc=$(make -s -n -W "$edited" BUILD="$BUILD" "$BUILD/$s" 2>/dev/null | grep -E -- "-o $BUILD/$s\$")
            cc=${cc/ $edited / $TMP/edit/$edited }; cc=${cc/-o $BUILD\/$s/-o $TMP/edit/$s}
            if ! bash -c "$cc" >"$TMP/cc.err" 2>&1; then fail "$name" "the edited copy did not build: $(head -c 300 "$TMP/cc.err")"; continue; fi
            run=$(small "build/$s${BASH_REMATCH[3]}"); run=${run/$BUILD\/$s/$TMP/edit/$s}
            edited=""
        else
            run=$(small "$cmd")
        fi
        if [[ $cmd == sed\ -i* ]]; then
            target=$(awk '{ print $NF }' <<<"$run"); cp "$target" "$TMP/before" 2>/dev/null
        fi
        env=""; [[ $cmd == *oclgrind* ]] && env="SPMV_PROBE_MB=0"
        env $env bash -c "$run" >"$TMP/out" 2>"$TMP/err" </dev/null
        st=$?
        if [[ $cmd == sed\ -i* ]] && cmp -s "$target" "$TMP/before"; then fail "$name" "the sed changed nothing"; continue; fi
        [ ${#looks[@]} = 0 ] && [[ $cmd =~ (build/step|make\ step[0-9]\ run) ]] && looks=("check: PASS")
        why=""
        [ "$st" = "$want" ] || why="status $st, the text says $want"
        for t in "${looks[@]}"; do
            grep -qF -- "$t" "$TMP/out" "$TMP/err" || why="$why; no '$t' in the output"
        done
        if [ -z "$why" ]; then pass "$name"; else fail "$name" "$why (ran: $run): $(tail -n 2 "$TMP/err" "$TMP/out" | tr '\n' ' ' | cut -c1-300)"; fi
    done < <(commands "$f")
done

# ---- 5. what the README says of `make diff STEP=N`: main.c's diff, then the kernel's
# "What changed" paragraph and kernel.cl's diff
order=$(make -s diff STEP=3 2>&1 | grep -E '^(---|====) ' | cut -d' ' -f2 | tr -d ',' | tr '\n' ' ')
if [ "$order" = "step2-aligned/main.c step3-local/kernel.cl step2-aligned/kernel.cl " ] &&
   grep -q 'prints the code of chapter N.s `main.c` against chapter' README.md; then
    pass "docs: make diff STEP=3 prints main.c's diff, then the paragraph and kernel.cl's, as the README says"
else
    fail "docs: make diff STEP=3 prints main.c's diff, then the paragraph and kernel.cl's, as the README says" "order: $order"
fi

# ---- 6. each row of a chapter-table block is the fastest passing row of its step and kernel
# at its grid in the CSV, as printed (computed here apart from plots/blocks/chapter-table.sh)
for f in $DOCS; do
    awk '/^<!-- block:chapter-table / { dev = $3; grid = $4; on = 1; next } /^<!-- block:end -->$/ { on = 0 }
         on && /^\| step[0-9]/ { split($0, c, "|"); gsub(/ /, "", c[2]); gsub(/ /, "", c[3]); gsub(/ /, "", c[5]); print dev, grid, c[2], c[3], c[5] }' "$f"
done | sort -u >"$TMP/rows"
bad="" n=0
while read -r dev grid step kernel shown; do
    n=$((n + 1))
    best=$(awk -F, -v g="$grid" -v s="$step" -v k="$kernel" "$BY_NAME"'
        col("check") == "PASS" && col("matrix") == g && col("step") == s && col("kernel") == k && col("gflops") + 0 > m { m = col("gflops") + 0 }
        END { printf "%s", (m >= 10 ? sprintf("%.1f", m) : sprintf("%.2f", m)) }' "plots/data/$dev.csv")
    [ "$best" = "$shown" ] || bad="$bad $dev $grid $step:$kernel shows $shown, the CSV's best is $best;"
done <"$TMP/rows"
if [ "$n" -gt 0 ] && [ -z "$bad" ]; then pass "docs: the $n rows of the chapters' tables are the CSVs' fastest passing rows"
else fail "docs: the rows of the chapters' tables are the CSVs' fastest passing rows" "${bad:-no rows found}"; fi

# ---- 7. chapter 2's answer: the % alignment bought on the H100 is its own table's
# (plots/data/answers/nvidia-h100-80gb-hbm3.csv, exercise 1: PITCH_ALIGN 32 over 1)
f=plots/data/answers/nvidia-h100-80gb-hbm3.csv
if [ -f "$f" ]; then
    want=$(awk -F, '$1 == "step2" && $2 == 1 && $3 == "PITCH_ALIGN 32" { a = $4 } $1 == "step2" && $2 == 1 && $3 == "PITCH_ALIGN 1" { b = $4 }
                    END { if (a && b) printf "%.0f%%", 100 * (a / b - 1) }' "$f")
    said=$(grep -oE 'bought on the H100: [0-9]+%' step2-aligned/ANSWERS.md | grep -oE '[0-9]+%')
    if [ -n "$want" ] && [ "$said" = "$want" ]; then pass "docs: step2-aligned/ANSWERS.md: alignment bought $want on the H100, as its rows say"
    else fail "docs: step2-aligned/ANSWERS.md: what alignment bought on the H100 is its rows'" "says '${said:-nothing}', the rows give '$want'"; fi
fi
