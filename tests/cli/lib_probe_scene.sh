# The probe scene of the CLI's probe and scan tests. Usage, after lib.sh: source lib_probe_scene.sh;
# write_array_scan_scene FILE.

# write_array_scan_scene FILE: a small steel block (16 x 6 x 8 voxels of 1 mm) with a 4-element
# array "PA" on its top face, steered to 20 degrees, and a linear scan of 3 shots 2 mm apart gated
# from 1 to 3 us; 40 steps on the CPU. Tests derive their variants with derive_scene.
write_array_scan_scene() {
  cat >"$1" <<'JSON'
{
  "format": "voxwave-scene", "version": 1,
  "grid": {"size": [0.016, 0.006, 0.008], "spacing": 0.001},
  "materials": [{"name": "steel", "density": 7850, "vp": 5900, "vs": 3200}],
  "background": "steel",
  "probes": [{"name": "PA", "type": "array", "center": [0.005, 0.003, 0.008], "normal": [0, 0, -1],
              "array_axis": [1, 0, 0], "elements": 4, "pitch": 0.001, "element_width": 0.0008,
              "elevation": 0.004, "wavelet": {"type": "ricker", "frequency": 700000},
              "delay_law": {"type": "steer", "angle": 20}}],
  "scan": {"probe": "PA", "type": "linear", "step": [0.002, 0, 0], "positions": 3,
           "gate": {"start": 1e-6, "end": 3e-6}},
  "run": {"steps": 40, "backend": "cpu"}
}
JSON
}
