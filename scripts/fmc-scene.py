#!/usr/bin/env python3
"""Writes the FMC benchmark scene of issue 33 (scripts/device-run.sh fmc-gpus): a steel cube of
CELLS^3 voxels at 0.1 mm with a side-drilled hole, a linear array of ELEMENTS elements across the
middle of its top face and an fmc scan of it (each element fires alone, all receive), STEPS time
steps. Faces free (a PML or snapshots would make the shots run one at a time instead of batched).

    python3 scripts/fmc-scene.py OUT.json [--cells 160] [--elements 32] [--steps 2000] [--backend cuda]

The defaults are the benchmark's: 160^3 = 4.1 M elements, 32 elements, 2,000 steps. The aperture
is 0.8 of the block's width, pitch = aperture / elements, each element 3/4 of the pitch wide.
"""

import argparse
import json

SPACING = 1e-4  # m


def fmc_scene(cells, elements, steps, backend):
    size = cells * SPACING
    pitch = 0.8 * size / elements
    middle = size / 2
    return {
        "format": "voxwave-scene",
        "version": 1,
        "grid": {"size": [size, size, size], "spacing": SPACING},
        "materials": [{"name": "steel", "density": 7850, "vp": 5900, "vs": 3200}],
        "background": "steel",
        # A hole across the block half-way down, a third of the way along the array.
        "shapes": [{"type": "cylinder", "material": "void", "center": [middle + size / 6, middle, middle],
                    "axis": [0, 1, 0], "radius": size / 32, "length": size}],
        "probes": [{"name": "PA", "type": "array", "center": [middle, middle, size], "normal": [0, 0, -1],
                    "array_axis": [1, 0, 0], "elements": elements, "pitch": pitch,
                    "element_width": 0.75 * pitch, "elevation": size / 8, "amplitude": 1e6,
                    "wavelet": {"type": "tone_burst", "frequency": 5e6, "cycles": 2}}],
        "scan": {"probe": "PA", "type": "fmc"},
        "run": {"method": "ovfem", "precision": "fp64", "steps": steps, "backend": backend},
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--cells", type=int, default=160, help="voxels along each side (0.1 mm each)")
    p.add_argument("--elements", type=int, default=32)
    p.add_argument("--steps", type=int, default=2000)
    p.add_argument("--backend", default="cuda", choices=["auto", "cpu", "cuda"])
    a = p.parse_args()
    if a.cells < 4 or a.elements < 1 or a.steps < 1:
        p.error("--cells must be at least 4, --elements and --steps at least 1")
    with open(a.out, "w") as f:
        json.dump(fmc_scene(a.cells, a.elements, a.steps, a.backend), f, indent=1)


if __name__ == "__main__":
    main()
