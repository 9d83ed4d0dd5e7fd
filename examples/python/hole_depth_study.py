#!/usr/bin/env python3
"""Parameter study: echo amplitude of a side-drilled hole against its depth.

A steel plate (thin in y) with a cylindrical hole along y; a point force on the top face pushes
down with a Ricker pulse and a receiver beside it records the vertical displacement
(pulse-echo). For each depth the scene is built in Python and run; the echo is the difference
to a run without the hole (the field the hole scatters: exactly zero until the first wave has
reached the hole and come back). Its amplitude is the peak of that difference within three
quarters of a period after the longitudinal round trip, 2 (depth - radius) / vp after the pulse
(in a plate thinner than the wavelength the longitudinal wave is a little slower than vp, so the
echo peaks inside that gate); the mode-converted and shear echoes, slower, come after the gate
for holes deeper than about 10 mm.

    PYTHONPATH=build/python python3 examples/python/hole_depth_study.py [--depths 10 14 18 22]
        [--spacing 0.0005] [--out DIR]

Prints a table (depth, echo amplitude, echo time), writes hole_depth.csv and, with matplotlib,
hole_depth.png into --out (default: the working directory).
"""

import argparse
import csv
import os

import numpy as np

import voxwave

STEEL = {"name": "steel", "density": 7850, "vp": 5900, "vs": 3200, "color": "#8090a0"}
FREQUENCY = 500e3  # Ricker centre frequency, Hz
DELAY = 2.4e-6  # Ricker delay, s


def plate_scene(depth, width, thickness, height, hole_radius, spacing, duration):
    """The plate with a hole of `hole_radius` whose axis lies `depth` below the top face
    (depth None: no hole). Absorbing layers on the sides and the bottom, the top face free."""
    shapes = []
    if depth is not None:
        shapes.append({"type": "cylinder", "material": "void", "center": [width / 2, thickness / 2, height - depth],
                       "axis": [0, 1, 0], "radius": hole_radius, "length": 2 * thickness})
    x0 = width / 2
    return voxwave.scene(
        name=f"plate_hole_{depth}",
        grid={"size": [width, thickness, height], "spacing": spacing},
        materials=[STEEL],
        background="steel",
        shapes=shapes,
        sources=[{"name": "probe", "position": [x0, thickness / 2, height], "direction": [0, 0, -1],
                  "amplitude": 1.0, "wavelet": {"type": "ricker", "frequency": FREQUENCY, "delay": DELAY}}],
        receivers=[{"name": "echo", "position": [x0 + 2 * spacing, thickness / 2, height]}],
        boundary={"absorbing": {"faces": ["x-", "x+", "z-"], "thickness": 8 * spacing, "type": "pml"}},
        run={"method": "ovfem", "precision": "fp64", "duration": duration, "backend": "auto"},
    )


def echo_amplitudes(depths, spacing=0.0005, width=0.04, thickness=0.004, height=0.035, hole_radius=0.0015,
                    progress=None):
    """[(depth, amplitude, time)]: the peak |u_z| of the hole's longitudinal echo and when it peaks."""
    def round_trip(depth):
        return DELAY + 2 * (depth - hole_radius) / STEEL["vp"]

    period = 1 / FREQUENCY
    # Long enough for the deepest hole's gate to close.
    duration = round_trip(max(depths)) + 1.5 * period
    reference = voxwave.run(plate_scene(None, width, thickness, height, hole_radius, spacing, duration),
                            progress=progress)
    u0 = reference.displacement[0, :, 2]
    rows = []
    for depth in depths:
        r = voxwave.run(plate_scene(depth, width, thickness, height, hole_radius, spacing, duration), progress=progress)
        echo = np.abs(r.displacement[0, :, 2] - u0)
        gate = np.flatnonzero((r.time >= round_trip(depth)) & (r.time <= round_trip(depth) + 0.75 * period))
        peak = gate[np.argmax(echo[gate])]
        rows.append((depth, float(echo[peak]), float(r.time[peak])))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depths", type=float, nargs="+", default=[10, 14, 18, 22], help="hole depths, mm")
    parser.add_argument("--spacing", type=float, default=0.0005, help="voxel size, m")
    parser.add_argument("--out", default=".", help="folder for hole_depth.csv and hole_depth.png")
    args = parser.parse_args()
    depths = [d * 1e-3 for d in args.depths]
    rows = echo_amplitudes(depths, spacing=args.spacing)

    print(f"{'depth (mm)':>10} {'echo |u_z| (m)':>16} {'at (us)':>8}")
    for depth, amplitude, t in rows:
        print(f"{depth * 1e3:10.2f} {amplitude:16.6e} {t * 1e6:8.3f}")
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "hole_depth.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["depth_m", "echo_amplitude_m", "echo_time_s"])
        w.writerows(rows)
    try:
        import matplotlib
    except ImportError:
        print("matplotlib is not installed: no plot")
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3.5), dpi=120)
    ax.plot([d * 1e3 for d, _, _ in rows], [a for _, a, _ in rows], "o-")
    ax.set_xlabel("hole depth (mm)")
    ax.set_ylabel("echo amplitude |u_z| (m)")
    ax.set_title("Side-drilled hole: echo against depth")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "hole_depth.png"))
    print(f"wrote {os.path.join(args.out, 'hole_depth.csv')} and hole_depth.png")


if __name__ == "__main__":
    main()
