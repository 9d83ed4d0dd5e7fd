"""examples/python run as a user runs them (PYTHONPATH naming the module) on a coarse grid, and
their numbers are sane: the hole's echo weakens with depth and arrives later, the probe scan's B-scan
echoes the hole between its P and S round trips and its PNG is
an image with content."""

import csv
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vwtest  # noqa: E402

CLI, SRC, WORK = vwtest.start()
import voxwave  # noqa: E402  (a built module that does not import fails the test)

EXAMPLES = os.path.join(SRC, "examples", "python")
# The examples run in another folder: PYTHONPATH names the module this test imported, absolutely.
ENV = {**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(os.path.abspath(voxwave.__file__)))}


def example(script, *args):
    p = subprocess.run([sys.executable, os.path.join(EXAMPLES, script), *args], capture_output=True, text=True,
                       cwd=WORK, env=ENV)
    assert p.returncode == 0, (script, p.returncode, p.stdout[-2000:], p.stderr[-2000:])
    return p.stdout


def check_hole_depth_study():
    out = os.path.join(WORK, "study")
    example("hole_depth_study.py", "--spacing", "0.001", "--depths", "10", "14", "18", "--out", out)
    with open(os.path.join(out, "hole_depth.csv")) as f:
        rows = [(float(r["depth_m"]), float(r["echo_amplitude_m"]), float(r["echo_time_s"])) for r in csv.DictReader(f)]
    assert [round(d * 1e3) for d, _, _ in rows] == [10, 14, 18], rows
    amplitudes = [a for _, a, _ in rows]
    times = [t for _, _, t in rows]
    assert all(a > 0 for a in amplitudes), rows
    assert amplitudes[0] > amplitudes[1] > amplitudes[2], rows  # deeper: weaker
    assert times[0] < times[1] < times[2], rows  # deeper: later
    # Each echo peaks after the pulse's delay and the P-wave round trip to the hole's top.
    for depth, _, t in rows:
        assert t >= 2.4e-6 + 2 * (depth - 0.0015) / 5900, (depth, t)
    with open(os.path.join(out, "hole_depth.png"), "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


def check_bscan_plot():
    png = os.path.join(WORK, "bscan.png")
    stdout = example("bscan_plot.py", "--spacing", "0.001", "--shots", "7", "--out", png)
    assert "probe above the hole: shot 4 at x = 25.33 mm" in stdout, stdout
    # The hole's echo comes back no earlier than the P wave's round trip to the hole's top (10.5 mm
    # deep at 5900 m/s after the 2.4 us delay, less half a 500 kHz period) and by the S wave's.
    t = float(stdout.split("peaks there at ")[1].split(" us")[0]) * 1e-6
    assert 2.4e-6 + 2 * 0.0105 / 5900 - 1e-6 <= t <= 2.4e-6 + 2 * 0.0105 / 3200 + 1e-6, t
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.image as mpimg
    import numpy as np

    image = mpimg.imread(png)
    assert image.shape[0] > 300 and image.shape[1] > 400, image.shape
    assert np.std(image[..., :3]) > 0.05  # not a blank canvas


vwtest.run_checks([check_hole_depth_study, check_bscan_plot])
