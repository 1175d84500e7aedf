// BVH reading and writing: cgspeed's conversion of 09_06 against our own
// FK of the AMC, ASF/AMC -> BVH -> world positions on every real clip, the
// format's corners, and every malformed case with its line.
#include <gtest/gtest.h>
#include <mocap/core/fk.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/bvh.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>

#include "test_data.h"

namespace mocap {
namespace {

using test::end_points_in_bvh;
using test::read_text;

using test::kDegree;
// cgspeed's BVH is in the ASF's units: inches / 0.45 (PROVENANCE.md).
using test::kCmuUnit;

TEST(Bvh, CgspeedConversionMatchesOurAmcForwardKinematics) {
  MOCAP_REQUIRE_SHARED_DATA();
  const auto bvh_path = test::shared_data_dir() / "cmu-bvh" / "09_06.bvh";
  if (!std::filesystem::exists(bvh_path)) GTEST_SKIP() << "no " << bvh_path << ": skipped";
  auto bvh = read_bvh(bvh_path.string(), kCmuUnit);
  ASSERT_TRUE(bvh) << bvh.error().to_string();
  auto asf = read_asf((test::shared_data_dir() / "cmu" / "09.asf").string());
  ASSERT_TRUE(asf) << asf.error().to_string();
  auto amc = read_amc((test::shared_data_dir() / "cmu" / "09_06.amc").string(), *asf);
  ASSERT_TRUE(amc) << amc.error().to_string();

  // Frame 0 is cgspeed's added T-pose; BVH frame k is AMC frame k.
  ASSERT_EQ(bvh->motion.frame_count(), amc->frame_count() + 1);
  EXPECT_EQ(bvh->motion.fps, 120.0);
  EXPECT_EQ(bvh->motion.channel_count, 96);
  Skeleton& s = bvh->skeleton;
  EXPECT_TRUE(s.offsets_in_parent_frame);

  // Joints (not End Sites) in file order are the ASF bones in bone order,
  // each at its bone's start; check the tree is the same.
  std::vector<int> joint_of;  // ASF bone -> BVH bone
  std::vector<int> leaf_end;  // ASF bone -> its End Site in BVH, or -1
  for (std::size_t j = 0; j < s.bones.size(); ++j) {
    if (!s.bones[j].name.ends_with("_end")) joint_of.push_back(static_cast<int>(j));
  }
  ASSERT_EQ(joint_of.size(), asf->bones.size());
  for (std::size_t b = 1; b < asf->bones.size(); ++b) {
    ASSERT_EQ(s.bones[static_cast<std::size_t>(joint_of[b])].parent,
              joint_of[static_cast<std::size_t>(asf->bones[b].parent)])
        << asf->bones[b].name;
  }
  // Restore the seven offsets amc2bvh zeroed (PROVENANCE.md): the thorax
  // vector for Neck and the shoulders, the wrists' for finger bases and thumbs.
  auto restore = [&](const char* joint, const char* bone) {
    const int j = s.find_bone(joint), b = asf->find_bone(bone);
    ASSERT_GE(j, 0);
    ASSERT_GE(b, 0);
    EXPECT_EQ(s.bones[static_cast<std::size_t>(j)].length, 0.0) << joint;
    s.bones[static_cast<std::size_t>(j)].length = asf->bones[static_cast<std::size_t>(b)].length;
    s.bones[static_cast<std::size_t>(j)].direction = asf->bones[static_cast<std::size_t>(b)].direction;
  };
  for (const char* joint : {"Neck", "LeftShoulder", "RightShoulder"}) restore(joint, "thorax");
  for (const char* joint : {"LeftFingerBase", "LThumb"}) restore(joint, "lwrist");
  for (const char* joint : {"RightFingerBase", "RThumb"}) restore(joint, "rwrist");

  const auto ours = world_positions(*asf, *amc);
  const auto theirs = world_positions(s, bvh->motion);
  const std::size_t na = asf->bones.size(), nb = s.bones.size();
  double worst = 0.0;
  int compared = 0;
  for (int f = 0; f < amc->frame_count(); ++f) {
    for (std::size_t b = 0; b < na; ++b) {
      // The joint at bone b's start is where its parent ends.
      const int parent = asf->bones[b].parent;
      const Eigen::Vector3d& want = ours[f * na + static_cast<std::size_t>(parent < 0 ? 0 : parent)];
      const Eigen::Vector3d& got = theirs[(f + 1) * nb + static_cast<std::size_t>(joint_of[b])];
      worst = std::max(worst, (want - got).norm());
      ++compared;
      if (asf->children(static_cast<int>(b)).empty()) {
        const int site = s.find_bone(s.bones[static_cast<std::size_t>(joint_of[b])].name + "_end");
        ASSERT_GE(site, 0);
        worst = std::max(worst, (ours[f * na + b] - theirs[(f + 1) * nb + static_cast<std::size_t>(site)]).norm());
        ++compared;
      }
    }
  }
  // PROVENANCE measured 9e-5 units; the file prints 4-5 decimals.
  EXPECT_LT(worst, 1.5e-4 * kCmuUnit) << "worst gap " << worst / kCmuUnit << " units over " << compared << " points";
  EXPECT_EQ(compared, amc->frame_count() * 38);  // 31 joints + 7 End Sites
  std::cout << "cgspeed 09_06 vs our AMC FK: worst " << worst * 1e3 << " mm over " << compared << " joint positions\n";
}

TEST(Bvh, AsfAmcRoundTripKeepsWorldPositionsOnEveryClip) {
  const auto clips = test::all_real_clips();
  ASSERT_FALSE(clips.empty());
  double worst_all = 0.0;
  for (const auto& clip : clips) {
    SCOPED_TRACE(clip.name);
    Skeleton skeleton;
    Motion motion;
    if (!test::load(clip, skeleton, motion)) continue;
    auto text = format_bvh(skeleton, motion);
    ASSERT_TRUE(text) << text.error().to_string();
    auto back = parse_bvh(*text, clip.name + ".bvh");
    ASSERT_TRUE(back) << back.error().to_string();
    ASSERT_EQ(back->motion.frame_count(), motion.frame_count());
    EXPECT_EQ(back->motion.fps, motion.fps);
    const std::vector<int> at = end_points_in_bvh(skeleton, back->skeleton);
    for (std::size_t b = 0; b < at.size(); ++b) ASSERT_GE(at[b], 0) << skeleton.bones[b].name;
    const auto want = world_positions(skeleton, motion);
    const auto got = world_positions(back->skeleton, back->motion);
    const std::size_t na = skeleton.bones.size(), nb = back->skeleton.bones.size();
    double worst = 0.0;
    for (int f = 0; f < motion.frame_count(); ++f) {
      for (std::size_t b = 0; b < na; ++b) {
        worst = std::max(worst, (want[f * na + b] - got[f * nb + static_cast<std::size_t>(at[b])]).norm());
      }
    }
    EXPECT_LT(worst, 1e-5) << "0.01 mm";
    worst_all = std::max(worst_all, worst);
    // Written again, byte for byte the same.
    auto again = format_bvh(back->skeleton, back->motion);
    ASSERT_TRUE(again);
    EXPECT_TRUE(*again == *text) << "BVH -> BVH changed the text";
  }
  std::cout << "ASF/AMC -> BVH -> FK: worst " << worst_all * 1e6 << " um over " << clips.size() << " clips\n";
}

TEST(Bvh, CgspeedFileWrittenBackIsByteStable) {
  MOCAP_REQUIRE_SHARED_DATA();
  const auto bvh_path = test::shared_data_dir() / "cmu-bvh" / "09_06.bvh";
  if (!std::filesystem::exists(bvh_path)) GTEST_SKIP() << "no " << bvh_path << ": skipped";
  auto bvh = read_bvh(bvh_path.string(), kCmuUnit);
  ASSERT_TRUE(bvh);
  auto first = format_bvh(bvh->skeleton, bvh->motion, kCmuUnit);
  ASSERT_TRUE(first);
  auto back = parse_bvh(*first, "first.bvh", kCmuUnit);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->motion.values.size(), bvh->motion.values.size());
  for (std::size_t i = 0; i < bvh->motion.values.size(); ++i) {
    ASSERT_NEAR(back->motion.values[i], bvh->motion.values[i], 1e-12) << i;
  }
  auto second = format_bvh(back->skeleton, back->motion, kCmuUnit);
  ASSERT_TRUE(second);
  EXPECT_TRUE(*first == *second);
  // The same joints, channels and number of lines as the source.
  const std::string source = read_text(bvh_path);
  EXPECT_EQ(std::count(first->begin(), first->end(), '\n'), std::count(source.begin(), source.end(), '\n'));
  EXPECT_NE(first->find("CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation"), std::string::npos);
}

// One joint below a root, each rotation order and position channels on the
// child: positions from Eigen directly.
TEST(Bvh, EveryRotationOrderAndChildPositionChannels) {
  const char* orders[] = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};
  for (const char* order : orders) {
    SCOPED_TRACE(order);
    std::string channels;
    for (const char* a = order; *a; ++a) channels += std::string(" ") + *a + "rotation";
    const std::string text =
        "HIERARCHY\r\nROOT hips\r\n{\r\n\tOFFSET 1 2 3\r\n\tCHANNELS 6 Xposition Yposition Zposition" + channels +
        "\r\n  JOINT arm\n  {\n    OFFSET 10 0 -0.00000\n    CHANNELS 4 Yposition" + channels +
        "\n    End Site\n    {\n      OFFSET 0 5 1e-05\n    }\n  }\n}\nMOTION\nFrames: 1\n"
        "Frame Time: 0.04\n"
        "100\t200 300 10 -20 30 7 40 50 -60\n";
    auto bvh = parse_bvh(text, "orders.bvh", 0.01);
    ASSERT_TRUE(bvh) << bvh.error().to_string();
    EXPECT_EQ(bvh->motion.fps, 25.0);
    ASSERT_EQ(bvh->skeleton.bones.size(), 3u);
    EXPECT_EQ(bvh->skeleton.bones[2].name, "arm_end");
    auto rot = [&](const double deg[3]) {
      Eigen::Matrix3d r = Eigen::Matrix3d::Identity();
      for (int k = 0; k < 3; ++k)
        r = r * Eigen::AngleAxisd(deg[k] * kDegree, Eigen::Vector3d::Unit(order[k] - 'X')).toRotationMatrix();
      return r;
    };
    const double root_deg[3] = {10, -20, 30}, arm_deg[3] = {40, 50, -60};
    const Eigen::Matrix3d r_root = rot(root_deg), r_arm = r_root * rot(arm_deg);
    const Eigen::Vector3d p_root(1.0, 2.0, 3.0);  // position channels replace OFFSET 1 2 3
    const Eigen::Vector3d p_arm = p_root + r_root * Eigen::Vector3d(0.1, 0.07, 0.0);  // Yposition replaces y
    const Eigen::Vector3d p_end = p_arm + r_arm * Eigen::Vector3d(0.0, 0.05, 1e-7);
    const auto p = world_positions(bvh->skeleton, bvh->motion);
    EXPECT_LT((p[0] - p_root).norm(), 1e-12);
    EXPECT_LT((p[1] - p_arm).norm(), 1e-12);
    EXPECT_LT((p[2] - p_end).norm(), 1e-12);
    // Written and read back: same positions, same text again.
    auto out = format_bvh(bvh->skeleton, bvh->motion, 0.01);
    ASSERT_TRUE(out);
    EXPECT_NE(out->find(std::string("CHANNELS 6 Xposition Yposition Zposition") + channels), std::string::npos) << *out;
    auto back = parse_bvh(*out, "out.bvh", 0.01);
    ASSERT_TRUE(back) << back.error().to_string();
    const auto q = world_positions(back->skeleton, back->motion);
    for (std::size_t b = 0; b < 3; ++b) EXPECT_LT((q[b] - p[b]).norm(), 1e-9);
    EXPECT_EQ(*format_bvh(back->skeleton, back->motion, 0.01), *out);
  }
}

TEST(Bvh, UnitsScaleLengthsOnly) {
  const std::string text =
      "HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Zrotation Yposition\nEnd Site\n{\nOFFSET 0 100 "
      "0\n}\n}\n"
      "MOTION \t\nFrames: 2\nFrame Time: .0083333\n1 90 2\n\n3 0 4\n\n";
  auto cm = parse_bvh(text, "u.bvh");
  auto m = parse_bvh(text, "u.bvh", 1.0);
  ASSERT_TRUE(cm) << cm.error().to_string();
  ASSERT_TRUE(m);
  EXPECT_EQ(cm->motion.fps, 120.0);
  EXPECT_EQ(cm->motion.frame_count(), 2);
  const auto pc = world_positions(cm->skeleton, cm->motion), pm = world_positions(m->skeleton, m->motion);
  EXPECT_LT((pc[1] - Eigen::Vector3d(-1.0 + 0.01, 0.02, 0.0)).norm(), 1e-12);  // Z 90 deg turns +y to -x
  EXPECT_LT((pm[1] - 100.0 * pc[1]).norm(), 1e-9);
  EXPECT_EQ(parse_length_unit("cm"), 0.01);
  EXPECT_EQ(parse_length_unit("in"), 0.0254);
  EXPECT_EQ(parse_length_unit("0.5"), 0.5);
  EXPECT_FALSE(parse_length_unit("-1"));
  EXPECT_FALSE(parse_length_unit("furlong"));
  EXPECT_FALSE(parse_bvh(text, "u.bvh", 0.0));
}

struct Malformed {
  const char* what;
  std::string text;
  int line;
  const char* message;  // part of the message
};

TEST(Bvh, MalformedInputNamesTheLine) {
  const std::string head =
      "HIERARCHY\nROOT r\n{\n\tOFFSET 0 0 0\n\tCHANNELS 3 Xposition Yposition Zrotation\n";  // 5 lines
  const std::string tree = head + "\tEnd Site\n\t{\n\t\tOFFSET 0 1 0\n\t}\n}\n";             // 10 lines
  const std::string motion = tree + "MOTION\nFrames: 2\nFrame Time: 0.01\n";                 // 13 lines
  const std::vector<Malformed> cases = {
      {"empty", "", 0, "empty file"},
      {"not bvh", "HIERARCHIE\n", 1, "expected HIERARCHY"},
      {"unknown channel", "HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 2 Xposition Wrotation\n", 5,
       "unknown channel 'Wrotation'"},
      {"channel twice", "HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 2 Xrotation Xrotation\n", 5, "twice"},
      {"channel count", "HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 7 Xrotation\n", 5, "0 to 6"},
      {"unclosed brace", head + "\tJOINT a\n\t{\n\t\tOFFSET 1 0 0\n", 8, "expected '}'"},
      {"unclosed end site", head + "\tEnd Site\n\t{\n\t\tOFFSET 0 1 0\n", 8, "expected '}'"},
      {"no offset", "HIERARCHY\nROOT r\n{\nCHANNELS 1 Xrotation\n}\n", 5, "no OFFSET"},
      {"stray word", head + "\tROTATE 1\n", 6, "expected OFFSET, CHANNELS, JOINT, End Site or '}'"},
      {"second root", tree + "ROOT s\n{\nOFFSET 0 0 0\n}\n", 11, "a second ROOT"},
      {"no motion", tree, 10, "expected MOTION"},
      {"nan offset", "HIERARCHY\nROOT r\n{\nOFFSET 0 nan 0\n", 4, "'nan'"},
      {"frames word", tree + "MOTION\nFrame: 2\n", 12, "Frames:"},
      {"frame time", tree + "MOTION\nFrames: 2\nFrame Time: 0\n", 13, "Frame Time"},
      {"truncated motion", motion + "1 2 3\n", 14, "truncated motion"},
      {"frames disagree", motion + "1 2 3\n4 5 6\n7 8 9\n", 16, "more rows than 'Frames: 2'"},
      {"short row", motion + "1 2 3\n4 5\n", 15, "frame 1 has 2 values: expected 3"},
      {"long row", motion + "1 2 3 4\n", 14, "frame 0 has 4 values: expected 3"},
      {"nan value", motion + "1 nan 3\n", 14, "'nan' in frame 0"},
      {"inf value", motion + "1 2 3\n4 inf 6\n", 15, "'inf' in frame 1"},
      {"overflow value", motion + "1 2 1e999\n", 14, "'1e999'"},
      {"huge offset", "HIERARCHY\nROOT r\n{\nOFFSET 0 -15.0E0244 0\n", 4, "within +-1e8"},
      {"huge value", motion + "1 2 3\n4 5 2e8\n", 15, "within +-1e8"},
      {"binary", tree + std::string("MOTION\n\x01\x02\x00\x03", 11), 12, ""},
      {"megabyte line", motion + std::string(2 << 20, '1') + "\n", 14, ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    auto bvh = parse_bvh(c.text, "bad.bvh");
    ASSERT_FALSE(bvh);
    EXPECT_EQ(bvh.error().file, "bad.bvh");
    EXPECT_EQ(bvh.error().line, c.line) << bvh.error().to_string();
    EXPECT_NE(bvh.error().message.find(c.message), std::string::npos) << bvh.error().to_string();
  }
}

TEST(Bvh, AcclaimBoneWithTranslationDofsIsRefused) {
  Skeleton s;
  s.bones.resize(2);
  s.bones[0].name = "root";
  s.bones[0].dofs = {Channel::TX, Channel::RX};
  s.bones[1].name = "slider";
  s.bones[1].parent = 0;
  s.bones[1].length = 1.0;
  s.bones[1].direction = Eigen::Vector3d::UnitY();
  s.bones[1].dofs = {Channel::TY};
  ASSERT_TRUE(finalize(s));
  Motion m;
  m.channel_count = s.channel_count;
  m.frame_numbers = {1};
  m.values = {0.0, 0.0, 0.0};
  auto text = format_bvh(s, m);
  ASSERT_FALSE(text);
  EXPECT_NE(text.error().message.find("slider"), std::string::npos) << text.error().message;
}

}  // namespace
}  // namespace mocap
