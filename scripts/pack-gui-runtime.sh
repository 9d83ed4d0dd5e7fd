#!/usr/bin/env bash
# Packs the explorer built here (build/app/gui/voxwave) with the runtime it needs on the GPU machine,
# which has the NVIDIA driver and CUDA but no Qt, VTK, X server or fonts (docs/architecture.md#building):
# the libraries it and Xvfb load (not glibc, libstdc++ or CUDA's, which are there), Qt's xcb platform
# and GLX integration plugins, Xvfb and xkbcomp with the XKB data, Mesa's software GLX driver (Xvfb's
# own GLX needs it), Mesa's GLX client, Qt's EGL platforms and one font. The device takes at most 64 MiB per call, so the pack comes in two
# parts: .guiA (explorer, Qt, VTK, Xvfb) and .guiB (Mesa's driver and LLVM, which it needs).
# scripts/device-gui.sh unpacks and runs them. Usage: bash scripts/pack-gui-runtime.sh [BUILD_DIR]
set -euo pipefail
BUILD=${1:-build}
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
A=$STAGE/a B=$STAGE/b
mkdir -p "$A"/{bin,lib,plugins/platforms,plugins/xcbglintegrations,share/X11,fonts} "$B"/{lib,dri}
QTP=$(qtpaths6 --query QT_INSTALL_PLUGINS 2>/dev/null || echo /usr/lib/x86_64-linux-gnu/qt6/plugins)
cp "$BUILD/app/gui/voxwave" /usr/bin/Xvfb /usr/bin/xkbcomp "$A/bin/"
cp "$QTP/platforms/libqxcb.so" "$QTP/platforms/libqoffscreen.so" "$A/plugins/platforms/"
cp "$QTP"/xcbglintegrations/*.so "$A/plugins/xcbglintegrations/"
cp -r /usr/share/X11/xkb "$A/share/X11/"
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf "$A/fonts/"
cp /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so "$B/dri/"
# Part B: the GL paths besides GLX on the NVIDIA driver: Mesa's GLX (client and Xvfb's software
# driver) and Qt's EGL platforms (eglfs on an EGL device, minimalegl).
cp /usr/lib/x86_64-linux-gnu/libGLX_mesa.so.0 "$B/lib/"
mkdir -p "$B/plugins/platforms" "$B/plugins/egldeviceintegrations"
cp "$QTP/platforms/libqeglfs.so" "$QTP/platforms/libqminimalegl.so" "$B/plugins/platforms/"
cp "$QTP/egldeviceintegrations/libqeglfs-kms-egldevice-integration.so" "$B/plugins/egldeviceintegrations/"
# Every library these load, less what the GPU machine has (glibc, the C++ runtime, CUDA, NCCL);
# part B gets those that part A does not already hold.
needs() {
  for f in "$@"; do ldd "$f" | awk '$3 ~ /^\// {print $3}'; done | sort -u |
    grep -v -E '/(libc|libm|libstdc\+\+|libgcc_s|ld-linux-x86-64|libpthread|libdl|librt)\.so|/libcuda\.so|/libcu[A-Za-z]*\.so|/libnv[A-Za-z]*\.so|/libnccl'
}
needs "$A"/bin/* "$A"/plugins/*/*.so | xargs cp -L -t "$A/lib/"
needs "$B"/dri/*.so "$B"/lib/*.so* "$B"/plugins/*/*.so | while read -r lib; do
  [ -e "$A/lib/$(basename "$lib")" ] || cp -L "$lib" "$B/lib/"
done
mkdir -p .guiA .guiB
tar -C "$A" -cf - . | xz -T0 -6 >.guiA/a.tar.xz
tar -C "$B" -cf - . | xz -T0 -6 >.guiB/b.tar.xz
du -h .guiA/a.tar.xz .guiB/b.tar.xz
