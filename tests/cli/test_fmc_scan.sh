#!/usr/bin/env bash
# FMC and PWI scans on the command line: bad scans (no array probe, no angles, an angle past 90
# degrees, a moving fmc, a single time step) are one line naming the file and field, exit 1, nothing written; a good
# FMC writes /fmc beside the scan datasets, and `voxwave-cli image` images the file with no options.
source "$(dirname "$0")/lib.sh" "$1" "$2"

out="$WORK/out.h5"

# A small steel block with a 4-element array on its top face and an FMC.
cat >"$WORK/base.json" <<'JSON'
{
  "format": "voxwave-scene", "version": 1,
  "grid": {"size": [0.016, 0.002, 0.012], "spacing": 0.0005},
  "materials": [{"name": "steel", "density": 7850, "vp": 5900, "vs": 3200}],
  "background": "steel",
  "probes": [{"name": "PA", "type": "array", "center": [0.008, 0.001, 0.012], "normal": [0, 0, -1],
              "array_axis": [1, 0, 0], "elements": 4, "pitch": 0.001, "element_width": 0.0008,
              "elevation": 0.002, "wavelet": {"type": "tone_burst", "frequency": 2000000, "cycles": 2}}],
  "scan": {"probe": "PA", "type": "fmc"},
  "run": {"duration": 7e-6, "backend": "cpu"}
}
JSON

derive() { derive_scene "$WORK/base.json" "$@"; }

derive piston 's["probes"][0] = {"name": "PA", "type": "piston", "center": [0.008, 0.001, 0.012], "normal": [0, 0, -1], "diameter": 0.002, "wavelet": {"type": "ricker", "frequency": 2e6}}'
expect_error fmc-piston 1 "piston.json: scan\.probe: an fmc scan needs an array probe; 'PA' is a piston" "$out" -- scan "$WORK/piston.json" --out "$out" -q

derive pwi_no_angles 's["scan"]["type"] = "pwi"'
expect_error pwi-no-angles 1 "pwi_no_angles.json: scan\.angles: a pwi scan needs at least one angle" "$out" -- scan "$WORK/pwi_no_angles.json" --out "$out" -q

derive pwi_steep 's["scan"].update({"type": "pwi", "angles": [0, 95]})'
expect_error pwi-steep 1 "pwi_steep.json: scan\.angles\[1\]: must lie strictly between -90 and 90 degrees" "$out" -- scan "$WORK/pwi_steep.json" --out "$out" -q

derive fmc_moving 's["scan"].update({"positions": 3, "step": [0.001, 0, 0]})'
expect_error fmc-moving 1 "fmc_moving.json: scan\.positions: an fmc scan is taken where the probe stands" "$out" -- scan "$WORK/fmc_moving.json" --out "$out" -q

derive fmc_angles 's["scan"]["angles"] = [10]'
expect_error fmc-angles 1 "fmc_angles.json: scan\.angles: only a pwi scan has angles" "$out" -- scan "$WORK/fmc_angles.json" --out "$out" -q

derive fmc_one_step 's["run"] = {"steps": 1, "backend": "cpu"}'
expect_error fmc-one-step 1 "fmc_one_step.json: run\.steps: the fmc scan's signals are imaged: it needs at least 2 time steps, not 1" "$out" -- scan "$WORK/fmc_one_step.json" --out "$out" -q

# The good FMC: one file with /fmc and the scan datasets; `image` takes it with no options.
"$CLI" scan "$WORK/base.json" --out "$WORK/fmc.h5" >"$WORK/scan.out" 2>&1 || fail "fmc scan: exit $?: $(cat "$WORK/scan.out")"
grep -q "scan      fmc of probe PA: 4 shots" "$WORK/scan.out" || fail "fmc scan: no shot count: $(cat "$WORK/scan.out")"
ls "$WORK"/fmc.h5.tmp-* >/dev/null 2>&1 && fail "fmc scan: a temporary file was left behind"
"$CLI" image "$WORK/fmc.h5" --out "$WORK/tfm.h5" -q 2>"$WORK/stderr" || fail "image of the scan's FMC: exit $?: $(cat "$WORK/stderr")"
[ -s "$WORK/tfm.h5" ] || fail "image of the scan's FMC: no image file"

derive pwi 's["scan"].update({"type": "pwi", "angles": [-10, 0, 10]})'
"$CLI" scan "$WORK/pwi.json" --out "$WORK/pwi.h5" -q 2>"$WORK/stderr" || fail "pwi scan: exit $?: $(cat "$WORK/stderr")"
"$CLI" image "$WORK/pwi.h5" --method pwi --out "$WORK/pwi_image.h5" -q 2>"$WORK/stderr" ||
  fail "image of the scan's PWI: exit $?: $(cat "$WORK/stderr")"

if $PY -c "import h5py" 2>/dev/null; then
  $PY - "$WORK/fmc.h5" "$WORK/pwi.h5" <<'PYEOF' || fail "the fmc and pwi result files"
import h5py, sys
with h5py.File(sys.argv[1], "r") as f:
    nt = f["/traces/time"].shape[0]
    assert f["/fmc/data"].shape == (4, 4, nt), f["/fmc/data"].shape
    assert f["/fmc/time"].shape == (nt,)
    assert f["/fmc/element_positions"].shape == (4, 3)
    g = f["/fmc"].attrs
    assert abs(g["pitch"] - 1e-3) < 1e-15 and list(g["normal"]) == [0, 0, -1] and list(g["array_axis"]) == [1, 0, 0]
    # The tone burst's centre: 2 cycles at 2 MHz, no delay.
    assert abs(g["reference_time"] - 0.5e-6) < 1e-18, g["reference_time"]
    assert (f["/scan/elements"][:] == f["/fmc/data"][:]).all()
    assert f["/scan/positions"].attrs["type"] == "fmc"
with h5py.File(sys.argv[2], "r") as f:
    assert f["/pwi/data"].shape == (3, 4, f["/traces/time"].shape[0])
    assert list(f["/pwi/angles"][:]) == [-10, 0, 10]
    assert "fmc" not in f
PYEOF
fi
finish
