// Fitting one channel of a motion within a tolerance (internal to the
// compress tier): least-squares uniform B-splines, quantisation on the
// coarsest grid that holds the tolerance, and the delta order and Rice
// parameter with the fewest bits.
#pragma once

#include <mocap/compress/clip_file.h>

#include <cstddef>
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

struct Fit {
  ClipTrack track;
  std::size_t bytes = 0;     // the track's bytes in the file
  double max_error = 0.0;    // of the decoded points, over the frames measured
  int spacing_index = -1;    // into kSpacings, -1 for constant or keyed tracks
};

// Least-squares fits of one channel by spacing index, kept across calls
// (they do not depend on the tolerance).
struct ChannelCache {
  std::vector<std::vector<double>> points;  // empty: not fitted yet
  std::vector<double> fit_error;            // of the float points
};

// Candidate knot spacings (frames), increasing.
std::span<const int> spacings();

// The cheapest track whose curve stays within `tolerance` of `values` (one
// per frame) on every frame (keyed tracks: on every key frame). Spacings
// tried: indices [first, last] of spacings(). Always succeeds: spacing 1 with
// a fine grid reproduces the values to float precision (if even that fails
// the tolerance, the finest fit is returned with its error).
Fit fit_channel(std::span<const double> values, double tolerance, const FitOptions& options, int first, int last,
                ChannelCache* cache = nullptr);

}  // namespace mocap::clip_fit
