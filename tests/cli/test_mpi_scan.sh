#!/usr/bin/env bash
# `mpirun -np K voxwave-cli scan` (issues 32-34): the ranks share the shots and rank 0 writes one
# file; with 1, 2 and 3 ranks every dataset equals the one-process scan's exactly. A bad scan is
# refused once, naming the file and field, with no file written.
source "$(dirname "$0")/lib.sh" "$1" "$2"
source "$(dirname "$0")/lib_probe_scene.sh"
MPIEXEC=$(command -v mpiexec || true)
[ -n "$MPIEXEC" ] || skip "no mpiexec"
$PY -c "import h5py, numpy" 2>/dev/null || skip "no h5py"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1

# The probe scene's steel block with a hole, its 4-element array scanned over it in 5 shots 1 mm
# apart (more shots than ranks, not a multiple of 2 or 3), a PML on two faces, a scene receiver
# that rides along, 60 steps.
write_array_scan_scene "$WORK/base.json"
derive_scene "$WORK/base.json" scan '
s["shapes"] = [{"material": "void", "type": "cylinder", "center": [0.009, 0.003, 0.004], "axis": [0, 1, 0],
                "radius": 0.0015, "length": 0.006}]
s["receivers"] = [{"name": "R", "position": [0.012, 0.003, 0.008]}]
s["scan"].update({"step": [0.001, 0, 0], "positions": 5})
s["boundary"] = {"absorbing": {"type": "pml", "faces": ["x+", "z-"], "thickness": 0.003}}
s["run"]["steps"] = 60'

"$CLI" scan "$WORK/scan.json" --out "$WORK/one.h5" -q 2>"$WORK/one.err" || fail "one-process scan: exit $?: $(cat "$WORK/one.err")"
for k in 1 2 3; do
  "$MPIEXEC" -np $k "$CLI" scan "$WORK/scan.json" --out "$WORK/ranks$k.h5" >"$WORK/mpi$k.out" 2>&1 ||
    fail "$k-rank scan exited $?: $(tail -3 "$WORK/mpi$k.out")"
  ls "$WORK"/ranks$k.h5.tmp-* >/dev/null 2>&1 && fail "$k ranks: a temporary file was left behind"
done
grep -q "ranks     3 (mpi)" "$WORK/mpi3.out" || fail "the 3-rank scan did not say so: $(cat "$WORK/mpi3.out")"
[ "$(grep -c '^result ' "$WORK/mpi3.out")" = 1 ] || fail "not exactly one rank reported the result: $(cat "$WORK/mpi3.out")"

# Every dataset of every file equals the one-process file's, bit for bit (attributes such as the
# wall time may differ); the scan's rows are not all alike, so a shuffled gather would show.
$PY - "$WORK/one.h5" "$WORK/ranks1.h5" "$WORK/ranks2.h5" "$WORK/ranks3.h5" <<'PYEOF' || fail "the files differ"
import sys, h5py, numpy as np
def datasets(path):
    out = {}
    with h5py.File(path, "r") as f:
        f.visititems(lambda name, obj: out.__setitem__(name, obj[()]) if isinstance(obj, h5py.Dataset) else None)
    return out
ref = datasets(sys.argv[1])
assert "scan/elements" in ref and "scan/cscan" in ref and "scan/positions" in ref, sorted(ref)
rows = ref["scan/elements"]
assert rows.shape[0] == 5 and np.abs(rows).max() > 0, rows.shape
assert not np.array_equal(rows[0], rows[1]), "the shots should differ"
for path in sys.argv[2:]:
    got = datasets(path)
    assert sorted(got) == sorted(ref), (path, sorted(set(got) ^ set(ref)))
    for name, value in ref.items():
        assert np.array_equal(got[name], value), (path, name)
print("identical datasets:", len(ref))
PYEOF

# A bad scan under mpirun: one line from rank 0, exit 1, no file.
derive_scene "$WORK/scan.json" off 's["scan"]["positions"] = 12'
"$MPIEXEC" -np 2 "$CLI" scan "$WORK/off.json" --out "$WORK/off.h5" -q >"$WORK/off.out" 2>"$WORK/off.err"
rc=$?
[ "$rc" = 1 ] || fail "bad scan under mpiexec exited $rc, expected 1: $(cat "$WORK/off.err")"
[ "$(grep -c 'off.json: scan: shot 11 of 12' "$WORK/off.err")" = 1 ] ||
  fail "bad scan: expected one line naming the shot: $(cat "$WORK/off.err")"
[ -e "$WORK/off.h5" ] && fail "bad scan: a file was written"
finish
