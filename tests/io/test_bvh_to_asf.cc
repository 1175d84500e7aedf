// BVH -> ASF + AMC: the files written and read back through our own ASF and
// AMC readers give the BVH's world joint positions on every frame; round
// trips ASF/AMC -> BVH -> ASF/AMC on every real clip and BVH -> ASF/AMC ->
// BVH on cgspeed's file; the layout rules (link bones, axis permutations,
// position channels) on small files whose positions Eigen gives directly.
#include <gtest/gtest.h>
#include <mocap/core/fk.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/bvh.h>
#include <mocap/io/bvh_to_asf.h>

#include <cmath>
#include <iostream>

#include "test_data.h"

namespace mocap {
namespace {

using test::end_points_in_bvh;

// cgspeed's BVH is in the ASF's units: inches / 0.45 (PROVENANCE.md).
using test::kCmuUnit;
constexpr double kTenthMillimetre = 1e-5;  // 0.01 mm, the bound the issue sets

struct ReadBack {
  Skeleton skeleton;
  Motion motion;
};

// Converts, writes both files as text and reads them back with our readers.
ReadBack through_files(const Skeleton& skeleton, const Motion& motion, AsfFromBvh& converted) {
  auto c = bvh_to_asf(skeleton, motion);
  EXPECT_TRUE(c) << c.error().to_string();
  if (!c) return {};
  converted = std::move(*c);
  const std::string asf_text = format_asf(converted.asf);
  const std::string amc_text = format_amc(converted.motion, converted.skeleton);
  auto asf = parse_asf(asf_text, "out.asf");
  EXPECT_TRUE(asf) << asf.error().to_string() << "\n" << asf_text;
  if (!asf) return {};
  auto amc = parse_amc(amc_text, "out.amc", *asf, motion.fps);
  EXPECT_TRUE(amc) << amc.error().to_string();
  if (!amc) return {};
  return {std::move(*asf), std::move(*amc)};
}

// Worst distance between each BVH bone's position and the ASF bone's end
// that bone_at names, over every frame.
double worst_gap(const Skeleton& bvh, const Motion& bvh_motion, const std::vector<int>& bone_at, const Skeleton& asf,
                 const Motion& asf_motion) {
  EXPECT_EQ(bvh_motion.frame_count(), asf_motion.frame_count());
  const auto want = world_positions(bvh, bvh_motion);
  const auto got = world_positions(asf, asf_motion);
  const std::size_t nb = bvh.bones.size(), na = asf.bones.size();
  double worst = 0.0;
  for (int f = 0; f < std::min(bvh_motion.frame_count(), asf_motion.frame_count()); ++f) {
    for (std::size_t b = 0; b < nb; ++b) {
      worst = std::max(worst, (want[f * nb + b] - got[f * na + static_cast<std::size_t>(bone_at[b])]).norm());
    }
  }
  return worst;
}

TEST(BvhToAsf, CgspeedFileGivesTheSamePositionsThroughOurReaders) {
  MOCAP_REQUIRE_SHARED_DATA();
  const auto bvh_path = test::shared_data_dir() / "cmu-bvh" / "09_06.bvh";
  if (!std::filesystem::exists(bvh_path)) GTEST_SKIP() << "no " << bvh_path << ": skipped";
  auto bvh = read_bvh(bvh_path.string(), kCmuUnit);
  ASSERT_TRUE(bvh) << bvh.error().to_string();
  AsfFromBvh c;
  const ReadBack back = through_files(bvh->skeleton, bvh->motion, c);
  ASSERT_FALSE(back.skeleton.bones.empty());
  ASSERT_EQ(c.bone_at.size(), bvh->skeleton.bones.size());
  const double worst = worst_gap(bvh->skeleton, bvh->motion, c.bone_at, back.skeleton, back.motion);
  EXPECT_LT(worst, kTenthMillimetre);
  std::cout << "cgspeed 09_06.bvh -> ASF/AMC -> our readers: worst " << worst * 1e6 << " um over "
            << bvh->motion.frame_count() << " frames\n";
  // The file's units and numbers: length unit 0.45 per inch as CMU's ASF,
  // every channel in Z Y X order so every axis is 0 and the AMC's angles are
  // the BVH's; Spine1's three children share one offset, so no link bones.
  EXPECT_NEAR(c.asf.length_unit, 0.45, 1e-12);
  EXPECT_EQ(c.asf.bones.size(), 31u);  // 31 joints; the 7 zeroed offsets hang directly
  for (const AsfBone& bone : c.asf.bones) {
    EXPECT_EQ(bone.axis, Eigen::Vector3d::Zero()) << bone.name;
    if (bone.name != "root" && !bone.dofs.empty()) {
      EXPECT_EQ(bone.dofs, (std::vector<Channel>{Channel::RX, Channel::RY, Channel::RZ})) << bone.name;
    }
  }
  EXPECT_EQ(c.asf.bones[0].dofs,
            (std::vector<Channel>{Channel::TX, Channel::TY, Channel::TZ, Channel::RX, Channel::RY, Channel::RZ}));
  const int lfemur = c.skeleton.find_bone("LeftUpLeg"), bvh_lfemur = bvh->skeleton.find_bone("LeftUpLeg");
  ASSERT_GE(lfemur, 0);
  for (int f : {0, 70, 140}) {
    for (int d = 0; d < 3; ++d) {
      EXPECT_NEAR(
          back.motion.frame(
              f)[static_cast<std::size_t>(back.skeleton.bones[static_cast<std::size_t>(lfemur)].first_channel + d)],
          bvh->motion.frame(
              f)[static_cast<std::size_t>(bvh->skeleton.bones[static_cast<std::size_t>(bvh_lfemur)].first_channel + d)],
          1e-12);
    }
  }
}

TEST(BvhToAsf, AsfAmcToBvhAndBackOnEveryClip) {
  const auto clips = test::all_real_clips();
  ASSERT_FALSE(clips.empty());
  double worst_all = 0.0;
  std::string worst_clip;
  for (const auto& clip : clips) {
    SCOPED_TRACE(clip.name);
    Skeleton skeleton;
    Motion motion;
    if (!test::load(clip, skeleton, motion)) continue;
    // The first 1000 frames of each clip keep the sanitized CI run short
    // (14_02 has 5423); every clip, every joint.
    if (motion.frame_count() > 1000) {
      motion.frame_numbers.resize(1000);
      motion.values.resize(1000 * static_cast<std::size_t>(motion.channel_count));
    }
    // Through BVH text, as `mocap convert a.asf a.amc -o a.bvh` writes it.
    auto text = format_bvh(skeleton, motion);
    ASSERT_TRUE(text) << text.error().to_string();
    auto bvh = parse_bvh(*text, clip.name + ".bvh");
    ASSERT_TRUE(bvh) << bvh.error().to_string();
    AsfFromBvh c;
    const ReadBack back = through_files(bvh->skeleton, bvh->motion, c);
    ASSERT_FALSE(back.skeleton.bones.empty());
    // The same bones in the same tree as the source: every BVH joint with
    // one child offset folds back into one bone.
    ASSERT_EQ(back.skeleton.bones.size(), skeleton.bones.size());
    for (std::size_t b = 1; b < skeleton.bones.size(); ++b) {
      const Bone& want = skeleton.bones[b];
      const int got = back.skeleton.find_bone(want.name);
      ASSERT_GE(got, 0) << want.name;
      const Bone& bone = back.skeleton.bones[static_cast<std::size_t>(got)];
      EXPECT_EQ(back.skeleton.bones[static_cast<std::size_t>(bone.parent)].name,
                skeleton.bones[static_cast<std::size_t>(want.parent)].name)
          << want.name;
      EXPECT_NEAR((bone.length * bone.direction - want.length * want.direction).norm(), 0.0, 1e-7) << want.name;
    }
    // Source bone ends against the ASF read back.
    const std::vector<int> in_bvh = end_points_in_bvh(skeleton, bvh->skeleton);
    const auto want = world_positions(skeleton, motion);
    const auto got = world_positions(back.skeleton, back.motion);
    const std::size_t n = skeleton.bones.size(), nb = back.skeleton.bones.size();
    double worst = 0.0;
    for (int f = 0; f < motion.frame_count(); ++f) {
      for (std::size_t b = 0; b < n; ++b) {
        ASSERT_GE(in_bvh[b], 0);
        const int at = c.bone_at[static_cast<std::size_t>(in_bvh[b])];
        worst = std::max(worst, (want[f * n + b] - got[f * nb + static_cast<std::size_t>(at)]).norm());
      }
    }
    EXPECT_LT(worst, kTenthMillimetre);
    if (worst >= worst_all) {
      worst_all = worst;
      worst_clip = clip.name;
    }
  }
  std::cout << "ASF/AMC -> BVH -> ASF/AMC: worst " << worst_all * 1e6 << " um (" << worst_clip << ") over "
            << clips.size() << " clips\n";
}

TEST(BvhToAsf, BvhToAsfAmcToBvh) {
  MOCAP_REQUIRE_SHARED_DATA();
  const auto bvh_path = test::shared_data_dir() / "cmu-bvh" / "09_06.bvh";
  if (!std::filesystem::exists(bvh_path)) GTEST_SKIP() << "no " << bvh_path << ": skipped";
  auto bvh = read_bvh(bvh_path.string(), kCmuUnit);
  ASSERT_TRUE(bvh) << bvh.error().to_string();
  AsfFromBvh c;
  const ReadBack asf = through_files(bvh->skeleton, bvh->motion, c);
  ASSERT_FALSE(asf.skeleton.bones.empty());
  auto text = format_bvh(asf.skeleton, asf.motion, kCmuUnit);
  ASSERT_TRUE(text) << text.error().to_string();
  auto again = parse_bvh(*text, "again.bvh", kCmuUnit);
  ASSERT_TRUE(again) << again.error().to_string();
  // Original BVH bone -> ASF bone whose end it is -> the joint there in the
  // new BVH. The ASF's bonedata is not in depth-first order (children follow
  // their parent joint), which the BVH writer's MOTION columns once assumed.
  const std::vector<int> in_again = end_points_in_bvh(asf.skeleton, again->skeleton);
  std::vector<int> at(c.bone_at.size());
  for (std::size_t b = 0; b < at.size(); ++b) at[b] = in_again[static_cast<std::size_t>(c.bone_at[b])];
  const auto want = world_positions(bvh->skeleton, bvh->motion);
  const auto got = world_positions(again->skeleton, again->motion);
  const std::size_t n = bvh->skeleton.bones.size(), m = again->skeleton.bones.size();
  double worst = 0.0;
  for (int f = 0; f < bvh->motion.frame_count(); ++f) {
    for (std::size_t b = 0; b < n; ++b) {
      ASSERT_GE(at[b], 0) << bvh->skeleton.bones[b].name;
      worst = std::max(worst, (want[f * n + b] - got[f * m + static_cast<std::size_t>(at[b])]).norm());
    }
  }
  EXPECT_LT(worst, kTenthMillimetre);
  std::cout << "09_06.bvh -> ASF/AMC -> BVH: worst " << worst * 1e6 << " um\n";
}

// A root with two children at different offsets (links), a joint with a
// joint and an End Site at different offsets, every rotation order, position
// channels on a non-root joint, a joint called "root", a dof-less joint.
TEST(BvhToAsf, LinkBonesAxisPermutationsAndPositionChannels) {
  const char* orders[] = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};
  for (const char* order : orders) {
    SCOPED_TRACE(order);
    std::string rot;
    for (const char* a = order; *a; ++a) rot += std::string(" ") + *a + "rotation";
    const std::string text =
        "HIERARCHY\nROOT hips\n{\n OFFSET 1 2 3\n CHANNELS 6 Xposition Yposition Zposition" + rot +
        "\n JOINT root\n {\n  OFFSET 10 0 0\n  CHANNELS 3" + rot +
        "\n  JOINT hand\n  {\n   OFFSET 0 5 0\n   CHANNELS 4 Zposition Xposition" + std::string(" ") + order[1] +
        "rotation " + order[0] + "rotation" +
        "\n   End Site\n   {\n    OFFSET 0 0 4\n   }\n  }\n  End Site\n  {\n   OFFSET 0 -3 0\n  }\n }\n"
        " JOINT leg\n {\n  OFFSET -10 0 0\n  CHANNELS 0\n  JOINT foot\n  {\n   OFFSET 0 -8 0\n   CHANNELS 1 " +
        order[2] +
        "rotation\n   End Site\n   {\n    OFFSET 0 0 2\n   }\n  }\n }\n}\nMOTION\nFrames: 3\n"
        "Frame Time: 0.04\n"
        "100 200 300 10 -20 30 40 50 -60 1.5 2.5 70 -80 33\n"
        "-5 0 7 170 85 -100 -45 91 12 0 3 -170 10 -90\n"
        "0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
    auto bvh = parse_bvh(text, "links.bvh", 0.01);
    ASSERT_TRUE(bvh) << bvh.error().to_string();
    AsfFromBvh c;
    const ReadBack back = through_files(bvh->skeleton, bvh->motion, c);
    ASSERT_FALSE(back.skeleton.bones.empty());
    EXPECT_LT(worst_gap(bvh->skeleton, bvh->motion, c.bone_at, back.skeleton, back.motion), 1e-10);
    // Bones: root, hips_to_root (link), root_2 (the joint "root", length 0:
    // its children differ), hips_to_leg, leg (one child: folded),
    // root_to_hand (link: position channels), hand, root_end (link), foot.
    std::vector<std::string> names;
    for (const AsfBone& bone : c.asf.bones) names.push_back(bone.name);
    EXPECT_EQ(names, (std::vector<std::string>{"root", "hips_to_root", "root_2", "hips_to_leg", "leg", "root_to_hand",
                                               "hand", "root_end", "foot"}));
    const AsfBone& joint_root = c.asf.bones[2];
    EXPECT_EQ(joint_root.length, 0.0);
    const AsfBone& link = c.asf.bones[5];
    EXPECT_EQ(link.dofs, (std::vector<Channel>{Channel::TZ, Channel::TX}));
    EXPECT_NEAR(c.asf.bones[4].length, 8.0, 1e-12);  // leg: its one child's offset, in the BVH's units
    EXPECT_TRUE(c.asf.bones[4].dofs.empty());
    EXPECT_EQ(c.bone_at[static_cast<std::size_t>(bvh->skeleton.find_bone("hand"))], 5);
    // Every bone's dof line is rx, rx ry or rx ry rz; the order is in the axis.
    for (std::size_t b = 1; b < c.asf.bones.size(); ++b) {
      const std::vector<Channel>& dofs = c.asf.bones[b].dofs;
      std::vector<Channel> rotations;
      for (const Channel ch : dofs) {
        if (is_rotation(ch)) rotations.push_back(ch);
      }
      for (std::size_t d = 0; d < rotations.size(); ++d) EXPECT_EQ(rotations[d], static_cast<Channel>(d));
      for (int k = 0; k < 3; ++k) EXPECT_EQ(std::fmod(c.asf.bones[b].axis[k], 90.0), 0.0);
    }
    const bool identity = std::string(order) == "ZYX";  // X applied first
    EXPECT_EQ(joint_root.axis == Eigen::Vector3d::Zero(), identity);
    // The root states the BVH order on its order line: X first for ZYX.
    EXPECT_EQ(c.asf.bones[0].dofs[3], static_cast<Channel>(order[2] - 'X'));
  }
}

// Joint names an ASF reader would take for its own words, or an AMC reader
// for a frame number, come back renamed, and the files read back.
TEST(BvhToAsf, NamesTheAsfCannotHoldAreRenamed) {
  auto bvh = parse_bvh(
      "HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n"
      " JOINT end\n {\n  OFFSET 0 1 0\n  CHANNELS 1 Xrotation\n  JOINT :x\n  {\n   OFFSET 0 1 0\n"
      "   CHANNELS 1 Yrotation\n   End Site\n   {\n    OFFSET 1 0 0\n   }\n  }\n }\n"
      " JOINT begin\n {\n  OFFSET 1 0 0\n  CHANNELS 0\n  End Site\n  {\n   OFFSET 0 0 1\n  }\n }\n"
      " JOINT 7up\n {\n  OFFSET 0 0 1\n  CHANNELS 1 Zrotation\n  End Site\n  {\n   OFFSET 0 1 0\n  }\n }\n}\n"
      "MOTION\nFrames: 2\nFrame Time: 0.5\n10 20 30 40 50 60\n-1 -2 -3 -4 -5 -6\n",
      "names.bvh");
  ASSERT_TRUE(bvh) << bvh.error().to_string();
  AsfFromBvh c;
  const ReadBack back = through_files(bvh->skeleton, bvh->motion, c);
  ASSERT_FALSE(back.skeleton.bones.empty());
  EXPECT_GE(back.skeleton.find_bone("end_2"), 0);
  EXPECT_GE(back.skeleton.find_bone("_x"), 0);
  EXPECT_GE(back.skeleton.find_bone("begin_2"), 0);
  EXPECT_GE(back.skeleton.find_bone("_7up"), 0);  // an AMC line starting with a digit is a frame number
  EXPECT_LT(worst_gap(bvh->skeleton, bvh->motion, c.bone_at, back.skeleton, back.motion), 1e-10);
}

TEST(BvhToAsf, RefusesWhatItCannotConvert) {
  auto bvh = parse_bvh(
      "HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Zposition\n End Site\n"
      " {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 1\nFrame Time: 0.5\n1 2 3\n",
      "one.bvh");
  ASSERT_TRUE(bvh) << bvh.error().to_string();
  Motion wrong = bvh->motion;
  wrong.channel_count = 2;
  auto refused = bvh_to_asf(bvh->skeleton, wrong);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("channels"), std::string::npos) << refused.error().message;
  // An Acclaim bone with a translation dof: BVH (and so this) holds none below the root.
  auto asf = parse_asf(
      ":units\n length 1\n angle deg\n:root\n order TX TY TZ\n axis XYZ\n position 0 0 0\n"
      " orientation 0 0 0\n:bonedata\nbegin\n id 1\n name a\n direction 0 1 0\n length 1\n"
      " axis 0 0 0 XYZ\n dof tx\nend\n:hierarchy\nbegin\n root a\nend\n",
      "t.asf");
  ASSERT_TRUE(asf) << asf.error().to_string();
  Motion m;
  m.channel_count = asf->channel_count;
  m.frame_numbers = {1};
  m.values.assign(static_cast<std::size_t>(m.channel_count), 0.0);
  auto t = bvh_to_asf(*asf, m);
  ASSERT_FALSE(t);
  EXPECT_NE(t.error().message.find("'a'"), std::string::npos) << t.error().message;
  // An ASF/AMC source goes through to_bvh: the same bones come back.
  const test::LoadedClip clip = test::load_bundled("09_06");
  auto from_acclaim = bvh_to_asf(clip.skeleton, clip.motion);
  ASSERT_TRUE(from_acclaim) << from_acclaim.error().to_string();
  EXPECT_EQ(from_acclaim->skeleton.bones.size(), clip.skeleton.bones.size());
}

}  // namespace
}  // namespace mocap
