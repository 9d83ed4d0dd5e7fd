#!/usr/bin/env bash
# README command (b): install what is missing, build everything (CUDA code included when nvcc
# is present), run every test. GPU tests report themselves skipped where there is no GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
ctest --preset release -j2 "$@"
