"""The voxwave Python module against the CLI (issue 37): the same scene built in Python and read
from JSON by voxwave-cli gives bit-identical traces; arrays have the documented shapes and dtypes
and are views (no copies); a bad scene raises exactly the line the CLI prints; the progress
callback is called and can cancel; the GIL is released while the engine runs."""

import gc
import json
import os
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vwtest  # noqa: E402

CLI, SRC, WORK = vwtest.start()

import h5py  # noqa: E402
import numpy as np  # noqa: E402

import voxwave  # noqa: E402  (a built module that does not import fails the test)

CLI_ERROR = "voxwave-cli: error: "


def cli(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True)


def write_json(name, d):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        json.dump({"format": "voxwave-scene", "version": 1, **d}, f, indent=1)
    return path


def cli_result(scene_path):
    """The CLI's result, read with h5py (not through the module)."""
    out = scene_path + ".h5"
    p = cli("run", scene_path, "--out", out, "--quiet")
    assert p.returncode == 0, p.stderr
    with h5py.File(out, "r") as f:
        expected = {k: f[k][()] for k in ("traces/time", "traces/displacement", "traces/velocity",
                                          "receivers/positions")}
        attrs = dict(f.attrs)
    # The module reads the CLI's file as h5py does.
    read = voxwave.read_result(out)
    assert np.array_equal(read.displacement, expected["traces/displacement"])
    assert np.array_equal(read.velocity, expected["traces/velocity"]) and read.dt == attrs["dt"]
    assert read.scene == os.path.basename(scene_path) and read.note == ""
    return expected, attrs


def check_python_scene_gives_the_cli_traces_bit_for_bit():
    for name, run in [("ovfem", {}), ("vfem_fp32", {"method": "vfem", "precision": "fp32"}),
                      ("tcovfem_m3", {"method": "tcovfem", "stages": 3, "steps": 60})]:
        d = vwtest.small_block(**run)
        expected, attrs = cli_result(write_json(f"same_{name}.json", d))
        r = voxwave.run(voxwave.scene(**d))
        # A prepared problem runs the same.
        assert np.array_equal(voxwave.run(voxwave.Problem(voxwave.scene(**d))).displacement, r.displacement), name
        assert r.backend == "cpu" and r.method == attrs["method"] and r.precision == attrs["precision"], name
        assert r.dt == attrs["dt"] and r.steps == attrs["steps"], (name, r.dt, attrs["dt"])
        assert np.array_equal(r.time, expected["traces/time"]), name
        assert np.array_equal(r.displacement, expected["traces/displacement"]), name
        assert np.array_equal(r.velocity, expected["traces/velocity"]), name
        assert np.array_equal(r.receiver_positions, expected["receivers/positions"]), name
        # Not trivially equal: the traces moved.
        assert np.abs(r.displacement).max() > 0, name


def check_arrays_have_the_documented_shapes_and_are_views():
    d = vwtest.small_block(steps=50)
    r = voxwave.run(voxwave.scene(**d))
    nr, nt = 3, 50
    assert r.receiver_names == ["near", "far", "bottom"], r.receiver_names
    for array, shape in [(r.time, (nt,)), (r.displacement, (nr, nt, 3)), (r.velocity, (nr, nt, 3)),
                         (r.receiver_positions, (nr, 3))]:
        assert array.shape == shape and array.dtype == np.float64, (array.shape, array.dtype)
        assert array.flags.c_contiguous and not array.flags.owndata and not array.flags.writeable
    # No copies: two reads of a property are the same memory.
    assert np.shares_memory(r.displacement, r.displacement)
    assert r.time[1] == r.dt and r.time[0] == 0
    assert np.allclose(r.receiver_positions[r.receiver_index("far")], [0.011, 0.005, 0.008], atol=1e-15)
    # The array keeps the engine's buffer alive after the result object is gone.
    u = r.displacement
    kept = u.copy()
    del r
    gc.collect()
    junk = [np.full(1000, 7.0) for _ in range(100)]  # reuse freed memory, if it was freed
    assert np.array_equal(u, kept) and len(junk) == 100

    # The voxel model: (nz, ny, nx) uint8, ids as the scene lists the materials (0 void).
    scene = voxwave.scene(**d)
    model = scene.voxelise()
    assert model.counts == (12, 10, 8) and model.spacing == 0.001
    ids = model.ids
    assert ids.shape == (8, 10, 12) and ids.dtype == np.uint8 and not ids.flags.writeable
    # An independent rasterisation: element centres inside the void box and the sphere.
    k, j, i = np.meshgrid(np.arange(8), np.arange(10), np.arange(12), indexing="ij")
    x, y, z = (i + 0.5) * 1e-3, (j + 0.5) * 1e-3, (k + 0.5) * 1e-3
    expected = np.ones_like(ids)
    expected[(x > 0.004) & (x < 0.006) & (y > 0.003) & (y < 0.007) & (z > 0.002) & (z < 0.004)] = 0
    expected[(x - 0.009) ** 2 + (y - 0.005) ** 2 + (z - 0.003) ** 2 < 0.0015 ** 2] = 2
    assert np.array_equal(ids, expected), np.argwhere(ids != expected)[:5]
    # At another spacing, and the problem's own model.
    assert voxwave.Scene.voxelise(scene, 0.002).ids.shape == (4, 5, 6)
    problem = voxwave.Problem(scene)
    assert np.array_equal(problem.model.ids, ids)
    assert 0 < problem.dt < problem.dt_stable and problem.steps == 50
    assert [p["name"] for p in problem.receivers] == ["near", "far", "bottom"]

    # Dispersion: the shapes, and the same numbers as voxwave-cli dispersion's file.
    table = voxwave.dispersion("vfem", 0.002, 2400, 4000, 2450, ppw=[5, 10, 20])
    assert table.ppw.shape == (3,) and table.directions.shape == (3, 3) and table.velocity_ratio.shape == (3, 3, 3)
    out = os.path.join(WORK, "d.h5")
    p = cli("dispersion", "--method", "vfem", "--spacing", "0.002", "--density", "2400", "--vp", "4000",
            "--vs", "2450", "--ppw", "5", "10", "20", "--out", out, "--quiet")
    assert p.returncode == 0, p.stderr
    with h5py.File(out, "r") as f:
        assert np.array_equal(table.velocity_ratio, f["velocity_ratio"][()])
        assert np.array_equal(table.directions, f["directions"][()])
    # Below the exact speed, closer to it with more points per wavelength; 1 along an axis in the limit.
    v = table.velocity_ratio
    assert np.all(v < 1) and np.all(np.diff(v, axis=1) > 0)
    fine = voxwave.dispersion("ovfem", 0.002, 2400, 4000, 2450, ppw=[400], directions=[[1, 0, 0]])
    assert np.allclose(fine.velocity_ratio, 1, atol=1e-4), fine.velocity_ratio
    assert voxwave.dispersion("ovfem", 0.002, 2400, 4000, 2450).velocity_ratio.shape == (3, 37, 3)


def check_results_and_scenes_round_trip_through_files():
    d = vwtest.small_block(steps=30)
    scene = voxwave.scene(**d)
    r = voxwave.run(scene)
    path = os.path.join(WORK, "saved.h5")
    r.save(path)
    back = voxwave.read_result(path)
    assert np.array_equal(back.displacement, r.displacement) and np.array_equal(back.velocity, r.velocity)
    assert back.receiver_names == r.receiver_names and back.dt == r.dt and back.method == "ovfem"
    with h5py.File(path, "r") as f:  # an ordinary tool reads it too
        assert f["traces/displacement"].shape == (3, 30, 3)
    scene_path = os.path.join(WORK, "saved.json")
    scene.save(scene_path)
    assert voxwave.Scene.load(scene_path) == scene
    assert voxwave.Scene.from_dict(scene.to_dict()) == scene
    assert voxwave.Scene.from_json(scene.to_json()) == scene
    assert scene.to_dict()["run"]["steps"] == 30
    # numpy values are welcome in a dict.
    d2 = vwtest.small_block(steps=np.int64(30))
    d2["grid"]["size"] = np.array(d2["grid"]["size"])
    assert voxwave.scene(**d2) == scene
    # The model saved as painted voxels reads back.
    vpath = os.path.join(WORK, "voxels.h5")
    scene.voxelise().save(vpath)
    assert np.array_equal(voxwave.read_voxels(vpath).ids, scene.voxelise().ids)


def bad_scenes():
    """(name, dict or raw text): each refused by the reader or by the run's checks."""
    good = vwtest.small_block(steps=10)
    unknown_key = json.loads(json.dumps(good))
    unknown_key["sources"][0]["wavelet"]["frquency"] = 1e5
    outside = json.loads(json.dumps(good))
    outside["receivers"][1]["position"] = [0.02, 0.005, 0.008]
    too_large_dt = json.loads(json.dumps(good))
    too_large_dt["run"]["dt"] = 1e-6
    in_void = json.loads(json.dumps(good))
    in_void["receivers"][0]["position"] = [0.005, 0.005, 0.003]
    bad_method = json.loads(json.dumps(good))
    bad_method["run"]["method"] = "fdtd"
    return [("unknown_key", unknown_key), ("outside", outside), ("too_large_dt", too_large_dt),
            ("in_void", in_void), ("bad_method", bad_method), ("syntax", '{"format": "voxwave-scene", "version": 1,')]


def check_a_bad_scene_raises_the_line_the_cli_prints():
    for name, d in bad_scenes():
        path = os.path.join(WORK, f"bad_{name}.json")
        with open(path, "w") as f:
            f.write(d if isinstance(d, str) else json.dumps({"format": "voxwave-scene", "version": 1, **d}))
        p = cli("run", path, "--out", os.path.join(WORK, f"bad_{name}.h5"), "--quiet")
        lines = p.stderr.splitlines()
        assert p.returncode == 1 and len(lines) == 1 and lines[0].startswith(CLI_ERROR), (name, p.returncode, p.stderr)
        expected = lines[0][len(CLI_ERROR):]
        try:
            voxwave.run(voxwave.Scene.load(path))
            raise AssertionError(f"{name}: no error")
        except voxwave.InputError as e:
            assert str(e) == expected, (name, str(e), expected)
            assert isinstance(e, ValueError) and isinstance(e, voxwave.Error)
        if isinstance(d, dict):  # the same scene built in Python, named like the file
            try:
                voxwave.run(voxwave.scene(name=path, **d))
                raise AssertionError(f"{name}: no error from the dict")
            except voxwave.InputError as e:
                assert str(e) == expected, (name, str(e), expected)
    # Arguments are checked by the engine's rules too.
    for call, field in [(lambda: voxwave.dispersion("ovfem", 0.002, 2400, 4000, 2450, ppw=[2]), "ppw: "),
                        (lambda: voxwave.dispersion("ovfem", 0.002, 2400, 4000, 2450, dt=-1), "dt: "),
                        (lambda: voxwave.run(voxwave.scene(**vwtest.small_block()), backend="gpu"), "backend: ")]:
        try:
            call()
            raise AssertionError(f"{field}no error")
        except voxwave.InputError as e:
            assert str(e).startswith(field), str(e)
    # CUDA asked for where there is none: refused as bad input, with the reason.
    available, why = voxwave.cuda_available()
    if not available:
        try:
            voxwave.run(voxwave.scene(**vwtest.small_block(steps=5)), backend="cuda")
            raise AssertionError("cuda without a device ran")
        except voxwave.InputError as e:
            assert str(e).startswith("backend: "), str(e)


def check_progress_is_reported_and_can_cancel():
    scene = voxwave.scene(**vwtest.small_block(steps=400))
    calls = []
    r = voxwave.run(scene, progress=lambda done, total: calls.append((done, total)))  # None: go on
    assert r.steps == 400 and len(calls) == 200, len(calls)  # every 400 / 200 = 2 steps
    assert all(t == 400 for _, t in calls) and calls[-1][0] == 400
    assert [c for c, _ in calls] == sorted({c for c, _ in calls}), "done must increase"

    seen = []

    def stop_at_100(done, total):
        seen.append(done)
        return done < 100

    try:
        voxwave.run(scene, progress=stop_at_100)
        raise AssertionError("not cancelled")
    except voxwave.Cancelled as e:
        assert str(e) == "cancelled" and isinstance(e, voxwave.Error)
    assert seen[-1] == 100, seen[-3:]  # stopped at the first False

    class Stop(Exception):
        pass

    marker = Stop("from the callback")

    def raising(done, total):
        if done >= 50:
            raise marker
        return True

    try:
        voxwave.run(scene, progress=raising)
        raise AssertionError("the callback's exception was lost")
    except Stop as e:
        assert e is marker
    try:
        voxwave.run(scene, progress=42)
        raise AssertionError("a non-callable progress was accepted")
    except TypeError:
        pass


def check_the_gil_is_released_while_the_engine_runs():
    # The switch interval is made so long that a thread holding the GIL never hands it over on
    # its own: the main thread can then only tick while the run has released it.
    scene = voxwave.scene(**vwtest.small_block(steps=1600))
    ticks = [0]
    seen = []
    done = threading.Event()

    def worker():
        try:
            voxwave.run(scene, progress=lambda d, t: seen.append(ticks[0]))
        finally:
            done.set()

    old = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    try:
        thread = threading.Thread(target=worker)
        thread.start()
        while not done.wait(0.0005):  # waiting releases the GIL, the loop takes it again
            ticks[0] += 1
        thread.join()
    finally:
        sys.setswitchinterval(old)
    assert len(seen) == 200
    # The main thread ran between the engine's progress calls.
    assert seen[-1] > seen[0], (seen[0], seen[-1])


vwtest.run_checks([
    check_python_scene_gives_the_cli_traces_bit_for_bit,
    check_arrays_have_the_documented_shapes_and_are_views,
    check_results_and_scenes_round_trip_through_files,
    check_a_bad_scene_raises_the_line_the_cli_prints,
    check_progress_is_reported_and_can_cancel,
    check_the_gil_is_released_while_the_engine_runs,
])
