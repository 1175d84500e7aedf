// ASF reading and writing, on every real CMU skeleton and on small texts
// that exercise what CMU files do not (other dof orders, radians).
#include <gtest/gtest.h>
#include <mocap/io/asf.h>

#include <cmath>
#include <numbers>
#include <set>

#include "test_data.h"

namespace mocap {
namespace {

constexpr double kPi = std::numbers::pi;

std::vector<std::filesystem::path> real_asf_files() {
  std::set<std::filesystem::path> files;
  for (const auto& clip : test::all_real_clips()) files.insert(clip.asf);
  return {files.begin(), files.end()};
}

void expect_same(const Skeleton& a, const Skeleton& b) {
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.documentation, b.documentation);
  EXPECT_EQ(a.mass_unit, b.mass_unit);
  EXPECT_EQ(a.length_unit, b.length_unit);
  EXPECT_EQ(a.angles_in_degrees, b.angles_in_degrees);
  EXPECT_EQ(a.root_position, b.root_position);
  ASSERT_EQ(a.bones.size(), b.bones.size());
  for (std::size_t i = 0; i < a.bones.size(); ++i) {
    const Bone& x = a.bones[i];
    const Bone& y = b.bones[i];
    SCOPED_TRACE(x.name);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.id, y.id);
    EXPECT_EQ(x.parent, y.parent);
    EXPECT_EQ(x.direction, y.direction);  // bit-exact: lossless
    EXPECT_EQ(x.length, y.length);
    EXPECT_EQ(x.axis, y.axis);
    EXPECT_EQ(x.axis_order, y.axis_order);
    EXPECT_EQ(x.dofs, y.dofs);
    ASSERT_EQ(x.limits.size(), y.limits.size());
    for (std::size_t k = 0; k < x.limits.size(); ++k) {
      EXPECT_EQ(x.limits[k].min, y.limits[k].min);
      EXPECT_EQ(x.limits[k].max, y.limits[k].max);
    }
  }
  EXPECT_EQ(a.eval_order, b.eval_order);
  EXPECT_EQ(a.channel_count, b.channel_count);
}

TEST(Asf, ReadsEveryRealSkeleton) {
  const auto files = real_asf_files();
  ASSERT_FALSE(files.empty());
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    const auto skeleton = read_asf(path.string());
    ASSERT_TRUE(skeleton) << skeleton.error().to_string();
    EXPECT_EQ(skeleton->bones.size(), 31u);  // root + 30 CMU bones
    EXPECT_EQ(skeleton->bones[0].name, "root");
    EXPECT_EQ(skeleton->bones[0].dofs.size(), 6u);
    EXPECT_EQ(skeleton->channel_count, 62);
    EXPECT_DOUBLE_EQ(skeleton->length_unit, 0.45);
    EXPECT_TRUE(skeleton->angles_in_degrees);
    ASSERT_EQ(skeleton->eval_order.size(), skeleton->bones.size());
    std::vector<bool> placed(skeleton->bones.size(), false);
    for (int b : skeleton->eval_order) {
      const int parent = skeleton->bones[b].parent;
      if (b != 0) {
        ASSERT_GE(parent, 0);
        EXPECT_TRUE(placed[parent]) << skeleton->bones[b].name << " comes before its parent";
      }
      placed[b] = true;
    }
    for (const Bone& bone : skeleton->bones) {
      if (bone.parent >= 0) {
        EXPECT_NEAR(bone.direction.norm(), 1.0, 1e-5) << bone.name;
      }
      EXPECT_LT(bone.length, 0.6) << bone.name << ": lengths must be metres";
    }
  }
}

TEST(Asf, ConvertsUnitsTheCmuWay) {
  const auto skeleton = read_asf((test::bundled_data_dir() / "09.asf").string());
  ASSERT_TRUE(skeleton) << skeleton.error().to_string();
  const Bone& lfemur = skeleton->bones[skeleton->find_bone("lfemur")];
  // 09.asf: lfemur length 7.54288, axis 0 0 20; 1 unit = (1 / 0.45) * 0.0254 m.
  EXPECT_NEAR(skeleton->metres_per_unit(), 0.0564444444, 1e-9);
  EXPECT_NEAR(lfemur.length, 7.54288 * 0.0254 / 0.45, 1e-12);
  EXPECT_NEAR(lfemur.axis.z(), 20.0 * kPi / 180.0, 1e-15);
  ASSERT_EQ(lfemur.dofs.size(), 3u);
  // Limits over three lines, in radians: (-160 20) (-70 70) (-60 70).
  ASSERT_EQ(lfemur.limits.size(), 3u);
  EXPECT_NEAR(lfemur.limits[0].min, -160.0 * kPi / 180.0, 1e-15);
  EXPECT_NEAR(lfemur.limits[2].max, 70.0 * kPi / 180.0, 1e-15);
  EXPECT_EQ(skeleton->bones[lfemur.parent].name, "lhipjoint");
  EXPECT_EQ(skeleton->bones[skeleton->find_bone("lhipjoint")].parent, 0);
}

TEST(Asf, WriteThenReadGivesTheSameSkeletonOnEveryRealFile) {
  for (const auto& path : real_asf_files()) {
    SCOPED_TRACE(path.string());
    const auto original = read_asf(path.string());
    ASSERT_TRUE(original) << original.error().to_string();
    const std::string text = format_asf(*original);
    const auto again = parse_asf(text, "written.asf");
    ASSERT_TRUE(again) << again.error().to_string();
    expect_same(*original, *again);
    EXPECT_EQ(format_asf(*again), text);
  }
}

TEST(Asf, WriteAsfReplacesTheFileWhole) {
  const auto skeleton = read_asf((test::bundled_data_dir() / "49.asf").string());
  ASSERT_TRUE(skeleton);
  const auto path = std::filesystem::temp_directory_path() / "mocap_test_write.asf";
  ASSERT_TRUE(write_asf(*skeleton, path.string()));
  const auto back = read_asf(path.string());
  ASSERT_TRUE(back) << back.error().to_string();
  expect_same(*skeleton, *back);
  std::filesystem::remove(path);
}

constexpr const char* kSmallAsf = R"(:version 1.10
:name small
:units
  mass 1.0
  length 1
  angle rad
:root
   order RZ TX TY TZ RX RY
   axis ZYX
   position 0 0 0
   orientation 0 0 0
:bonedata
  begin
     id 1
     name upper
     direction 0 1 0
     length 1
     axis 0 0 1.5707963267948966 XYZ
    dof rz rx tx l
    limits (-1 1) (-inf inf)
           (-0.5 0.5)
       (0 2)
  end
  begin
     id 2
     name lower
     direction 1 0 0
     length 2
     axis 0 0 0 XYZ
  end
:hierarchy
  begin
    root upper
    upper lower
  end
)";

TEST(Asf, KeepsAnyDofOrderAndRadians) {
  const auto skeleton = parse_asf(kSmallAsf, "small.asf");
  ASSERT_TRUE(skeleton) << skeleton.error().to_string();
  EXPECT_FALSE(skeleton->angles_in_degrees);
  const Bone& root = skeleton->bones[0];
  EXPECT_EQ(root.axis_order, "ZYX");
  EXPECT_EQ(root.dofs,
            (std::vector<Channel>{Channel::RZ, Channel::TX, Channel::TY, Channel::TZ, Channel::RX, Channel::RY}));
  const Bone& upper = skeleton->bones[1];
  EXPECT_EQ(upper.dofs, (std::vector<Channel>{Channel::RZ, Channel::RX, Channel::TX, Channel::L}));
  EXPECT_NEAR(upper.length, 0.0254, 1e-15);  // length unit 1 = one inch
  EXPECT_DOUBLE_EQ(upper.axis.z(), kPi / 2);
  ASSERT_EQ(upper.limits.size(), 4u);
  EXPECT_TRUE(std::isinf(upper.limits[1].min) && upper.limits[1].min < 0);
  EXPECT_EQ(upper.first_channel, 6);
  EXPECT_EQ(skeleton->bones[2].first_channel, 10);
  EXPECT_EQ(skeleton->channel_count, 10);
  const auto again = parse_asf(format_asf(*skeleton), "again.asf");
  ASSERT_TRUE(again) << again.error().to_string();
  expect_same(*skeleton, *again);
}

TEST(Asf, BonesMayBeListedBeforeTheirParents) {
  std::string text = kSmallAsf;
  // Swap the hierarchy lines' meaning: `lower` becomes the parent of `upper`.
  text.replace(text.find("    root upper\n    upper lower"), 30, "    lower upper\n    root lower");
  const auto skeleton = parse_asf(text, "reordered.asf");
  ASSERT_TRUE(skeleton) << skeleton.error().to_string();
  EXPECT_EQ(skeleton->bones[1].parent, 2);
  EXPECT_EQ(skeleton->eval_order, (std::vector<int>{0, 2, 1}));
}

}  // namespace
}  // namespace mocap
