#!/usr/bin/env bash
# `voxwave-cli scan --batch N`: the shots stepped together write the scan that one shot after
# another writes (element signals and C-scan to 1e-12 of the peak), the note says how the shots
# were grouped, a bad --batch is a command-line error, and a PML scene falls back to one shot at a
# time and says so.
source "$(dirname "$0")/lib.sh" "$1" "$2"
source "$(dirname "$0")/lib_probe_scene.sh"

out="$WORK/out.h5"

# A small steel block with a 4-element array on its top face and a linear scan of 3 shots.
write_array_scan_scene "$WORK/base.json"

expect_error negative-batch 2 "batch" "$out" -- scan "$WORK/base.json" --out "$out" --batch -1 -q

"$CLI" scan "$WORK/base.json" --out "$WORK/one.h5" --batch 1 >"$WORK/one.out" 2>&1 || fail "scan --batch 1: $(cat "$WORK/one.out")"
"$CLI" scan "$WORK/base.json" --out "$WORK/two.h5" --batch 2 >"$WORK/two.out" 2>&1 || fail "scan --batch 2: $(cat "$WORK/two.out")"
grep -q "3 shots stepped in groups of 2" "$WORK/two.out" || fail "scan --batch 2 does not say so: $(cat "$WORK/two.out")"
"$CLI" scan "$WORK/base.json" --out "$WORK/auto.h5" >"$WORK/auto.out" 2>&1 || fail "scan: $(cat "$WORK/auto.out")"
grep -q "one at a time: the CPU engine's single-run sweep is faster" "$WORK/auto.out" ||
  fail "scan (batch chosen, CPU) does not say it runs one shot at a time: $(cat "$WORK/auto.out")"
"$CLI" scan "$WORK/base.json" --out "$WORK/three.h5" --batch 3 >"$WORK/three.out" 2>&1 || fail "scan --batch 3: $(cat "$WORK/three.out")"
grep -q "3 shots stepped in groups of 3" "$WORK/three.out" || fail "scan --batch 3 does not say so: $(cat "$WORK/three.out")"

derive_scene "$WORK/base.json" pml 's["boundary"] = {"absorbing": {"type": "pml", "faces": ["x-"], "thickness": 0.003}}'
"$CLI" scan "$WORK/pml.json" --out "$WORK/pml.h5" --batch 3 >"$WORK/pml.out" 2>&1 || fail "scan with a PML: $(cat "$WORK/pml.out")"
grep -q "one at a time: a PML" "$WORK/pml.out" || fail "a PML scan does not say it runs one shot at a time: $(cat "$WORK/pml.out")"

if $PY -c "import h5py, numpy" 2>/dev/null; then
  $PY - "$WORK/one.h5" "$WORK/two.h5" "$WORK/three.h5" "$WORK/auto.h5" <<'PYEOF' || fail "the batched scans differ from the scan shot by shot"
import h5py, numpy, sys
def scan(path):
    with h5py.File(path, "r") as f:
        return f["/scan/elements"][...], f["/scan/cscan"][...]
e1, c1 = scan(sys.argv[1])
peak = numpy.abs(e1).max()
assert peak > 0
for other in sys.argv[2:]:
    e, c = scan(other)
    assert e.shape == e1.shape and c.shape == c1.shape
    d = numpy.abs(e - e1).max()
    assert d <= 1e-12 * peak, (other, d / peak)
    assert numpy.abs(c - c1).max() <= 1e-12 * peak, other
PYEOF
fi
finish
