#!/usr/bin/env bash
# `cmake --install` into an empty prefix, then `import mocap` from there alone:
#   install_check.sh <build> <prefix> <python3> <lib/python3/dist-packages> <data>
set -euo pipefail
build=$1 prefix=$2 python=$3 site=$4 data=$5
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
package="$prefix/$site/mocap"
for f in __init__.py _mocap.pyi py.typed; do
  [ -f "$package/$f" ] || { echo "install_check: $package/$f was not installed" >&2; exit 1; }
done
ls "$package"/_mocap.*.so >/dev/null
cd "$prefix"  # not the source tree: nothing but the prefix can be imported
PYTHONPATH="$prefix/$site" "$python" -c "
import sys, mocap
assert mocap.__file__ == '$package/__init__.py', mocap.__file__
clip = mocap.read_clip('$data/09.asf', '$data/09_06.amc')
assert clip.world_positions().shape == (141, 31, 3)
print('import mocap', mocap.__version__, 'from', mocap.__file__)
"
