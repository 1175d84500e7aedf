// The scene's colours (linear RGB in [0, 1]), shared by the renderer and the
// screenshot check, which looks for skeleton-coloured pixels.
#pragma once

#include <array>

namespace mocap::viewer::colors {

using Rgb = std::array<float, 3>;

inline constexpr Rgb kBackgroundTop = {0.23f, 0.25f, 0.29f};
inline constexpr Rgb kBackgroundBottom = {0.11f, 0.12f, 0.14f};
inline constexpr Rgb kGridMinor = {0.30f, 0.32f, 0.35f};
inline constexpr Rgb kGridMajor = {0.42f, 0.44f, 0.48f};
inline constexpr Rgb kBone = {0.95f, 0.60f, 0.22f};   // warm orange
inline constexpr Rgb kJoint = {1.00f, 0.86f, 0.58f};  // pale gold
inline constexpr Rgb kSelected = {0.25f, 0.85f, 1.00f};
inline constexpr Rgb kAxisX = {0.90f, 0.22f, 0.20f};
inline constexpr Rgb kAxisY = {0.30f, 0.80f, 0.30f};
inline constexpr Rgb kAxisZ = {0.25f, 0.45f, 0.95f};
inline constexpr Rgb kGhost = {0.45f, 0.75f, 1.00f};  // a second motion drawn over the first
inline constexpr Rgb kSkin = {0.78f, 0.74f, 0.70f};
inline constexpr Rgb kModel = {0.55f, 0.70f, 0.90f};    // a retargeted character (model_panel.h)
inline constexpr Rgb kStretch = {1.00f, 0.00f, 0.55f};  // a skinned mesh's overstretched edges (skin_panel.h)

// True for a pixel (8-bit sRGB as read back) of a lit bone or joint: warm,
// orange to gold, in light or shade. Background, grid and axes fail it.
inline bool is_skeleton_pixel(int r, int g, int b) {
  return r >= 60 && r - b >= 35 && g * 100 >= r * 35 && g * 100 <= r * 95;
}

}  // namespace mocap::viewer::colors
