#!/usr/bin/env bash
# voxwave-cli cluster-job (issue 8): the job folder (scene + Slurm script) and bad options.
source "$(dirname "$0")/lib.sh" "$1" "$2"

block="$SRC/assets/scenes/homogeneous_block.json"
job="$WORK/jobs/block's run"   # a missing parent, a space and a quote: all must survive
"$CLI" cluster-job "$block" --gpus 6 --gpus-per-node 4 --partition gpu --time 02:00:00 --dir "$job" \
  >"$WORK/stdout" 2>"$WORK/stderr" || fail "cluster-job exited $?: $(cat "$WORK/stderr")"
[ -s "$WORK/stderr" ] && fail "cluster-job wrote to stderr: $(cat "$WORK/stderr")"
[ -f "$job/scene.json" ] || fail "no scene.json in $job"
[ -x "$job/job.slurm" ] || fail "job.slurm is missing or not executable"
[ "$(stat -c %a "$job/job.slurm")" = 755 ] || fail "job.slurm mode $(stat -c %a "$job/job.slurm"), expected 755"
grep -qxF "wrote $job/scene.json" "$WORK/stdout" || fail "stdout does not name the scene: $(cat "$WORK/stdout")"
grep -qxF "wrote $job/job.slurm" "$WORK/stdout" || fail "stdout does not name the script: $(cat "$WORK/stdout")"
for line in '#SBATCH --job-name=homogeneous_block' '#SBATCH --nodes=2' '#SBATCH --ntasks=6' \
  '#SBATCH --ntasks-per-node=4' '#SBATCH --time=02:00:00' '#SBATCH --partition=gpu' 'export NCCL_NVLS_ENABLE=0' \
  'mpirun -np "$SLURM_NTASKS" voxwave-cli run scene.json -o result.h5 --backend cuda'; do
  grep -qxF -- "$line" "$job/job.slurm" || fail "job.slurm lacks the line: $line"
done
grep -q -- '--account' "$job/job.slurm" && fail "job.slurm has an --account line nobody asked for"
bash -n "$job/job.slurm" || fail "job.slurm is not valid bash"
# The printed command, run with `test -x` in place of sbatch, finds the script from any directory.
submit=$(sed -n 's/^submit with: //p' "$WORK/stdout")
case "$submit" in *"&& sbatch job.slurm") ;; *) fail "no sbatch command printed: $(cat "$WORK/stdout")" ;; esac
(cd / && bash -c "${submit%sbatch job.slurm}test -x job.slurm") || fail "the printed command does not reach the folder: $submit"

# The written scene is the input scene, and it runs.
$PY - "$block" "$job/scene.json" <<'PYEOF' || fail "scene content"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert b["grid"]["size"] == a["grid"]["size"] and b["grid"]["spacing"] == a["grid"]["spacing"], b["grid"]
assert [r["name"] for r in b["receivers"]] == [r["name"] for r in a["receivers"]]
assert [r["position"] for r in b["receivers"]] == [r["position"] for r in a["receivers"]]
assert [m["name"] for m in b["materials"]] == [m["name"] for m in a["materials"]]
PYEOF
"$CLI" run "$job/scene.json" --steps 2 --backend cpu --out "$WORK/r.h5" -q || fail "the job's scene does not run"

# --process-grid goes onto the run's line; a grid without one rank per GPU is refused.
grid_job="$WORK/grid-job"
"$CLI" cluster-job "$block" --gpus 4 --process-grid 1x2x2 --dir "$grid_job" >/dev/null 2>"$WORK/stderr" ||
  fail "cluster-job --process-grid exited $?: $(cat "$WORK/stderr")"
grep -qxF 'mpirun -np "$SLURM_NTASKS" voxwave-cli run scene.json -o result.h5 --backend cuda --process-grid 1x2x2' \
  "$grid_job/job.slurm" || fail "job.slurm does not pass the process grid: $(grep mpirun "$grid_job/job.slurm")"

# Bad options: one line, exit 1, nothing written.
bad="$WORK/bad"
expect_error gpus-zero 1 "^voxwave-cli: error: --gpus: must be at least 1 \(got 0\)$" "$bad/job.slurm" -- \
  cluster-job "$block" --gpus 0 --dir "$bad"
[ -e "$bad" ] && fail "gpus-zero: the folder was created"
expect_error per-node-zero 1 "--gpus-per-node: must be at least 1" "$bad/job.slurm" -- \
  cluster-job "$block" --gpus 2 --gpus-per-node 0 --dir "$bad"
expect_error bad-time 1 "--time: '1h' is not \[D-\]HH:MM:SS or MM:SS" "$bad/job.slurm" -- \
  cluster-job "$block" --gpus 2 --time 1h --dir "$bad"
expect_error bad-name 1 "--name: a space is not allowed" "$bad/job.slurm" -- \
  cluster-job "$block" --gpus 2 --name "my job" --dir "$bad"
expect_error bad-partition 1 "--partition: must not contain white space" "$bad/job.slurm" -- \
  cluster-job "$block" --gpus 2 --partition "a b" --dir "$bad"
expect_error bad-modules 1 "--modules: ';' is not allowed" "$bad/job.slurm" -- \
  cluster-job "$block" --gpus 2 --modules "cuda; reboot" --dir "$bad"
expect_error grid-ranks 1 "^voxwave-cli: error: --process-grid: 1x2x2 has 4 ranks, the job has 2 GPUs \(one rank each\)$" \
  "$bad/job.slurm" -- cluster-job "$block" --gpus 2 --process-grid 1x2x2 --dir "$bad"
expect_error grid-form 1 "--process-grid: '2x2' is not auto or ranks along x, y and z" "$bad/job.slurm" -- \
  cluster-job "$block" --gpus 4 --process-grid 2x2 --dir "$bad"
expect_error missing-scene 1 "$WORK/none.json" "$bad/job.slurm" -- \
  cluster-job "$WORK/none.json" --gpus 2 --dir "$bad"
expect_error no-gpus-option 2 "gpus" "$bad/job.slurm" -- cluster-job "$block" --dir "$bad"
[ -e "$bad" ] && fail "a bad option created the folder"
# A folder that cannot be created (its parent is a plain file; even root cannot).
echo x >"$WORK/plain-file"
expect_error unwritable-dir 1 "$WORK/plain-file/job: cannot create the folder" "" -- \
  cluster-job "$block" --gpus 2 --dir "$WORK/plain-file/job"
# A scene with a scan: the job runs `scan` (the ranks share the shots); --command and
# --process-grid reach the mpirun line; what cannot work is refused naming the option.
bscan="$SRC/assets/scenes/probe_bscan_sdh.json"
"$CLI" cluster-job "$bscan" --gpus 4 --dir "$WORK/scanjob" >/dev/null 2>"$WORK/stderr" ||
  fail "cluster-job of a scan exited $?: $(cat "$WORK/stderr")"
grep -qxF 'mpirun -np "$SLURM_NTASKS" voxwave-cli scan scene.json -o result.h5 --backend cuda' "$WORK/scanjob/job.slurm" ||
  fail "the scan job does not run scan: $(grep mpirun "$WORK/scanjob/job.slurm")"
grep -q "share of the scan's shots" "$WORK/scanjob/job.slurm" || fail "the scan job's header does not say how it runs"
bash -n "$WORK/scanjob/job.slurm" || fail "the scan job is not valid bash"
"$CLI" cluster-job "$bscan" --gpus 4 --command run --dir "$WORK/scanrun" >/dev/null 2>&1 || fail "--command run"
grep -qxF 'mpirun -np "$SLURM_NTASKS" voxwave-cli run scene.json -o result.h5 --backend cuda' "$WORK/scanrun/job.slurm" ||
  fail "--command run does not run run: $(grep mpirun "$WORK/scanrun/job.slurm")"
"$CLI" cluster-job "$block" --gpus 4 --process-grid 1x2x2 --dir "$WORK/gridjob" >/dev/null 2>&1 || fail "--process-grid"
grep -qxF 'mpirun -np "$SLURM_NTASKS" voxwave-cli run scene.json -o result.h5 --backend cuda --process-grid 1x2x2' \
  "$WORK/gridjob/job.slurm" || fail "the process grid is not passed: $(grep mpirun "$WORK/gridjob/job.slurm")"
# "auto" is the run's own choice: nothing to pass, and a scan job takes it.
"$CLI" cluster-job "$bscan" --gpus 4 --process-grid auto --dir "$WORK/autojob" >/dev/null 2>&1 || fail "--process-grid auto"
grep -q -- "--process-grid" "$WORK/autojob/job.slurm" && fail "--process-grid auto reached the script"
expect_error grid-ranks6 1 "^voxwave-cli: error: --process-grid: 1x2x2 has 4 ranks, the job has 6 GPUs \(one rank each\)$" \
  "$bad/job.slurm" -- cluster-job "$block" --gpus 6 --process-grid 1x2x2 --dir "$bad"
expect_error grid-form-char 1 "^voxwave-cli: error: --process-grid: '2x;2' is not auto or ranks along x, y and z" "$bad/job.slurm" -- \
  cluster-job "$block" --gpus 4 --process-grid "2x;2" --dir "$bad"
expect_error scan-grid 1 "^voxwave-cli: error: --process-grid: a scan shares its shots over the ranks" "$bad/job.slurm" -- \
  cluster-job "$bscan" --gpus 4 --process-grid 1x2x2 --dir "$bad"
expect_error scan-without-scan 1 "^voxwave-cli: error: --command: the scene has no scan" "$bad/job.slurm" -- \
  cluster-job "$block" --gpus 2 --command scan --dir "$bad"
expect_error bad-command 1 "^voxwave-cli: error: --command: unknown command 'image' \(expected run or scan\)$" \
  "$bad/job.slurm" -- cluster-job "$block" --gpus 2 --command image --dir "$bad"
[ -e "$bad" ] && fail "a refused scan job created the folder"
finish
