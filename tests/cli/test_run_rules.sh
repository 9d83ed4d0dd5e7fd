#!/usr/bin/env bash
# Command-line overrides go through the scene's one validation (scene/run_rules.hpp): a bad
# override gives one line naming the option, exit 1, no output; an override that makes a bad
# file value good is accepted, because the file is checked after the overrides, not before.
source "$(dirname "$0")/lib.sh" "$1" "$2"

block="$SRC/assets/scenes/homogeneous_block.json"
out="$WORK/out.h5"
fast=(--spacing 0.01 --steps 3 --backend cpu -q)

# Two scenes derived from the block: TCOVFEM in FP32, and that with M = 9 too.
derive_scene "$block" tcovfem_fp32 's["run"].update(method="tcovfem", precision="fp32")'
derive_scene "$block" stages_9 's["run"].update(method="tcovfem", precision="fp32", stages=9)'

expect_error stages-9 1 "^voxwave-cli: error: --stages: must be between 1 and 8 \(got 9\)$" "$out" -- run "$block" --stages 9 --out "$out" "${fast[@]}"
expect_error stages-0 1 "^voxwave-cli: error: --stages: must be between 1 and 8 \(got 0\)$" "$out" -- run "$block" --stages 0 --out "$out" "${fast[@]}"
expect_error tcovfem-fp32 1 "^voxwave-cli: error: --precision: tcovfem computes in INT8 digits and FP64; use precision fp64 \(got fp32\)$" "$out" -- run "$block" --method tcovfem --precision fp32 --out "$out" "${fast[@]}"
expect_error spacing-above 1 "^voxwave-cli: error: --spacing: must be between 1e-05 and 1 m \(got 2\)$" "$out" -- run "$block" --spacing 2 --steps 3 --out "$out" -q
expect_error spacing-zero 1 "^voxwave-cli: error: --spacing: must be > 0 \(got 0\)$" "$out" -- run "$block" --spacing 0 --steps 3 --out "$out" -q
expect_error steps-negative 1 "^voxwave-cli: error: --steps: must be >= 0 \(got -3\)$" "$out" -- run "$block" --steps -3 --out "$out" -q
expect_error dt-negative 1 "^voxwave-cli: error: --dt: must be >= 0" "$out" -- run "$block" --dt -1e-9 --out "$out" "${fast[@]}"

# A bad value in the file that no option overrides is still the file's.
expect_error file-tcovfem-fp32 1 "tcovfem_fp32.json: run\.precision: tcovfem computes in INT8 digits and FP64" "$out" -- run "$WORK/tcovfem_fp32.json" --out "$out" "${fast[@]}"

# The overrides replace the file's bad values before the one validation.
"$CLI" run "$WORK/stages_9.json" --stages 4 --precision fp64 --out "$out" "${fast[@]}" 2>"$WORK/err" || fail "overridden run failed: $(cat "$WORK/err")"
[ -s "$WORK/err" ] && fail "overridden run printed: $(cat "$WORK/err")"
$PY - "$out" <<'PYEOF' || fail "overridden result"
import h5py, sys
a = h5py.File(sys.argv[1], "r").attrs
assert a["method"] == "tcovfem" and a["precision"] == "fp64", dict(a)
assert int(a["stages"]) == 4 and abs(a["spacing"] - 0.01) < 1e-15 and int(a["steps"]) == 3, dict(a)
PYEOF

# The other commands that take a spacing use the same rule.
expect_error element-spacing 1 "^voxwave-cli: error: --spacing: must be between 1e-05 and 1 m" "$WORK/e.h5" -- element --method vfem --spacing 5 --density 2400 --vp 4000 --vs 2450 --out "$WORK/e.h5"
expect_error dispersion-spacing 1 "^voxwave-cli: error: --spacing: must be > 0" "$WORK/d.h5" -- dispersion --method vfem --spacing 0 --density 2400 --vp 4000 --vs 2450 --out "$WORK/d.h5" -q

finish
