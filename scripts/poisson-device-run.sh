#!/usr/bin/env bash
# Issue 5 on the GPU machine: build the CLI and the gpu tests, run the Poisson gpu test, then the
# seed 002 benchmarks (Fig. 6 with baselines, Fig. 10 on the GPU). Logs and tables go to $OUT.
# Usage (repository root on the device): bash scripts/poisson-device-run.sh MAX_LEVEL PERF_RHS
set -uo pipefail
OUT=${OUT:-/tmp/voxwave-out}
MAX=${1:-7}
RHS=${2:-512}
mkdir -p "$OUT"
source ../.deps/unpack-debs.sh ../.deps >/dev/null
B=build-device
CLI=$B/app/cli/voxwave-cli
S="$OUT/summary.log"
echo "== build $(date -u +%FT%TZ)" | tee -a "$S"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv | tee -a "$S"
cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DVOXWAVE_ENGINE_ONLY=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build $B -j16 --target voxwave-cli voxwave_gpu_tests >"$OUT/build.log" 2>&1 ||
  { grep -E "error" -A3 "$OUT/build.log" | head -40; exit 1; }
echo "== gpu test $(date -u +%FT%TZ)" | tee -a "$S"
timeout 120 $B/tests/voxwave_gpu_tests --gtest_filter='Poisson*' 2>&1 | tail -30 | tee -a "$S"
export OMP_NUM_THREADS=16
# One level per call: a level cut off by its timeout does not lose the others' tables.
for L in $(seq "${MIN:-6}" "$MAX"); do
  echo "== perf L=$L $(date -u +%FT%TZ)" | tee -a "$S"
  BASE=--baselines
  [ "$L" -ge "${BASELINES_UP_TO:-7}" ] && BASE=
  timeout ${PERF_SECONDS:-240} $CLI poisson --backend cuda --table perf --min-level $L --max-level $L --perf-rhs $RHS $BASE \
    --repetitions 5 --report "$OUT/perf.md" >/dev/null 2>>"$OUT/perf.err"
  echo "rc=$?" | tee -a "$S"
done
tail -3 "$OUT/perf.err"
echo "== fig10 $(date -u +%FT%TZ)" | tee -a "$S"
timeout ${FIG10_SECONDS:-150} $CLI poisson --backend cuda --table fig10 --max-level ${FIG10_MAX:-7} --report "$OUT/fig10.md" >/dev/null \
  2>"$OUT/fig10.err"
echo "rc=$?" | tee -a "$S"
echo "== done $(date -u +%FT%TZ)" | tee -a "$S"
