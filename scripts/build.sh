#!/usr/bin/env bash
# Configures and builds mocap into build/ (warnings are errors). Extra
# arguments go to cmake's configure step.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMOCAP_WERROR=ON "$@" >/dev/null
# Fails here, naming the package, when a library comes from outside setup.sh's list.
bash "$root/scripts/check_packages.sh" "$root/build/linked-files.txt" >/dev/null
cmake --build "$root/build" -j"$(nproc)"
