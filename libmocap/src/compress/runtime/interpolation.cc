#include <mocap/compress/interpolation.h>

#include "compress/runtime/interpolators.h"

namespace mocap {

std::string_view interpolation_name(Interpolation interpolation) {
  return interpolation == Interpolation::kCubic ? "cubic" : "slerp";
}

namespace detail {

// The slope (per frame) of each channel over each gap between the frames of
// `keys`, and the tangents at its frames, timed by its frame numbers.
std::vector<double> channel_tangents(const Skeleton& skeleton, const Motion& keys) {
  const std::size_t n = static_cast<std::size_t>(keys.frame_count());
  const std::size_t width = static_cast<std::size_t>(keys.channel_count);
  std::vector<bool> limited(width, false);
  for (const Bone& bone : skeleton.bones) {
    for (std::size_t k = 0; k < bone.dofs.size(); ++k) {
      if (is_rotation(bone.dofs[k])) limited[static_cast<std::size_t>(bone.first_channel) + k] = true;
    }
  }
  std::vector<double> slope(n > 0 ? (n - 1) * width : 0), tangent;
  for (std::size_t g = 0; g + 1 < n; ++g) {
    const int i = static_cast<int>(g);
    const double h = keys.frame_numbers[g + 1] - keys.frame_numbers[g];
    for (std::size_t c = 0; c < width; ++c) slope[g * width + c] = (keys.frame(i + 1)[c] - keys.frame(i)[c]) / h;
  }
  key_tangents<double>(keys.frame_numbers, slope, width, limited, 0.0, tangent);
  return tangent;
}

}  // namespace detail
}  // namespace mocap
