#!/usr/bin/env bash
# `voxwave-cli bench-boundary`: bad options give one line naming the option and nothing written; a
# small run of the issue's measurement prints one row per layer with a dB value per receiver, and
# the PML sends back less than the sponge of the same thickness at the worst receiver.
source "$(dirname "$0")/lib.sh" "$1" "$2"

out="$WORK/boundary.md"
expect_error cells-zero 1 "^voxwave-cli: error: --cells: must be positive$" "$out" -- bench-boundary --cells 0 --out "$out"
expect_error unknown-type 1 "--types: unknown type 'perfect' \(expected pml or sponge\)$" "$out" -- bench-boundary --types perfect --inner 2 --reference 8 --out "$out" -q
expect_error small-reference 1 "--reference: must be larger than the boxes' interior" "$out" -- bench-boundary --inner 30 --reference 40 --out "$out"
expect_error bad-method 1 "--methods: unknown method 'fem'" "$out" -- bench-boundary --methods fem --inner 2 --reference 8 --out "$out" -q
expect_error bad-reflection 1 "--cells: boundary.absorbing.reflection: must be between 0 and 1, exclusive \(got 2\)$" "$out" -- bench-boundary --reflection 2 --inner 2 --reference 8 --out "$out" -q
expect_error bad-kappa 1 "--cells: boundary.absorbing.kappa_max: " "$out" -- bench-boundary --kappa-max 0.5 --inner 2 --reference 8 --out "$out" -q

# 4 mm elements, the layer's inner edge 4 elements from the source, a 30 us window: the reference
# box of 32^3 elements returns nothing inside it (its faces' echo needs 2 x 16 - 3 elements at one
# element per us after the wavelet has started, about 5 us).
"$CLI" bench-boundary --spacing 0.004 --inner 4 --reference 32 --window 30e-6 --cells 3 --types pml sponge \
  --out "$out" -q >"$WORK/stdout" 2>"$WORK/stderr" || fail "small run failed: $(cat "$WORK/stderr")"
[ -s "$out" ] || fail "nothing appended to $out"
$PY - "$out" <<'PYEOF' || fail "table check: see above"
import math, sys
rows = [l for l in open(sys.argv[1]) if l.startswith("| ovfem fp64 |")]
assert len(rows) == 2, rows
worst = {}
for r in rows:
    cells = [c.strip() for c in r.strip().strip("|").split("|")]
    layer, db = cells[1], [float(c) for c in cells[2:10]]
    assert len(db) == 8 and all(math.isfinite(v) for v in db), r
    assert float(cells[10]) == max(db), r
    worst[layer.split()[0]] = max(db)
print("worst: PML %.1f dB, sponge %.1f dB" % (worst["pml"], worst["sponge"]))
assert worst["pml"] < worst["sponge"] - 10, worst
PYEOF
# The PML keys compared: one PML row per value, labelled with it.
"$CLI" bench-boundary --spacing 0.004 --inner 4 --reference 32 --window 30e-6 --cells 3 --types pml \
  --alpha-max 1e5 4e5 --out "$WORK/keys.md" -q >"$WORK/stdout" 2>"$WORK/stderr" || fail "keys run failed: $(cat "$WORK/stderr")"
[ "$(grep -c '^| ovfem fp64 | pml 3 cells (alpha_max ' "$WORK/keys.md")" = 2 ] || fail "expected two alpha_max rows: $(cat "$WORK/keys.md")"
finish
