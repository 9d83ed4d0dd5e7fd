#!/usr/bin/env bash
# `voxwave-cli image`: an FMC written by h5py as the file contract gives it (a point scatterer from
# the closed form) images with no options to a maximum at the scatterer; PWI too; the image file's
# layout; bad files and options are refused with one line; bench-imaging prints its row.
source "$(dirname "$0")/lib.sh" "$1" "$2"

$PY -c "import h5py, numpy" 2>/dev/null || skip "h5py and numpy are needed to write the acquisitions"

$PY - "$WORK" <<'PYEOF' || fail "writing the acquisitions"
import h5py, numpy as np, sys
work = sys.argv[1]
n, pitch, f0, vp, vs = 12, 0.5e-3, 5e6, 5900.0, 3200.0
dt, nt, ref = 10e-9, 800, 0.4e-6
lat_s, dep_s = -0.8e-3, 9e-3
# The array along y, normal -z (into the material below), centred at (4, 5, 6) mm.
axis, normal = np.array([0, 1.0, 0]), np.array([0, 0, -1.0])
centre = np.array([4e-3, 5e-3, 6e-3])
lat = (np.arange(n) - (n - 1) / 2) * pitch
pos = centre + lat[:, None] * axis
t = np.arange(nt) * dt
pulse = lambda tau: np.exp(-(tau * f0) ** 2) * np.cos(2 * np.pi * f0 * tau)
r = np.hypot(lat - lat_s, dep_s)
def write(name, group, data, extra, time=t):
    with h5py.File(f"{work}/{name}", "w") as f:
        g = f.create_group(group)
        g["data"], g["time"], g["element_positions"] = data, time, pos
        g.attrs["pitch"], g.attrs["normal"], g.attrs["array_axis"] = pitch, normal, axis
        g.attrs["reference_time"], g.attrs["vp"] = ref, vp
        for k, v in extra.items():
            g[k] = v
fmc = np.array([[pulse(t - ref - (r[i] + r[j]) / vp) / (r[i] * r[j]) for j in range(n)] for i in range(n)])
write("fmc.h5", "fmc", fmc, {})
ang = np.radians([-10.0, 0.0, 10.0])
tx = (lat_s * np.sin(ang) + dep_s * np.cos(ang)) / vp
pwi = np.array([[pulse(t - ref - tx[a] - r[j] / vp) for j in range(n)] for a in range(3)])
write("pwi.h5", "pwi", pwi, {"angles": np.degrees(ang)})
write("bad_time.h5", "fmc", fmc, {}, time=t[::-1])
with h5py.File(f"{work}/none.h5", "w") as f:
    f["traces/time"] = t
PYEOF

check_peak() {  # FILE: the maximum within a quarter wavelength (0.295 mm) of (-0.8, 9) mm
  $PY - "$1" <<'PYEOF' || fail "$1: image layout or peak"
import h5py, numpy as np, sys
f = h5py.File(sys.argv[1], "r")
assert f.attrs["format"] == "voxwave-image" and int(f.attrs["version"]) == 1, dict(f.attrs)
v, lat, dep = f["image/values"][:], f["image/lateral"][:], f["image/depth"][:]
assert v.shape == (dep.size, lat.size) and v.dtype == np.float64, (v.shape, lat.size, dep.size)
assert f["image/element_lateral"].shape == (12,)
i, j = np.unravel_index(np.argmax(v), v.shape)
q = 5900 / 5e6 / 4
assert abs(lat[j] + 0.8e-3) <= q and abs(dep[i] - 9e-3) <= q, (lat[j], dep[i])
PYEOF
}

"$CLI" image "$WORK/fmc.h5" --out "$WORK/tfm.h5" -q || fail "image of the FMC failed"
check_peak "$WORK/tfm.h5"
"$CLI" image "$WORK/pwi.h5" --backend cpu --out "$WORK/pwi_image.h5" -q || fail "image of the PWI failed"
check_peak "$WORK/pwi_image.h5"

out="$WORK/never.h5"
expect_error "missing file" 1 "nothere.h5" "$out" -- image "$WORK/nothere.h5" --out "$out"
expect_error "no acquisition" 1 "none.h5: /fmc/data: missing dataset" "$out" -- image "$WORK/none.h5" --out "$out"
expect_error "bad time" 1 "bad_time.h5: /fmc/time: not increasing" "$out" -- image "$WORK/bad_time.h5" --out "$out"
expect_error "bad mode" 1 "--mode: 'XY' is not an imaging mode" "$out" -- image "$WORK/fmc.h5" --mode XY --out "$out"
expect_error "bad method" 1 "--method: .*PWI" "$out" -- image "$WORK/pwi.h5" --method tfm --out "$out"
expect_error "region" 1 "--region: LAT0 must be below LAT1" "$out" -- image "$WORK/fmc.h5" --region 0.01 -0.01 0.005 0.01 --out "$out"
expect_error "region count" 2 "region" "$out" -- image "$WORK/fmc.h5" --region 0.01 -0.01 --out "$out"
expect_error "no vs" 1 "--shear-velocity: mode TT needs" "$out" -- image "$WORK/fmc.h5" --mode TT --out "$out"
expect_error "pixel" 1 "--pixel: must be positive" "$out" -- image "$WORK/fmc.h5" --pixel -1 --out "$out"

"$CLI" bench-imaging --pixels 24 --elements 4 --samples 300 --repeat 1 --backend cpu >"$WORK/bench.md" 2>&1 ||
  fail "bench-imaging failed: $(cat "$WORK/bench.md")"
grep -qE '^\| cpu \| 24 x 24 \| 4 x 4 \| 300 \| [0-9.]+ \|' "$WORK/bench.md" || fail "bench-imaging row: $(cat "$WORK/bench.md")"
finish
