#!/usr/bin/env bash
# Installs every Debian package mocap builds, tests or runs with. Idempotent:
# prints nothing when everything is already there. Run as root (or with sudo).
# Extra packages a script needs only for itself come as arguments, e.g.
# `scripts/setup.sh chromium` from report_screenshot.sh.
set -euo pipefail

packages=(
  build-essential cmake pkg-config python3
  libeigen3-dev libcli11-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libtinyobjloader-dev libassimp-dev
  libglfw3-dev libimgui-dev libepoxy-dev libstb-dev
  xvfb xauth libgl1-mesa-dri
  clang-16 libclang-rt-16-dev libc++-16-dev libc++abi-16-dev
  "$@"
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
