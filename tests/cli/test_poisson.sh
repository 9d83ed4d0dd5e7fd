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
# The file's layout, read with h5py (always present: the install script brings python3-h5py).
$PY - "$WORK/p.h5" "$WORK/stdout" <<'PYEOF' || fail "poisson HDF5 file"
import h5py, math, re, sys
with h5py.File(sys.argv[1], "r") as f:
    assert f["nodes"].shape == (3472, 2), f["nodes"].shape
    assert f["solution"].shape == (3472, 3), f["solution"].shape
    a = f.attrs
    def text(k):
        v = a[k]
        return v.decode() if isinstance(v, bytes) else str(v)
    assert text("format") == "voxwave-poisson" and int(a["version"]) == 1, dict(a)
    assert text("grid") == "flow-around-square" and text("precision") == "fp32" and text("backend") == "cpu", dict(a)
    assert (int(a["level"]), int(a["coarse_level"]), int(a["rhs"]), int(a["unknowns"])) == (4, 1, 3, 3472), dict(a)
    for k in ("gflops", "mdofs", "seconds_solve", "seconds_prehandling"):
        assert math.isfinite(float(a[k])) and float(a[k]) >= 0, (k, a[k])
    # The file's error is the one printed.
    printed = float(re.search(r"relative error against eq. 7 \(n = 1\): ([0-9.e+-]+)", open(sys.argv[2]).read()).group(1))
    assert abs(float(a["relative_error"]) - printed) <= 1e-3 * printed, (a["relative_error"], printed)
PYEOF
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
