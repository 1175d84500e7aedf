// How a rebuild goes from key to key (compress/rebuild.h), and what the
// selection (compress/selection.h) measures.
#pragma once

#include <string_view>

namespace mocap {

// How the rebuild goes from key to key. Time is the frame index (or, in
// rebuild_motion, the AMC frame number), so uneven key gaps are honoured.
enum class Interpolation {
  // Rotations slerped along the short arc between the two keys around a
  // frame, offsets linear: the default, and what the selection measures.
  kSlerp,
  // A C1 cubic through all the keys. Offsets: cubic Hermite. Rotations: the
  // same Hermite curve written on the rotation group (Kim, Kim and Shin's
  // cumulative form, q_a exp(b1 w1) exp(b2 w2) exp(b3 w3)), which turns at
  // the keys' angular velocities and reproduces a constant angular velocity
  // exactly, as slerp does. The tangent (velocity) at an inner key is
  // Catmull-Rom's at the real key times, (h0 d0 + h1 d1) / (h0 + h1) for
  // slopes d0, d1 over gaps h0, h1 frames (for rotations the slopes are the
  // relative rotations' rotation vectors over the gaps; where one gap is at
  // least twice the other, a rotation's tangent is capped at 3 times the
  // longer gap's mean speed, so that a jump between two close keys is not
  // carried into the long gap beside them); at the first and last key it is
  // the one-sided slope of the gap beside it. With two keys the cubic is
  // slerp and linear offsets exactly. It can still overshoot where the
  // motion is jerky between keys.
  kCubic,
};

// "slerp" or "cubic".
std::string_view interpolation_name(Interpolation interpolation);

}  // namespace mocap
