# step9-pcg/answers/answers.sh - the answers of chapter 9's exercises, run and
# checked by `make answers` (scripts/answers.sh says what each call does).
# Every claim is on levels or on iteration counts compared within one device
# (two devices' counts may differ by a few); times are recorded, not claimed.

# s9_it FILE VERSION: VERSION's iterations in the time-to-solution table of FILE
s9_it() { awk -v v="$2" '$1 == v && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+\.[0-9]+$/ { print $2 }' "$1"; }
# s9_levels FILE: L's levels on the "levels   L" line of FILE
s9_levels() { sed -nE 's/^levels   L \(down the rows\): ([0-9]+) levels.*/\1/p' "$1" | head -n 1; }
S9=$SCRATCH/step9
mkdir -p "$S9"

exercise 1 "Jacobi where the diagonal spans 0.66 to 20,183: 1138_bus"
run "build/step9 --matrix tests/data/1138_bus.mtx --precision d >$S9/e1.out; cat $S9/e1.out; awk 'NR > 3 && \$1 == \$2 { print \$3 }' tests/data/1138_bus.mtx | sort -g | sed -n '1p;\$p'"
expect_status 0
claim "Jacobi takes fewer than half of CG's iterations on 1138_bus" test "$(s9_it "$S9/e1.out" jacobi)" -lt $(( $(s9_it "$S9/e1.out" cg) / 2 ))
record "cg iterations" "$(s9_it "$S9/e1.out" cg)"
record "jacobi iterations" "$(s9_it "$S9/e1.out" jacobi)"
run "build/step9 --gen poisson:nx=64 --precision d --kernel jacobi >$S9/e1p.out; build/step9 --gen poisson:nx=64 --precision d --kernel cg >>$S9/e1p.out; cat $S9/e1p.out"
claim "on Poisson Jacobi takes CG's iterations exactly" test "$(s9_it "$S9/e1p.out" jacobi)" = "$(s9_it "$S9/e1p.out" cg)"

exercise 2 "the levels of a W x H grid: W + H - 1; a tridiagonal's IC(0) is exact"
for g in 64x64 64x16 300x1; do
    run "build/step9 --gen poisson:nx=${g%x*},ny=${g#*x} --kernel ic0 | tee $S9/e2-$g.out"
    record "$g levels" "$(s9_levels "$S9/e2-$g.out")"
    record "$g ic0 iterations" "$(s9_it "$S9/e2-$g.out" ic0)"
done
claim "64 x 64 has 127 levels" test "$(s9_levels "$S9/e2-64x64.out")" = 127
claim "64 x 16 has 79 levels" test "$(s9_levels "$S9/e2-64x16.out")" = 79
claim "300 x 1 has 300 levels and IC(0) solves it in one iteration" test "$(s9_levels "$S9/e2-300x1.out")-$(s9_it "$S9/e2-300x1.out" ic0)" = 300-1

exercise 3 "colors cost iterations: ic0 against ic0-color on Poisson 256^2 (16^2 small) in double"
run "build/step9 --gen poisson:nx=$((GRID / 4)) --precision d --kernel ic0 >$S9/e3.out; build/step9 --gen poisson:nx=$((GRID / 4)) --precision d --kernel ic0-color >>$S9/e3.out; grep -E '^(order|levels   L|solve|trsv)' $S9/e3.out"
claim "the colored factor: 2 levels, more iterations than natural order's" test "$(s9_it "$S9/e3.out" ic0-color)" -gt "$(s9_it "$S9/e3.out" ic0)"
expect_text "order    2 colors"
record "ic0 iterations" "$(s9_it "$S9/e3.out" ic0)"
record "ic0-color iterations" "$(s9_it "$S9/e3.out" ic0-color)"
record "ic0 L solve" "$(sed -nE 's/^trsv     L y = v alone: ([0-9.]+) ms.*/\1/p' "$S9/e3.out" | head -n 1)" ms
record "ic0-color L solve" "$(sed -nE 's/^trsv     L y = v alone: ([0-9.]+) ms.*/\1/p' "$S9/e3.out" | tail -n 1)" ms

exercise 4 "sweeps: L's levels less one make the solve exact (494_bus: 10)"
for sw in 0 1 2 3 6 7 10; do
    run "build/step9 --matrix tests/data/494_bus.mtx --precision d --kernel ic0-sweeps --sweeps $sw | tee $S9/e4-$sw.out"
    record "$sw sweeps" "$(s9_it "$S9/e4-$sw.out" ic0-sweeps)"
done
run "build/step9 --matrix tests/data/494_bus.mtx --precision d --kernel ic0 | tee $S9/e4-ic0.out"
claim "10 sweeps (L's levels 0 to 10) take ic0's iterations" test "$(s9_it "$S9/e4-10.out" ic0-sweeps)" = "$(s9_it "$S9/e4-ic0.out" ic0)"
claim "the count falls from 0 to 1 to 3 sweeps" test "$(s9_it "$S9/e4-3.out" ic0-sweeps)" -lt "$(s9_it "$S9/e4-1.out" ic0-sweeps)" -a "$(s9_it "$S9/e4-1.out" ic0-sweeps)" -lt "$(s9_it "$S9/e4-0.out" ic0-sweeps)"
claim "L has 11 levels" test "$(s9_levels "$S9/e4-ic0.out")" = 11

exercise 5 "kappa(M^-1 A) from PCG's own alpha and beta: the iterations follow its square root (494_bus)"
# s9_kappa FILE VERSION: the kappa printed on VERSION's "kappa" line of FILE (versions run one a file)
s9_kappa() { sed -nE 's/^kappa    .*, kappa ([0-9.e+-]+) .*/\1/p' "$1" | head -n 1; }
for v in cg jacobi ic0; do
    run "build/step9 --matrix tests/data/494_bus.mtx --precision d --kernel $v --kappa 5000 | tee $S9/e5-$v.out"
    record "$v kappa" "$(s9_kappa "$S9/e5-$v.out")"
    record "$v iterations" "$(s9_it "$S9/e5-$v.out" $v)"
done
claim "IC(0)'s kappa is below Jacobi's, Jacobi's below A's" awk -v c="$(s9_kappa "$S9/e5-cg.out")" \
    -v j="$(s9_kappa "$S9/e5-jacobi.out")" -v i="$(s9_kappa "$S9/e5-ic0.out")" 'BEGIN { exit !(i < j && j < c) }'
# the model, checked on these runs (fitted on none): iterations in the ratio of sqrt(kappa), within a factor 1.5
claim "cg's iterations over ic0's and over jacobi's are sqrt(kappa)'s ratios within a factor 1.5" awk \
    -v c="$(s9_kappa "$S9/e5-cg.out")" -v j="$(s9_kappa "$S9/e5-jacobi.out")" -v i="$(s9_kappa "$S9/e5-ic0.out")" \
    -v ic="$(s9_it "$S9/e5-cg.out" cg)" -v ij="$(s9_it "$S9/e5-jacobi.out" jacobi)" -v ii="$(s9_it "$S9/e5-ic0.out" ic0)" \
    'function ok(r, s) { return r / s < 1.5 && s / r < 1.5 }
     BEGIN { exit !(ok(ic / ii, sqrt(c / i)) && ok(ic / ij, sqrt(c / j))) }'
