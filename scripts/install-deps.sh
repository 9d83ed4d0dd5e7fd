#!/usr/bin/env bash
# Installs the Debian 12 packages voxwave needs, skipping what is already there.
set -euo pipefail
pkgs=(build-essential cmake ninja-build libhdf5-dev nlohmann-json3-dev libcli11-dev libeigen3-dev
      libgtest-dev python3-h5py python3-numpy
      qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-charts-dev libvtk9-dev xvfb xauth libgl1-mesa-dri
      libsuitesparse-dev openmpi-bin libopenmpi-dev
      pybind11-dev python3-dev python3-matplotlib ffmpeg)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
