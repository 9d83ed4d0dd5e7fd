#!/usr/bin/env bash
# Session 14 A/B on the device: the fused step with neighbour barriers (new) against HEAD (old).
# Not committed as a tool.
# ab_run.sh build NAME : configure + build the CLI of a copy of the tree with ab_NAME_* files
# ab_run.sh bench V... : V = new (build-device) or a built NAME, in this order
set -uo pipefail
OUT=${OUT:-/tmp/voxwave-out}
log() { echo "== $*" | tee -a "$OUT/summary.log"; }
case $1 in
  build)
    n=$2; d=/tmp/src-$n
    rm -rf $d && mkdir -p $d
    tar --exclude=./build-device --exclude=./.deps -cf - . | tar -xf - -C $d
    cp ab_${n}_fused_step.cuh $d/engine/wave/fused_step.cuh
    cmake -S $d -B $d/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DVOXWAVE_ENGINE_ONLY=ON \
      -DVOXWAVE_BUILD_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 >"$OUT/$n-configure.log" 2>&1 &&
    cmake --build $d/build -j6 --target voxwave-cli >"$OUT/$n-build.log" 2>&1 || { tail -20 "$OUT/$n-build.log" "$OUT/$n-configure.log"; exit 1; }
    echo "$n build done $(date -u +%T)" ;;
  bench)
    shift
    for v in "$@"; do
      CLI=build-device/app/cli/voxwave-cli
      [ "$v" != new ] && CLI=/tmp/src-$v/build/app/cli/voxwave-cli
      log "$v $(date -u +%T)"
      $CLI bench --backend cuda --spacing 0.002 --methods tcovfem ovfem --precisions fp64 fp32 --steps ${STEPS:-3000} 2>&1 | grep "fused node" | cut -d'|' -f2-9 | tee -a "$OUT/summary.log"
      $CLI bench --backend cuda --spacing 0.0012 --methods vfem --precisions fp64 --steps ${STEPS:-2000} 2>&1 | grep "fused node" | cut -d'|' -f2-9 | tee -a "$OUT/summary.log"
    done ;;
esac
