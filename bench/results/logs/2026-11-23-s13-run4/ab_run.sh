#!/usr/bin/env bash
# Session 13 A/B on the device: the fused step with every warp computing (9 node rows per
# 8-warp tile) against the previous tiling (last row load-only). Not committed as a tool.
# ab_run.sh build-old   : configure + build the CLI of a copy of the tree with the old files
# ab_run.sh bench V...  : V = new (build-device) or old (/tmp/oldsrc/build-old), in this order
set -uo pipefail
OUT=${OUT:-/tmp/voxwave-out}
log() { echo "== $*" | tee -a "$OUT/summary.log"; }
case $1 in
  build-old)
    rm -rf /tmp/oldsrc && mkdir -p /tmp/oldsrc
    tar --exclude=./build-device --exclude=./.deps -cf - . | tar -xf - -C /tmp/oldsrc
    cp ab_old_fused_step.cuh /tmp/oldsrc/engine/wave/fused_step.cuh
    cp ab_old_tcovfem_step_fused_cuda.cu /tmp/oldsrc/engine/wave/tcovfem_step_fused_cuda.cu
    cmake -S /tmp/oldsrc -B /tmp/oldsrc/build-old -G Ninja -DCMAKE_BUILD_TYPE=Release -DVOXWAVE_ENGINE_ONLY=ON \
      -DVOXWAVE_BUILD_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 >"$OUT/old-configure.log" 2>&1 &&
    cmake --build /tmp/oldsrc/build-old -j8 --target voxwave-cli >"$OUT/old-build.log" 2>&1 || { tail -20 "$OUT/old-build.log" "$OUT/old-configure.log"; exit 1; }
    echo "old build done $(date -u +%T)" ;;
  bench)
    shift
    for v in "$@"; do
      CLI=build-device/app/cli/voxwave-cli
      [ "$v" = old ] && CLI=/tmp/oldsrc/build-old/app/cli/voxwave-cli
      log "$v $(date -u +%T)"
      $CLI bench --backend cuda --spacing 0.002 --methods tcovfem ovfem --precisions fp64 fp32 --steps ${STEPS:-3000} 2>&1 | grep "fused node" | cut -d'|' -f2-9 | tee -a "$OUT/summary.log"
      $CLI bench --backend cuda --spacing 0.0012 --methods vfem --precisions fp64 --steps ${STEPS:-2000} 2>&1 | grep "fused node" | cut -d'|' -f2-9 | tee -a "$OUT/summary.log"
    done ;;
esac
