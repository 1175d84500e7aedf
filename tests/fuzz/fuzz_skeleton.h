// The real CMU skeleton (MOCAP_FUZZ_ASF, data/09.asf) the fuzz targets parse
// against, read once.
#pragma once

#include <mocap/io/asf.h>

#include <cstdlib>

namespace mocap::fuzz {

inline const Skeleton& skeleton() {
  static const Skeleton s = [] {
    auto read = read_asf(MOCAP_FUZZ_ASF);
    if (!read) std::abort();
    return *read;
  }();
  return s;
}

}  // namespace mocap::fuzz
