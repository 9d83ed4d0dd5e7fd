"""Writes the seed corpus of the fuzz target imaging_h5 (tests/fuzz/imaging_h5): valid FMC, PWI and image
files written by h5py as the file contract gives them (docs/architecture.md#imaging), and broken
variants. Run from the source root: /usr/bin/python3 tests/fuzz/make_imaging_seeds.py"""
import h5py
import numpy as np

d = "tests/fuzz/imaging_h5"
t = np.arange(40) * 1e-8
pos = np.array([[i * 1e-3, 0, 0] for i in range(3)])


def acq(name, group="fmc", time=t, positions=pos, attrs=None, extra=None):
    with h5py.File(f"{d}/{name}", "w") as f:
        g = f.create_group(group)
        n_tx = 3 if group == "fmc" else 2
        g["data"] = np.random.default_rng(1).standard_normal((n_tx, 3, time.size))
        g["time"], g["element_positions"] = time, positions
        a = {"pitch": 1e-3, "normal": [0, 0, 1.0], "array_axis": [1.0, 0, 0], "reference_time": 1e-7,
             "vp": 5900.0, "vs": 3200.0, "frequency": 5e6}
        a.update(attrs or {})
        for k, v in a.items():
            if v is not None:
                g.attrs[k] = v
        for k, v in (extra or {}).items():
            g[k] = v


acq("fmc_valid.h5")
acq("pwi_valid.h5", group="pwi", extra={"angles": [-5.0, 5.0]})
acq("pwi_no_angles.h5", group="pwi")
acq("fmc_time_reversed.h5", time=t[::-1].copy())
acq("fmc_axis_parallel.h5", attrs={"array_axis": [0, 0, 1.0]})
acq("fmc_no_pitch.h5", attrs={"pitch": None})
acq("fmc_positions_2d.h5", positions=pos[:, :2].copy())
with h5py.File(f"{d}/image_valid.h5", "w") as f:
    f.attrs["format"], f.attrs["version"] = "voxwave-image", np.int32(1)
    for k, v in {"method": "tfm", "mode": "LL", "backend": "cpu", "source": "fmc.h5"}.items():
        f.attrs[k] = v
    for k in ["vp", "vs", "pixel", "frequency"]:
        f.attrs[k] = 1.0
    f["image/values"] = np.ones((4, 3))
    f["image/lateral"], f["image/depth"] = np.arange(3.0), np.arange(4.0)
    f["image/element_lateral"], f["image/element_depth"] = np.arange(2.0), np.zeros(2)
raw = open(f"{d}/fmc_valid.h5", "rb").read()
open(f"{d}/fmc_truncated.h5", "wb").write(raw[: len(raw) // 2])
