#!/usr/bin/env bash
# Issue 7 on the GPU machine: build the CLI and the gpu tests, run the integration gpu tests,
# then the element-integration measurements (seed 001 Table 3 / seed 003 tables) into one
# markdown file. Usage (repository root on the device): bash bench/integration/device-run.sh [quick]
# Logs and tables go to $OUT. Every CLI call has its own time limit so one slow case cannot eat
# the whole lease.
set -uo pipefail
OUT=${OUT:-/tmp/voxwave-out}
DEPS=${DEPS:-../.deps}
mkdir -p "$OUT"
source "$DEPS/unpack-debs.sh" "$DEPS" >/dev/null
B=build-device
CLI=$B/app/cli/voxwave-cli
MD="$OUT/integration-h100.md"
log() { echo "== $*" | tee -a "$OUT/summary.log"; }

log "build $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv | tee -a "$OUT/summary.log"
cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DVOXWAVE_ENGINE_ONLY=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build $B -j16 --target voxwave-cli voxwave_gpu_tests >"$OUT/build.log" 2>&1 ||
  { grep -E "error" -A3 "$OUT/build.log" | head -40; exit 1; }
grep -iE "spill|warning" "$OUT/build.log" | grep -i integrat | head -10 | tee -a "$OUT/summary.log"
log "built $(date -u +%FT%TZ)"

log "gpu tests (integration)"
timeout 150 $B/tests/voxwave_gpu_tests --gtest_filter='IntegrationCuda*' >"$OUT/gpu-tests.log" 2>&1
grep -E "^\[  (PASSED|FAILED|  OK|SKIPPED) |Failure|error " "$OUT/gpu-tests.log" | head -40 | tee -a "$OUT/summary.log"
log "tests done $(date -u +%FT%TZ)"

run() {  # run LIMIT_S ARGS... : one measurement row
  timeout "$1" $CLI integrate "${@:2}" --backend cuda --markdown "$MD" -q >>"$OUT/bench.log" 2>&1 ||
    echo "FAILED or timed out ($1 s): ${*:2}" | tee -a "$OUT/summary.log"
}
echo "# $(date -u +%F) $(nvidia-smi --query-gpu=name --format=csv,noheader)" >>"$OUT/bench.log"
M=10000
log "hex elasticity fp32, m=$M: shm (precomputed Jacobian) p=1..10, sumfact p=1..8"
for p in 1 2 3 4 5 6 7; do run 40 --element hex --order $p --elements $M --variant shm; done
for p in 8 9 10; do run 60 --element hex --order $p --elements $M --variant shm --repetitions 1; done
for p in 1 2 3 4 5 6 7 8; do run 40 --element hex --order $p --elements $M --variant sumfact; done
log "hex: computed Jacobian, reg, ai, aii $(date -u +%T)"
for p in 2 3 4 6 8; do run 40 --element hex --order $p --elements $M --variant shm --jacobian computed; done
for p in 2 3 4 6; do run 40 --element hex --order $p --elements $M --variant sumfact --jacobian computed; done
for p in 1 2 3 4 5 6; do run 40 --element hex --order $p --elements $M --variant reg; done
for p in 1 2 3 4 5; do run 40 --element hex --order $p --elements $M --variant aii; done
for p in 1 2 3 4 5; do run 40 --element hex --order $p --elements $M --variant ai; done
log "hex fp64 and larger batches $(date -u +%T)"
for p in 3 6 10; do run 60 --element hex --order $p --elements $M --variant shm --precision fp64 --repetitions 1; done
for p in 3 6; do run 40 --element hex --order $p --elements $M --variant sumfact --precision fp64; done
for p in 2 3 4; do run 60 --element hex --order $p --elements 100000 --variant shm; done
for p in 4 6; do run 60 --element hex --order $p --elements 100000 --variant sumfact; done
run 60 --element hex --order 6 --elements 100000 --variant shm
log "prisms $(date -u +%T)"
for p in 2 3 4 5 6 7; do run 40 --element prism --order $p --elements $M --variant shm; done
for p in 2 4 7; do run 40 --element prism --order $p --elements $M --variant reg; done
for p in 2 4 7; do run 40 --element prism --order $p --elements $M --variant shm --jacobian computed; done
for p in 2 4 7; do run 40 --element prism --order $p --elements $M --variant shm --problem laplace; done
for p in 2 4 7; do run 40 --element prism --order $p --elements $M --variant shm --problem convdiff; done
log "cpu backend, 16 threads $(date -u +%T)"
for p in 3 4 6 8; do
  for v in shm sumfact; do
    timeout 60 $CLI integrate --element hex --order $p --elements $((p < 8 ? 2000 : 200)) --variant $v --backend cpu \
      --markdown "$MD" -q >>"$OUT/bench.log" 2>&1 || echo "cpu p=$p $v failed" | tee -a "$OUT/summary.log"
  done
done
log "done $(date -u +%T)"
