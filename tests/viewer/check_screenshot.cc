// mocap-viewer-check: checks a headless screenshot of the viewer.
//
//   mocap-viewer-check shot.png subject.asf motion.amc frame [other.asf other.amc]
//   mocap-viewer-check --narrower a.png b.png   (the figure in a is narrower than in b)
//   mocap-viewer-check --shorter a.png b.png    (the figure in a is less tall than in b)
//   mocap-viewer-check --swatch shot.png R G B X (a 10x10 block of that colour, +-3, right of X % of the
//                                                width: a legend's swatch)
//   mocap-viewer-check --color shot.png R G B N (at least N pixels of that colour, +-40)
//   mocap-viewer-check --same a.png b.png       (the same size, every pixel's channels within 2)
//   mocap-viewer-check --differ a.png b.png     (the same size, at least 1 % of the pixels off by more than 16)
//   mocap-viewer-check --moved a.png b.png R G B N (at least N pixels of that colour, +-40, in each, and at
//                                                least a fifth of them not where the other has them:
//                                                that figure moved, under a still camera)
//   mocap-viewer-check --eyes shot.png subject.asf motion.amc frame (the Eyes window's picture of the
//                                                two displays at that frame, found 1:1 in the shot)
//
// The first form poses the frame with the library, lays out the other motion
// beside it as the viewer does (compare.h), projects every joint with the
// viewer's own camera code (flags_camera, project) at the picture's size, and
// checks that the picture is not blank, that a skeleton-coloured (orange)
// pixel lies within 2 pixels of every joint of the main clip and a
// blue one within 2 pixels of every joint of the other motion.
// Exit 0 when it passes, 1 when it does not, 2 when an input cannot be read.
#include "camera.h"
#include "camera_flags.h"
#include "colors.h"
#include "compare.h"
#include "eyes_panel.h"
#include "posed_capture.h"

#include <stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

namespace {

struct Picture {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;
  const unsigned char* at(int x, int y) const { return rgb.data() + (static_cast<std::size_t>(y) * width + x) * 3; }
};

bool read_picture(const char* path, Picture& picture) {
  int channels = 0;
  unsigned char* pixels = stbi_load(path, &picture.width, &picture.height, &channels, 3);
  if (!pixels) {
    std::fprintf(stderr, "mocap-viewer-check: %s: cannot read the PNG (%s)\n", path, stbi_failure_reason());
    return false;
  }
  picture.rgb.assign(pixels, pixels + static_cast<std::size_t>(picture.width) * picture.height * 3);
  stbi_image_free(pixels);
  return true;
}

// The box around the skeleton-coloured pixels: width and height, 0 when none.
void figure_box(const Picture& p, int& width, int& height) {
  int x_lo = p.width, x_hi = -1, y_lo = p.height, y_hi = -1;
  for (int y = 0; y < p.height; ++y) {
    for (int x = 0; x < p.width; ++x) {
      const unsigned char* c = p.at(x, y);
      if (!mocap::viewer::colors::is_skeleton_pixel(c[0], c[1], c[2])) continue;
      x_lo = std::min(x_lo, x), x_hi = std::max(x_hi, x), y_lo = std::min(y_lo, y), y_hi = std::max(y_hi, y);
    }
  }
  width = x_hi >= 0 ? x_hi - x_lo + 1 : 0;
  height = y_hi >= 0 ? y_hi - y_lo + 1 : 0;
}

bool near(const unsigned char* c, int r, int g, int b, int tolerance) {
  return std::abs(c[0] - r) <= tolerance && std::abs(c[1] - g) <= tolerance && std::abs(c[2] - b) <= tolerance;
}

int compare_boxes(bool width, const char* a_path, const char* b_path) {
  Picture a, b;
  if (!read_picture(a_path, a) || !read_picture(b_path, b)) return 2;
  int aw = 0, ah = 0, bw = 0, bh = 0;
  figure_box(a, aw, ah);
  figure_box(b, bw, bh);
  std::printf("%s: figure %dx%d px; %s: figure %dx%d px\n", a_path, aw, ah, b_path, bw, bh);
  if (aw == 0 || bw == 0) return std::printf("FAIL: no figure\n"), 1;
  // By a clear margin: 10 %.
  const bool ok = width ? aw * 10 < bw * 9 : ah * 10 < bh * 9;
  std::printf(ok ? "OK\n" : "FAIL: the first figure is not %s than the second by 10 %%\n",
              width ? "narrower" : "shorter");
  return ok ? 0 : 1;
}

int find_swatch(const char* path, int r, int g, int b, int from_percent) {
  Picture p;
  if (!read_picture(path, p)) return 2;
  constexpr int kSide = 10;
  for (int y = 0; y + kSide <= p.height; ++y) {
    for (int x = p.width * from_percent / 100; x + kSide <= p.width; ++x) {
      bool all = true;
      for (int dy = 0; dy < kSide && all; ++dy) {
        for (int dx = 0; dx < kSide && all; ++dx) all = near(p.at(x + dx, y + dy), r, g, b, 3);
      }
      if (all) return std::printf("OK: a %dx%d block of (%d, %d, %d) at (%d, %d)\n", kSide, kSide, r, g, b, x, y), 0;
    }
  }
  std::printf("FAIL: no %dx%d block of (%d, %d, %d)\n", kSide, kSide, r, g, b);
  return 1;
}

int count_color(const char* path, int r, int g, int b, long minimum) {
  Picture p;
  if (!read_picture(path, p)) return 2;
  long count = 0;
  for (int y = 0; y < p.height; ++y) {
    for (int x = 0; x < p.width; ++x) count += near(p.at(x, y), r, g, b, 40);
  }
  std::printf("%ld pixels near (%d, %d, %d), at least %ld wanted\n", count, r, g, b, minimum);
  std::printf(count >= minimum ? "OK\n" : "FAIL\n");
  return count >= minimum ? 0 : 1;
}

// Two pictures of the same size: `same` asks that no channel of any pixel
// differs by more than 2 (software GL renders the same frame the same way),
// `differ` that at least 1 % of the pixels differ by more than 16 somewhere.
int compare_pixels(bool same, const char* a_path, const char* b_path) {
  Picture a, b;
  if (!read_picture(a_path, a) || !read_picture(b_path, b)) return 2;
  if (a.width != b.width || a.height != b.height) {
    return std::printf("FAIL: %s is %dx%d, %s %dx%d\n", a_path, a.width, a.height, b_path, b.width, b.height), 1;
  }
  long off_by_2 = 0, off_by_16 = 0;
  for (int y = 0; y < a.height; ++y) {
    for (int x = 0; x < a.width; ++x) {
      const unsigned char *p = a.at(x, y), *q = b.at(x, y);
      const int d = std::max({std::abs(p[0] - q[0]), std::abs(p[1] - q[1]), std::abs(p[2] - q[2])});
      off_by_2 += d > 2;
      off_by_16 += d > 16;
    }
  }
  const long pixels = static_cast<long>(a.width) * a.height;
  std::printf("%s against %s: %ld of %ld pixels off by more than 2, %ld by more than 16\n", a_path, b_path, off_by_2,
              pixels, off_by_16);
  const bool ok = same ? off_by_2 == 0 : off_by_16 * 100 >= pixels;
  std::printf(ok ? "OK\n" : same ? "FAIL: not the same picture\n" : "FAIL: the pictures do not differ\n");
  return ok ? 0 : 1;
}

// The pixels of one colour (+-40) in two pictures of the same size: each
// has at least `minimum`, and those of one that are not in the other are a
// fifth of all at least (a figure of that colour drawn in both and posed
// otherwise, not the same picture of it).
int colour_moved(const char* a_path, const char* b_path, int r, int g, int b, long minimum) {
  Picture pa, pb;
  if (!read_picture(a_path, pa) || !read_picture(b_path, pb)) return 2;
  if (pa.width != pb.width || pa.height != pb.height) {
    return std::printf("FAIL: %s is %dx%d, %s %dx%d\n", a_path, pa.width, pa.height, b_path, pb.width, pb.height), 1;
  }
  long in_a = 0, in_b = 0, either = 0, one = 0;
  for (int y = 0; y < pa.height; ++y) {
    for (int x = 0; x < pa.width; ++x) {
      const bool u = near(pa.at(x, y), r, g, b, 40), v = near(pb.at(x, y), r, g, b, 40);
      in_a += u, in_b += v, either += u || v, one += u != v;
    }
  }
  std::printf("(%d, %d, %d): %ld pixels in %s, %ld in %s, %ld of %ld in one only\n", r, g, b, in_a, a_path, in_b,
              b_path, one, either);
  const bool ok = in_a >= minimum && in_b >= minimum && one * 5 >= either;
  std::printf(ok ? "OK\n" : "FAIL: not drawn in both (at least %ld pixels) or not moved\n", minimum);
  return ok ? 0 : 1;
}

// A lit joint or bone of the blue second motion (compare.h's palette).
bool is_blue_pixel(const unsigned char* c) {
  return c[2] >= 60 && c[2] - c[0] >= 25 && c[2] >= c[1];
}

// The two displays as the viewer's Eyes window draws them at `number` (the
// track update_eyes makes with the panel's defaults), found pixel for pixel
// (each channel within 8) somewhere in the shot.
int find_eye_pair(const char* shot, const char* asf, const char* amc, int number) {
  using namespace mocap::viewer;
  Picture p;
  if (!read_picture(shot, p)) return 2;
  auto clip = load_capture(asf, amc);
  if (!clip) return std::fprintf(stderr, "mocap-viewer-check: %s\n", clip.error().to_string().c_str()), 2;
  const int frame = frame_index(*clip, number);
  if (frame < 0) return std::fprintf(stderr, "mocap-viewer-check: %s: no frame numbered %d\n", amc, number), 2;
  EyesState eyes;
  eyes.enabled = true;
  update_eyes(eyes, *clip);
  const mocap::EyePairSize size = mocap::eye_pair_size(eyes.display);
  std::vector<unsigned char> want(static_cast<std::size_t>(size.width) * size.height * 3);
  mocap::draw_eye_pair(eyes.display, eyes.track[static_cast<std::size_t>(frame)], want);
  auto same = [](const unsigned char* a, const unsigned char* b) {
    return std::abs(a[0] - b[0]) <= 8 && std::abs(a[1] - b[1]) <= 8 && std::abs(a[2] - b[2]) <= 8;
  };
  // A row through both pupils first: a cheap way to reject most places.
  const int probe = size.height / 2;
  for (int y = 0; y + size.height <= p.height; ++y) {
    for (int x = 0; x + size.width <= p.width; ++x) {
      bool match = true;
      for (int dx = 0; dx < size.width && match; ++dx)
        match = same(p.at(x + dx, y + probe), &want[(probe * size.width + dx) * 3]);
      for (int dy = 0; dy < size.height && match; ++dy) {
        for (int dx = 0; dx < size.width && match; ++dx)
          match = same(p.at(x + dx, y + dy), &want[(dy * size.width + dx) * 3]);
      }
      if (match) {
        const mocap::EyeFrame& f = eyes.track[static_cast<std::size_t>(frame)];
        std::printf("OK: the %dx%d picture of the displays at frame %d (left l %.3f, right l %.3f) at (%d, %d)\n",
                    size.width, size.height, number, f.left.openness, f.right.openness, x, y);
        return 0;
      }
    }
  }
  std::printf("FAIL: no %dx%d picture of the two displays at frame %d in %s\n", size.width, size.height, number, shot);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace mocap::viewer;
  const std::string mode = argc > 1 ? argv[1] : "";
  if ((mode == "--narrower" || mode == "--shorter") && argc == 4)
    return compare_boxes(mode == "--narrower", argv[2], argv[3]);
  if (mode == "--swatch" && argc == 7) {
    return find_swatch(argv[2], std::atoi(argv[3]), std::atoi(argv[4]), std::atoi(argv[5]), std::atoi(argv[6]));
  }
  if ((mode == "--same" || mode == "--differ") && argc == 4) return compare_pixels(mode == "--same", argv[2], argv[3]);
  if (mode == "--eyes" && argc == 6) return find_eye_pair(argv[2], argv[3], argv[4], std::atoi(argv[5]));
  if (mode == "--moved" && argc == 8) {
    return colour_moved(argv[2], argv[3], std::atoi(argv[4]), std::atoi(argv[5]), std::atoi(argv[6]),
                        std::atol(argv[7]));
  }
  if (mode == "--color" && argc == 7) {
    return count_color(argv[2], std::atoi(argv[3]), std::atoi(argv[4]), std::atoi(argv[5]), std::atol(argv[6]));
  }
  if (argc != 5 && argc != 7) {
    std::fprintf(stderr, "usage: mocap-viewer-check shot.png subject.asf motion.amc frame [other.asf other.amc]\n");
    return 2;
  }
  int width = 0, height = 0, channels = 0;
  unsigned char* pixels = stbi_load(argv[1], &width, &height, &channels, 3);
  if (!pixels) {
    std::fprintf(stderr, "mocap-viewer-check: %s: cannot read the PNG (%s)\n", argv[1], stbi_failure_reason());
    return 2;
  }
  auto clip = load_capture(argv[2], argv[3]);
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
  pose_frame(*clip, frame);
  CompareState compare;
  if (argc == 7) {
    auto other = load_capture(argv[5], argv[6]);
    if (!other) {
      std::fprintf(stderr, "mocap-viewer-check: %s\n", other.error().to_string().c_str());
      return 2;
    }
    add_motion(compare, std::move(*other), *clip);
    pose_motions(compare, *clip);
  }
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
  const Camera camera = flags_camera(CameraFlags{}, CameraTarget{}, scene_points(compare, *clip), clip->positions,
                                     static_cast<double>(width) / height);
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
                  clip->capture.skeleton.bones[b].name.c_str(), cx, cy, p[0], p[1], p[2]);
      ++failures;
    }
  }
  std::printf("%d of %zu joints in the picture, %d on skeleton-coloured pixels\n", inside, clip->positions.size(), hit);
  if (inside < static_cast<int>(clip->positions.size())) {
    std::printf("FAIL: the camera leaves joints out of the picture\n");
    ++failures;
  }
  // The other motion's joints, where the layout put them: blue.
  for (const CompareMotion& m : compare.motions) {
    int blue = 0;
    for (std::size_t b = 0; b < m.placed.size(); ++b) {
      const auto at = project(camera, m.placed[b], width, height);
      if (!at || at->x() < 0 || at->y() < 0 || at->x() >= width || at->y() >= height) {
        std::printf("FAIL: joint %s of %s is outside the picture\n", m.clip.capture.skeleton.bones[b].name.c_str(),
                    m.name.c_str());
        ++failures;
        continue;
      }
      const int cx = static_cast<int>(at->x()), cy = static_cast<int>(at->y());
      bool found = false;
      for (int dy = -2; dy <= 2 && !found; ++dy) {
        for (int dx = -2; dx <= 2 && !found; ++dx) {
          const int x = cx + dx, y = cy + dy;
          found = x >= 0 && y >= 0 && x < width && y < height && is_blue_pixel(rgb(x, y));
        }
      }
      if (found) {
        ++blue;
      } else {
        const unsigned char* p = rgb(cx, cy);
        std::printf("FAIL: joint %s of %s at pixel (%d, %d) is (%d, %d, %d), not blue\n",
                    m.clip.capture.skeleton.bones[b].name.c_str(), m.name.c_str(), cx, cy, p[0], p[1], p[2]);
        ++failures;
      }
    }
    std::printf("%s: %d of %zu joints on blue pixels\n", m.name.c_str(), blue, m.placed.size());
  }
  stbi_image_free(pixels);
  std::printf(failures ? "FAILED\n" : "OK\n");
  return failures ? 1 : 0;
}
