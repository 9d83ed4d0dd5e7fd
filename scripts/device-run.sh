#!/usr/bin/env bash
# Build the engine + CLI on the GPU machine (no Qt/VTK, no package registry; DESIGN §5) and
# run what needs a GPU: the `gpu` tests, Table 3, the benchmarks. Logs go to $OUT.
# Usage (from the repository root on the device): bash scripts/device-run.sh PHASE...
#   phases: gl build gpu-tests interop live table3 bench-quick bench-full run-paper
#   (gl: unpack the carried .gl packages: EGL/GL loaders and headers for the interop test)
set -uo pipefail
OUT=${OUT:-/tmp/voxwave-out}
mkdir -p "$OUT"
source .deps/unpack-debs.sh .deps >/dev/null
B=build-device
CLI=$B/app/cli/voxwave-cli
log() { echo "== $*" | tee -a "$OUT/summary.log"; }
for phase in "$@"; do
  case $phase in
    gl)
      for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
      export __EGL_VENDOR_LIBRARY_FILENAMES=${__EGL_VENDOR_LIBRARY_FILENAMES:-/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json}
      [ -f "$__EGL_VENDOR_LIBRARY_FILENAMES" ] || unset __EGL_VENDOR_LIBRARY_FILENAMES
      log "gl packages unpacked" ;;
    interop)
      log "CUDA-OpenGL interop (EGL, no Qt)"
      $B/tests/voxwave_gpu_tests --gtest_filter='GlInterop*' >"$OUT/interop.log" 2>&1
      grep -E "OK|FAILED|SKIPPED|Expected|Which is|error" "$OUT/interop.log" | head -20 | tee -a "$OUT/summary.log" ;;
    live)
      log "live frames (bench-live, the GUI's engine loop)"
      for cfg in "ovfem fp64" "ovfem fp32" "tcovfem fp64"; do
        set -- $cfg
        $CLI bench-live --backend cuda --spacing 0.002 --method $1 --precision $2 --seconds 8 \
          --out "$OUT/live.md" 2>&1 | grep "^| [0-9]" | tee -a "$OUT/summary.log"
      done ;;
    build)
      log "build $(date -u +%FT%TZ)"
      nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv | tee -a "$OUT/summary.log"
      cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DVOXWAVE_ENGINE_ONLY=ON -DVOXWAVE_BUILD_TESTS=ON \
        -DCMAKE_CUDA_ARCHITECTURES=90 >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
      cmake --build $B -j16 >"$OUT/build.log" 2>&1 || { grep -E "error" -A3 "$OUT/build.log" | head -40; exit 1; }
      $CLI info | tee -a "$OUT/summary.log" ;;
    gpu-tests)
      log "gpu tests"
      (cd $B && ctest -L gpu --output-on-failure --timeout 300) >"$OUT/gpu-tests.log" 2>&1
      grep -E "tests passed|Failed|FAILED|Expected|Which is|error|Value of" "$OUT/gpu-tests.log" | head -60 | tee -a "$OUT/summary.log" ;;
    cpu-tests)
      log "cpu tests (engine label)"
      (cd $B && OMP_NUM_THREADS=16 ctest -L engine --timeout 300) >"$OUT/cpu-tests.log" 2>&1
      tail -5 "$OUT/cpu-tests.log" | tee -a "$OUT/summary.log" ;;
    table3)
      log "table3"
      $CLI table3 --backend cuda --out "$OUT/table3.md" 2>&1 | tail -20 | tee -a "$OUT/summary.log" ;;
    bench-quick)
      log "bench quick"
      $CLI bench --backend cuda --spacing 0.002 --methods ovfem tcovfem vfem --precisions fp64 fp32 --steps 1000 \
        --out "$OUT/bench-quick.md" 2>&1 | grep "^|" | tee -a "$OUT/summary.log" ;;
    bench-full)
      log "bench full (paper configurations)"
      $CLI bench --backend cuda --spacing 0.002 --methods ovfem tcovfem --precisions fp64 fp32 --steps 16384 \
        --out "$OUT/cuda-bench.md" 2>&1 | grep "^|" | tee -a "$OUT/summary.log"
      $CLI bench --backend cuda --spacing 0.0012 --methods vfem --precisions fp64 --steps 32768 \
        --out "$OUT/cuda-bench.md" 2>&1 | grep "^|" | tee -a "$OUT/summary.log" ;;
    run-paper)
      log "full paper run, tcovfem M=8 with receivers"
      for m in tcovfem ovfem; do
        /usr/bin/time -f "%e s wall" $CLI run assets/scenes/paper_rebar.json --backend cuda --method $m \
          -o "$OUT/paper_$m.h5" 2>&1 | tail -4 | tee -a "$OUT/summary.log"
      done ;;
    *) echo "unknown phase $phase"; exit 2 ;;
  esac
done
