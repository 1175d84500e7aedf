// The displays' picture (eye_display.h): the geometry's bounds, where the
// iris and pupil land for a gaze, the lids at an opening, the unlit corners
// of the round panel, which eye goes on which side, and that drawing stays
// inside its screen. Pixels are classified by colour: the palette is the
// renderer's (blue iris, near-black pupil and bezel, skin lids, white sclera).
#include <gtest/gtest.h>
#include <mocap/eyes/eye_display.h>
#include <mocap/eyes/eye_preview.h>
#include <mocap/io/movie.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <vector>

#include "test_data.h"

namespace mocap {
namespace {

struct Picture {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
  const std::uint8_t* at(int x, int y) const { return rgb.data() + (static_cast<std::size_t>(y) * width + x) * 3; }
};

Picture one_display(const EyeSample& eye, const EyeDisplayGeometry& g = {}) {
  Picture p{g.screen_px, g.screen_px,
            std::vector<std::uint8_t>(static_cast<std::size_t>(g.screen_px) * g.screen_px * 3)};
  draw_eye_display(g, eye, p.rgb, p.width, 0, 0);
  return p;
}

bool dark(const std::uint8_t* c) {
  return c[0] < 30 && c[1] < 30 && c[2] < 30;
}
bool blue(const std::uint8_t* c) {
  return c[2] > c[0] + 40 && c[2] > 90;
}
bool skin(const std::uint8_t* c) {
  return c[0] > 170 && c[0] - c[2] > 60;
}
bool white(const std::uint8_t* c) {
  return c[0] > 200 && c[1] > 200 && c[2] > 190;
}

long count(const Picture& p, bool (*is)(const std::uint8_t*)) {
  long n = 0;
  for (int y = 0; y < p.height; ++y) {
    for (int x = 0; x < p.width; ++x) n += is(p.at(x, y));
  }
  return n;
}

TEST(EyeDisplay, DefaultsAreTheRoundPanelAndEveryBadFieldFails) {
  const EyeDisplayGeometry g;
  ASSERT_TRUE(g.validate());
  EXPECT_EQ(g.screen_px, 240);
  EXPECT_EQ(g.effective_radius_px, 120.0);
  EXPECT_EQ(g.map_radius_px + g.iris_radius_px, g.effective_radius_px);  // the iris reaches the rim at gaze 1
  auto bad = [&](auto change) {
    EyeDisplayGeometry h = g;
    change(h);
    return !h.validate();
  };
  EXPECT_TRUE(bad([](EyeDisplayGeometry& h) { h.screen_px = 8; }));
  EXPECT_TRUE(bad([](EyeDisplayGeometry& h) { h.effective_radius_px = 121.0; }));
  EXPECT_TRUE(bad([](EyeDisplayGeometry& h) { h.map_radius_px = 130.0; }));
  EXPECT_TRUE(bad([](EyeDisplayGeometry& h) { h.iris_radius_px = 0.0; }));
  EXPECT_TRUE(bad([](EyeDisplayGeometry& h) { h.pupil_min_radius_px = 40.0; }));
  EXPECT_TRUE(bad([](EyeDisplayGeometry& h) { h.pupil_max_radius_px = 70.0; }));
  EXPECT_TRUE(bad([](EyeDisplayGeometry& h) { h.lid_meet = 0.9; }));
  EXPECT_TRUE(bad([](EyeDisplayGeometry& h) { h.effective_radius_px = std::nan(""); }));
  const EyePairSize size = eye_pair_size(g);
  EXPECT_EQ(size.width, 528);
  EXPECT_EQ(size.height, 264);
  EyeDisplayGeometry odd;
  odd.screen_px = 101;
  odd.effective_radius_px = 50.0;
  odd.map_radius_px = odd.iris_radius_px = 25.0;
  odd.pupil_max_radius_px = 20.0;
  EXPECT_EQ(eye_pair_size(odd).width % 2, 0);
  EXPECT_EQ(eye_pair_size(odd).height % 2, 0);
}

TEST(EyeDisplay, TheIrisSitsAtTheGazeAsSeenFacingTheScreen) {
  const Picture centre = one_display({0.0, 0.0, 1.0, 0.5});
  EXPECT_TRUE(dark(centre.at(120, 120)));        // the pupil
  EXPECT_TRUE(blue(centre.at(120 + 45, 120)));   // the iris beyond a pupil of 26 px
  EXPECT_TRUE(white(centre.at(120 + 90, 120)));  // the sclera beyond the iris
  // x > 0 is the character's right: the viewer's left.
  const Picture right = one_display({1.0, 0.0, 1.0, 0.5});
  EXPECT_TRUE(dark(right.at(60, 120)));
  EXPECT_TRUE(white(right.at(120 + 40, 120)));
  EXPECT_TRUE(blue(right.at(100, 120)));
  // y > 0 is up.
  const Picture up = one_display({0.0, 1.0, 1.0, 0.5});
  EXPECT_TRUE(dark(up.at(120, 60)));
  EXPECT_TRUE(white(up.at(120, 120 + 40)));
  // Past the unit disc the gaze is clamped onto it, as the stream clamps it.
  const Picture far = one_display({3.0, 0.0, 1.0, 0.5});
  EXPECT_EQ(far.rgb, right.rgb);
}

TEST(EyeDisplay, ThePupilGrowsWithItsValue) {
  // Its width along the row through the centre (the highlight sits up and to
  // the left, off that row): 2 x 14 px at pupil 0, 2 x 38 px at pupil 1.
  auto width = [](double pupil) {
    const Picture p = one_display({0.0, 0.0, 1.0, pupil});
    int n = 0;
    for (int x = 20; x < 220; ++x) n += dark(p.at(x, 120));
    return n;
  };
  EXPECT_NEAR(width(0.0), 28, 1);
  EXPECT_NEAR(width(0.5), 52, 1);
  EXPECT_NEAR(width(1.0), 76, 1);
}

TEST(EyeDisplay, LidsCloseWithTheOpeningAndTheCornersAreUnlit) {
  const Picture open = one_display({0.3, -0.2, 1.0, 0.5});
  EXPECT_EQ(count(open, skin), 0) << "an open eye shows no lid";
  const Picture closed = one_display({0.3, -0.2, 0.0, 0.5});
  EXPECT_EQ(count(closed, blue), 0) << "a closed eye shows no iris";
  EXPECT_TRUE(skin(closed.at(120, 60)));
  EXPECT_TRUE(skin(closed.at(120, 200)));
  const Picture half = one_display({0.0, 0.0, 0.5, 0.5});
  EXPECT_TRUE(skin(half.at(120, 10)));
  EXPECT_TRUE(skin(half.at(120, 230)));
  EXPECT_TRUE(dark(half.at(120, 120)));
  // Closing hides more: the lid's share grows as the opening falls.
  long previous = -1;
  for (double l : {1.0, 0.8, 0.6, 0.4, 0.2, 0.0}) {
    const long lid = count(one_display({0, 0, l, 0.5}), skin);
    EXPECT_GT(lid, previous) << "opening " << l;
    previous = lid;
  }
  // Outside the round panel nothing is lit; its disc covers pi r^2.
  for (const auto& [x, y] : {std::pair{0, 0}, std::pair{239, 0}, std::pair{0, 239}, std::pair{239, 239}}) {
    EXPECT_TRUE(dark(open.at(x, y)));
  }
  long lit = 0;
  for (int y = 0; y < 240; ++y) {
    for (int x = 0; x < 240; ++x) lit += !dark(open.at(x, y));
  }
  // The panel's disc less the pupil (radius 14 + 0.5 * 24 px at pupil 0.5).
  const double disc = M_PI * 120.0 * 120.0;
  EXPECT_NEAR(static_cast<double>(lit), disc - M_PI * 26.0 * 26.0, 0.01 * disc);
}

TEST(EyeDisplay, NanValuesDrawTheNeutralEye) {
  const Picture neutral = one_display({0.0, 0.0, 1.0, 0.5});
  EXPECT_EQ(one_display({std::nan(""), std::nan(""), std::nan(""), std::nan("")}).rgb, neutral.rgb);
}

TEST(EyeDisplay, ThePairPutsTheRightEyeOnTheLeftAndStaysInside) {
  const EyeDisplayGeometry g;
  const EyePairSize size = eye_pair_size(g);
  EyeFrame f;
  f.left = {0.0, 0.0, 0.0, 0.5};   // closed
  f.right = {0.0, 0.0, 1.0, 0.5};  // open
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(size.width) * size.height * 3 + 3, 77);
  draw_eye_pair(g, f, rgb);
  EXPECT_EQ(rgb.back(), 77) << "wrote past the picture";
  Picture p{size.width, size.height, rgb};
  const int top = (size.height - 240) / 2, margin = 12;
  EXPECT_TRUE(dark(p.at(margin + 120, top + 120)));                    // the open right eye's pupil, on the left
  EXPECT_TRUE(skin(p.at(size.width - margin - 120, top + 120 - 40)));  // the closed left eye, on the right
  // A screen drawn at an edge is clipped, not written outside the buffer.
  std::vector<std::uint8_t> small(100 * 100 * 3, 5);
  draw_eye_display(g, f.right, small, 100, -50, 40);
  EXPECT_EQ(small.size(), 100u * 100u * 3u);
  // Too small a buffer for the pair is left as it is.
  std::vector<std::uint8_t> tiny(30, 9);
  draw_eye_pair(g, f, tiny);
  EXPECT_EQ(tiny, std::vector<std::uint8_t>(30, 9));
}

TEST(EyePreview, APictureIsWrittenWholeAndBadPathsFailFirst) {
  test::TempDir dir;
  const EyeDisplayGeometry g;
  std::vector<EyeFrame> frames(3);
  frames[2].left.openness = frames[2].right.openness = 0.0;
  const std::string png = (dir.path() / "frame.png").string();
  ASSERT_TRUE(write_eye_preview(png, frames, 40.0, g, 2));
  std::ifstream in(png, std::ios::binary);
  std::string head(24, '\0');
  in.read(head.data(), 24);
  EXPECT_EQ(head.substr(1, 3), "PNG");
  EXPECT_EQ(static_cast<unsigned char>(head[19]), 528 & 0xff);  // IHDR width, big-endian
  EXPECT_EQ(static_cast<unsigned char>(head[23]), 264 & 0xff);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1) << "a temporary file was left";
  EXPECT_FALSE(check_eye_preview((dir.path() / "x.gif").string(), g, 40.0));
  EXPECT_FALSE(check_eye_preview((dir.path() / "missing" / "x.png").string(), g, 40.0));
  EyeDisplayGeometry broken = g;
  broken.iris_radius_px = -1;
  EXPECT_FALSE(check_eye_preview(png, broken, 40.0));
  EXPECT_FALSE(write_eye_preview(png, {}, 40.0, g)) << "no frames";
  EXPECT_EQ(eye_preview_kind("A.MP4").value(), EyePreviewKind::kMovie);
  EXPECT_EQ(eye_preview_kind("a.Png").value(), EyePreviewKind::kPicture);
  if (find_on_path("ffmpeg")) {
    EXPECT_FALSE(check_eye_preview((dir.path() / "x.mp4").string(), g, 0.0)) << "a movie needs a rate";
    EXPECT_TRUE(check_eye_preview((dir.path() / "x.mp4").string(), g, 40.0));
  }
}

}  // namespace
}  // namespace mocap
