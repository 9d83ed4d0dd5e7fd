#!/usr/bin/env bash
# `voxwave-cli integrate` (issue 7): the dump a user reads in h5py, the results row, and one
# clear line with a non-zero exit for every bad parameter.
source "$(dirname "$0")/lib.sh" "$1" "$2"

"$CLI" integrate --element hex --order 3 --elements 20 --variant shm --backend cpu --precision fp64 \
  --dump "$WORK/K.h5" --markdown "$WORK/res.md" -q >"$WORK/stdout" || fail "hex integrate failed"
grep -q "hex p=3 elasticity, shm, precomputed Jacobian, fp64 on cpu" "$WORK/stdout" || fail "summary: $(cat "$WORK/stdout")"
$PY - "$WORK/K.h5" <<'PYEOF' || fail "hex dump layout"
import h5py, numpy as np, sys
f = h5py.File(sys.argv[1], "r")
K = f["stiffness"][:]
assert K.shape == (96, 96) and int(f["ndofs"][()]) == 96, (K.shape, f["ndofs"][()])
assert np.abs(K - K.T).max() < 1e-12 * np.abs(K).max()
ev = np.linalg.eigvalsh(K)
assert (np.abs(ev) < 1e-12 * ev.max()).sum() == 6, ev[:8]
assert f.attrs["element"] == "hex" and int(f.attrs["order"]) == 3
PYEOF
[ "$(grep -c '^| hex | 3 | elasticity | shm |' "$WORK/res.md")" = 1 ] || fail "markdown row: $(cat "$WORK/res.md")"
grep -q '^| element | p |' "$WORK/res.md" || fail "markdown header missing"

"$CLI" integrate --element prism --order 3 --elements 8 --problem laplace --variant reg --backend cpu --precision fp64 \
  --dump "$WORK/P.h5" -q >/dev/null || fail "prism integrate failed"
$PY - "$WORK/P.h5" <<'PYEOF' || fail "prism dump layout"
import h5py, numpy as np, sys
f = h5py.File(sys.argv[1], "r")
K = f["stiffness"][:]
assert K.shape == (40, 40) and int(f["ndofs"][()]) == 40
ev = np.linalg.eigvalsh(K)
assert (np.abs(ev) < 1e-12 * ev.max()).sum() == 1, ev[:4]   # the constant only
PYEOF

"$CLI" integrate --element hex --order 4 --elements 4 --variant sumfact --backend cpu -q >/dev/null \
  || fail "sumfact on the CPU failed"

out="$WORK/bad.h5"
expect_error hex-order 1 "error: --order: hexahedra have orders 1\.\.10" "$out" -- integrate --element hex --order 11 --dump "$out" -q
expect_error prism-order 1 "error: --order: prisms have orders 2\.\.7" "$out" -- integrate --element prism --order 1 --dump "$out" -q
expect_error element 1 "error: --element: unknown element 'tet'" "$out" -- integrate --element tet --order 2 --dump "$out" -q
expect_error variant 1 "error: --variant: unknown variant 'fast'" "$out" -- integrate --element hex --order 2 --variant fast --dump "$out" -q
expect_error prism-sumfact 1 "error: --variant: sumfact needs hexahedra" "$out" -- integrate --element prism --order 3 --variant sumfact --dump "$out" -q
expect_error elements 1 "error: --elements: must be between 1 and 10000000" "$out" -- integrate --element hex --order 2 --elements 0 --dump "$out" -q
expect_error precision 1 "error: --precision: unknown precision 'fp16'" "$out" -- integrate --element hex --order 2 --precision fp16 --dump "$out" -q
expect_error jacobian 1 "error: --jacobian: unknown Jacobian mode" "$out" -- integrate --element hex --order 2 --jacobian maybe --dump "$out" -q
expect_error backend 1 "error: --backend: unknown backend 'gpu'" "$out" -- integrate --element hex --order 2 --backend gpu --dump "$out" -q
expect_error problem 1 "error: --problem: unknown problem 'stokes'" "$out" -- integrate --element hex --order 2 --problem stokes --dump "$out" -q
expect_error dump-dir 1 "/nonexistent-dir/K.h5: .*does not exist" "" -- integrate --element hex --order 2 --dump /nonexistent-dir/K.h5 -q
expect_error missing-order 2 "order" "" -- integrate --element hex
if ! command -v nvidia-smi >/dev/null 2>&1; then
  expect_error no-cuda 1 "error: backend: " "$out" -- integrate --element hex --order 2 --backend cuda --dump "$out" -q
fi
finish
