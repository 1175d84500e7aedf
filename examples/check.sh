#!/usr/bin/env bash
# Proves the installed package (ctest's package.* cases, tests/CMakeLists.txt):
#   check.sh build <build dir> <work dir> <c++ compiler>
#     installs <build dir> into <work dir>/prefix, then builds every example
#     (examples/*/CMakeLists.txt) against it with find_package(mocap) only,
#     and fk_positions once more with pkg-config (mocap.pc) only.
#   check.sh compare <mocap> <work dir> <asf> <amc>
#     both fk_positions builds must print byte for byte what
#     `mocap fk <asf> <amc> --format csv` prints.
#   check.sh play <mocap> <work dir> <asf> <amc>
#     play_clip, built against mocap::clip_runtime alone, plays the .mkc
#     `mocap compress` writes (per-track and whole-pose) as the reference
#     sampler does, and holds no symbol of the encoder or the key selection.
set -euo pipefail
examples="$(cd "$(dirname "$0")" && pwd)"

case "${1:-}" in
build)
  build="$2" work="$3" cxx="$4"
  rm -rf "$work"
  mkdir -p "$work"
  prefix="$work/prefix"
  cmake --install "$build" --prefix "$prefix" >/dev/null
  for project in "$examples"/*/CMakeLists.txt; do
    name="$(basename "$(dirname "$project")")"
    # Nothing from the mocap tree: a fresh project, the prefix on CMAKE_PREFIX_PATH.
    # Assimp is hidden from find_package: no example asks for a tier that
    # reaches rig, so none may need it (a game links the runtime alone).
    cmake -S "$(dirname "$project")" -B "$work/$name" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_DISABLE_FIND_PACKAGE_assimp=ON >/dev/null
    cmake --build "$work/$name" >/dev/null
    echo "built $name against $prefix"
  done
  pc_dir="$(dirname "$(find "$prefix" -name mocap.pc -print -quit)")"
  flags="$(PKG_CONFIG_PATH="$pc_dir" pkg-config --cflags --libs mocap)"
  # shellcheck disable=SC2086  # pkg-config's output is a list of flags
  "$cxx" -std=c++23 -O2 "$examples/fk_positions/main.cc" -o "$work/fk_positions_pkgconfig" $flags
  echo "built fk_positions with pkg-config: $flags"
  ;;
compare)
  mocap="$2" work="$3" asf="$4" amc="$5"
  out="$(mktemp -d "$work/compare.XXXXXX")"  # cases run in parallel, some on same-named clips
  trap 'rm -rf "$out"' EXIT
  expected="$out/mocap.csv"
  "$mocap" fk "$asf" "$amc" --format csv >"$expected"
  for program in "$work/fk_positions/fk_positions" "$work/fk_positions_pkgconfig"; do
    actual="$out/$(basename "$program").csv"
    "$program" "$asf" "$amc" >"$actual"
    if ! cmp "$expected" "$actual"; then
      echo "$(basename "$program") $asf $amc: differs from mocap fk --format csv" >&2
      diff "$expected" "$actual" | head -n 5 >&2
      exit 1
    fi
  done
  echo "$(basename "$amc"): $(($(wc -l <"$expected") - 1)) rows equal to mocap fk"
  ;;
play)
  mocap="$2" work="$3" asf="$4" amc="$5"
  out="$(mktemp -d "$work/play.XXXXXX")"
  trap 'rm -rf "$out"' EXIT
  program="$work/play_clip/play_clip"
  if nm -C "$program" | grep -E 'mocap::(encode_clip|compress_keys|select_keys|compress_clip)|Assimp::' >&2; then
    echo "play_clip links the offline side of the compress tier or Assimp" >&2
    exit 1
  fi
  "$mocap" compress "$asf" "$amc" -o "$out/track.mkc" >/dev/null
  "$mocap" compress "$asf" "$amc" --ratio 0.1 -o "$out/pose.mkc" >/dev/null
  "$program" "$out/track.mkc"
  "$program" "$out/pose.mkc"
  ;;
*)
  echo "usage: check.sh build <build dir> <work dir> <c++> | compare|play <mocap> <work dir> <asf> <amc>" >&2
  exit 1
  ;;
esac
