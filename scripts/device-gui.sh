#!/usr/bin/env bash
# Runs the explorer on the GPU machine under Xvfb, with GLX on the NVIDIA driver, on the paper model
# (2 mm, backend auto: CUDA there), and reports the frames shown per second, the slice path the
# status bar names and a screenshot. The runtime comes from scripts/pack-gui-runtime.sh in two
# parts, one per call (the device takes 64 MiB per call; the unpacked folder, build-guirt/, is kept
# between calls of a warm machine):
#   call 1: bash scripts/device-gui.sh unpack-a          (carry .guiA)
#   call 2: bash scripts/device-gui.sh unpack-b gl run   (carry .guiB and .gl; GL=... picks the path)
# Logs and the screenshot go to $OUT.
set -uo pipefail
OUT=${OUT:-/tmp/voxwave-out}
D=$PWD/build-guirt
mkdir -p "$OUT" "$D"
for phase in "$@"; do
  case $phase in
    unpack-a) tar -C "$D" -xJf .guiA/a.tar.xz && echo "== runtime part A unpacked: $(du -sh "$D" | cut -f1)" ;;
    unpack-b) tar -C "$D" -xJf .guiB/b.tar.xz && echo "== runtime part B unpacked: $(du -sh "$D" | cut -f1)" ;;
    gl) for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig ;;
    run)
      # GL=glx-nvidia (GLX on the NVIDIA driver under Xvfb), glx-mesa (Mesa's software GLX: the
      # fallback, no CUDA-GL interop) or eglfs (Qt straight on an EGL device, no X server).
      GL=${GL:-glx-nvidia}
      R=$OUT/$GL
      mkdir -p "$R"
      export LD_LIBRARY_PATH=$D/lib QT_PLUGIN_PATH=$D/plugins LIBGL_DRIVERS_PATH=$D/dri
      cat >"$D/fonts.conf" <<FC
<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><dir>$D/fonts</dir><cachedir>$D/fontcache</cachedir></fontconfig>
FC
      export FONTCONFIG_FILE=$D/fonts.conf
      XPID=
      case $GL in
        glx-*)
          # Xvfb runs xkbcomp from its built-in path.
          [ -x /usr/bin/xkbcomp ] || cp "$D/bin/xkbcomp" /usr/bin/xkbcomp
          DISPLAY_NO=$((70 + RANDOM % 20))
          "$D/bin/Xvfb" :$DISPLAY_NO -screen 0 1920x1080x24 -xkbdir "$D/share/X11/xkb" +extension GLX >"$R/xvfb.log" 2>&1 &
          XPID=$!
          sleep 3
          export DISPLAY=:$DISPLAY_NO __GLX_VENDOR_LIBRARY_NAME=${GL#glx-}
          unset QT_QPA_PLATFORM ;;
        eglfs)
          ls -la /dev/dri 2>&1 | head -5
          export QT_QPA_PLATFORM=eglfs QT_QPA_EGLFS_INTEGRATION=eglfs_kms_egldevice QT_QPA_EGLFS_DEBUG=1
          export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json ;;
      esac
      echo "== $GL: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
      timeout 300 "$D/bin/voxwave" --run-steps "${STEPS:-3000}" --window-size 1920x1080 \
        --screenshot "$R/explorer-gpu.png" >"$R/gui.log" 2>&1
      echo "== $GL: voxwave exit $?"
      grep -v "^$" "$R/gui.log" | cut -c1-300 | tail -12
      if [ -n "$XPID" ]; then kill $XPID; wait $XPID 2>/dev/null; fi
      tail -3 "$R/xvfb.log" 2>/dev/null ;;
    *) echo "unknown phase $phase"; exit 2 ;;
  esac
done
