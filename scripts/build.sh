#!/usr/bin/env bash
# Configures and builds mocap into build/ (warnings are errors), as a unity
# build (each target's sources compiled 8 to a unit, so that heavy headers
# are parsed once per unit; for incremental work configure a build of your
# own without it). Extra arguments go to cmake's configure step.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/cmake_env.sh"
cmake_dir "$root/build"
cmake -S "$root" -B "$root/build" "${cmake_env[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMOCAP_WERROR=ON -DCMAKE_UNITY_BUILD=ON \
  "$@" >/dev/null
# Fails here, naming the package, when a library comes from outside setup.sh's list.
bash "$root/scripts/check_packages.sh" "$root/build/linked-files.txt" >/dev/null
cmake --build "$root/build" -j"$(nproc)"
