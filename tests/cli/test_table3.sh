#!/usr/bin/env bash
# `table3` reproduces the error pattern of seed 000 Table 3 on a coarse paper model: INT8 M=8 at
# FP64 accuracy, M=4 at FP32's; bad input gives one line and exit 1.
source "$(dirname "$0")/lib.sh" "$1" "$2"

echo "earlier notes" >"$WORK/t3.md"
"$CLI" table3 --spacing 0.008 --seed 3 --out "$WORK/t3.md" >"$WORK/stdout" 2>"$WORK/stderr" ||
  fail "table3 failed: $(cat "$WORK/stderr")"
$PY - "$WORK/stdout" "$WORK/t3.md" <<'PYEOF' || fail "table3 numbers"
import sys
text = open(sys.argv[1]).read()
rows = {}
for line in text.splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) == 7 and cells[1] in ("cpu", "cuda"):
        rows[(cells[0], cells[1])] = cells
need = ["FP128", "FP64", "FP32", "INT8 (M=4)", "INT8 (M=8)"]
for n in need:
    assert (n, "cpu") in rows, (n, sorted(rows))
err = {k: float(v[5]) for k, v in rows.items()}
bits = {k: int(v[2]) for k, v in rows.items()}
assert [bits[(n, "cpu")] for n in need] == [112, 52, 23, 28, 56], bits
assert err[("FP128", "cpu")] == 0
for where in ("cpu", "cuda"):
    if ("INT8 (M=8)", where) not in rows:
        continue
    assert err[("INT8 (M=8)", where)] < 1e-15, (where, err)
    assert err[("INT8 (M=4)", where)] > 1e-10, (where, err)
    assert err[("FP32", where)] > 1e-9, (where, err)
    assert err[("FP64", where)] < 1e-15, (where, err)
# Without CUDA rows the table says why.
if ("FP64", "cuda") not in rows:
    assert "- cuda: not run (" in text, text
# The component compared is named, and the table was appended after the earlier notes.
assert "component: " in text and "node (" in text
md = open(sys.argv[2]).read()
assert md.startswith("earlier notes\n") and "| INT8 (M=8) | cpu | 56 |" in md, md[:200]
PYEOF

out="$WORK/never.md"
expect_error negative-spacing 1 "--spacing: must be > 0 \(got -1\)" "$out" -- table3 --spacing -1 --out "$out"
expect_error bad-backend 1 "--backend: unknown backend" "$out" -- table3 --backend quantum --out "$out"
expect_error missing-scene 1 "no-such.json: " "$out" -- table3 --scene "$WORK/no-such.json" --out "$out"
expect_error unwritable-out 1 "/nonexistent-dir/t.md: .*does not exist" "" -- table3 --out /nonexistent-dir/t.md
expect_error bad-seed 2 "error: " "" -- table3 --seed minus-one

finish
