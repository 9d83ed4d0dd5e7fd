#!/usr/bin/env bash
# The absorbing layer's scene keys (boundary.absorbing: type pml | sponge, the PML's keys) go
# through the scene's one validation: a bad value gives one line naming the file, the field and
# the reason, exit 1, and no output file. A file without a type is a sponge, as before the PML.
source "$(dirname "$0")/lib.sh" "$1" "$2"

block="$SRC/assets/scenes/homogeneous_block.json"
out="$WORK/out.h5"
fast=(--spacing 0.01 --steps 3 --backend cpu -q)

# Scenes derived from the block (its absorbing block has no type: a sponge on x-, x+, y-, y+).
$PY - "$block" "$WORK" <<'PYEOF'
import json, sys
base = json.load(open(sys.argv[1]))
def write(name, **absorbing):
    s = json.loads(json.dumps(base))
    s["boundary"]["absorbing"].update(absorbing)
    json.dump(s, open(sys.argv[2] + "/" + name + ".json", "w"))
write("unknown_type", type="perfect")
write("thickness_zero", type="pml", thickness=0)
write("thickness_half", type="pml", thickness=0.2)
write("sponge_with_pml_key", type="sponge", reflection=1e-4)
write("reflection_one", type="pml", reflection=1)
write("kappa_below_one", type="pml", kappa_max=0.5)
write("pml", type="pml", reflection=1e-4, kappa_max=1.5, alpha_max=2e5, frequency=1e5)
s = json.loads(json.dumps(base))
s["boundary"]["absorbing"]["type"] = "pml"
s["boundary"]["fixed_faces"] = ["y+"]
json.dump(s, open(sys.argv[2] + "/pml_fixed.json", "w"))
PYEOF

expect_error unknown-type 1 "unknown_type\.json: boundary\.absorbing\.type: unknown absorbing type 'perfect' \(expected pml or sponge\)$" "$out" -- run "$WORK/unknown_type.json" --out "$out" "${fast[@]}"
expect_error thickness-zero 1 "thickness_zero\.json: boundary\.absorbing\.thickness: must be > 0 \(got 0\)$" "$out" -- run "$WORK/thickness_zero.json" --out "$out" "${fast[@]}"
expect_error thickness-half 1 "thickness_half\.json: boundary\.absorbing\.thickness: must be at most half the box along x" "$out" -- run "$WORK/thickness_half.json" --out "$out" "${fast[@]}"
expect_error pml-fixed 1 "pml_fixed\.json: boundary\.absorbing\.faces\[3\]: face y\+ is also in boundary\.fixed_faces; a PML face must not be fixed$" "$out" -- run "$WORK/pml_fixed.json" --out "$out" "${fast[@]}"
expect_error sponge-pml-key 1 "sponge_with_pml_key\.json: boundary\.absorbing\.reflection: a PML key, but the layer is a sponge" "$out" -- run "$WORK/sponge_with_pml_key.json" --out "$out" "${fast[@]}"
expect_error reflection-one 1 "reflection_one\.json: boundary\.absorbing\.reflection: must be between 0 and 1, exclusive \(got 1\)$" "$out" -- run "$WORK/reflection_one.json" --out "$out" "${fast[@]}"
expect_error kappa-below-one 1 "kappa_below_one\.json: boundary\.absorbing\.kappa_max: must be >= 1 \(got 0\.5\)$" "$out" -- run "$WORK/kappa_below_one.json" --out "$out" "${fast[@]}"

# A PML scene runs on the CPU, and on CUDA where there is a device (tests/gpu compare the two);
# without one, --backend cuda is refused with one line.
"$CLI" run "$WORK/pml.json" --out "$out" "${fast[@]}" 2>"$WORK/err" || fail "PML run failed: $(cat "$WORK/err")"
[ -s "$out" ] || fail "PML run wrote nothing"
rm -f "$out"
if "$CLI" run "$WORK/pml.json" --out "$out" --spacing 0.01 --steps 3 --backend cuda -q 2>"$WORK/err"; then
  [ -s "$out" ] || fail "pml-cuda: the CUDA run wrote nothing"
else
  [ "$(wc -l <"$WORK/err")" = 1 ] || fail "pml-cuda: expected one line, got: $(cat "$WORK/err")"
  grep -qE "^voxwave-cli: error: backend: cuda requested but" "$WORK/err" || fail "pml-cuda: $(cat "$WORK/err")"
  [ ! -e "$out" ] || fail "pml-cuda: $out was written"
fi

finish
