#!/usr/bin/env bash
# Session 18 A/B: TCOVFEM's fused step, variants beside each other (2 mm, 3000 steps, in turn).
# Variant dirs (ab_*/: their versions of changed engine files over this tree); NEW = this tree.
set -uo pipefail
OUT=${OUT:-/tmp/voxwave-out}; mkdir -p "$OUT"
source .deps/unpack-debs.sh .deps >/dev/null
log() { echo "== $*" | tee -a "$OUT/summary.log"; }
VARIANTS=${VARIANTS:-old}
LOGS=/tmp/ab-logs; mkdir -p $LOGS   # build logs and SASS, packed into $OUT/ab-logs.tar.gz (few files come back)
cfg=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DVOXWAVE_ENGINE_ONLY=ON -DCMAKE_CUDA_ARCHITECTURES=90)
log "builds $(date -u +%FT%TZ)"
for v in $VARIANTS; do
  rm -rf /tmp/$v && mkdir /tmp/$v
  tar --exclude=./build --exclude=./build-device --exclude=./.deps --exclude=./.git -cf - . | (cd /tmp/$v && tar xf -)
  (cd ab_$v && find . -type f -exec cp {} /tmp/$v/{} \;)
  cmake -S /tmp/$v -B /tmp/$v/build "${cfg[@]}" -DVOXWAVE_BUILD_TESTS=OFF >"$LOGS/configure-$v.log" 2>&1 || { tail -20 "$LOGS/configure-$v.log"; exit 1; }
done
cmake -S . -B build-device "${cfg[@]}" -DVOXWAVE_BUILD_TESTS=${TESTS:-ON} >"$LOGS/configure.log" 2>&1 || { tail -20 "$LOGS/configure.log"; exit 1; }
( cmake --build build-device -j8 >"$LOGS/build.log" 2>&1 || echo "NEW BUILD FAILED" | tee -a "$OUT/summary.log" ) &
for v in $VARIANTS; do
  ( cmake --build /tmp/$v/build -j4 --target voxwave-cli >"$LOGS/build-$v.log" 2>&1 || echo "$v BUILD FAILED" | tee -a "$OUT/summary.log" ) &
done
wait
log "built $(date -u +%FT%TZ)"
grep -E " error" -A3 "$LOGS"/build*.log | head -20
# SASS of the fused TCOVFEM step (M = 8, damped, uniform h: the benchmark's kernel), new tree and variants.
sass() {  # $1 build dir, $2 name
  obj=$(find $1 -name "tcovfem_step_fused_cuda.cu.o" | head -1)
  /usr/local/cuda/bin/cuobjdump -sass "$obj" 2>/dev/null | awk '/Function : .*IdLb1ELb1ELi8ELi2E.*TcovfemPlaneHigh/{p=1} p&&/Function : /&&!/IdLb1ELb1ELi8ELi2E.*TcovfemPlaneHigh/{p=0} p' | gzip >"$LOGS/sass-$2.txt.gz"
  echo "$2: $(zcat "$LOGS/sass-$2.txt.gz" | grep -cE '^\s+/\*[0-9a-f]+\*/') instructions, STL $(zcat "$LOGS/sass-$2.txt.gz" | grep -c 'STL'), LDL $(zcat "$LOGS/sass-$2.txt.gz" | grep -c 'LDL'), IMAD.MOV $(zcat "$LOGS/sass-$2.txt.gz" | grep -c 'IMAD.MOV')" | tee -a "$OUT/summary.log"
}
sass build-device new
for v in $VARIANTS; do sass /tmp/$v/build $v; done
if [ "${TESTS:-ON}" = ON ]; then
  log "gpu tests (new tree)"
  (cd build-device && timeout 300 ctest -L gpu -E "^mpi\\." --output-on-failure --timeout 240) >"$OUT/gpu-tests.log" 2>&1
  grep -E "tests passed|Failed|FAILED|Expected|Which is|error|Value of" "$OUT/gpu-tests.log" | head -40 | tee -a "$OUT/summary.log"
fi
for pass in 1 2; do
  for v in NEW $VARIANTS; do
    cli=build-device/app/cli/voxwave-cli; [ $v != NEW ] && cli=/tmp/$v/build/app/cli/voxwave-cli
    echo "pass $pass $v" | tee -a "$OUT/summary.log"
    timeout 60 $cli bench --backend cuda --spacing 0.002 --methods tcovfem --precisions fp64 --steps 3000 2>&1 | grep "^| tcovfem (fused" | tee -a "$OUT/summary.log"
  done
done
if [ -n "${SOURCE:-}" ]; then  # the new tree's per-instruction counters (device-run.sh tc-source)
  OUT=$LOGS bash scripts/device-run.sh tc-source >/dev/null 2>&1
  grep -E "Executed Instructions|Warp Cycles" $LOGS/summary.log | tee -a "$OUT/summary.log"
fi
log "done $(date -u +%FT%TZ)"
tar -C $LOGS -czf "$OUT/ab-logs.tar.gz" .
