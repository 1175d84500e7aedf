// A motion of one skeleton: one row of channel values per frame, in SI units.
//
// Frame f holds `channel_count` values laid out bone after bone: bone b's
// dofs start at `skeleton.bones[b].first_channel`, in the order of its ASF dof
// line (the root's `order` line for bone 0). Rotations are in radians,
// translations and `l` in metres. Numbers only: how an AMC file laid them
// out (header lines, bone line order, angle unit) is io/amc.h's AmcLayout.
#pragma once

#include <span>
#include <vector>

namespace mocap {

struct Motion {
  double fps = 120.0;  // AMC files store no rate; CMU captured at 120 Hz
  int channel_count = 0;
  std::vector<int> frame_numbers;  // as written in the file, one per frame
  std::vector<double> values;      // frame_count() * channel_count values

  int frame_count() const { return static_cast<int>(frame_numbers.size()); }
  double duration_seconds() const { return frame_count() / fps; }
  std::span<const double> frame(int f) const {
    return {values.data() + static_cast<std::size_t>(f) * channel_count, static_cast<std::size_t>(channel_count)};
  }
  std::span<double> frame(int f) {
    return {values.data() + static_cast<std::size_t>(f) * channel_count, static_cast<std::size_t>(channel_count)};
  }
};

}  // namespace mocap
