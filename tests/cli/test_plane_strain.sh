#!/usr/bin/env bash
# A 2D (plane-strain) scene through the command line: `run` writes 2-component traces whose
# mirror symmetry the physics demands, `dispersion --2d` writes S and P for the square's two
# directions with OVFEM closer to exact on the diagonal, `bench --plane-strain` runs, and bad 2D
# input exits 1 with one line naming the file and the field and leaves no result behind.
source "$(dirname "$0")/lib.sh" "$1" "$2"

# 40 x 30 squares of 1 mm; a vertical force on the mirror line x = 20 mm; receivers mirrored
# about it, so u_y is even and u_x odd in x.
write_scene() {  # write_scene FILE EXTRA_RECEIVER ABSORBING_TYPE
  cat >"$1" <<JSON
{"format": "voxwave-scene", "version": 1,
 "grid": {"size": [0.04, 0.03], "spacing": 0.001},
 "materials": [{"name": "concrete", "density": 2400, "vp": 4000, "vs": 2450},
               {"name": "steel", "density": 7850, "vp": 5900, "vs": 3200}],
 "background": "concrete",
 "shapes": [{"type": "sphere", "material": "steel", "center": [0.02, 0.012], "radius": 0.004}],
 "sources": [{"name": "S", "position": [0.02, 0.03], "direction": [0, -1], "amplitude": 1000,
              "wavelet": {"type": "ricker", "frequency": 300000, "delay": 4e-6}}],
 "receivers": [{"name": "L", "position": [0.012, 0.03]}, {"name": "R", "position": [0.028, 0.03]}$2],
 "boundary": {"absorbing": {"faces": ["x-", "x+", "y-"], "thickness": 0.004, "type": "$3"}},
 "run": {"method": "ovfem", "steps": 300, "backend": "cpu"}}
JSON
}

write_scene "$WORK/s2d.json" "" sponge
"$CLI" run "$WORK/s2d.json" --out "$WORK/r.h5" -q || fail "2D run failed"
"$CLI" run "$WORK/s2d.json" --method vfem --precision fp32 --out "$WORK/r32.h5" -q || fail "2D vfem fp32 run failed"
$PY - "$WORK/r.h5" "$WORK/r32.h5" <<'PYEOF' || fail "2D result"
import h5py, numpy as np, sys
for path, method in ((sys.argv[1], "ovfem"), (sys.argv[2], "vfem")):
    f = h5py.File(path, "r")
    assert f.attrs["method"] == method, f.attrs["method"]
    assert f["receivers/positions"].shape == (2, 2), f["receivers/positions"].shape
    assert np.allclose(f["receivers/positions"][:], [[0.012, 0.03], [0.028, 0.03]])
    u = f["traces/displacement"][:]
    v = f["traces/velocity"][:]
    assert u.shape == (2, 300, 2) and v.shape == (2, 300, 2), (u.shape, v.shape)
    peak = np.abs(u).max()
    assert peak > 0, "no signal reached the receivers"
    tol = 1e-9 if method == "ovfem" else 1e-4
    # Mirror symmetry about x = 20 mm: u_y(L) = u_y(R), u_x(L) = -u_x(R).
    assert np.abs(u[0, :, 1] - u[1, :, 1]).max() <= tol * peak, np.abs(u[0, :, 1] - u[1, :, 1]).max() / peak
    assert np.abs(u[0, :, 0] + u[1, :, 0]).max() <= tol * peak, np.abs(u[0, :, 0] + u[1, :, 0]).max() / peak
    assert np.abs(u[0, :, 0]).max() > 1e-3 * peak, "no horizontal motion (a Rayleigh wave has some)"
PYEOF
"$CLI" compare "$WORK/r.h5" "$WORK/r.h5" >/dev/null || fail "compare of a 2D result with itself"

"$CLI" dispersion --2d --method vfem --spacing 0.001 --density 2400 --vp 4000 --vs 2450 --ppw 10 \
  --out "$WORK/dv.h5" -q || fail "dispersion --2d vfem"
"$CLI" dispersion --2d --method ovfem --spacing 0.001 --density 2400 --vp 4000 --vs 2450 --ppw 10 \
  --out "$WORK/do.h5" -q || fail "dispersion --2d ovfem"
$PY - "$WORK/dv.h5" "$WORK/do.h5" <<'PYEOF' || fail "2D dispersion"
import h5py, numpy as np, sys
v = h5py.File(sys.argv[1], "r")["velocity_ratio"][:]
o = h5py.File(sys.argv[2], "r")["velocity_ratio"][:]
assert v.shape == (2, 1, 2) and o.shape == (2, 1, 2), (v.shape, o.shape)
# Along the axis both are the 1D lumped scheme; on the diagonal OVFEM's S wave is closer.
x = np.pi / 10
assert abs(v[0, 0, 0] - np.sin(x) / x) < 1e-12 and abs(o[0, 0, 0] - np.sin(x) / x) < 1e-12
assert abs(o[1, 0, 0] - 1) < abs(v[1, 0, 0] - 1), (o[1, 0, 0], v[1, 0, 0])
PYEOF

"$CLI" bench --plane-strain 16 --methods ovfem --precisions fp64 --steps 5 >"$WORK/bench.txt" 2>/dev/null ||
  fail "bench --plane-strain"
grep -q "| 16 x 16 | ovfem | fp64 |" "$WORK/bench.txt" || fail "bench --plane-strain table: $(cat "$WORK/bench.txt")"

# Bad 2D input: one line naming the file and the field, exit 1, no result file.
write_scene "$WORK/mixed.json" ', {"name": "Z", "position": [0.01, 0.01, 0]}' sponge
expect_error "mixed 2D and 3D vectors" 1 "mixed.json: receivers\[2\]\.position: .*2D or 3D throughout" \
  "$WORK/bad.h5" -- run "$WORK/mixed.json" --out "$WORK/bad.h5"
write_scene "$WORK/pml.json" "" pml
expect_error "PML in 2D" 1 "pml.json: boundary\.absorbing\.type: .*3D only" "$WORK/bad.h5" -- \
  run "$WORK/pml.json" --out "$WORK/bad.h5"
expect_error "tcovfem in 2D" 1 "--method: .*no 2D engine" "$WORK/bad.h5" -- \
  run "$WORK/s2d.json" --method tcovfem --out "$WORK/bad.h5"
expect_error "2D cluster job on 2 GPUs" 1 "--gpus: .*plane-strain \(2D\) scene runs in one process" "" -- \
  cluster-job "$WORK/s2d.json" --gpus 2 --partition gpu --time 01:00:00 --dir "$WORK/job"
[ ! -e "$WORK/job" ] || fail "2D cluster job on 2 GPUs: the folder was written"
finish
