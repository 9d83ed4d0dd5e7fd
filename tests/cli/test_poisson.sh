#!/usr/bin/env bash
# `poisson`: one solve written to HDF5 with the issue's datasets and attributes; Table 2 rows
# equal seed 002's (N, elements, NNZ/N and kappa to the printed digits up to L = 4); bad
# parameters give one line and a non-zero exit without an output file.
source "$(dirname "$0")/lib.sh" "$1" "$2"
export OMP_WAIT_POLICY=PASSIVE

"$CLI" poisson --grid flow-around-square --level 4 --coarse-level 1 --precision fp32 --rhs 3 --backend cpu \
  --solution 1 --baselines --repetitions 1 --out "$WORK/p.h5" >"$WORK/stdout" 2>"$WORK/stderr" ||
  fail "poisson failed: $(cat "$WORK/stderr")"
[ -s "$WORK/p.h5" ] || fail "no output file"
if command -v h5dump >/dev/null; then
  h5dump -H "$WORK/p.h5" >"$WORK/h5" 2>&1 || fail "h5dump"
  grep -q 'DATASET "nodes"' "$WORK/h5" && grep -q "( 3472, 2 )" "$WORK/h5" || fail "/nodes is not 3472 x 2"
  grep -q 'DATASET "solution"' "$WORK/h5" && grep -q "( 3472, 3 )" "$WORK/h5" || fail "/solution is not 3472 x 3"
  for a in relative_error gflops mdofs seconds_solve seconds_prehandling precision; do
    grep -q "ATTRIBUTE \"$a\"" "$WORK/h5" || fail "attribute $a missing"
  done
fi
$PY - "$WORK/stdout" <<'PYEOF' || fail "poisson summary numbers"
import re, sys
t = open(sys.argv[1]).read()
err = float(re.search(r"relative error against eq. 7 \(n = 1\): ([0-9.e+-]+)", t).group(1))
assert 1e-3 < err < 1e-2, err          # O(h^2) discretisation error at L = 4
assert "N = 3472 (C 42, E 1078, I 2352), 3 class(es)" in t, t
rows = [l for l in t.splitlines() if l.startswith("| CHOLMOD") or l.startswith("| Eigen") or l.startswith("| CG")]
assert len(rows) == 2, rows
for r in rows:
    assert float(r.strip("|").split("|")[-1]) < 1e-5, r  # baselines agree with the direct solver
PYEOF

"$CLI" poisson --table 2 --max-level 4 --quiet --report "$WORK/t2.md" >/dev/null 2>"$WORK/stderr" ||
  fail "table 2 failed: $(cat "$WORK/stderr")"
$PY - "$WORK/t2.md" <<'PYEOF' || fail "table 2 numbers"
import sys
rows = [l.strip().strip("|").split("|") for l in open(sys.argv[1]) if l.startswith("| ") and l[2].isdigit()]
assert len(rows) == 5, rows
for c in rows:
    L, N, el, nnz, kappa, pnnz, pkappa = [x.strip() for x in c]
    assert nnz == pnnz, c
    assert abs(float(kappa) - float(pkappa)) <= 0.011, c
assert [int(c[1]) for c in rows] == [7, 42, 196, 840, 3472]
assert [int(c[2]) for c in rows] == [28, 112, 448, 1792, 7168]
PYEOF

out="$WORK/never.h5"
expect_error coarse-above-fine 1 "--coarse-level: must not exceed --level" "$out" -- poisson --level 3 --coarse-level 4 --out "$out"
expect_error unknown-grid 1 "--grid: unknown grid 'circle'" "$out" -- poisson --grid circle --out "$out"
expect_error beyond-memory 1 "--level: .*beyond memory" "$out" -- poisson --level 11 --coarse-level 0 --out "$out"
expect_error no-unknowns 1 "--level: unit-square has no interior node" "$out" -- poisson --grid unit-square --level 0 --coarse-level 0 --out "$out"
expect_error bad-precision 1 "--precision: unknown precision 'fp8'" "$out" -- poisson --precision fp8 --out "$out"
expect_error bad-rhs 1 "--rhs: must lie in" "$out" -- poisson --rhs 0 --out "$out"
expect_error no-out 1 "--out: required" "" -- poisson --level 3
expect_error bad-table 1 "--table: unknown table" "" -- poisson --table 9
expect_error unwritable-out 1 "/nonexistent-dir/p.h5: .*does not exist" "" -- poisson --level 2 --out /nonexistent-dir/p.h5
expect_error level-not-number 2 "error: " "" -- poisson --level two --out "$out"

finish
