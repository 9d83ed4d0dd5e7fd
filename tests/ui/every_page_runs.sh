#!/usr/bin/env bash
# Every --page of the app together with --run-steps finishes and writes its screenshot (a
# Solvers page once hung: --run-steps 400 became a Poisson level the sweep never finished).
# The page list is the app's own (the error for an unknown page names them), so a new page is
# covered without editing this file. Usage: every_page_runs.sh VOXWAVE_GUI XVFB_RUN
set -u
GUI="$1"
XVFB_RUN="$2"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
# The refusals open no window: Qt's offscreen platform is enough for them.
refused() { QT_QPA_PLATFORM=offscreen "$GUI" "$@"; }

# An unknown page is refused with one line naming the pages, exit 2.
refused --page no-such-page >"$WORK/out" 2>"$WORK/err"
rc=$?
[ "$rc" = 2 ] || fail "an unknown page gave exit $rc, expected 2: $(cat "$WORK/err")"
pages=$(sed -n 's/.*--page: unknown page .no-such-page. (pages: \(.*\))$/\1/p' "$WORK/err" | tr -d ',')
n=$(echo $pages | wc -w)
[ "$n" -ge 9 ] || fail "expected the nine pages in the error, got '$pages' from: $(cat "$WORK/err")"
refused --run-steps many >/dev/null 2>"$WORK/err"
rc=$?
[ "$rc" = 2 ] && grep -q "run-steps" "$WORK/err" || fail "--run-steps many gave exit $rc: $(cat "$WORK/err")"

# 400 is the step count of the report: beyond the Poisson page's finest level (clamped, said
# once) and rounded down to N = 256 on the IGA page. Elsewhere 40 keeps the runs short on the CPU:
# 40 steps of a wave page, an integration sweep over 40 elements.
for page in $pages; do
  case $page in
    solvers-poisson | solvers-iga) n=400 ;;
    *) n=40 ;;
  esac
  shot="$WORK/$page.png"
  # The limit only turns a hang into a failure; each run takes seconds on an idle machine.
  timeout 600 "$XVFB_RUN" -a -s "-screen 0 1600x1000x24" "$GUI" --page "$page" --run-steps $n --screenshot "$shot" \
    >"$WORK/out" 2>"$WORK/err"
  rc=$?
  if [ "$rc" = 124 ]; then
    fail "--page $page --run-steps $n did not finish in 600 s"
    continue
  fi
  [ "$rc" = 0 ] || fail "--page $page --run-steps $n exited $rc: $(cat "$WORK/err")"
  grep -q "^screenshot: $shot$" "$WORK/out" || fail "--page $page: no screenshot line: $(cat "$WORK/out")"
    # A PNG of a window (the window grows past the asked 1500 x 920 to fit its docks).
  python3 - "$shot" <<'PYEOF' || fail "--page $page: $shot is not a picture of the window"
import struct, sys
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n", b[:8]
w, h = struct.unpack(">II", b[16:24])
assert w >= 1000 and h >= 500, (w, h)
PYEOF
  case $page in
    solvers-poisson) grep -q "finest level 5" "$WORK/err" || fail "the Poisson level clamp was not said: $(cat "$WORK/err")" ;;
    solvers-iga) grep -q "on solvers-iga" "$WORK/err" && fail "N = 400 is in the IGA page's range: $(cat "$WORK/err")" ;;
  esac
  echo "page $page: --run-steps $n finished, $(stat -c %s "$shot") bytes"
done

if [ "$FAILS" = 0 ]; then echo "all checks passed"; exit 0; fi
echo "$FAILS check(s) failed"
exit 1
