#!/usr/bin/env bash
# `voxwave-cli bench-batched`: bad counts give one line naming the option and nothing written; a
# small CPU run appends one row whose batched traces equal the single runs' (the batched CPU step
# sums in the single engine's order: a difference of exactly 0) and the per shot-step line.
source "$(dirname "$0")/lib.sh" "$1" "$2"

out="$WORK/batched.md"
expect_error shots-zero 1 "^voxwave-cli: error: --shots: at least 1 shot$" "$out" -- bench-batched --shots 0 --out "$out"
expect_error steps-zero 1 "^voxwave-cli: error: --steps: at least 1 step$" "$out" -- bench-batched --steps 0 --out "$out"
expect_error thin-y 1 "^voxwave-cli: error: --ny: at least 2 elements per axis$" "$out" -- bench-batched --ny 1 --out "$out"
expect_error negative-singles 1 "^voxwave-cli: error: --single-runs: must not be negative$" "$out" -- bench-batched --single-runs -1 --out "$out"

"$CLI" bench-batched --size 8 --ny 5 --nz 4 --shots 3 --steps 12 --batch 2 --backend cpu --out "$out" \
  >"$WORK/stdout" 2>"$WORK/stderr" || fail "small run failed: $(cat "$WORK/stderr")"
[ -s "$out" ] || fail "nothing appended to $out"
$PY - "$out" <<'PYEOF' || fail "table check: see above"
import sys
text = open(sys.argv[1]).read()
rows = [l for l in text.splitlines() if l.startswith("| cpu |")]
assert len(rows) == 1, rows
cells = [c.strip() for c in rows[0].strip().strip("|").split("|")]
# backend, elements, shots, batch, steps, single (s), batched (s), speed-up, max rel. diff
assert cells[1:5] == ["160", "3", "2", "12"], cells
assert float(cells[8]) == 0.0, cells
assert "- per shot-step: batched " in text and "B a node)" in text, text
print("row:", rows[0])
PYEOF
finish
