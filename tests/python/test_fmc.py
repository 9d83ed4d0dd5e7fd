"""FMC and PWI scans from Python against voxwave-cli: voxwave.scan of a 4-element array on a steel
block gives Result.fmc with data (n_tx, n_rx, nt) equal to the scan's element rows, the array's
frame worked out here from the scene, and reciprocal signals (data[i, j] = data[j, i]); its TFM
image equals `voxwave-cli image` of `voxwave-cli scan`'s file value for value, and so do the PWI's
compounded and sector images; Result.save and read_result carry /fmc; an Acquisition built from
numpy arrays images like the scan's; bad input raises voxwave.InputError with one line."""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vwtest  # noqa: E402

CLI, SRC, WORK = vwtest.start()

import h5py  # noqa: E402
import numpy as np  # noqa: E402

import voxwave  # noqa: E402

N, PITCH, CENTRE = 4, 1e-3, (0.008, 0.001, 0.012)


def block(scan):
    """A steel block with a side-drilled hole under a 4-element array on its top face."""
    return voxwave.scene(
        name="fmc.json",
        grid={"size": [0.016, 0.002, 0.012], "spacing": 0.0005},
        materials=[{"name": "steel", "density": 7850, "vp": 5900, "vs": 3200}],
        background="steel",
        shapes=[{"type": "cylinder", "material": "void", "center": [0.009, 0.001, 0.006], "axis": [0, 1, 0],
                 "radius": 0.001, "length": 0.002}],
        probes=[{"name": "PA", "type": "array", "center": list(CENTRE), "normal": [0, 0, -1],
                 "array_axis": [1, 0, 0], "elements": N, "pitch": PITCH, "element_width": 0.0008,
                 "elevation": 0.002, "wavelet": {"type": "tone_burst", "frequency": 2e6, "cycles": 2}}],
        scan=scan,
        run={"duration": 7e-6, "backend": "cpu"},
    )


def plain_run_scene():
    """The FMC scene without its scan: a plain run of the array firing with its law."""
    keys = {k: v for k, v in FMC_SCENE.to_dict().items() if k not in ("scan", "format", "version")}
    return voxwave.scene(name="plain.json", **keys)


def cli(*args):
    p = subprocess.run([CLI, *args], capture_output=True, text=True)
    assert p.returncode == 0, (args, p.stderr)
    return p.stdout


def cli_scan(scene, name):
    """voxwave-cli scan of the scene saved as JSON: the result file's path."""
    path = os.path.join(WORK, name + ".json")
    scene.save(path)
    out = os.path.join(WORK, name + ".h5")
    cli("scan", path, "--out", out, "-q")
    return out


def cli_image(acquisition_file, *options):
    out = os.path.join(WORK, "cli_image.h5")
    cli("image", acquisition_file, "--backend", "cpu", "--out", out, "-q", *options)
    with h5py.File(out, "r") as f:
        return {k: f["image/" + k][:] for k in ("values", "lateral", "depth")}


FMC_SCENE = block({"probe": "PA", "type": "fmc"})
FMC = voxwave.scan(FMC_SCENE)
FMC_FILE = cli_scan(FMC_SCENE, "fmc")


def fmc_arrays_and_frame():
    a = FMC.fmc
    assert a is not None and FMC.pwi is None and FMC.acquisition.type == "fmc", (a, FMC.pwi)
    nt = FMC.time.size
    assert a.data.shape == (N, N, nt) and a.data.dtype == np.float64, a.data.shape
    assert a.n_tx == N and a.n_rx == N and a.angles is None
    assert not a.data.flags.writeable
    assert np.array_equal(a.time, FMC.time)
    # The scan's rows are the FMC: shot i's elements are transmission i's receivers.
    assert np.array_equal(a.data, FMC.scan.elements)
    assert np.abs(a.data).max() > 0
    # The array's frame from the scene: elements PITCH apart along x about the centre, on the top face.
    expected = np.array([[CENTRE[0] + (e - (N - 1) / 2) * PITCH, CENTRE[1], CENTRE[2]] for e in range(N)])
    assert a.element_positions.shape == (N, 3)
    assert np.allclose(a.element_positions, expected, rtol=0, atol=1e-12), a.element_positions
    assert a.pitch == PITCH and tuple(a.normal) == (0, 0, -1) and tuple(a.array_axis) == (1, 0, 0)
    # A 2-cycle 2 MHz tone burst's centre: 0.5 us.
    assert abs(a.reference_time - 0.5e-6) < 1e-18, a.reference_time
    assert (a.vp, a.vs, a.frequency) == (5900, 3200, 2e6), (a.vp, a.vs, a.frequency)


def fmc_is_reciprocal():
    d = FMC.fmc.data
    peak = np.abs(d).max()
    worst = max(np.abs(d[i, j] - d[j, i]).max() for i in range(N) for j in range(N))
    print(f"reciprocity: largest |data[i, j] - data[j, i]| / peak = {worst / peak:.2e}")
    assert worst <= 1e-9 * peak, worst / peak
    # Not trivially so: the hole sits off-centre, so pairs at the same distance differ.
    assert np.abs(d[0, 1] - d[2, 3]).max() > 1e-3 * peak


def fmc_image_equals_the_cli():
    im = voxwave.image(FMC, backend="cpu")
    ref = cli_image(FMC_FILE)
    assert im.method == "tfm" and im.values.shape == (im.depth.size, im.lateral.size)
    for k in ("values", "lateral", "depth"):
        assert np.array_equal(getattr(im, k), ref[k]), k
    # From the file and from the Acquisition the same.
    assert np.array_equal(voxwave.image(FMC_FILE, backend="cpu").values, im.values)
    assert np.array_equal(voxwave.image(FMC.fmc, backend="cpu").values, im.values)


def fmc_files_round_trip():
    with h5py.File(FMC_FILE, "r") as f:
        cli_data = f["fmc/data"][:]
        cli_attrs = dict(f["fmc"].attrs)
    assert np.array_equal(cli_data, FMC.fmc.data)
    saved = os.path.join(WORK, "saved.h5")
    FMC.save(saved)
    with h5py.File(saved, "r") as f:
        assert np.array_equal(f["fmc/data"][:], cli_data)
        assert np.array_equal(f["fmc/element_positions"][:], FMC.fmc.element_positions)
        for k, v in cli_attrs.items():
            assert np.array_equal(f["fmc"].attrs[k], v), k
    back = voxwave.read_result(saved)
    assert np.array_equal(back.fmc.data, FMC.fmc.data) and back.fmc.reference_time == FMC.fmc.reference_time
    assert np.array_equal(voxwave.read_acquisition(FMC_FILE).data, cli_data)
    standalone = os.path.join(WORK, "acquisition.h5")
    FMC.fmc.save(standalone)
    assert np.array_equal(voxwave.read_acquisition(standalone).data, cli_data)
    # A plain run's file has none.
    plain = plain_run_scene()
    assert voxwave.run(plain).acquisition is None


def acquisition_from_numpy():
    a = FMC.fmc
    mine = voxwave.Acquisition(np.array(a.data), np.array(a.time), np.array(a.element_positions), a.pitch,
                               normal=a.normal, array_axis=a.array_axis, reference_time=a.reference_time,
                               vp=a.vp, vs=a.vs, frequency=a.frequency)
    assert mine.type == "fmc" and mine.data.shape == a.data.shape
    assert np.array_equal(voxwave.image(mine, backend="cpu").values, voxwave.image(a, backend="cpu").values)


def pwi_images_equal_the_cli():
    scene = block({"probe": "PA", "type": "pwi", "angles": [-10, 0, 10]})
    r = voxwave.scan(scene)
    path = cli_scan(scene, "pwi")
    a = r.pwi
    assert r.fmc is None and a.type == "pwi" and a.data.shape == (3, N, r.time.size)
    assert list(a.angles) == [-10, 0, 10]
    with h5py.File(path, "r") as f:
        assert np.array_equal(f["pwi/data"][:], a.data)
        assert abs(f["pwi"].attrs["reference_time"] - a.reference_time) == 0
    for method in ("pwi", "sector"):
        im = voxwave.image(r, method=method, backend="cpu")
        ref = cli_image(path, "--method", method)
        assert im.method == method
        for k in ("values", "lateral", "depth"):
            assert np.array_equal(getattr(im, k), ref[k]), (method, k)
        assert np.abs(im.values).max() > 0


def bad_input_raises_one_line():
    def refused(call, start):
        try:
            call()
        except voxwave.InputError as e:
            assert str(e).startswith(start) and "\n" not in str(e), str(e)
            return
        raise AssertionError(f"accepted: expected '{start}...'")

    plain = plain_run_scene()
    refused(lambda: voxwave.image(voxwave.run(plain)), "plain.json: acquisition: the result holds no FMC or PWI")
    refused(lambda: voxwave.image(FMC, method="sector"), "method: a sector image needs steered plane-wave shots")
    refused(lambda: voxwave.image(FMC, method="saft"), "method: 'saft' is not an imaging method (tfm, pwi or sector)")
    a = FMC.fmc
    refused(lambda: voxwave.Acquisition(a.data[0], a.time, a.element_positions, a.pitch), "data: must have shape")
    refused(lambda: voxwave.Acquisition(a.data, a.time[:-1], a.element_positions, a.pitch), "data: has ")
    refused(lambda: voxwave.Acquisition(a.data, a.time, a.element_positions, -1.0), "acquisition: ")
    refused(lambda: voxwave.scan(FMC_SCENE, batch=-1), "batch: must be 0")


vwtest.run_checks([fmc_arrays_and_frame, fmc_is_reciprocal, fmc_image_equals_the_cli, fmc_files_round_trip,
                   acquisition_from_numpy, pwi_images_equal_the_cli, bad_input_raises_one_line])
