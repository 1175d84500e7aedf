#include "outputs.h"

#include <mocap/io/atomic_write.h>
#include <mocap/io/image.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace mocap::viewer {

std::string frame_file(const std::string& prefix, int number) {
  char digits[16];
  std::snprintf(digits, sizeof digits, "%05d", number);
  return prefix + digits + ".png";
}

std::optional<std::string> save_png(Renderer& renderer, Offscreen& offscreen, const PosedCapture* clip,
                                    const ViewState& view, const std::string& path, const SceneExtras& extras) {
  if (auto ok = check_output_path(path); !ok) return ok.error().to_string();
  offscreen.bind();
  draw_scene(renderer, clip, view, offscreen.width(), offscreen.height(), extras);
  const std::vector<std::uint8_t> rgb = offscreen.read_rgb();
  Offscreen::bind_default();
  if (auto written = write_png(path, offscreen.width(), offscreen.height(), rgb); !written) {
    return written.error().to_string();
  }
  return std::nullopt;
}

int movie_frame(int first, int i, double clip_fps, double movie_fps) {
  return first + static_cast<int>(std::floor(i / movie_fps * clip_fps + 1e-6));
}

int movie_length(int first, int last, double clip_fps, double movie_fps) {
  return std::max(1, static_cast<int>(std::lround((last - first + 1) / clip_fps * movie_fps)));
}

}  // namespace mocap::viewer
