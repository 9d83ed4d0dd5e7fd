#!/usr/bin/env bash
# `voxwave-cli bench-accuracy`: every row carries the time loop's clock beside the whole run's
# (loop <= wall), the time to reach each target error is the log-log interpolation of both clocks
# between the two runs around it in error (recomputed here from the printed rows), and a spacing
# whose nodes miss the receivers is refused in one line before anything runs; --warm-up leaves the
# rows as they were and says so.
source "$(dirname "$0")/lib.sh" "$1" "$2"

out="$WORK/accuracy.md"
expect_error target-zero 1 "^voxwave-cli: error: --target: must be positive$" "$out" -- bench-accuracy --target 0 --out "$out" -q
# 16 mm / 3 (typed 5.333) is a GLL node spacing of even sem orders only: OVFEM's corners miss receiver A.
expect_error off-node 1 "^voxwave-cli: error: --spacings: 5\.333[0-9]* mm puts receiver 'A' off the nodes of ovfem \(they are nodes at 8 mm / k for every method, 16 mm / k for sem2 and sem4\)$" \
  "$out" -- bench-accuracy --methods ovfem --spacings 5.333 --out "$out" -q

# OVFEM at 8 and 4 mm (30^3 and 60^3 elements, a second on the CPU): one target between their
# errors, one above both (the coarsest run reaches it) and one below both.
"$CLI" bench-accuracy --methods ovfem --divisions 1 2 --target 0.5 100 1e-9 --out "$out" -q >"$WORK/stdout" 2>"$WORK/stderr" \
  || fail "bench-accuracy failed: $(cat "$WORK/stderr")"
# A spacing within 0.1 % of 16 mm / k is read as it: 4.001 runs at 4 mm, its receivers on their nodes.
"$CLI" bench-accuracy --methods ovfem --spacings 4.001 --target 0.5 --out "$WORK/snapped.md" -q >/dev/null 2>"$WORK/stderr" \
  || fail "4.001 mm was not read as 4 mm: $(cat "$WORK/stderr")"
grep -q "^| ovfem | 4 | 226981 |" "$WORK/snapped.md" || fail "4.001 mm: no 4 mm row: $(grep '^| ovfem' "$WORK/snapped.md")"

# --warm-up runs the first spacing once before its rows, unrecorded: one 8 mm row, with the error
# of the run without it, and the report says so.
"$CLI" bench-accuracy --methods ovfem --divisions 1 --target 0.5 --warm-up --out "$WORK/warm.md" -q >/dev/null 2>"$WORK/stderr" \
  || fail "bench-accuracy --warm-up failed: $(cat "$WORK/stderr")"
grep -q "first spacing run once before its rows, unrecorded (--warm-up)" "$WORK/warm.md" || fail "--warm-up: not in the report"
[ "$(grep -c '^| ovfem |' "$WORK/warm.md")" = 1 ] || fail "--warm-up: the warm-up run was recorded: $(grep '^| ovfem' "$WORK/warm.md")"
err_cold=$(awk -F'|' '$2 ~ /ovfem/ && $3+0 == 8 {print $7}' "$out" | tr -d ' ')
err_warm=$(awk -F'|' '$2 ~ /ovfem/ {print $7}' "$WORK/warm.md" | tr -d ' ')
[ -n "$err_cold" ] && [ "$err_cold" = "$err_warm" ] || fail "--warm-up: Err $err_warm, without it $err_cold"

$PY - "$out" <<'PYEOF' || fail "table check: see above"
import math, re, sys
text = open(sys.argv[1]).read()
lines = text.splitlines()
header = next(l for l in lines if l.startswith("| method |"))
cols = [c.strip() for c in header.strip("|").split("|")]
assert cols[cols.index("wall (s)") + 1] == "loop (s)", cols
rows = []
for l in lines:
    if not l.startswith("| ovfem |"):
        continue
    cells = [c.strip() for c in l.strip().strip("|").split("|")]
    row = dict(zip(cols, cells))
    rows.append({"ds": float(row["ds (mm)"]), "err": float(row["Err"]), "wall": float(row["wall (s)"]),
                 "loop": float(row["loop (s)"])})
assert [r["ds"] for r in rows] == [8, 4], rows
for r in rows:
    assert 0 < r["loop"] <= r["wall"], r
coarse, fine = rows
assert fine["err"] < 0.5 < coarse["err"], rows

def summary(target, clock):
    m = re.search(r"Time to reach Err %s .*?\n\n((?:- .*\n)+)" % re.escape(target), text)
    assert m, (target, text)
    line = next(l for l in m.group(1).splitlines() if l.startswith("- ovfem:"))
    return re.search(r"%s ([^,]+?)(?:,|$)" % clock, line).group(1)

# Log-log interpolation written here: t = t_above^(1 - x) t_below^x, x = log(T / e_above) / log(e_below / e_above).
# The printed times carry 4 significant digits (half a unit of the fourth: hu), so the value must lie
# between the interpolations of the rounded times' extremes (and the summary's own 4 digits).
def hu(v):
    return 0.5 * 10 ** (math.floor(math.log10(v)) - 3)
x = math.log(0.5 / coarse["err"]) / math.log(fine["err"] / coarse["err"])
for clock in ("wall", "loop"):
    got = summary("0.5", clock)
    assert got.endswith(" s"), got
    v = float(got[:-2])
    a, b = coarse[clock], fine[clock]
    lo = math.exp((1 - x) * math.log(max(a - hu(a), 1e-9)) + x * math.log(b - hu(b)))
    hi = math.exp((1 - x) * math.log(a + hu(a)) + x * math.log(b + hu(b)))
    assert lo * (1 - 5e-4) <= v <= hi * (1 + 5e-4), (clock, v, lo, hi, rows)
    print("%s to Err 0.5: %s (interpolated here: %.5g..%.5g)" % (clock, got, lo, hi))
    # Above both errors: the coarsest run's time is the bound; below both: not reached.
    got = summary("100", clock)
    assert got.startswith("at most "), got
    assert abs(float(got[len("at most "):-2]) - a) <= hu(a), (got, a)
    assert summary("1e-09", clock) == "not reached", summary("1e-09", clock)
PYEOF
finish
