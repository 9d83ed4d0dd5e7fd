#!/usr/bin/env bash
# `mpirun -np K voxwave-cli run` (issue 8): the same result file as one process, errors printed
# once by rank 0 with a non-zero exit code, no result file after a failure.
source "$(dirname "$0")/lib.sh" "$1" "$2"
MPIEXEC=$(command -v mpiexec || true)
[ -n "$MPIEXEC" ] || skip "no mpiexec"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1
scene="$SRC/assets/scenes/paper_rebar.json"
# 1200 steps at 8 mm: the wave from the top face crosses both seams of a 3-rank run.
args=(--spacing 0.008 --steps 1200 --backend cpu -q)

"$CLI" run "$scene" "${args[@]}" -o "$WORK/one.h5" || fail "one-process run exited $?"
"$MPIEXEC" -np 3 "$CLI" run "$scene" "${args[@]}" -o "$WORK/three.h5" >"$WORK/mpi.out" 2>&1 ||
  fail "3-rank run exited $?: $(tail -3 "$WORK/mpi.out")"
"$CLI" compare "$WORK/three.h5" "$WORK/one.h5" --tolerance 1e-13 >"$WORK/cmp.out" ||
  fail "3 ranks differ from one process: $(tail -1 "$WORK/cmp.out")"
# The comparison is not vacuous: the traces moved, and a different run is caught.
grep -q "over 8 receivers" "$WORK/cmp.out" || fail "compare did not match the 8 receivers"
"$CLI" run "$scene" --spacing 0.008 --steps 1200 --backend cpu -q --method vfem -o "$WORK/vfem.h5" || fail "vfem run"
"$CLI" compare "$WORK/vfem.h5" "$WORK/one.h5" --tolerance 1e-13 >/dev/null 2>&1
[ $? = 4 ] || fail "compare should exit 4 for vfem against ovfem"

# Boxes cut along y and z (--process-grid, in the model's axes): the same traces; a grid that does
# not match the job is refused once, naming the option.
"$MPIEXEC" -np 4 "$CLI" run "$scene" "${args[@]}" --process-grid 1x2x2 -o "$WORK/four.h5" >"$WORK/mpi4.out" 2>&1 ||
  fail "4-rank 1x2x2 run exited $?: $(tail -3 "$WORK/mpi4.out")"
"$CLI" compare "$WORK/four.h5" "$WORK/one.h5" --tolerance 1e-13 >"$WORK/cmp4.out" ||
  fail "4 ranks (1x2x2) differ from one process: $(tail -1 "$WORK/cmp4.out")"
"$MPIEXEC" -np 2 "$CLI" run "$scene" --spacing 0.064 --steps 5 --backend cpu --process-grid 1x1x3 -o "$WORK/grid.h5" \
  2>"$WORK/grid.err" >/dev/null
[ $? != 0 ] || fail "a 3-rank process grid on 2 ranks exited 0"
n=$(grep -c "^voxwave-cli: error: --process-grid: process grid 1x1x3 has 3 ranks, the job has 2" "$WORK/grid.err")
[ "$n" = 1 ] || fail "expected the process grid error once: $(cat "$WORK/grid.err")"
[ ! -e "$WORK/grid.h5" ] || fail "a result file was written after a process grid error"

# A bad scene: one line from rank 0 (not three), exit code 1, no result file.
echo '{"format": "voxwave-scene", "version": 1, "grid": 3}' >"$WORK/bad.json"
"$MPIEXEC" -np 3 "$CLI" run "$WORK/bad.json" -o "$WORK/bad.h5" >"$WORK/bad.out" 2>"$WORK/bad.err"
rc=$?
[ "$rc" != 0 ] || fail "bad scene under mpiexec exited 0"
n=$(grep -c "^voxwave-cli: error" "$WORK/bad.err")
[ "$n" = 1 ] || fail "expected the error once, got $n: $(cat "$WORK/bad.err")"
grep -q "bad.json: grid" "$WORK/bad.err" || fail "the error does not name the file and field: $(cat "$WORK/bad.err")"
[ ! -e "$WORK/bad.h5" ] || fail "a result file was written after an error"

# More ranks than element planes: refused once, naming the ranks.
"$MPIEXEC" -np 7 "$CLI" run "$scene" --spacing 0.064 --steps 5 --backend cpu -o "$WORK/many.h5" 2>"$WORK/many.err" >/dev/null
[ $? != 0 ] || fail "7 ranks on a 6-plane model exited 0"
n=$(grep -c "^voxwave-cli: error: ranks: 7 ranks" "$WORK/many.err")
[ "$n" = 1 ] || fail "expected the ranks error once: $(cat "$WORK/many.err")"

# A failure on one rank while the others wait for its ghost nodes: every rank stops (no hang), the
# failing rank names itself, the exit code is non-zero and no result file is written.
timeout 120 "$MPIEXEC" -np 3 -x VOXWAVE_TEST_FAIL_RANK=1 "$CLI" run "$scene" "${args[@]}" -o "$WORK/fail.h5" \
  >"$WORK/fail.out" 2>"$WORK/fail.err"
rc=$?
[ "$rc" != 0 ] && [ "$rc" != 124 ] || fail "an injected failure on rank 1 gave exit $rc (124: the job hung)"
grep -q "rank 1 of 3: injected failure" "$WORK/fail.err" || fail "the failing rank did not name itself: $(head -3 "$WORK/fail.err")"
[ ! -e "$WORK/fail.h5" ] || fail "a result file was written after a failure"
finish
