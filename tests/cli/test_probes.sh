#!/usr/bin/env bash
# Probes and scans on the command line: each bad probe or scan is one line naming the file, the
# probe and the field, exit 1, and nothing written; `scan` writes one file with the scan in it.
source "$(dirname "$0")/lib.sh" "$1" "$2"
source "$(dirname "$0")/lib_probe_scene.sh"

# A small steel block with a 4-element array on its top face and a linear scan of 3 shots.
write_array_scan_scene "$WORK/base.json"

# refused NAME COMMAND EDIT PATTERN: the scene with EDIT is refused in one line naming NAME.json.
refused() { expect_refused_scene "$WORK/base.json" "$@"; }

refused off_surface run 's["probes"][0]["center"][2] = 0.004' "probes\[0\]\.center: probe 'PA': .*not on a surface"

refused facing_out run 's["probes"][0]["normal"] = [0, 0, 1]' "probes\[0\]\.center: probe 'PA': .*no material under it"

refused too_wide run 's["probes"][0]["elements"] = 20' "probes\[0\]\.elements: probe 'PA': element 0 reaches outside the grid"

refused steep run 's["probes"][0]["delay_law"]["angle"] = 95' "probes\[0\]\.delay_law\.angle: probe 'PA': must lie strictly between -90 and 90"

refused wedge run 's["probes"][0]["wedge"] = {"material": "rexolite", "angle": 36, "height": 0.001}' "probes\[0\]\.wedge\.material: probe 'PA': unknown material 'rexolite'"

refused wedge_flat run 's["probes"][0]["wedge"] = {"material": s["materials"][0]["name"], "angle": 90, "height": 0.001}' "probes\[0\]\.wedge\.angle: probe 'PA': must lie strictly between 0 and 90"

refused wedge_tall run 's["probes"][0]["wedge"] = {"material": s["materials"][0]["name"], "angle": 36, "height": 1.0, "length": 0.005}' "probes\[0\]\.wedge\.height: probe 'PA': the wedge reaches outside the grid"

refused unknown_key run 's["probes"][0]["frequency"] = 5e6' "probes\[0\]\.frequency: unknown key"

refused overlap run 's["probes"][0]["element_width"] = 0.0012' "probes\[0\]\.element_width: probe 'PA': must be at most the pitch"

refused scan_off scan 's["scan"]["positions"] = 6' "scan: shot 6 of 6 at .*probes\[0\]\.elements: probe 'PA': element 3 reaches outside"

refused scan_unknown scan 's["scan"]["probe"] = "PB"' "scan\.probe: no probe named 'PB'"

refused no_scan scan 'del s["scan"]' "scan: the scene has no scan"

# The good scene: run records the probe in one shot, scan writes the three shots.
"$CLI" run "$WORK/base.json" --out "$WORK/run.h5" -q 2>"$WORK/stderr" || fail "run: exit $?: $(cat "$WORK/stderr")"
"$CLI" scan "$WORK/base.json" --out "$WORK/scan.h5" -q 2>"$WORK/stderr" || fail "scan: exit $?: $(cat "$WORK/stderr")"
[ -s "$WORK/scan.h5" ] || fail "scan: no result file"
ls "$WORK"/scan.h5.tmp-* >/dev/null 2>&1 && fail "scan: a temporary file was left behind"
# compare matches probes by name: a run against itself is 0 apart over the one probe.
"$CLI" compare "$WORK/run.h5" "$WORK/run.h5" --tolerance 0 >"$WORK/cmp.out" 2>&1 || fail "compare: $(cat "$WORK/cmp.out")"
grep -q "over 0 receivers and 1 probes" "$WORK/cmp.out" || fail "compare did not match the probe: $(cat "$WORK/cmp.out")"
# Two MPI ranks (slabs along x, the probe's face across the seam) record the same probe signals.
if MPIEXEC=$(command -v mpiexec); then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1
  "$MPIEXEC" -np 2 "$CLI" run "$WORK/base.json" --out "$WORK/two.h5" -q >"$WORK/mpi.out" 2>&1 ||
    fail "2-rank run exited $?: $(tail -3 "$WORK/mpi.out")"
  "$CLI" compare "$WORK/two.h5" "$WORK/run.h5" --tolerance 1e-12 >"$WORK/cmp2.out" 2>&1 ||
    fail "2 ranks differ from one process: $(tail -2 "$WORK/cmp2.out")"
fi
if $PY -c "import h5py" 2>/dev/null; then
  $PY - "$WORK/run.h5" "$WORK/scan.h5" <<'PYEOF' || fail "the result files lack the probe and scan datasets"
import h5py, sys
with h5py.File(sys.argv[1], "r") as f:
    nt = f["/traces/time"].shape[0]
    assert f["/probes/PA/elements"].shape == (4, nt), f["/probes/PA/elements"].shape
    assert f["/probes/PA/delays"].shape == (4,)
with h5py.File(sys.argv[2], "r") as f:
    assert f["/scan/positions"].shape == (3, 3)
    assert f["/scan/elements"].shape == (3, 4, nt)
    assert f["/scan/cscan"].shape == (1, 3)
PYEOF
fi
finish
