#!/usr/bin/env bash
# Session 17 A/B 2 (runs 3-5): TCOVFEM's fused step without the y tiles' overlap (row handoff, this tree)
# against HEAD 5f28e8b (ab_old/: its versions of the changed engine files), 2 mm, 3000 steps, in
# turn; the gpu tests of the new tree first (a failure stops the A/B).
set -uo pipefail
OUT=${OUT:-/tmp/voxwave-out}; mkdir -p "$OUT"
source .deps/unpack-debs.sh .deps >/dev/null
log() { echo "== $*" | tee -a "$OUT/summary.log"; }
rm -rf /tmp/old && mkdir /tmp/old
tar --exclude=./build --exclude=./build-device --exclude=./.deps --exclude=./.git -cf - . | (cd /tmp/old && tar xf -)
(cd ab_old && find . -type f -exec cp {} /tmp/old/{} \;)
log "builds $(date -u +%FT%TZ)"
cfg=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DVOXWAVE_ENGINE_ONLY=ON -DCMAKE_CUDA_ARCHITECTURES=90)
cmake -S . -B build-device "${cfg[@]}" -DVOXWAVE_BUILD_TESTS=ON >"$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log"; exit 1; }
cmake -S /tmp/old -B /tmp/old/build "${cfg[@]}" -DVOXWAVE_BUILD_TESTS=OFF >"$OUT/configure-old.log" 2>&1 || { tail -20 "$OUT/configure-old.log"; exit 1; }
( cmake --build build-device -j10 >"$OUT/build.log" 2>&1 || echo "NEW BUILD FAILED" | tee -a "$OUT/summary.log" ) &
( cmake --build /tmp/old/build -j6 --target voxwave-cli >"$OUT/build-old.log" 2>&1 || echo "OLD BUILD FAILED" | tee -a "$OUT/summary.log" ) &
wait
log "built $(date -u +%FT%TZ)"
grep -E " error" -A3 "$OUT/build.log" "$OUT/build-old.log" | head -20
NEW=build-device/app/cli/voxwave-cli OLD=/tmp/old/build/app/cli/voxwave-cli
log "gpu tests (new tree)"
(cd build-device && timeout 300 ctest -L gpu -E "^mpi\\." --output-on-failure --timeout 240) >"$OUT/gpu-tests.log" 2>&1
grep -E "tests passed|Failed|FAILED|Expected|Which is|error|Value of" "$OUT/gpu-tests.log" | head -40 | tee -a "$OUT/summary.log"
for pass in 1 2; do
  for v in OLD NEW; do
    echo "pass $pass $v" | tee -a "$OUT/summary.log"
    timeout 60 ${!v} bench --backend cuda --spacing 0.002 --methods tcovfem --precisions fp64 --steps 3000 2>&1 | grep "^| tcovfem (fused" | tee -a "$OUT/summary.log"
  done
done
echo "balanced NEW" | tee -a "$OUT/summary.log"
VOXWAVE_FUSED_PLANES=balanced timeout 60 $NEW bench --backend cuda --spacing 0.002 --methods tcovfem --precisions fp64 --steps 3000 2>&1 | grep "^| tcovfem (fused" | tee -a "$OUT/summary.log"
log "done $(date -u +%FT%TZ)"
