#!/usr/bin/env bash
# Fails when a folder of engine/ includes a header from a folder it may not depend on, or
# anything from Qt or VTK. The table is engine/CMakeLists.txt's, where each folder's library
# links exactly these.
#   check_engine_layers.sh ENGINE_DIR    check a tree (exit 0: clean, 1: violations listed)
#   check_engine_layers.sh --self-test   prove on scratch trees that a violation is caught
set -u

declare -A ALLOWED=(
  [core]="core"
  [model]="model core"
  [scene]="scene model core"
  [boundary]="boundary scene model core"
  [probe]="probe scene model core"
  [wave]="wave probe boundary scene model core"
  [distributed]="distributed wave probe boundary scene model core"
  [poisson]="poisson core"
  [iga]="iga core"
  [integration]="integration core"
)
# engine/ itself: without_cuda.cpp stands in for every folder's CUDA entry points.
ROOT_ALLOWED="core model scene boundary probe wave distributed poisson iga integration"

check() {
  local engine=$1 bad=0 file folder allowed line target
  [[ -d $engine ]] || { echo "check_engine_layers: $engine: not a directory"; return 2; }
  while IFS= read -r -d '' file; do
    folder=$(dirname "${file#"$engine"/}")
    if [[ $folder == . ]]; then
      allowed=$ROOT_ALLOWED
    elif [[ -n ${ALLOWED[$folder]+x} ]]; then
      allowed=${ALLOWED[$folder]}
    else
      echo "$file: folder '$folder' is not in the layer table (tests/layers/check_engine_layers.sh)"
      bad=1
      continue
    fi
    while IFS= read -r line; do
      if [[ $line =~ ^[0-9]+:[[:space:]]*#[[:space:]]*include[[:space:]]*\"([a-z_]+)/ ]]; then
        target=${BASH_REMATCH[1]}
        if [[ -n ${ALLOWED[$target]+x} && " $allowed " != *" $target "* ]]; then
          echo "$file:${line%%:*}: $folder may not include $target/ (allowed: $allowed)"
          bad=1
        fi
      elif [[ $line =~ ^[0-9]+:[[:space:]]*#[[:space:]]*include[[:space:]]*\<(Q[A-Za-z]*|vtk[A-Za-z0-9_]*)[/.\>] ]]; then
        echo "$file:${line%%:*}: the engine has no Qt and no VTK"
        bad=1
      fi
    done < <(grep -n '^[[:space:]]*#[[:space:]]*include' "$file")
  done < <(find "$engine" \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' \) -print0 | sort -z)
  return $bad
}

self_test() {
  local tmp rc
  tmp=$(mktemp -d) || return 1
  trap 'rm -rf "$tmp"' RETURN
  mkdir -p "$tmp/clean/core" "$tmp/clean/poisson" "$tmp/lab/core" "$tmp/lab/poisson" "$tmp/qt/wave"
  printf '#include "core/errors.hpp"\n' > "$tmp/clean/poisson/a.cpp"
  printf '#include <vector>\n' > "$tmp/clean/core/errors.hpp"
  printf '#include "core/errors.hpp"\n  #include "wave/backend.hpp"\n' > "$tmp/lab/poisson/a.cpp"
  printf '#include <vector>\n' > "$tmp/lab/core/errors.hpp"
  printf '#include <QString>\n' > "$tmp/qt/wave/a.hpp"
  check "$tmp/clean" >/dev/null || { echo "self-test: a clean tree was rejected"; return 1; }
  check "$tmp/lab" >/dev/null && { echo "self-test: poisson including wave/ was not caught"; return 1; }
  check "$tmp/qt" >/dev/null && { echo "self-test: Qt in the engine was not caught"; return 1; }
  echo "self-test: clean tree passes, a lab above the wave engine and Qt in the engine are caught"
  return 0
}

case ${1:-} in
  --self-test) self_test ;;
  "") echo "usage: $0 ENGINE_DIR | --self-test"; exit 2 ;;
  *) check "$1" && echo "engine layers: every #include within the allowed dependencies" ;;
esac
