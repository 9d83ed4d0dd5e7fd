#!/usr/bin/env bash
# Successful runs write files ordinary tools read: result layout, element, dispersion, info.
source "$(dirname "$0")/lib.sh" "$1" "$2"

block="$SRC/assets/scenes/homogeneous_block.json"
# The run's wall time is bounded by a clock read around the whole command (never a fixed limit).
t0=$(date +%s.%N)
"$CLI" run "$block" --steps 40 --out "$WORK/r.h5" -q || fail "run failed"
t1=$(date +%s.%N)
[ -s "$WORK/r.h5" ] || fail "run wrote no result"
$PY - "$WORK/r.h5" "$t0" "$t1" <<'PYEOF' || fail "result layout"
import h5py, numpy as np, sys
f = h5py.File(sys.argv[1], "r")
a = f.attrs
# The scene the run came from (its file name, as the GUI writes it) and its measured wall time.
assert a["scene"] == "homogeneous_block.json", a.get("scene")
around = float(sys.argv[3]) - float(sys.argv[2])
assert 0 < a["wall_seconds"] <= around, (a["wall_seconds"], around)
assert a["format"] == "voxwave-result" and int(a["version"]) == 1, dict(a)
assert a["method"] == "ovfem" and a["precision"] == "fp64" and a["backend"] == "cpu"
assert int(a["steps"]) == 40 and abs(a["spacing"] - 0.002) < 1e-15
names = [n.decode() if isinstance(n, bytes) else n for n in f["receivers/names"][:]]
assert names == ["R1", "R2", "R3", "R4", "Bottom"], names
assert f["receivers/positions"].shape == (5, 3)
assert np.allclose(f["receivers/positions"][0], [0.06, 0.05, 0.05])
t = f["traces/time"][:]
assert t.shape == (40,) and t[0] == 0 and abs(t[1] - a["dt"]) < 1e-20
d = f["traces/displacement"]
assert d.shape == (5, 40, 3) and d.dtype == np.float64
assert f["traces/velocity"].shape == (5, 40, 3)
assert np.abs(d[0]).max() > 0   # the nearest receiver moved
PYEOF

"$CLI" element --method ovfem --spacing 0.002 --density 2400 --vp 4000 --vs 2450 --out "$WORK/e.h5" >/dev/null || fail "element failed"
$PY - "$WORK/e.h5" <<'PYEOF' || fail "element layout"
import h5py, numpy as np, sys
f = h5py.File(sys.argv[1], "r")
K = f["stiffness"][:]; m = f["mass"][:]
assert K.shape == (24, 24) and m.shape == (24,)
assert np.abs(K - K.T).max() < 1e-12 * np.abs(K).max()
ev = np.linalg.eigvalsh(K)
assert (np.abs(ev) < 1e-10 * ev.max()).sum() == 6, ev[:8]
assert abs(m.sum() / 3 - 2400 * 0.002 ** 3) < 1e-18
PYEOF

"$CLI" dispersion --method vfem --spacing 0.002 --density 2400 --vp 4000 --vs 2450 --ppw 5 10 20 --out "$WORK/d.h5" -q || fail "dispersion failed"
$PY - "$WORK/d.h5" <<'PYEOF' || fail "dispersion layout"
import h5py, numpy as np, sys
f = h5py.File(sys.argv[1], "r")
assert list(f["ppw"][:]) == [5, 10, 20]
assert f["directions"].shape == (3, 3) and f["velocity_ratio"].shape == (3, 3, 3)
r = f["velocity_ratio"][:]
assert abs(r[2, 1, 0] - 0.97594) < 1e-4, r[2, 1]   # VFEM, cube diagonal, 10 ppw, S: 2.4 % slow
assert np.all(np.diff(r[:, :, 0], axis=1) > 0)      # closer to 1 with more points per wavelength
PYEOF

"$CLI" info >"$WORK/info" || fail "info failed"
grep -q "^voxwave 0.1.0" "$WORK/info" || fail "info: no version"
grep -q "^cuda " "$WORK/info" || fail "info: no CUDA line"
grep -q "^devices\|^device " "$WORK/info" || fail "info: no devices line"
"$CLI" run --help | grep -q -- "--backend" || fail "run --help"
finish
