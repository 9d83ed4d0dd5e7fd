#!/usr/bin/env bash
# README command (b): install what is missing, build everything (CUDA code included when nvcc
# is present), run every test. GPU tests report themselves skipped where there is no GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
# Serial on purpose: each engine test already uses every core (OpenMP); two at once on two
# cores make OpenMP barriers spin against each other and small tests run 1000x slower.
ctest --preset release "$@"
