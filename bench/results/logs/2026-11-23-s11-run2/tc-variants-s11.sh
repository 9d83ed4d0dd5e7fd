set -u
OUT=${OUT:-/tmp/o}
bash scripts/device-run.sh build >/dev/null 2>&1 || { echo build failed; exit 1; }
CLI=build-device/app/cli/voxwave-cli
tc() { for p in "" 48; do echo "planes=${p:-balanced}"; VOXWAVE_FUSED_PLANES=$p $CLI bench --backend cuda --spacing 0.002 --methods tcovfem --precisions fp64 --steps 1000 2>&1 | grep "fused node" | cut -d'|' -f2-9; done; }
echo "== committed (9 rows, cp.async extra row)"; tc
# A: 9 rows without the extra-row fetch (wrong row-8 values; timing only)
cp engine/wave/fused_step.cuh /tmp/fs.cuh; cp engine/wave/tcovfem_step_fused_cuda.cu /tmp/tc.cu
perl -0pi -e 's/if constexpr \(kExtraRow\) \{\n(\s*)if \(!extra\) return;\n(\s*)const bool valid/if constexpr (kExtraRow && false) {\n$1if (!extra) return;\n$2const bool valid/' engine/wave/fused_step.cuh
grep -c "kExtraRow && false" engine/wave/fused_step.cuh
cmake --build build-device -j16 2>&1 | grep -E "error|spill.*TcovfemPlaneHigh" | grep -v sm_80 | head -3
echo "== A: 9 rows, no fetch (timing only)"; tc
cp /tmp/fs.cuh engine/wave/fused_step.cuh
sed -i 's/    static constexpr bool kExtraRow = true;/    static constexpr bool kExtraRow = false;/' engine/wave/tcovfem_step_fused_cuda.cu
cmake --build build-device -j16 2>&1 | grep -E "error" | head -3
echo "== B: 8 rows (last warp loads), persistent blocks"; tc
cp /tmp/tc.cu engine/wave/tcovfem_step_fused_cuda.cu
