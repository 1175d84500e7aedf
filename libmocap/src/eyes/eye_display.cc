#include <mocap/eyes/eye_display.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace mocap {
namespace {

struct Rgb {
  float r, g, b;
};

constexpr Rgb kGround{28, 28, 32};  // around the screens
constexpr Rgb kBezel{0, 0, 0};      // the screen outside its round panel: unlit
constexpr Rgb kSclera{236, 232, 224};
constexpr Rgb kIrisInner{104, 158, 196};
constexpr Rgb kIrisOuter{38, 82, 128};
constexpr Rgb kLimbus{18, 36, 62};
constexpr Rgb kPupil{8, 8, 10};
constexpr Rgb kHighlight{255, 255, 255};
constexpr Rgb kLid{192, 130, 102};
constexpr Rgb kLash{52, 28, 24};

// How much of a pixel a shape covers, from the signed distance (pixels) of
// the pixel's centre inside the shape's edge: a one-pixel ramp, so edges are
// smooth without supersampling.
float coverage(float inside_px) {
  return std::clamp(inside_px + 0.5f, 0.0f, 1.0f);
}

Rgb mix(Rgb a, Rgb b, float t) {
  return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

std::uint8_t byte_of(float v) {
  return static_cast<std::uint8_t>(std::clamp(v + 0.5f, 0.0f, 255.0f));
}

void fill(std::span<std::uint8_t> rgb, Rgb c) {
  for (std::size_t i = 0; i + 2 < rgb.size(); i += 3)
    rgb[i] = byte_of(c.r), rgb[i + 1] = byte_of(c.g), rgb[i + 2] = byte_of(c.b);
}

// The sample as the stream sends it: gaze in the unit disc, values in range.
EyeSample clamped_sample(const EyeSample& eye) {
  EyeFrame f;
  f.left = eye;
  return clamped(f).left;
}

}  // namespace

Result<void> EyeDisplayGeometry::validate() const {
  auto bad = [](const std::string& what) { return fail("", 0, "eye display: " + what); };
  if (screen_px < 16 || screen_px > 4096)
    return bad("screen " + std::to_string(screen_px) + " px: expected 16 to 4096");
  const double half = 0.5 * screen_px;
  if (!(effective_radius_px > 0.0 && effective_radius_px <= half)) {
    return bad("effective radius: expected (0, " + std::to_string(half) + "] px");
  }
  if (!(map_radius_px >= 0.0 && map_radius_px <= effective_radius_px)) {
    return bad("map radius: expected [0, effective radius]");
  }
  if (!(iris_radius_px > 0.0 && iris_radius_px <= effective_radius_px)) {
    return bad("iris radius: expected (0, effective radius]");
  }
  if (!(pupil_min_radius_px > 0.0 && pupil_min_radius_px <= pupil_max_radius_px)) {
    return bad("pupil radii: expected 0 < min <= max");
  }
  if (!(pupil_max_radius_px <= iris_radius_px)) return bad("pupil radius: expected at most the iris radius");
  if (!(lid_meet >= -0.5 && lid_meet <= 0.5)) return bad("lid seam: expected -0.5 to 0.5 of the effective radius");
  return {};
}

void draw_eye_display(const EyeDisplayGeometry& g, const EyeSample& in, std::span<std::uint8_t> rgb, int stride_px,
                      int left, int top) {
  const EyeSample eye = clamped_sample(in);
  const float half = 0.5f * static_cast<float>(g.screen_px);
  const float panel = static_cast<float>(g.effective_radius_px);
  const float iris_r = static_cast<float>(g.iris_radius_px);
  const float pupil_r =
      static_cast<float>(g.pupil_min_radius_px + eye.pupil * (g.pupil_max_radius_px - g.pupil_min_radius_px));
  // Facing the screen: the character's right (x > 0) is the viewer's left.
  const float iris_x = -static_cast<float>(eye.x * g.map_radius_px);
  const float iris_y = -static_cast<float>(eye.y * g.map_radius_px);
  const float shine_r = 0.12f * iris_r;
  const float shine_x = iris_x - 0.38f * iris_r, shine_y = iris_y - 0.38f * iris_r;
  // Lids: at opening l the upper lid's edge is at the seam moved up by l of
  // the way to the panel's top (the lower lid likewise down), bowed by l so
  // that a closed eye is a straight seam.
  const float l = static_cast<float>(eye.openness);
  const float seam = static_cast<float>(g.lid_meet) * panel;
  const float lash_upper = std::max(1.5f, 0.02f * panel), lash_lower = 0.5f * lash_upper;
  const float open_top = -panel - lash_upper - 1.0f,
              open_bottom = panel + lash_lower + 1.0f;  // out of sight, lashes too
  const float upper_mid = seam - l * (seam - open_top);
  const float lower_mid = seam + l * (open_bottom - seam);
  const float bow = 0.35f * l * panel;

  const int rows = static_cast<int>(rgb.size() / 3 / static_cast<std::size_t>(std::max(stride_px, 1)));
  const int y_end = std::min(top + g.screen_px, rows), x_end = std::min(left + g.screen_px, stride_px);
  for (int py = std::max(top, 0); py < y_end; ++py) {
    const float y = static_cast<float>(py - top) + 0.5f - half;
    std::uint8_t* row = rgb.data() + (static_cast<std::size_t>(py) * stride_px) * 3;
    for (int px = std::max(left, 0); px < x_end; ++px) {
      const float x = static_cast<float>(px - left) + 0.5f - half;
      const float r = std::hypot(x, y);
      const float lit = coverage(panel - r);
      Rgb c = kBezel;
      if (lit > 0.0f) {
        const float rim = r / panel;
        c = mix(kSclera, {150, 146, 140}, 0.35f * rim * rim * rim * rim);  // the eyeball turns away at the rim
        const float ri = std::hypot(x - iris_x, y - iris_y);
        const float iris = coverage(iris_r - ri);
        if (iris > 0.0f) {
          const float t = std::min(ri / iris_r, 1.0f);
          const Rgb ring =
              t < 0.86f ? mix(kIrisInner, kIrisOuter, t / 0.86f) : mix(kIrisOuter, kLimbus, (t - 0.86f) / 0.14f);
          c = mix(c, ring, iris);
          c = mix(c, kPupil, coverage(pupil_r - ri));
          c = mix(c, kHighlight, 0.85f * coverage(shine_r - std::hypot(x - shine_x, y - shine_y)));
        }
        const float across = x / panel;
        const float upper_edge = upper_mid - bow * across * across;
        const float lower_edge = lower_mid + bow * across * across;
        c = mix(c, kLash, coverage(upper_edge + lash_upper - y));
        c = mix(c, kLid, coverage(upper_edge - y));
        c = mix(c, kLash, coverage(y - (lower_edge - lash_lower)));
        c = mix(c, kLid, coverage(y - lower_edge));
        c = mix(kBezel, c, lit);
      }
      std::uint8_t* p = row + static_cast<std::size_t>(px) * 3;
      p[0] = byte_of(c.r), p[1] = byte_of(c.g), p[2] = byte_of(c.b);
    }
  }
}

EyePairSize eye_pair_size(const EyeDisplayGeometry& g) {
  const int margin = (g.screen_px + 19) / 20, gap = (g.screen_px + 9) / 10;
  auto even = [](int v) { return v + (v & 1); };
  return {even(2 * g.screen_px + 2 * margin + gap), even(g.screen_px + 2 * margin)};
}

void draw_eye_pair(const EyeDisplayGeometry& g, const EyeFrame& frame, std::span<std::uint8_t> rgb) {
  const EyePairSize size = eye_pair_size(g);
  const std::size_t bytes = static_cast<std::size_t>(size.width) * static_cast<std::size_t>(size.height) * 3;
  if (rgb.size() < bytes) return;
  rgb = rgb.first(bytes);
  fill(rgb, kGround);
  const int margin = (g.screen_px + 19) / 20, gap = (g.screen_px + 9) / 10;
  const int top = (size.height - g.screen_px) / 2;
  // A person facing the character sees its right eye on their left.
  draw_eye_display(g, frame.right, rgb, size.width, margin, top);
  draw_eye_display(g, frame.left, rgb, size.width, margin + g.screen_px + gap, top);
}

}  // namespace mocap
