"""voxwave: voxel elastic-wave simulations (VFEM, OVFEM, TCOVFEM) from Python.

The engine is the one voxwave-cli and the explorer run; scenes follow the voxwave-scene JSON
contract (README, "Scene files") and are checked by the engine's own reader, so a bad scene raises
voxwave.InputError with exactly the line voxwave-cli prints after "voxwave-cli: error: ".

    import voxwave
    scene = voxwave.scene(grid={...}, materials=[...], sources=[...], receivers=[...], run={...})
    result = voxwave.run(scene, progress=lambda done, total: True)
    result.displacement          # numpy, (receivers, samples, 3), no copy

API (docs/architecture.md#python-module):
  scene(**keys), Scene.from_dict(d), Scene.from_json(text), Scene.load(path) -> Scene
  Scene.to_dict(), .to_json(), .save(path), .voxelise(spacing=None) -> VoxelModel
  Problem(scene): dt, dt_stable, steps, model, sources, receivers
  run(scene_or_problem, progress=None, backend=None) -> Result
  scan(scene, progress=None, backend=None, batch=0) -> Result with .scan (positions, signals or elements,
        cscan) and, for an fmc or pwi scan, .acquisition (also .fmc or .pwi)
  Acquisition(data, time, element_positions, pitch, ...), read_acquisition(path) -> Acquisition
        (type, data (n_tx, n_rx, nt), time, element_positions, angles, pitch, normal, array_axis,
        reference_time, vp, vs, frequency; .save(path))
  Result.probes, Result.probe(name) -> Probe (time, signal or elements, delays)
  read_result(path) -> Result; read_voxels(path, dataset) -> VoxelModel
  dispersion(method, spacing, density, vp, vs, dt=0, ppw=None, directions=None) -> Dispersion
  image(source, method=None, mode="LL", region=None, pixel=None, velocity=None, shear_velocity=None,
        backend=None) -> Image (source: a file path, an Acquisition or a scan's Result; method tfm, pwi
        or sector); read_image(path) -> Image
  cuda_available() -> (bool, device name or why not)
  Error > InputError (also ValueError), RunError (also RuntimeError), Cancelled
"""

import json as _json

from ._voxwave import (  # noqa: F401  (the public API)
    Acquisition,
    Cancelled,
    Dispersion,
    Error,
    Image,
    InputError,
    Probe,
    Problem,
    Result,
    RunError,
    Scan,
    Scene,
    VoxelModel,
    __version__,
    cuda_available,
    cuda_compiled,
    dispersion,
    image,
    read_acquisition,
    read_image,
    read_result,
    read_voxels,
    run,
    scan,
)

SCENE_FORMAT = "voxwave-scene"
SCENE_VERSION = 1


def _plain(value):
    """json.dumps' fallback: numpy scalars and arrays (positions, sizes) as plain numbers."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def _from_dict(d, name="scene", base_dir=""):
    """A Scene from a dict shaped like the scene JSON; "format" and "version" may be left out.

    Numbers go through JSON text as Python writes them (shortest round-trip form), so the
    engine reads exactly the doubles the dict holds.
    """
    if not isinstance(d, dict):
        raise TypeError(f"a scene is a dict, not {type(d).__name__}")
    keys = {"format": SCENE_FORMAT, "version": SCENE_VERSION}
    keys.update(d)
    return Scene.from_json(_json.dumps(keys, default=_plain), name=name, base_dir=base_dir)


def _to_dict(self):
    """The scene as a dict shaped like the scene JSON (every field, defaults included)."""
    return _json.loads(self.to_json())


def scene(name="scene", base_dir="", **keys):
    """A Scene from the scene JSON's top-level keys as keyword arguments:

    grid, materials, background, shapes, voxels, sources, receivers, boundary, damping, run.
    `name` is the file name errors carry; relative file references are taken from `base_dir`.
    """
    return _from_dict(keys, name=name, base_dir=base_dir)


Scene.from_dict = staticmethod(_from_dict)
Scene.to_dict = _to_dict
