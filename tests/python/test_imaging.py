"""voxwave.image and voxwave.read_image against voxwave-cli image: an FMC of a point scatterer
written with h5py from the closed form images to the CLI's very values, with its maximum at the
scatterer; arrays are read-only views with the documented shapes; a bad option raises the CLI's
line with the argument's name."""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vwtest  # noqa: E402

CLI, SRC, WORK = vwtest.start()

import h5py  # noqa: E402
import numpy as np  # noqa: E402

import voxwave  # noqa: E402

FMC = os.path.join(WORK, "fmc.h5")
N, PITCH, F0, VP = 10, 0.5e-3, 5e6, 5900.0
LAT, DEP = 0.6e-3, 8e-3


def write_fmc():
    t = np.arange(700) * 10e-9
    lat = (np.arange(N) - (N - 1) / 2) * PITCH
    r = np.hypot(lat - LAT, DEP)
    pulse = lambda tau: np.exp(-(tau * F0) ** 2) * np.cos(2 * np.pi * F0 * tau)  # noqa: E731
    data = np.array([[pulse(t - 0.3e-6 - (r[i] + r[j]) / VP) for j in range(N)] for i in range(N)])
    with h5py.File(FMC, "w") as f:
        g = f.create_group("fmc")
        g["data"], g["time"] = data, t
        g["element_positions"] = np.stack([lat, np.zeros(N), np.zeros(N)], axis=1)
        g.attrs["pitch"], g.attrs["normal"], g.attrs["array_axis"] = PITCH, [0, 0, 1.0], [1.0, 0, 0]
        g.attrs["reference_time"], g.attrs["vp"], g.attrs["frequency"] = 0.3e-6, VP, F0


def same_as_the_cli():
    im = voxwave.image(FMC, backend="cpu")
    out = os.path.join(WORK, "cli.h5")
    p = subprocess.run([CLI, "image", FMC, "--backend", "cpu", "--out", out, "-q"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    with h5py.File(out, "r") as f:
        assert np.array_equal(f["image/values"][:], im.values)
        assert np.array_equal(f["image/lateral"][:], im.lateral)
        assert np.array_equal(f["image/depth"][:], im.depth)
    assert im.values.shape == (im.depth.size, im.lateral.size) and im.values.dtype == np.float64
    assert not im.values.flags.writeable
    i, j = np.unravel_index(np.argmax(im.values), im.values.shape)
    q = VP / F0 / 4
    assert abs(im.lateral[j] - LAT) <= q and abs(im.depth[i] - DEP) <= q, (im.lateral[j], im.depth[i])
    saved = os.path.join(WORK, "py.h5")
    im.save(saved)
    back = voxwave.read_image(saved)
    assert np.array_equal(back.values, im.values) and back.method == "tfm" and back.mode == "LL"


def bad_options_raise_one_line():
    try:
        voxwave.image(FMC, mode="TT")
        raise AssertionError("TT without vs was accepted")
    except voxwave.InputError as e:
        assert str(e).startswith("shear_velocity: mode TT needs"), str(e)
    try:
        voxwave.image(FMC, region=(1e-3, -1e-3, 5e-3, 9e-3))
        raise AssertionError("a reversed region was accepted")
    except voxwave.InputError as e:
        assert str(e) == "region: LAT0 must be below LAT1", str(e)
    try:
        voxwave.read_image(FMC)
        raise AssertionError("an FMC was read as an image")
    except voxwave.InputError as e:
        assert "fmc.h5" in str(e) and "\n" not in str(e), str(e)


write_fmc()
vwtest.run_checks([same_as_the_cli, bad_options_raise_one_line])
