# Helpers for the CLI contract tests. Usage: source lib.sh "$CLI" "$SRC".
set -u
CLI="$1"
SRC="$2"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
FAILS=0
PY=/usr/bin/python3

fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }

# skip REASON: CTest reports the test skipped through the exit code (SKIP_RETURN_CODE 77, set by
# cmake/VoxwaveTesting.cmake), never through the words. Only before any check has failed.
skip() {
  [ "$FAILS" = 0 ] || finish
  echo "skipped: $*"
  exit 77
}

# expect_error NAME EXPECTED_EXIT PATTERN OUTFILE -- ARGS...: runs the CLI, checks the exit code,
# that stderr is exactly one line matching PATTERN, and that OUTFILE (and no temporary) exists.
expect_error() {
  local name="$1" code="$2" pattern="$3" out="$4"
  shift 5
  "$CLI" "$@" >"$WORK/stdout" 2>"$WORK/stderr"
  local rc=$?
  [ "$rc" = "$code" ] || fail "$name: exit $rc, expected $code; stderr: $(cat "$WORK/stderr")"
  local lines
  lines=$(wc -l <"$WORK/stderr")
  [ "$lines" = 1 ] || fail "$name: expected one line on stderr, got $lines: $(cat "$WORK/stderr")"
  grep -qE -- "$pattern" "$WORK/stderr" || fail "$name: stderr '$(cat "$WORK/stderr")' does not match '$pattern'"
  if [ -n "$out" ]; then
    [ ! -e "$out" ] || fail "$name: $out was written"
    ls "$out".tmp-* >/dev/null 2>&1 && fail "$name: a temporary file was left behind"
  fi
  return 0
}

# derive_scene BASE NAME PYTHON-STATEMENTS-ON-s: writes $WORK/NAME.json, the scene BASE with one
# edit (python3 keeps it valid JSON).
derive_scene() {
  $PY - "$1" "$WORK/$2.json" "$3" <<'PYEOF'
import json, sys
s = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(s, open(sys.argv[2], "w"))
PYEOF
}

# expect_refused_scene BASE NAME COMMAND EDIT PATTERN: the scene BASE with one edit (derive_scene),
# written as $WORK/NAME.json, is refused by `COMMAND $WORK/NAME.json --out FILE -q` (expect_error):
# exit 1, one line "NAME.json: PATTERN" on stderr, FILE not written.
expect_refused_scene() {
  local name="$2" command="$3" refused_out="$WORK/refused.h5"
  derive_scene "$1" "$name" "$4"
  expect_error "$name" 1 "$name.json: $5" "$refused_out" -- "$command" "$WORK/$name.json" --out "$refused_out" -q
}

finish() {
  if [ "$FAILS" = 0 ]; then echo "all checks passed"; exit 0; fi
  echo "$FAILS check(s) failed"
  exit 1
}
