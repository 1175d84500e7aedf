#!/usr/bin/env bash
# Installs every Debian package mocap builds, tests or runs with. Idempotent:
# prints nothing when everything is already there. Run as root (or with sudo).
# Extra packages a script needs only for itself come as arguments, e.g.
# `scripts/setup.sh chromium` from report_screenshot.sh. `--list` prints the
# packages, one a line, and installs nothing (scripts/check_packages.sh).
# Named groups stand for several packages: `slurm` (a one-node cluster for
# scripts/slurm_report.sh), `blender` (the real-client check), `ffmpeg`,
# `fuzz` (clang 16 and libc++ for scripts/fuzz.sh's libFuzzer build: some
# 300 MB that the builds and tests do not use).
set -euo pipefail
list_only=0
if [ "${1:-}" = "--list" ]; then list_only=1; shift; fi
extras=()
for a in "$@"; do
  case "$a" in
    slurm) extras+=(slurm-wlm slurm-client munge) ;;
    blender) extras+=(blender python3-numpy) ;;  # Blender's glTF importer needs numpy
    fuzz) extras+=(clang-16 libclang-rt-16-dev libc++-16-dev libc++abi-16-dev) ;;
    *) extras+=("$a") ;;
  esac
done

packages=(
  build-essential cmake ninja-build pkg-config python3 ccache
  libeigen3-dev libcli11-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libtinyobjloader-dev libassimp-dev zlib1g-dev
  libglfw3-dev libimgui-dev libepoxy-dev libstb-dev
  xvfb xauth libgl1-mesa-dri
  nodejs npm ca-certificates
  pybind11-dev python3-dev python3-numpy python3-pytest python3-matplotlib python3-pip python3-setuptools python3-venv
  clang-format-14
  ${extras[@]+"${extras[@]}"}
)

# Node.js (the glTF validator's runtime) may come with its own npm, from
# another source than Debian; Debian's npm conflicts with that nodejs.
if command -v npm >/dev/null; then
  for i in "${!packages[@]}"; do [ "${packages[$i]}" = npm ] && unset 'packages[i]'; done
  packages=("${packages[@]}")
fi

if [ $list_only -eq 1 ]; then printf '%s\n' "${packages[@]}"; exit 0; fi

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
