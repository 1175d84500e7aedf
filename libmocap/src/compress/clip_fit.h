// Fitting one channel of a motion within a tolerance (internal to the
// compress tier): least-squares uniform B-splines, quantisation on the
// coarsest grid that holds the tolerance, and the delta order and Rice
// parameter with the fewest bits.
#pragma once

#include <mocap/compress/compressed_clip.h>

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace mocap::clip_fit {

struct FitOptions {
  int degree = 3;             // 1 or 3; 0: per track the cheaper of the two (uniform tracks)
  bool quantise = true;       // false: float32 points
  bool entropy = true;        // false: fixed-width residuals
  bool delta = true;          // false: order 0 only
  std::span<const int> keys;  // non-empty: keyed track at these frames (whole-pose mode)
};

// What a track's curve must hold on frame f, against the channel's values x:
//   |curve(f) - x(f)|             <= value * scale(f)
//   |d curve(f) - d x(f)|         <= rate * scale(f)
// with d the central difference per frame (one-sided at the ends): the rate
// bounds the velocity error (jitter), which the value bound alone leaves
// free to flip from frame to frame. Keyed tracks hold the value on their
// key frames only.
struct Tolerance {
  double value = 0.0;                                     // channel units, > 0
  double rate = std::numeric_limits<double>::infinity();  // channel units per frame, > 0; infinity: unbounded
  std::span<const double> scale;                          // per frame, in (0, 1]; empty: 1 on every frame
};

struct Fit {
  ClipTrack track;
  std::size_t bytes = 0;   // the track's bytes in the file
  int spacing_index = -1;  // into kSpacings, -1 for constant or keyed tracks
};

// Least-squares fits of one channel by spacing index, kept across calls
// (they do not depend on the tolerance).
struct ChannelCache {
  std::vector<std::vector<double>> points;  // empty: not fitted yet
};

// Candidate knot spacings (frames), increasing.
std::span<const int> spacings();

// The cheapest track whose curve holds `tolerance` against `values` (one
// per frame) on every frame (keyed tracks: on every key frame). Spacings
// tried: indices [first, last] of spacings(). Always succeeds: spacing 1 with
// a fine grid reproduces the values to float precision (if even that fails
// the tolerance, the finest fit is returned with its error).
Fit fit_channel(std::span<const double> values, const Tolerance& tolerance, const FitOptions& options, int first,
                int last, ChannelCache* cache = nullptr);

}  // namespace mocap::clip_fit
