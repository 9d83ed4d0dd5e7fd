#!/usr/bin/env bash
# The examples gallery's pictures, made by the app itself (issue 35): for each example of
# assets/examples/examples.json, run it for its picture_steps under a virtual X server and save
#   assets/examples/thumbnails/ID.png  the wavefield pane (the gallery's thumbnail), and
#   docs/examples/ID.png               the whole window at 1500 x 920.
# Usage: scripts/make_example_pictures.sh BUILD_DIR [ID...]   (no ID: every example)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: $0 BUILD_DIR [ID...]}
shift
app="$build/app/gui/voxwave"
[[ -x "$app" ]] || { echo "$0: $app: not built (ninja -C $build voxwave)" >&2; exit 2; }
command -v xvfb-run > /dev/null || { echo "$0: xvfb-run is not installed" >&2; exit 2; }
index="$root/assets/examples/examples.json"
mapfile -t rows < <(python3 -c '
import json, sys
for e in json.load(open(sys.argv[1]))["examples"]:
    print(e["scene"][:-5], e["picture_steps"])' "$index")
mkdir -p "$root/assets/examples/thumbnails" "$root/docs/examples"
for row in "${rows[@]}"; do
    read -r id steps <<< "$row"
    if (($# > 0)) && [[ " $* " != *" $id "* ]]; then continue; fi
    echo "== $id ($steps steps)"
    # The CPU, as in a classroom without a GPU; settings apart from the user's.
    XDG_CONFIG_HOME=$(mktemp -d) OMP_WAIT_POLICY=PASSIVE xvfb-run -a -s "-screen 0 1600x1000x24" \
        "$app" --example "$id" --run-steps "$steps" --window-size 1500x920 \
        --screenshot "$root/docs/examples/$id.png" --thumbnail "$root/assets/examples/thumbnails/$id.png"
done
