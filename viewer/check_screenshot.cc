// mocap-viewer-check: checks a headless screenshot of the viewer.
//
//   mocap-viewer-check shot.png subject.asf motion.amc frame  (the file's frame number)
//
// Poses the frame with the library, projects every joint with the viewer's
// own camera code (initial_camera, project) at the picture's size, and
// checks that the picture is not blank and that a skeleton-coloured pixel
// lies within 2 pixels of every joint that lands inside the picture.
// Exit 0 when it passes, 1 when it does not, 2 when an input cannot be read.
#include "camera.h"
#include "clip.h"
#include "colors.h"

#include <stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

int main(int argc, char** argv) {
  using namespace mocap::viewer;
  if (argc != 5) {
    std::fprintf(stderr, "usage: mocap-viewer-check shot.png subject.asf motion.amc frame\n");
    return 2;
  }
  int width = 0, height = 0, channels = 0;
  unsigned char* pixels = stbi_load(argv[1], &width, &height, &channels, 3);
  if (!pixels) {
    std::fprintf(stderr, "mocap-viewer-check: %s: cannot read the PNG (%s)\n", argv[1], stbi_failure_reason());
    return 2;
  }
  auto clip = load_clip(argv[2], argv[3]);
  if (!clip) {
    std::fprintf(stderr, "mocap-viewer-check: %s\n", clip.error().to_string().c_str());
    return 2;
  }
  // The frame by the file's frame number, as mocap-viewer --frame takes it.
  const int frame = frame_index(*clip, std::atoi(argv[4]));
  if (frame < 0) {
    std::fprintf(stderr, "mocap-viewer-check: %s: no frame numbered %s\n", argv[3], argv[4]);
    return 2;
  }
  pose_clip(*clip, frame);
  auto rgb = [&](int x, int y) { return pixels + (static_cast<std::size_t>(y) * width + x) * 3; };
  auto skeleton_at = [&](int x, int y) {
    if (x < 0 || y < 0 || x >= width || y >= height) return false;
    const unsigned char* p = rgb(x, y);
    return colors::is_skeleton_pixel(p[0], p[1], p[2]);
  };

  // Not blank: many colours, and a figure of a reasonable size.
  std::set<int> distinct;
  long skeleton_pixels = 0;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const unsigned char* p = rgb(x, y);
      if (distinct.size() < 4096) distinct.insert(p[0] << 16 | p[1] << 8 | p[2]);
      skeleton_pixels += skeleton_at(x, y);
    }
  }
  const double share = static_cast<double>(skeleton_pixels) / (static_cast<double>(width) * height);
  std::printf("%dx%d, %zu+ distinct colours, %.2f %% skeleton-coloured pixels\n", width, height, distinct.size(),
              100.0 * share);
  int failures = 0;
  if (distinct.size() < 64) std::printf("FAIL: the picture is nearly uniform\n"), ++failures;
  if (share < 0.002) std::printf("FAIL: almost no skeleton-coloured pixels\n"), ++failures;

  // Every joint: a skeleton pixel within 2 px of where the camera puts it.
  const Camera camera = initial_camera(clip->positions, static_cast<double>(width) / height);
  int inside = 0, hit = 0;
  for (std::size_t b = 0; b < clip->positions.size(); ++b) {
    const auto at = project(camera, clip->positions[b], width, height);
    if (!at || at->x() < 0 || at->y() < 0 || at->x() >= width || at->y() >= height) continue;
    ++inside;
    const int cx = static_cast<int>(at->x()), cy = static_cast<int>(at->y());
    bool found = false;
    for (int dy = -2; dy <= 2 && !found; ++dy) {
      for (int dx = -2; dx <= 2 && !found; ++dx) found = skeleton_at(cx + dx, cy + dy);
    }
    if (found) {
      ++hit;
    } else {
      const unsigned char* p = rgb(cx, cy);
      std::printf("FAIL: joint %s at pixel (%d, %d) is (%d, %d, %d), not skeleton-coloured\n",
                  clip->skeleton.bones[b].name.c_str(), cx, cy, p[0], p[1], p[2]);
      ++failures;
    }
  }
  std::printf("%d of %zu joints in the picture, %d on skeleton-coloured pixels\n", inside, clip->positions.size(), hit);
  if (inside < static_cast<int>(clip->positions.size())) {
    std::printf("FAIL: the camera leaves joints out of the picture\n");
    ++failures;
  }
  stbi_image_free(pixels);
  std::printf(failures ? "FAILED\n" : "OK\n");
  return failures ? 1 : 0;
}
