// The .mkc skeleton fingerprint after the runtime skeleton lost its Euler
// angles: the encoder stores C as XYZ angles, check_skeleton compares
// rotations, so a clip is tied to its skeleton's C and nothing else.
#include <gtest/gtest.h>
#include <mocap/compress/clip_decoder.h>
#include <mocap/compress/clip_encoder.h>
#include <mocap/compress/compressed_clip.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>

#include <set>

#include "test_data.h"

namespace mocap {
namespace {

Motion first_frames(const Motion& m, int frames) {
  Motion out = m;
  out.frame_numbers.resize(frames);
  out.values.resize(static_cast<std::size_t>(frames) * m.channel_count);
  return out;
}

TEST(ClipFingerprint, EveryRealSkeletonSurvivesTheFileAndMatchesItself) {
  std::set<std::filesystem::path> seen;
  for (const auto& files : test::all_real_clips()) {
    if (!seen.insert(files.asf).second) continue;
    SCOPED_TRACE(files.asf.string());
    Skeleton skeleton;
    Motion motion;
    ASSERT_TRUE(test::load(files, skeleton, motion));
    auto clip = encode_clip(skeleton, first_frames(motion, 12), {});
    ASSERT_TRUE(clip) << clip.error().to_string();
    const auto bytes = format_compressed_clip(*clip);
    auto parsed = parse_compressed_clip(bytes, "clip.mkc");
    ASSERT_TRUE(parsed) << parsed.error().to_string();
    EXPECT_TRUE(check_skeleton(*parsed, skeleton, "self.asf")) << files.asf;
    for (std::size_t b = 0; b < skeleton.bones.size(); ++b) {
      EXPECT_EQ(parsed->bones[b].axis_order, 0) << skeleton.bones[b].name;
      // float32 angles: C comes back within a few 1e-8 rad.
      const double gap = parsed->bones[b].axis_rotation.cast<double>().angularDistance(skeleton.bones[b].axis_rotation);
      EXPECT_LT(gap, 2e-7) << skeleton.bones[b].name;
    }
  }
}

TEST(ClipFingerprint, ComparesTheRotationNotTheAngles) {
  const auto l = test::load_bundled("09_06");
  auto clip = encode_clip(l.skeleton, first_frames(l.motion, 12), {});
  ASSERT_TRUE(clip) << clip.error().to_string();
  clip->name = "09_06.mkc";
  const int b = l.skeleton.find_bone("lfemur");
  ASSERT_GT(b, 0);

  // The same C written in another order is the same skeleton.
  CompressedClip other_order = *clip;
  const Eigen::Matrix3d r = l.skeleton.bones[b].axis_rotation.toRotationMatrix();
  const Eigen::Vector3d zyx = r.eulerAngles(0, 1, 2);  // R = Rx(a) Ry(b) Rz(c): Z applied first
  other_order.bones[b].axis = Eigen::Vector3d(zyx.x(), zyx.y(), zyx.z()).cast<float>();
  other_order.bones[b].axis_order = 5;  // ZYX
  ASSERT_LT(euler_to_quaternion(zyx, "ZYX").angularDistance(l.skeleton.bones[b].axis_rotation), 1e-12);
  EXPECT_TRUE(check_skeleton(other_order, l.skeleton, "09.asf"));

  // A skeleton whose C is turned by 1e-8 rad still matches; by 1e-5 rad not,
  // and the error names the bone and its axis.
  Skeleton nudged = l.skeleton;
  const Eigen::Quaterniond tiny(Eigen::AngleAxisd(1e-8, Eigen::Vector3d::UnitX()));
  nudged.bones[b].axis_rotation = tiny * nudged.bones[b].axis_rotation;
  EXPECT_TRUE(check_skeleton(*clip, nudged, "nudged.asf"));
  Skeleton turned = l.skeleton;
  const Eigen::Quaterniond small(Eigen::AngleAxisd(1e-5, Eigen::Vector3d::UnitY()));
  turned.bones[b].axis_rotation = small * turned.bones[b].axis_rotation;
  const auto e = check_skeleton(*clip, turned, "turned.asf");
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().file, "turned.asf");
  EXPECT_NE(e.error().message.find("'lfemur'"), std::string::npos) << e.error().message;
  EXPECT_NE(e.error().message.find("axis"), std::string::npos) << e.error().message;
  EXPECT_FALSE(decode_motion(*clip, turned));
  // q and -q are one rotation.
  Skeleton negated = l.skeleton;
  negated.bones[b].axis_rotation.coeffs() *= -1.0;
  EXPECT_TRUE(check_skeleton(*clip, negated, "negated.asf"));
}

}  // namespace
}  // namespace mocap
