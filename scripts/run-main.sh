#!/usr/bin/env bash
# README command (a): install what is missing, build, and run the main job. Until the desktop
# explorer exists the main job is `voxwave-cli run` on the default scene, with a progress bar.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target voxwave-cli
mkdir -p results
./build/app/cli/voxwave-cli run assets/scenes/homogeneous_block.json --out results/homogeneous_block.h5 "$@"
echo "open it with: /usr/bin/python3 -c \"import h5py; f = h5py.File('results/homogeneous_block.h5'); print(f['traces/displacement'].shape)\""
