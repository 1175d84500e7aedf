#!/usr/bin/env bash
# Configures and builds mocap into build/ (warnings are errors). Extra
# arguments go to cmake's configure step.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMOCAP_WERROR=ON "$@" >/dev/null
cmake --build "$root/build" -j"$(nproc)"
