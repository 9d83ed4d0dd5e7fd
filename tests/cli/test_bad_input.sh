#!/usr/bin/env bash
# Every bad input gives one clear line naming file/field/reason, a non-zero exit, no output.
source "$(dirname "$0")/lib.sh" "$1" "$2"

block="$SRC/assets/scenes/homogeneous_block.json"
out="$WORK/out.h5"

# A scene derived from the homogeneous block with one edit; refused NAME COMMAND EDIT PATTERN: that
# scene is refused in one line naming NAME.json.
derive() { derive_scene "$block" "$@"; }
refused() { expect_refused_scene "$block" "$@"; }

printf '{"format": "voxwave-scene", "version": 1, "grid": {' >"$WORK/malformed.json"
expect_error malformed-json 1 "malformed.json: .*(malformed|JSON)" "$out" -- run "$WORK/malformed.json" --out "$out" -q

refused unknown_method run 's["run"]["method"] = "fdtd"' "run.method: .*fdtd"
expect_error unknown-method-flag 1 "--method: unknown method 'spectral'" "$out" -- run "$block" --method spectral --out "$out" -q

refused negative_density run 's["materials"][0]["density"] = -2400' "materials\[0\]\.density: "

refused source_outside run 's["sources"][0]["position"] = [0.05, 0.05, 0.2]' "sources\[0\]\.position: .*outside"

refused unknown_key run 's["run"]["time_step"] = 1e-7' "run\.time_step: unknown key"

expect_error dt-above-limit 1 "error: --dt: .*above the stable limit" "$out" -- run "$block" --dt 1e-5 --out "$out" -q

expect_error unwritable-output 1 "/nonexistent-dir/out.h5: .*(cannot write|does not exist)" "" -- run "$block" --out /nonexistent-dir/out.h5 -q
[ -e /nonexistent-dir ] && fail "unwritable-output: directory appeared"

# Truncated HDF5: a valid painted-voxel file cut in half.
$PY - "$WORK/voxels.h5" <<'PYEOF'
import h5py, numpy as np, sys
with h5py.File(sys.argv[1], "w") as f:
    d = f.create_dataset("/model/material_ids", data=np.ones((25, 50, 50), dtype=np.uint8))
    d.attrs["spacing"] = 0.002
    d.attrs["origin"] = np.zeros(3)
PYEOF
size=$(stat -c %s "$WORK/voxels.h5")
truncate -s $((size / 2)) "$WORK/voxels.h5"
derive truncated 's["voxels"] = {"file": "voxels.h5", "dataset": "/model/material_ids"}'
expect_error truncated-hdf5 1 "voxels.h5: .*" "$out" -- run "$WORK/truncated.json" --out "$out" -q

expect_error missing-scene 1 "no-such-scene.json: .*(No such file|cannot open)" "$out" -- run "$WORK/no-such-scene.json" --out "$out" -q
expect_error element-bad-material 1 "material\.vs|bulk" "$WORK/e.h5" -- element --method vfem --spacing 0.002 --density 2400 --vp 1000 --vs 2450 --out "$WORK/e.h5"
expect_error usage 2 "error: " "" -- run
# --backend cuda is bad input only where `info` finds no CUDA engine or no device; elsewhere it runs.
if "$CLI" info | grep -q "^cuda  *compiled in" && "$CLI" info | grep -q "^device [0-9]"; then
  "$CLI" run "$block" --backend cuda --steps 20 --out "$out" -q 2>"$WORK/stderr" ||
    fail "cuda: a run with a device present exited $?: $(cat "$WORK/stderr")"
  $PY - "$out" <<'PYEOF' || fail "cuda: the result does not say it ran on cuda"
import h5py, sys
with h5py.File(sys.argv[1], "r") as f:
    b = f.attrs["backend"]
    assert (b.decode() if isinstance(b, bytes) else str(b)) == "cuda", b
PYEOF
  rm -f "$out"
else
  expect_error bad-cuda 1 "backend: cuda requested" "$out" -- run "$block" --backend cuda --out "$out" -q
fi

# An existing result survives a failed run (atomic saves).
# bench --pml-cells: a negative count, and a layer thicker than half the box (checked before any measurement).
expect_error bench-pml-negative 1 "--pml-cells: must be 0 \(none\) or positive" "$WORK/b.md" -- bench --pml-cells -1 --spacing 0.008 --steps 1 --out "$WORK/b.md"
expect_error bench-pml-too-thick 1 "--pml-cells: boundary\.absorbing\.thickness: must be at most half" "$WORK/b.md" -- bench --pml-cells 30 --spacing 0.008 --steps 1 --out "$WORK/b.md"
# bench --sponge-cells: the same rules, and one layer type at a time.
expect_error bench-sponge-negative 1 "--sponge-cells: must be 0 \(none\) or positive" "$WORK/b.md" -- bench --sponge-cells -1 --spacing 0.008 --steps 1 --out "$WORK/b.md"
expect_error bench-sponge-too-thick 1 "--sponge-cells: boundary\.absorbing\.thickness: must be at most half" "$WORK/b.md" -- bench --sponge-cells 30 --spacing 0.008 --steps 1 --out "$WORK/b.md"
expect_error bench-both-layers 1 "--sponge-cells: a model has one absorbing layer type" "$WORK/b.md" -- bench --pml-cells 2 --sponge-cells 2 --spacing 0.008 --steps 1 --out "$WORK/b.md"

echo "previous result" >"$WORK/keep.h5"
"$CLI" run "$block" --dt 1e-5 --out "$WORK/keep.h5" -q 2>/dev/null
[ "$(cat "$WORK/keep.h5")" = "previous result" ] || fail "atomic: the previous file was damaged"

finish
