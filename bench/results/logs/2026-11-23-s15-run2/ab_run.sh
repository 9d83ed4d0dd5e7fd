#!/usr/bin/env bash
# Session 15 A/B on the device (not committed as a tool): TCOVFEM's balanced blocks split by
# count or by cost (VOXWAVE_FUSED_COST_OFFSET), 8- and 16-row tiles, in one binary.
# ab_run.sh tests : the fused-step gpu tests under each knob set
# ab_run.sh bench : knob sets alternating, twice
set -uo pipefail
OUT=${OUT:-/tmp/voxwave-out}
CLI=build-device/app/cli/voxwave-cli
log() { echo "== $*" | tee -a "$OUT/summary.log"; }
SETS=("VOXWAVE_FUSED_COST_OFFSET=0" "VOXWAVE_FUSED_COST_OFFSET=4" "VOXWAVE_FUSED_COST_OFFSET=8" "VOXWAVE_FUSED_COST_OFFSET=16")
case $1 in
  tests)
    for knobs in "VOXWAVE_FUSED_PLANES=balanced VOXWAVE_FUSED_COST_OFFSET=4"; do
      log "fused tests with $knobs"
      env $knobs timeout 300 build-device/tests/voxwave_gpu_tests --gtest_filter='CudaFusedStep*' >>"$OUT/ab-tests.log" 2>&1
      grep -E "^\[  (PASSED|FAILED) |Failure|Expected|Which is" "$OUT/ab-tests.log" | tail -8 | tee -a "$OUT/summary.log"
    done ;;
  bench)
    for pass in 1 2; do
      for knobs in "${SETS[@]}"; do
        log "pass $pass: $knobs $(date -u +%T)"
        env $knobs $CLI bench --backend cuda --spacing 0.002 --methods tcovfem --precisions fp64 --steps ${STEPS:-3000} 2>&1 | grep "fused node" | cut -d'|' -f2-9 | tee -a "$OUT/summary.log"
      done
    done ;;
esac
