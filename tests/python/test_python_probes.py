"""Probes and scans in the voxwave Python module (issues 32 and 37): a probe scene built in Python
gives the probe signals of voxwave-cli run's file bit for bit (read with h5py, not the module);
voxwave.scan gives the arrays of voxwave-cli scan's file with the documented shapes; the arrays are
read-only views that outlive their result; a bad probe raises exactly the line the CLI prints;
the scan's progress callback counts every shot's steps and can cancel."""

import copy
import gc
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vwtest  # noqa: E402

CLI, SRC, WORK = vwtest.start()

import h5py  # noqa: E402
import numpy as np  # noqa: E402

import voxwave  # noqa: E402  (a built module that does not import fails the test)

CLI_ERROR = "voxwave-cli: error: "
STEPS, ELEMENTS, SHOTS = 40, 4, 3
STEP = [0.002, 0, 0]


def probe_scene():
    """A small steel block (16 x 6 x 8 voxels) with a steered 4-element array on its top face and a
    piston on its bottom face, and a gated linear scan of the array over 3 shots."""
    return {
        "grid": {"size": [0.016, 0.006, 0.008], "spacing": 0.001},
        "materials": [{"name": "steel", "density": 7850, "vp": 5900, "vs": 3200}],
        "background": "steel",
        "probes": [
            {"name": "PA", "type": "array", "center": [0.005, 0.003, 0.008], "normal": [0, 0, -1],
             "array_axis": [1, 0, 0], "elements": ELEMENTS, "pitch": 0.001, "element_width": 0.0008,
             "elevation": 0.004, "wavelet": {"type": "ricker", "frequency": 700000},
             "delay_law": {"type": "steer", "angle": 20}},
            {"name": "P", "type": "piston", "shape": "disk", "center": [0.008, 0.003, 0.0], "normal": [0, 0, 1], "diameter": 0.004,
             "wavelet": {"type": "ricker", "frequency": 700000}},
        ],
        "scan": {"probe": "PA", "type": "linear", "step": STEP, "positions": SHOTS,
                 "gate": {"start": 1e-6, "end": 3e-6}},
        "run": {"steps": STEPS, "backend": "cpu"},
    }


def write_json(name, d):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        json.dump({"format": "voxwave-scene", "version": 1, **d}, f, indent=1)
    return path


def cli(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True)


def cli_file(command, scene_path):
    """voxwave-cli COMMAND's result file for the scene, and its datasets read with h5py."""
    out = scene_path + "." + command + ".h5"
    p = cli(command, scene_path, "--out", out, "--quiet")
    assert p.returncode == 0, p.stderr
    with h5py.File(out, "r") as f:
        data = {}
        f.visititems(lambda name, obj: data.__setitem__(name, obj[()]) if isinstance(obj, h5py.Dataset) else None)
    return out, data


def assert_view(array, shape):
    assert array.shape == shape and array.dtype == np.float64, (array.shape, shape, array.dtype)
    assert array.flags.c_contiguous and not array.flags.owndata and not array.flags.writeable, array.flags


def check_probes_pass_through_the_dict_api():
    d = probe_scene()
    s = voxwave.scene(**d)
    back = s.to_dict()
    assert [p["name"] for p in back["probes"]] == ["PA", "P"], back.get("probes")
    assert back["probes"][0]["delay_law"] == {"type": "steer", "angle": 20.0} or \
        back["probes"][0]["delay_law"]["angle"] == 20, back["probes"][0]["delay_law"]
    assert back["scan"]["probe"] == "PA" and back["scan"]["positions"] == SHOTS, back["scan"]
    assert voxwave.Scene.from_dict(back) == s
    # Keywords too: probes given as a keyword replace none of the other keys.
    assert voxwave.scene(**{**d, "probes": d["probes"][:1], "scan": d["scan"]}).to_dict()["probes"][0]["name"] == "PA"


def check_probe_signals_equal_the_cli_run_bit_for_bit():
    d = probe_scene()
    out, f = cli_file("run", write_json("probes.json", d))
    r = voxwave.run(voxwave.scene(**d))
    nt = STEPS
    assert [p.name for p in r.probes] == ["PA", "P"], r.probes
    pa, p = r.probe("PA"), r.probe("P")
    assert pa.is_array and not p.is_array
    assert_view(pa.elements, (ELEMENTS, nt))
    assert_view(pa.delays, (ELEMENTS,))
    assert_view(pa.time, (nt,))
    assert_view(p.signal, (nt,))
    assert_view(p.elements, (1, nt))
    assert_view(p.delays, (1,))
    assert np.array_equal(pa.elements, f["probes/PA/elements"])
    assert np.array_equal(pa.delays, f["probes/PA/delays"])
    assert np.array_equal(p.signal, f["probes/P/signal"])
    assert np.array_equal(p.delays, f["probes/P/delays"])
    assert np.array_equal(pa.time, f["traces/time"])
    # Not trivially equal: the array received something, and its steering law is the closed form
    # d_e = x_e sin(20 deg) / vp, shifted so the earliest is 0.
    assert np.abs(pa.elements).max() > 0 and np.abs(p.signal).max() > 0
    x = (np.arange(ELEMENTS) - (ELEMENTS - 1) / 2) * 0.001
    law = x * np.sin(np.radians(20)) / 5900
    assert np.allclose(pa.delays, law - law.min(), rtol=0, atol=1e-18), (pa.delays, law - law.min())
    assert pa.active == (0, ELEMENTS), pa.active
    with np.testing.assert_raises(AttributeError):
        pa.signal  # noqa: B018 (an array has elements, not one signal)
    with np.testing.assert_raises(KeyError):
        r.probe("nope")
    assert r.scan is None
    # The module reads the CLI's file the same.
    read = voxwave.read_result(out)
    assert np.array_equal(read.probe("PA").elements, f["probes/PA/elements"])
    assert np.array_equal(read.probe("P").signal, f["probes/P/signal"])
    # Views: an array outlives the result and the probe object it came from.
    elements = r.probe("PA").elements
    expected = elements.copy()
    del r, pa, p, read
    gc.collect()
    assert np.array_equal(elements, expected)


def check_scan_arrays_have_the_documented_shapes_and_equal_the_cli_scan():
    d = probe_scene()
    out, f = cli_file("scan", write_json("scan.json", d))
    calls = []
    r = voxwave.scan(voxwave.scene(**d), progress=lambda done, total: calls.append((done, total)))
    s = r.scan
    nt = STEPS
    assert s.probe == "PA" and s.type == "linear" and s.is_array and s.shape == (1, SHOTS), (s.probe, s.type, s.shape)
    assert_view(s.positions, (SHOTS, 3))
    assert_view(s.elements, (SHOTS, ELEMENTS, nt))
    assert_view(s.cscan, (1, SHOTS))
    assert_view(s.time, (nt,))
    assert s.gate == (1e-6, 3e-6), s.gate
    assert np.array_equal(s.positions, f["scan/positions"])
    assert np.array_equal(s.elements, f["scan/elements"])
    assert np.array_equal(s.cscan, f["scan/cscan"])
    assert np.array_equal(r.probe("PA").elements, f["probes/PA/elements"])
    # The shots are the probe's centre moved by the scan's step (closed form).
    assert np.allclose(s.positions - s.positions[0], np.outer(np.arange(SHOTS), STEP), rtol=0, atol=1e-15)
    # The first shot is a plain run of the scene: the same signals through run_wave.
    assert np.array_equal(s.elements[0], voxwave.run(voxwave.scene(**d)).probe("PA").elements)
    assert np.all(s.cscan > 0), s.cscan
    with np.testing.assert_raises(AttributeError):
        s.signals  # noqa: B018 (an array's scan has elements)
    # The progress counts every shot's steps and ends at the total.
    assert calls and calls[-1][0] == calls[-1][1] == SHOTS * STEPS, calls[-3:]
    read = voxwave.read_result(out)
    assert np.array_equal(read.scan.elements, f["scan/elements"]) and read.scan.shape == (1, SHOTS)
    # A piston's scan: signals (shots, nt), no gate, no C-scan.
    piston = copy.deepcopy(d)
    piston["scan"] = {"probe": "P", "type": "linear", "step": [0.001, 0, 0], "positions": 2}
    out, f = cli_file("scan", write_json("piston_scan.json", piston))
    s = voxwave.scan(voxwave.scene(**piston)).scan
    assert_view(s.signals, (2, nt))
    assert_view(s.elements, (2, 1, nt))
    assert s.cscan is None and s.gate is None and not s.is_array
    assert np.array_equal(s.signals, f["scan/signals"]) and np.array_equal(s.positions, f["scan/positions"])


def check_bad_probes_and_scans_raise_the_cli_message():
    base = probe_scene()
    cases = []
    off = copy.deepcopy(base)
    off["probes"][0]["center"][2] = 0.004
    cases.append(("off_surface", off, "run"))
    wide = copy.deepcopy(base)
    wide["probes"][0]["elements"] = 20
    cases.append(("too_wide", wide, "run"))
    scan_off = copy.deepcopy(base)
    scan_off["scan"]["positions"] = 6
    cases.append(("scan_off", scan_off, "scan"))
    no_scan = copy.deepcopy(base)
    del no_scan["scan"]
    cases.append(("no_scan", no_scan, "scan"))
    messages = []
    for name, d, command in cases:
        path = write_json(name + ".json", d)
        out = path + ".h5"
        p = cli(command, path, "--out", out, "--quiet")
        lines = p.stderr.splitlines()
        assert p.returncode == 1 and len(lines) == 1 and lines[0].startswith(CLI_ERROR), (name, p.stderr)
        assert not os.path.exists(out), name
        try:
            (voxwave.scan if command == "scan" else voxwave.run)(voxwave.Scene.load(path))
            raise AssertionError(f"{name}: no error")
        except voxwave.InputError as e:
            assert str(e) == lines[0][len(CLI_ERROR):], (name, str(e), lines[0])
            messages.append(str(e))
    # Each line names the file, the field and the reason.
    assert "off_surface.json: probes[0].center: probe 'PA'" in messages[0] and "not on a surface" in messages[0], messages
    assert "too_wide.json: probes[0].elements: probe 'PA': element 0 reaches outside the grid" in messages[1], messages
    assert "scan_off.json: scan: shot 6 of 6" in messages[2], messages
    assert "no_scan.json: scan: the scene has no scan" in messages[3], messages


def check_a_scan_can_be_cancelled():
    seen = []

    def stop_in_the_second_shot(done, total):
        seen.append(done)
        return done < STEPS + 5

    try:
        voxwave.scan(voxwave.scene(**probe_scene()), progress=stop_in_the_second_shot)
        raise AssertionError("not cancelled")
    except voxwave.Cancelled:
        pass
    assert seen[-1] >= STEPS + 5 and seen[-1] < SHOTS * STEPS, seen[-3:]
    with np.testing.assert_raises(TypeError):
        voxwave.scan(voxwave.scene(**probe_scene()), progress=3)


vwtest.run_checks([
    check_probes_pass_through_the_dict_api,
    check_probe_signals_equal_the_cli_run_bit_for_bit,
    check_scan_arrays_have_the_documented_shapes_and_equal_the_cli_scan,
    check_bad_probes_and_scans_raise_the_cli_message,
    check_a_scan_can_be_cancelled,
])
