#!/usr/bin/env bash
# One long libFuzzer run of a fuzz target, as recorded in bench/results/fuzz.md.
#   tests/fuzz/long_run.sh BUILD_DIR TARGET SECONDS OUT_DIR
# BUILD_DIR is a VOXWAVE_FUZZ=ON build (clang). New inputs go to OUT_DIR/corpus (the seed corpus
# in tests/fuzz/TARGET is only read); crash, leak and timeout reproducers to OUT_DIR/; the log,
# ending with libFuzzer's final statistics, to OUT_DIR/TARGET.log.
set -euo pipefail
if [[ $# -ne 4 ]]; then
  echo "usage: $0 BUILD_DIR TARGET SECONDS OUT_DIR" >&2
  exit 2
fi
build=$1 target=$2 seconds=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
binary="$build/tests/fuzz/fuzz_$target"
[[ -x $binary ]] || { echo "$binary: not built (configure with -DVOXWAVE_FUZZ=ON)" >&2; exit 2; }
[[ -d $here/$target ]] || { echo "$here/$target: no seed corpus" >&2; exit 2; }
mkdir -p "$out/corpus"
dict=()
[[ -f $here/$target.dict ]] && dict=(-dict="$here/$target.dict")
# -rss_limit_mb: an input that makes a reader allocate gigabytes is a finding, not a reason to
# swap. -timeout: a reader stuck on one input for 10 s is one too. -fork=1 with -ignore_*: the
# run goes on after a finding (each one is written to OUT_DIR as crash-*, leak-*, oom-* or
# timeout-*), so one run collects them all for triage. Leaks are detected (LSan) except the
# known ones inside libhdf5 (lsan_libhdf5.supp).
export LSAN_OPTIONS="suppressions=$here/lsan_libhdf5.supp:print_suppressions=0"
status=0
"$binary" "${dict[@]}" -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048 -timeout=10 \
  -fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 \
  -artifact_prefix="$out/" "$out/corpus" "$here/$target" > "$out/$target.log" 2>&1 || status=$?
tail -n 5 "$out/$target.log"
findings=$(find "$out" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'oom-*' -o -name 'timeout-*' \) | wc -l)
echo "fuzz_$target: exit $status, $findings finding(s) in $out"
[[ $status -eq 0 && $findings -eq 0 ]]
