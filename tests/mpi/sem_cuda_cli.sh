#!/usr/bin/env bash
# sem on the GPUs under mpirun through the command line: `mpiexec -np 2 voxwave-cli run --backend
# cuda` (each rank a slab, the ghost GLL plane exchanged on the device) writes the traces of the
# single-GPU run and of the CPU engine's one-process run, `voxwave-cli compare --tolerance 1e-12`
# (p = 2 and 4, FP64; the paper model at 16 mm with a void, concrete and steel, receivers on a
# line through the slab cut). Usage: sem_cuda_cli.sh CLI SRC MPIEXEC. Skipped (77) without a
# CUDA device or without mpiexec.
source "$(dirname "$0")/../cli/lib.sh" "$1" "$2"
MPIEXEC="${3:-$(command -v mpiexec || true)}"
[ -n "$MPIEXEC" ] && [ -x "$MPIEXEC" ] || skip "no mpiexec"
"$CLI" info >"$WORK/info" 2>&1 || fail "voxwave-cli info exited $?"
grep -q "^cuda *compiled in" "$WORK/info" || skip "this build has no CUDA"
gpus=$(grep -c "^device [0-9]" "$WORK/info")
[ "$gpus" -gt 0 ] || skip "no CUDA device: $(grep '^devices' "$WORK/info")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# NCCL wants one GPU a rank; with one GPU both ranks share it through host memory.
halos=(host)
[ "$gpus" -ge 2 ] && halos+=(auto)

# 20 x 8 x 24 elements of 16 mm; a void sphere in the upper slab, the steel bar in the lower one;
# a short Ricker pulse from the top face; receivers every 4 mm from z = 160 to 240 mm (the cut of
# 2 ranks lies between, the void moving it off the middle plane), on the cut plane's GLL nodes,
# the ghost element's inner ones and the planes beside them.
derive_scene "$SRC/assets/scenes/paper_rebar.json" sem '
s["grid"]["spacing"] = 0.016
s["shapes"].append({"type": "sphere", "material": "void", "center": [0.2, 0.064, 0.25], "radius": 0.02})
s["sources"][0]["wavelet"] = {"type": "ricker", "frequency": 60e3, "delay": 20e-6}
s["receivers"] = [{"name": "z%d" % z, "position": [0.104, 0.056, z / 1000]} for z in range(160, 244, 4)]
s["receivers"].append({"name": "top", "position": [0.136, 0.064, 0.384]})
s["run"].update(method="sem", precision="fp64", backend="cuda")
for k in ("dt", "duration"): s["run"].pop(k)'

for p in 2 4; do
  steps=$([ $p = 2 ] && echo 200 || echo 100)
  args=(--order $p --steps $steps -q)
  "$CLI" run "$WORK/sem.json" "${args[@]}" -o "$WORK/one$p.h5" >"$WORK/one$p.out" 2>&1 ||
    fail "p = $p: the single-GPU run exited $?: $(tail -2 "$WORK/one$p.out")"
  "$CLI" run "$WORK/sem.json" "${args[@]}" --backend cpu -o "$WORK/cpu$p.h5" >"$WORK/cpu$p.out" 2>&1 ||
    fail "p = $p: the CPU run exited $?: $(tail -2 "$WORK/cpu$p.out")"
  for halo in "${halos[@]}"; do
    two="$WORK/two$p-$halo.h5"
    "$MPIEXEC" -np 2 "$CLI" run "$WORK/sem.json" --order $p --steps $steps --halo $halo -o "$two" \
      >"$WORK/two.out" 2>&1 || fail "p = $p, --halo $halo: the 2-rank run exited $?: $(tail -3 "$WORK/two.out")"
    grep -q "distributed: 2 ranks" "$WORK/two.out" || fail "p = $p: not a 2-rank run: $(head -5 "$WORK/two.out")"
    for ref in one cpu; do
      "$CLI" compare "$two" "$WORK/$ref$p.h5" --tolerance 1e-12 >"$WORK/cmp.out" 2>&1 ||
        fail "p = $p, --halo $halo: 2 GPU ranks differ from the $ref run: $(tail -1 "$WORK/cmp.out")"
      grep -q "over 22 receivers" "$WORK/cmp.out" || fail "p = $p: compare did not match the 22 receivers: $(cat "$WORK/cmp.out")"
      echo "p = $p, --halo $halo, 2 GPU ranks against $ref: $(grep -o "largest relative difference [^ ]*" "$WORK/cmp.out")"
    done
  done
done
# The comparison is not vacuous: the same run in FP32 (rounding at 1e-7) is caught.
"$CLI" run "$WORK/sem.json" --order 2 --steps 200 --precision fp32 -q -o "$WORK/fp32.h5" >/dev/null 2>&1 ||
  fail "the FP32 run exited $?"
"$CLI" compare "$WORK/fp32.h5" "$WORK/one2.h5" --tolerance 1e-12 >/dev/null 2>&1
[ $? = 4 ] || fail "compare should exit 4 for FP32 against FP64"
finish
