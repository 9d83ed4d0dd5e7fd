#!/usr/bin/env bash
# The 2-GPU FMC benchmark's scene and scan (scripts/device-run.sh fmc-gpus), small and on the CPU:
# scripts/fmc-scene.py writes a valid fmc scene; `mpirun -np 1` and `-np 2` scans write the same
# datasets as one process (/fmc/data included, n_tx x n_rx x nt); each prints its shot loops,
# which are at most the scan's time; `voxwave-cli compare` compares the scans' shots (0 for equal
# files, exit 4 for a changed shot).
source "$(dirname "$0")/lib.sh" "$1" "$2"
MPIEXEC=$(command -v mpiexec || true)
[ -n "$MPIEXEC" ] || skip "no mpiexec"
$PY -c "import h5py, numpy" 2>/dev/null || skip "no h5py"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1

$PY "$SRC/scripts/fmc-scene.py" "$WORK/fmc.json" --cells 16 --elements 5 --steps 40 --backend cpu ||
  fail "fmc-scene.py failed"
"$CLI" scan "$WORK/fmc.json" --out "$WORK/one.h5" >"$WORK/one.out" 2>&1 || fail "one-process scan: $(cat "$WORK/one.out")"
grep -q "scan      fmc of probe PA: 5 shots" "$WORK/one.out" || fail "not a 5-shot fmc: $(cat "$WORK/one.out")"
for k in 1 2; do
  "$MPIEXEC" -np $k "$CLI" scan "$WORK/fmc.json" --out "$WORK/ranks$k.h5" >"$WORK/mpi$k.out" 2>&1 ||
    fail "$k-rank scan exited $?: $(tail -3 "$WORK/mpi$k.out")"
done

# The footer: "done in W s: ..." then "shot loops L s (set-up and probe placement S s)", L <= W, L > 0.
for f in one mpi1 mpi2; do
  $PY - "$WORK/$f.out" <<'PYEOF' || fail "$f: the shot loops line: $(cat "$WORK/$f.out")"
import re, sys
text = open(sys.argv[1]).read()
wall = float(re.search(r"^done in ([0-9.]+) s: 5 shots of 40 steps$", text, re.M).group(1))
loops, setup = map(float, re.search(r"^shot loops ([0-9.]+) s \(set-up and probe placement ([0-9.]+) s\)$", text, re.M).groups())
# wall is printed to 0.01 s, the loops and the set-up to 0.001 s.
assert 0 < loops <= wall + 0.006 and abs(loops + setup - wall) <= 0.006, (wall, loops, setup)
PYEOF
done

# The acquisition and the scan's rows, and shot 0's probe signals, bit for bit (test_mpi_scan.sh
# compares every dataset of a moving scan's files the same way).
$PY - "$WORK/one.h5" "$WORK/ranks1.h5" "$WORK/ranks2.h5" <<'PYEOF' || fail "the files differ"
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as ref:
    nt = ref["traces/time"].shape[0]
    assert ref["fmc/data"].shape == (5, 5, nt), ref["fmc/data"].shape
    assert np.abs(ref["fmc/data"][()]).max() > 0
    names = ["fmc/data", "fmc/time", "fmc/element_positions", "scan/elements", "scan/positions", "probes/PA/elements"]
    for path in sys.argv[2:]:
        with h5py.File(path, "r") as got:
            for name in names:
                assert np.array_equal(got[name][()], ref[name][()]), (path, name)
            assert sorted(got["fmc"].attrs) == sorted(ref["fmc"].attrs), path
            for key, value in ref["fmc"].attrs.items():
                assert np.array_equal(got["fmc"].attrs[key], value), (path, key)
PYEOF

"$CLI" compare "$WORK/ranks2.h5" "$WORK/one.h5" --tolerance 0 >"$WORK/cmp.out" 2>&1 || fail "compare: $(cat "$WORK/cmp.out")"
grep -q "^| scan PA (5 shots) | | 0 |$" "$WORK/cmp.out" || fail "compare did not compare the scan: $(cat "$WORK/cmp.out")"
# One shot changed (the last, which shot 0's probe traces do not hold): compare sees it.
cp "$WORK/one.h5" "$WORK/changed.h5"
$PY -c "
import h5py, sys
with h5py.File(sys.argv[1], 'r+') as f:
    f['scan/elements'][4, 2, 20] += 1e-3 * abs(f['scan/elements'][:]).max()
" "$WORK/changed.h5" || fail "could not change the file"
"$CLI" compare "$WORK/changed.h5" "$WORK/one.h5" --tolerance 1e-6 >"$WORK/cmp2.out" 2>"$WORK/cmp2.err"
rc=$?
[ "$rc" = 4 ] || fail "compare of a changed shot exited $rc, expected 4: $(cat "$WORK/cmp2.out" "$WORK/cmp2.err")"
finish
