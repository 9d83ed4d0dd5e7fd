#!/usr/bin/env bash
# Session 16 A/B (untracked while it runs; copied into the log folder): TCOVFEM M = 8's conversion,
# exact (three FP64 operations) against the paper's (an FP64 product and one F2I.S64.F64).
set -u
source .deps/unpack-debs.sh .deps >/dev/null
export OUT
bash scripts/device-run.sh build || exit 1
B=build-device; CLI=$B/app/cli/voxwave-cli
for conv in exact paper; do
  echo "== fused TCOVFEM gpu tests, conversion $conv" | tee -a $OUT/summary.log
  VOXWAVE_TC_CONVERSION=$conv timeout 200 $B/tests/voxwave_gpu_tests --gtest_filter='CudaFusedStep.Tcovfem*:CudaFusedStep.Sources*' \
    > $OUT/tests-$conv.log 2>&1
  grep -E "^\[  (PASSED|FAILED) |Failure|Which is|Expected|Value of|which is" $OUT/tests-$conv.log | head -30 | tee -a $OUT/summary.log
done
for pass in 1 2; do
  for conv in exact paper; do
    echo "pass $pass conversion $conv" | tee -a $OUT/summary.log
    VOXWAVE_TC_CONVERSION=$conv $CLI bench --backend cuda --spacing 0.002 --methods tcovfem --precisions fp64 \
      --steps 3000 2>&1 | grep "^| tcovfem" | tee -a $OUT/summary.log
  done
done
for conv in exact paper; do
  VOXWAVE_TC_CONVERSION=$conv $CLI run assets/scenes/paper_rebar.json --backend cuda --method tcovfem -o $OUT/paper_$conv.h5 2>&1 | tail -2 | tee -a $OUT/summary.log
done
$CLI run assets/scenes/paper_rebar.json --backend cuda --method ovfem -o $OUT/paper_ovfem.h5 2>&1 | tail -1 | tee -a $OUT/summary.log
for f in exact paper; do
  echo "compare tcovfem $f vs ovfem fp64" | tee -a $OUT/summary.log
  $CLI compare $OUT/paper_$f.h5 $OUT/paper_ovfem.h5 --tolerance 1 2>&1 | tail -3 | tee -a $OUT/summary.log
done
$CLI compare $OUT/paper_exact.h5 $OUT/paper_paper.h5 --tolerance 1 2>&1 | tail -3 | tee -a $OUT/summary.log
rm -f $OUT/*.h5
