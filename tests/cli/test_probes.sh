#!/usr/bin/env bash
# Probes and scans on the command line: each bad probe or scan is one line naming the file, the
# probe and the field, exit 1, and nothing written; `scan` writes one file with the scan in it.
source "$(dirname "$0")/lib.sh" "$1" "$2"

out="$WORK/out.h5"

# A small steel block with a 4-element array on its top face and a linear scan of 3 shots.
cat >"$WORK/base.json" <<'JSON'
{
  "format": "voxwave-scene", "version": 1,
  "grid": {"size": [0.016, 0.006, 0.008], "spacing": 0.001},
  "materials": [{"name": "steel", "density": 7850, "vp": 5900, "vs": 3200}],
  "background": "steel",
  "probes": [{"name": "PA", "type": "array", "center": [0.005, 0.003, 0.008], "normal": [0, 0, -1],
              "array_axis": [1, 0, 0], "elements": 4, "pitch": 0.001, "element_width": 0.0008,
              "elevation": 0.004, "wavelet": {"type": "ricker", "frequency": 700000},
              "delay_law": {"type": "steer", "angle": 20}}],
  "scan": {"probe": "PA", "type": "linear", "step": [0.002, 0, 0], "positions": 3,
           "gate": {"start": 1e-6, "end": 3e-6}},
  "run": {"steps": 40, "backend": "cpu"}
}
JSON

derive() { derive_scene "$WORK/base.json" "$@"; }

derive off_surface 's["probes"][0]["center"][2] = 0.004'
expect_error off-surface 1 "off_surface.json: probes\[0\]\.center: probe 'PA': .*not on a surface" "$out" -- run "$WORK/off_surface.json" --out "$out" -q

derive facing_out 's["probes"][0]["normal"] = [0, 0, 1]'
expect_error facing-out 1 "facing_out.json: probes\[0\]\.center: probe 'PA': .*no material under it" "$out" -- run "$WORK/facing_out.json" --out "$out" -q

derive too_wide 's["probes"][0]["elements"] = 20'
expect_error elements-outside 1 "too_wide.json: probes\[0\]\.elements: probe 'PA': element 0 reaches outside the grid" "$out" -- run "$WORK/too_wide.json" --out "$out" -q

derive steep 's["probes"][0]["delay_law"]["angle"] = 95'
expect_error law-angle 1 "steep.json: probes\[0\]\.delay_law\.angle: probe 'PA': must lie strictly between -90 and 90" "$out" -- run "$WORK/steep.json" --out "$out" -q

derive wedge 's["probes"][0]["wedge"] = {"material": "rexolite", "angle": 36, "height": 0.001}'
expect_error wedge-material 1 "wedge.json: probes\[0\]\.wedge\.material: probe 'PA': unknown material 'rexolite'" "$out" -- run "$WORK/wedge.json" --out "$out" -q

derive wedge_flat 's["probes"][0]["wedge"] = {"material": s["materials"][0]["name"], "angle": 90, "height": 0.001}'
expect_error wedge-angle 1 "wedge_flat.json: probes\[0\]\.wedge\.angle: probe 'PA': must lie strictly between 0 and 90" "$out" -- run "$WORK/wedge_flat.json" --out "$out" -q

derive wedge_tall 's["probes"][0]["wedge"] = {"material": s["materials"][0]["name"], "angle": 36, "height": 1.0, "length": 0.005}'
expect_error wedge-outside 1 "wedge_tall.json: probes\[0\]\.wedge\.height: probe 'PA': the wedge reaches outside the grid" "$out" -- run "$WORK/wedge_tall.json" --out "$out" -q

derive unknown_key 's["probes"][0]["frequency"] = 5e6'
expect_error unknown-probe-key 1 "unknown_key.json: probes\[0\]\.frequency: unknown key" "$out" -- run "$WORK/unknown_key.json" --out "$out" -q

derive overlap 's["probes"][0]["element_width"] = 0.0012'
expect_error elements-overlap 1 "overlap.json: probes\[0\]\.element_width: probe 'PA': must be at most the pitch" "$out" -- run "$WORK/overlap.json" --out "$out" -q

derive scan_off 's["scan"]["positions"] = 6'
expect_error scan-leaves-the-grid 1 "scan_off.json: scan: shot 6 of 6 at .*probes\[0\]\.elements: probe 'PA': element 3 reaches outside" "$out" -- scan "$WORK/scan_off.json" --out "$out" -q

derive scan_unknown 's["scan"]["probe"] = "PB"'
expect_error scan-unknown-probe 1 "scan_unknown.json: scan\.probe: no probe named 'PB'" "$out" -- scan "$WORK/scan_unknown.json" --out "$out" -q

derive no_scan 'del s["scan"]'
expect_error no-scan 1 "no_scan.json: scan: the scene has no scan" "$out" -- scan "$WORK/no_scan.json" --out "$out" -q

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
