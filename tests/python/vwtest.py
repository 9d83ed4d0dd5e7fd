"""Shared pieces of the Python module's tests (tests/python/test_*.py).

Each test script is one CTest test, run as `python3 test_x.py CLI SOURCE_DIR` with PYTHONPATH
naming the module's folder in the build tree. A skip is the exit code 77 (SKIP_RETURN_CODE,
cmake/VoxwaveTesting.cmake), and only when CMake did not build the module
(VOXWAVE_PYTHON_MODULE is not ON): a module that was built but does not import is a failure.
"""

import os
import sys
import tempfile
import traceback

SKIP = 77


def start():
    """(cli, source_dir, work_dir), or exit 77 when the module was not built."""
    if os.environ.get("VOXWAVE_PYTHON_MODULE") != "ON":
        print("skipped: this build has no Python module (needs pybind11-dev and python3-dev)")
        sys.exit(SKIP)
    if len(sys.argv) != 3:
        print(f"usage: {sys.argv[0]} VOXWAVE_CLI SOURCE_DIR")
        sys.exit(2)
    work = tempfile.TemporaryDirectory(prefix="voxwave-py-")
    start.keep = work  # removed when the interpreter exits
    return sys.argv[1], sys.argv[2], work.name


def run_checks(checks):
    """Runs every check (a function), reports each, exits 1 if any failed, 0 otherwise."""
    failed = 0
    for check in checks:
        try:
            check()
            print(f"ok    {check.__name__}")
        except Exception:  # noqa: BLE001 (every failure is reported, then the next check runs)
            failed += 1
            print(f"FAIL  {check.__name__}")
            traceback.print_exc()
    print(f"{len(checks) - failed} of {len(checks)} checks passed")
    sys.exit(1 if failed else 0)


def small_block(**run):
    """A small steel block with a void box and an aluminium sphere, a PML on four faces, Rayleigh damping and three
    receivers: about 500 elements, seconds to run. `run` adds or replaces run keys."""
    return {
        "grid": {"size": [0.012, 0.01, 0.008], "spacing": 0.001, "origin": [0, 0, 0]},
        "materials": [
            {"name": "steel", "density": 7850, "vp": 5900, "vs": 3200, "color": "#8090a0"},
            {"name": "aluminium", "density": 2700, "vp": 6320, "vs": 3130, "color": "#c0c0c8"},
        ],
        "background": "steel",
        "shapes": [
            {"type": "box", "material": "void", "min": [0.004, 0.003, 0.002], "max": [0.006, 0.007, 0.004]},
            {"type": "sphere", "material": "aluminium", "center": [0.009, 0.005, 0.003], "radius": 0.0015},
        ],
        "sources": [
            {"name": "S", "position": [0.006, 0.005, 0.008], "direction": [0, 0, -1], "amplitude": 2.0,
             "wavelet": {"type": "ricker", "frequency": 600e3, "delay": 2e-6}},
        ],
        "receivers": [
            {"name": "near", "position": [0.007, 0.005, 0.008]},
            {"name": "far", "position": [0.011, 0.005, 0.008]},
            {"name": "bottom", "position": [0.006, 0.005, 0.0]},
        ],
        "boundary": {"absorbing": {"faces": ["x-", "x+", "y-", "y+"], "thickness": 0.002, "type": "pml"}},
        "damping": {"type": "rayleigh", "ratio": 0.01, "f_low": 300e3, "f_high": 900e3},
        "run": {"method": "ovfem", "precision": "fp64", "steps": 120, "backend": "cpu", **run},
    }
