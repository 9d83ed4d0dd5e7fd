#!/usr/bin/env bash
# voxwave-cli iga (issue 6): the output file's layout and numbers, and bad parameters.
source "$(dirname "$0")/lib.sh" "$1" "$2"

out="$WORK/iga.h5"
"$CLI" iga --degree 2 --elements 8 --problem seed --backend cpu --out "$out" -q || fail "seed run exited $?"
$PY - "$out" <<'PYEOF' || fail "seed output check"
import h5py, numpy as np, sys
with h5py.File(sys.argv[1], "r") as f:
    x, y, u = (f["/samples/" + k][()] for k in ("x", "y", "u"))
    assert x.shape == y.shape == u.shape == (101, 101), x.shape
    assert abs(np.abs(u - y).max()) < 1e-12, np.abs(u - y).max()       # exact u = x2
    a = f.attrs
    assert a["format"] == "voxwave-iga" and a["degree"] == 2 and a["elements"] == 8, dict(a)
    assert a["dofs"] == 100 and a["free_dofs"] == 80, (a["dofs"], a["free_dofs"])
    assert a["l2_error"] < 1e-12 and a["baseline_max_difference"] < 1e-12
    for k in ("factor_seconds", "solve_seconds", "baseline_factor_seconds"):
        assert a[k] >= 0, k
PYEOF

"$CLI" iga -p 3 -N 16 --problem manufactured --backend cpu --sequential --out "$out" -q || fail "manufactured run"
$PY - "$out" <<'PYEOF' || fail "manufactured output check"
import h5py, numpy as np, sys
with h5py.File(sys.argv[1], "r") as f:
    x, y, u = (f["/samples/" + k][()] for k in ("x", "y", "u"))
    exact = np.cos(np.pi * x) * np.sin(np.pi * y)
    assert np.abs(u - exact).max() < 1e-4, np.abs(u - exact).max()
    assert f.attrs["threads"] == 1
PYEOF

rm -f "$out"
expect_error degree-zero 1 "--degree: must be between 1 and" "$out" -- iga --degree 0 --elements 8 --problem seed --out "$out" -q
expect_error elements-not-pow2 1 "--elements: .*power of two.*12" "$out" -- iga --degree 2 --elements 12 --problem seed --out "$out" -q
expect_error unknown-problem 1 "--problem: unknown problem 'heat'" "$out" -- iga --degree 2 --elements 8 --problem heat --out "$out" -q
expect_error unknown-backend 1 "--backend: unknown backend 'gpu'" "$out" -- iga --degree 2 --elements 8 --problem seed --backend gpu --out "$out" -q
expect_error too-big 1 "--elements: N = 8192 with p = 8 needs about .* GiB of memory" "$out" -- iga --degree 8 --elements 8192 --problem seed --out "$out" -q
expect_error bench-backend 1 "--backends: unknown backend .tpu." "" -- iga-bench --backends tpu --elements 16
expect_error not-a-number 2 "degree" "$out" -- iga --degree two --elements 8 --problem seed --out "$out" -q
expect_error unwritable 1 "/nonexistent-dir/iga.h5: .*does not exist" "" -- iga --degree 2 --elements 8 --problem seed --out /nonexistent-dir/iga.h5 -q
finish
