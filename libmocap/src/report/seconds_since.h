// Wall-clock seconds since `start`: the report's and each clip's timing.
#pragma once

#include <chrono>

namespace mocap {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace mocap
