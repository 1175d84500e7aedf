// The units of numbers that cross the library's edges: metres and radians
// inside, centimetres for errors (and cm/s for their velocities).
#pragma once

namespace mocap {

inline constexpr double kCmPerM = 100.0;

}  // namespace mocap
