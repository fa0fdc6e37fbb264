#!/usr/bin/env bash
# Installs the Debian 12 packages ShardScope needs to build, test and run.
# Idempotent: when everything is present it only runs dpkg-query and returns.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config python3 python3-numpy
  qtbase5-dev libqt5svg5-dev qt5-qmake
  libgraphviz-dev graphviz
  nlohmann-json3-dev
  libopenmpi-dev openmpi-bin
  libgtest-dev libgmock-dev libbenchmark-dev
  libopenblas-dev
  libgoogle-perftools-dev
  llvm-14-tools mlir-14-tools clang
  time
  xvfb xauth fonts-dejavu-core
  chromium
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "shardscope: installing ${missing[*]}" >&2
if [[ $(id -u) -ne 0 ]]; then
  SUDO=sudo
else
  SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
