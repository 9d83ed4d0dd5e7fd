#!/usr/bin/env bash
# Issue 6 on the GPU machine: build the engine, the CLI and the gpu tests, run the IGA gpu tests
# and the IGA benchmarks (CUDA + CHOLMOD baseline, then the CPU multi-frontal). Logs go to $OUT.
# Usage (repository root on the device): bash scripts/iga-device-run.sh DEPS [EXTRA_DEBS]
#   DEPS: the .deb folder of docs/architecture.md#building ("The GPU machine");
#   EXTRA_DEBS: SuiteSparse (CHOLMOD) + OpenBLAS .debs, so the baseline there is CHOLMOD on all
#   cores rather than Eigen's SimplicialLLT.
set -uo pipefail
OUT=${OUT:-/tmp/iga-out}
mkdir -p "$OUT"
S="$OUT/summary.log"
source "$1/unpack-debs.sh" "$1" >/dev/null
if [ -n "${2:-}" ]; then
  for f in "$2"/*.deb; do dpkg -x "$f" /opt/deps; done
  blas=/opt/deps/usr/lib/x86_64-linux-gnu/openblas-pthread
  export LD_LIBRARY_PATH="$blas:$LD_LIBRARY_PATH" LIBRARY_PATH="$blas:$LIBRARY_PATH"
fi
# PASSIVE: idle OpenMP threads sleep at once. Spinning ones (the default) fight OpenBLAS's own
# threads inside CHOLMOD for the cores: the first H100 run measured CHOLMOD up to 100x slow.
export OMP_WAIT_POLICY=PASSIVE
date -u +%FT%TZ >>"$S"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv >>"$S"
nproc >>"$S"
B=build-device
cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DVOXWAVE_ENGINE_ONLY=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log" | tee -a "$S"; exit 1; }
grep "IGA baseline" "$OUT/configure.log" >>"$S"
timeout 260 cmake --build $B -j16 --target voxwave-cli voxwave_gpu_tests >"$OUT/build.log" 2>&1 ||
  { grep -E "error" -A3 "$OUT/build.log" | head -40 | tee -a "$S"; exit 1; }
echo "built $(date -u +%FT%TZ)" >>"$S"
(cd $B && timeout 120 ctest -R IgaCuda --output-on-failure) >"$OUT/gpu-tests.log" 2>&1
grep -E "tests passed|Failed|FAILED|Skipped|Failure|Expected|evaluates" "$OUT/gpu-tests.log" | head -30 >>"$S"
CLI=$B/app/cli/voxwave-cli
$CLI iga -p 3 -N 256 --problem manufactured --backend cuda --out "$OUT/iga_p3_N256_cuda.h5" >>"$S" 2>&1
# Which BLAS threading suits the CHOLMOD baseline best (the bench below uses the default, all cores).
for t in 16 1; do
  echo "OPENBLAS_NUM_THREADS=$t:" >>"$S"
  OPENBLAS_NUM_THREADS=$t $CLI iga -p 3 -N 512 --problem manufactured --backend cuda --grid 11 --out /tmp/probe.h5 \
    2>&1 | grep -E "multi|baseline" >>"$S"
done
# One report per degree (a cut-short run keeps the degrees done; rows also go to summary.log).
for p in 3 2 1 4; do
  timeout ${BENCH_GPU_S:-65} $CLI iga-bench --backends cuda --degrees $p --elements 64 128 256 512 1024 --repeat 3 \
    --max-case-seconds 60 --convergence-elements 8 16 32 64 128 --out "$OUT/iga-h100.md" >/dev/null 2>>"$S"
done
for p in 3 2 1 4; do
  timeout ${BENCH_CPU_S:-25} $CLI iga-bench --backends cpu-par cpu-seq --no-baseline --degrees $p \
    --elements 64 128 256 512 1024 --repeat 1 --max-case-seconds 20 --convergence-elements 8 --out "$OUT/iga-h100-cpu.md" \
    >/dev/null 2>>"$S"
done
echo "done $(date -u +%FT%TZ)" >>"$S"
