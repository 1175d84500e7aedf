// Internal to the io tier: what io/bvh.h's reader, converter and writer
// (bvh_read.cc, bvh_convert.cc, bvh_write.cc) share.
#pragma once

#include <algorithm>
#include <array>
#include <numbers>
#include <string_view>

namespace mocap::bvh {

inline constexpr double kDegrees = std::numbers::pi / 180.0;
// The file's channel words by parse_bvh_channel's codes: 0..2 Xposition..
// Zposition, 3..5 Xrotation..Zrotation.
inline constexpr std::array<std::string_view, 6> kChannelNames = {"Xposition", "Yposition", "Zposition",
                                                                  "Xrotation", "Yrotation", "Zrotation"};

inline bool equal_nocase(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return (x | 0x20) == (y | 0x20); });
}

}  // namespace mocap::bvh
