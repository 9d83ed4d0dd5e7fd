#!/usr/bin/env bash
# README command (a): install what is missing, build, and start the desktop explorer on the
# default scene (the paper's rebar-in-concrete model). Without a display it says so and runs
# headless instead: the CLI runs the small homogeneous block (seconds on a CPU, where the paper
# model would take minutes) into a result file, and the GUI under a virtual X server opens the
# default scene, runs 300 steps and writes a screenshot; both paths are printed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target voxwave voxwave-cli
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec ./build/app/gui/voxwave "$@"
fi
echo "no display: running the default scene headless"
mkdir -p results
./build/app/cli/voxwave-cli run assets/scenes/homogeneous_block.json --out results/homogeneous_block.h5
xvfb-run -a -s "-screen 0 1600x1000x24" ./build/app/gui/voxwave --run-steps 300 --screenshot results/voxwave.png
echo "result file: results/homogeneous_block.h5, screenshot: results/voxwave.png"
