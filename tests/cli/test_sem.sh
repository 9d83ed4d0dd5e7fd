#!/usr/bin/env bash
# The spectral elements from the command line: run.method sem with --order (2..4, checked by the
# scene's one validation), a sem scene with a PML face runs on the CPU engine and on the CUDA engine
# where there is a device (without one --backend cuda is refused in one line),
# receivers snapped to GLL nodes in the result, and the dispersion of the SEM cell.
source "$(dirname "$0")/lib.sh" "$1" "$2"

block="$SRC/assets/scenes/homogeneous_block.json"
out="$WORK/out.h5"
fast=(--spacing 0.01 --steps 3 --backend cpu -q)

$PY - "$block" "$WORK" <<'PYEOF'
import json, sys
s = json.load(open(sys.argv[1]))
s["boundary"]["absorbing"]["type"] = "sponge"
s["receivers"].append({"name": "off", "position": [0.0733, 0.0503, 0.0271]})
s["run"].update(method="sem", order=3)
json.dump(s, open(sys.argv[2] + "/sem_sponge.json", "w"))
s["boundary"]["absorbing"]["type"] = "pml"
json.dump(s, open(sys.argv[2] + "/sem_pml.json", "w"))
PYEOF

expect_error order-7 1 "^voxwave-cli: error: --order: must be between 2 and 4 \(got 7\)$" "$out" -- run "$WORK/sem_sponge.json" --order 7 --out "$out" "${fast[@]}"
if "$CLI" run "$WORK/sem_pml.json" --out "$out" --spacing 0.01 --steps 3 --backend cuda -q 2>"$WORK/err"; then
  [ -s "$out" ] || fail "sem-pml-cuda: the CUDA run wrote nothing"
  rm -f "$out"
else
  [ "$(wc -l <"$WORK/err")" = 1 ] || fail "sem-pml-cuda: expected one line, got: $(cat "$WORK/err")"
  grep -qE "^voxwave-cli: error: backend: cuda requested but" "$WORK/err" || fail "sem-pml-cuda: $(cat "$WORK/err")"
  [ ! -e "$out" ] || fail "sem-pml-cuda: $out was written"
fi
"$CLI" run "$WORK/sem_pml.json" --out "$out" "${fast[@]}" 2>"$WORK/err" || fail "sem run with a PML failed: $(cat "$WORK/err")"
expect_error bench-sem5 1 "^voxwave-cli: error: --methods: unknown method 'sem5'" "" -- bench-accuracy --methods sem5 --divisions 1 -q
expect_error bench-sem-cells 1 "^voxwave-cli: error: --cell-planes: must be in 0\.\.400$" "" -- bench-sem --backend cpu --cell-planes -1
expect_error bench-sem-schedule 1 "^voxwave-cli: error: --schedule: unknown schedule 'colours' \\(sweep, scatter or auto\\)$" "" -- bench-sem --backend cpu --schedule colours
expect_error bench-sem-pml 1 "^voxwave-cli: error: --pml-cells: must be at least 0 and less than half of --elements$" "" -- bench-sem --backend cpu --elements 8 --pml-cells 4
"$CLI" run "$WORK/sem_sponge.json" --out "$out" "${fast[@]}" 2>"$WORK/err" || fail "sem run failed: $(cat "$WORK/err")"
$PY - "$out" <<'PYEOF' || fail "sem result"
import h5py, sys
f = h5py.File(sys.argv[1], "r")
assert f.attrs["method"] == "sem" and int(f.attrs["steps"]) == 3, dict(f.attrs)
pos = f["receivers/positions"][()]
# Corner receivers stay where they are; "off" snaps to the nearest p = 3 GLL node of its
# 10 mm element: x 0.0733 -> 0.07 + 0.005 (1 - 1/sqrt(5)), y 0.0503 -> 0.05, z 0.0271 -> 0.02 + 0.005 (1 + 1/sqrt(5)).
import math
assert abs(pos[0][0] - 0.06) < 1e-12 and abs(pos[0][2] - 0.05) < 1e-12, pos
x = 0.07 + 0.005 * (1 - 1 / math.sqrt(5))
z = 0.02 + 0.005 * (1 + 1 / math.sqrt(5))
assert abs(pos[5][0] - x) < 1e-12 and abs(pos[5][1] - 0.05) < 1e-12 and abs(pos[5][2] - z) < 1e-12, pos[5]
assert abs(f["traces/displacement"][()]).max() >= 0
PYEOF

"$CLI" dispersion --method sem --order 3 --spacing 0.002 --density 2400 --vp 4000 --vs 2450 --ppw 6 12 --out "$WORK/d.h5" -q \
  || fail "sem dispersion failed"
$PY - "$WORK/d.h5" <<'PYEOF' || fail "sem dispersion output"
import h5py, sys
f = h5py.File(sys.argv[1], "r")
r = f["velocity_ratio"][()]
assert r.shape == (3, 2, 3), r.shape
# Order 2p = 6: doubling the points per wavelength shrinks the phase error by far more than 8.
assert abs(r[0, 0, 0] - 1) < 0.02 and abs(r[0, 1, 0] - 1) * 8 < abs(r[0, 0, 0] - 1), r
PYEOF
expect_error dispersion-order 1 "^voxwave-cli: error: --order: must be between 2 and 4 \(got 5\)$" "$WORK/e.h5" -- dispersion --method sem --order 5 --spacing 0.002 --density 2400 --vp 4000 --vs 2450 --out "$WORK/e.h5"
finish
