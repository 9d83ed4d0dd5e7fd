#!/usr/bin/env bash
# `voxwave-cli scan --shot K`: shot K of a scan alone, as one plain run of that shot's scene (what a
# user runs to redo one shot, and what scripts/device-run.sh fmc-runs times as single runs). On a
# small fmc scene (scripts/fmc-scene.py, CPU): shot K's /probes/PA/elements equal row K - 1 of the
# whole scan's /fmc/data bit for bit (element K fires, every element receives), the file is a run's
# (no /scan, no /fmc), the output names the shot and prints the run's time loop; a shot past the
# last, 0, or --shot with --batch are one-line errors that write nothing.
source "$(dirname "$0")/lib.sh" "$1" "$2"
$PY -c "import h5py, numpy" 2>/dev/null || skip "no h5py"
export OMP_NUM_THREADS=1

$PY "$SRC/scripts/fmc-scene.py" "$WORK/fmc.json" --cells 16 --elements 5 --steps 40 --backend cpu ||
  fail "fmc-scene.py failed"
"$CLI" scan "$WORK/fmc.json" --out "$WORK/all.h5" >"$WORK/all.out" 2>&1 || fail "scan: $(cat "$WORK/all.out")"
for k in 1 4; do
  "$CLI" scan "$WORK/fmc.json" --shot $k --out "$WORK/shot$k.h5" >"$WORK/shot$k.out" 2>&1 ||
    fail "scan --shot $k: $(cat "$WORK/shot$k.out")"
  grep -q "^shot      shot $k of 5 at (.*) m of the scan, run alone$" "$WORK/shot$k.out" ||
    fail "scan --shot $k does not name the shot: $(cat "$WORK/shot$k.out")"
  grep -qE "^done in [0-9.]+ s .*: setup [0-9.]+ s, time loop [0-9.]+ s$" "$WORK/shot$k.out" ||
    fail "scan --shot $k prints no time loop: $(cat "$WORK/shot$k.out")"
done

$PY - "$WORK/all.h5" "$WORK/shot1.h5" "$WORK/shot4.h5" <<'PYEOF' || fail "a shot run alone differs from its row of the scan"
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    data = f["fmc/data"][()]
assert data.shape[:2] == (5, 5) and np.abs(data).max() > 0, data.shape
for k, path in ((1, sys.argv[2]), (4, sys.argv[3])):
    with h5py.File(path, "r") as g:
        assert "scan" not in g and "fmc" not in g, (path, list(g))
        got = g["probes/PA/elements"][()]
    assert got.shape == data[k - 1].shape, (got.shape, data.shape)
    assert np.array_equal(got, data[k - 1]), (k, np.abs(got - data[k - 1]).max())
    # Another shot's row differs: the file is shot k's, not shot 1's.
    other = data[2]
    assert not np.array_equal(got, other), k
PYEOF

out="$WORK/bad.h5"
expect_error shot-past-last 1 "^voxwave-cli: error: --shot: 6 is not a shot of this scan: its 5 shots are 1 to 5$" "$out" -- \
  scan "$WORK/fmc.json" --shot 6 --out "$out" -q
expect_error shot-zero 2 "shot" "$out" -- scan "$WORK/fmc.json" --shot 0 --out "$out" -q
expect_error shot-and-batch 2 "batch|shot" "$out" -- scan "$WORK/fmc.json" --shot 1 --batch 2 --out "$out" -q
finish
