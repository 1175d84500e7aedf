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

void expect_same(const AsfSkeleton& a, const AsfSkeleton& b) {
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.documentation, b.documentation);
  EXPECT_EQ(a.mass_unit, b.mass_unit);
  EXPECT_EQ(a.length_unit, b.length_unit);
  EXPECT_EQ(a.angles_in_degrees, b.angles_in_degrees);
  EXPECT_EQ(a.root_position, b.root_position);
  ASSERT_EQ(a.bones.size(), b.bones.size());
  for (std::size_t i = 0; i < a.bones.size(); ++i) {
    const AsfBone& x = a.bones[i];
    const AsfBone& y = b.bones[i];
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
}

// The runtime skeletons built from two raw ones, bit for bit.
void expect_same(const Skeleton& a, const Skeleton& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.root_position, b.root_position);
  EXPECT_EQ(a.units.metres_per_length, b.units.metres_per_length);
  EXPECT_EQ(a.units.degrees, b.units.degrees);
  ASSERT_EQ(a.bones.size(), b.bones.size());
  for (std::size_t i = 0; i < a.bones.size(); ++i) {
    const Bone& x = a.bones[i];
    const Bone& y = b.bones[i];
    SCOPED_TRACE(x.name);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.parent, y.parent);
    EXPECT_EQ(x.direction, y.direction);
    EXPECT_EQ(x.length, y.length);
    EXPECT_EQ(x.axis_rotation.coeffs(), y.axis_rotation.coeffs());
    EXPECT_EQ(x.dofs, y.dofs);
    EXPECT_EQ(x.dof_axes, y.dof_axes);
    EXPECT_EQ(x.first_channel, y.first_channel);
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
    EXPECT_DOUBLE_EQ(skeleton->units.metres_per_length, 0.0254 / 0.45);
    EXPECT_TRUE(skeleton->units.degrees);
    const auto raw = read_asf_file(path.string());
    ASSERT_TRUE(raw) << raw.error().to_string();
    EXPECT_DOUBLE_EQ(raw->length_unit, 0.45);
    EXPECT_TRUE(raw->angles_in_degrees);
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
  const Eigen::Quaterniond twenty(Eigen::AngleAxisd(20.0 * kPi / 180.0, Eigen::Vector3d::UnitZ()));
  EXPECT_NEAR(lfemur.axis_rotation.angularDistance(twenty), 0.0, 1e-15);
  ASSERT_EQ(lfemur.dofs.size(), 3u);
  // The raw skeleton keeps the file's degrees; limits over three lines:
  // (-160 20) (-70 70) (-60 70).
  const auto raw = read_asf_file((test::bundled_data_dir() / "09.asf").string());
  ASSERT_TRUE(raw) << raw.error().to_string();
  const AsfBone& raw_lfemur = raw->bones[raw->find_bone("lfemur")];
  EXPECT_EQ(raw_lfemur.length, 7.54288);
  EXPECT_EQ(raw_lfemur.axis.z(), 20.0);
  ASSERT_EQ(raw_lfemur.limits.size(), 3u);
  EXPECT_EQ(raw_lfemur.limits[0].min, -160.0);
  EXPECT_EQ(raw_lfemur.limits[2].max, 70.0);
  EXPECT_EQ(skeleton->bones[lfemur.parent].name, "lhipjoint");
  EXPECT_EQ(skeleton->bones[skeleton->find_bone("lhipjoint")].parent, 0);
}

TEST(Asf, WriteThenReadGivesTheSameSkeletonOnEveryRealFile) {
  for (const auto& path : real_asf_files()) {
    SCOPED_TRACE(path.string());
    const auto original = read_asf_file(path.string());
    ASSERT_TRUE(original) << original.error().to_string();
    const std::string text = format_asf(*original);
    const auto again = parse_asf_file(text, "written.asf");
    ASSERT_TRUE(again) << again.error().to_string();
    expect_same(*original, *again);
    EXPECT_EQ(format_asf(*again), text);
    const auto built = build_skeleton(*original);
    const auto built_again = parse_asf(text, "written.asf");
    ASSERT_TRUE(built && built_again);
    expect_same(*built, *built_again);
  }
}

TEST(Asf, WriteAsfReplacesTheFileWhole) {
  const auto skeleton = read_asf_file((test::bundled_data_dir() / "49.asf").string());
  ASSERT_TRUE(skeleton);
  const auto path = std::filesystem::temp_directory_path() / "mocap_test_write.asf";
  ASSERT_TRUE(write_asf(*skeleton, path.string()));
  const auto back = read_asf_file(path.string());
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
  const auto raw = parse_asf_file(kSmallAsf, "small.asf");
  ASSERT_TRUE(raw) << raw.error().to_string();
  EXPECT_FALSE(raw->angles_in_degrees);
  EXPECT_EQ(raw->bones[0].axis_order, "ZYX");
  const AsfBone& raw_upper = raw->bones[1];
  EXPECT_DOUBLE_EQ(raw_upper.axis.z(), kPi / 2);
  ASSERT_EQ(raw_upper.limits.size(), 4u);
  EXPECT_TRUE(std::isinf(raw_upper.limits[1].min) && raw_upper.limits[1].min < 0);
  const auto skeleton = build_skeleton(*raw, "small.asf");
  ASSERT_TRUE(skeleton) << skeleton.error().to_string();
  EXPECT_FALSE(skeleton->units.degrees);
  const Bone& root = skeleton->bones[0];
  EXPECT_EQ(root.dofs,
            (std::vector<Channel>{Channel::RZ, Channel::TX, Channel::TY, Channel::TZ, Channel::RX, Channel::RY}));
  const Bone& upper = skeleton->bones[1];
  EXPECT_EQ(upper.dofs, (std::vector<Channel>{Channel::RZ, Channel::RX, Channel::TX, Channel::L}));
  EXPECT_NEAR(upper.length, 0.0254, 1e-15);  // length unit 1 = one inch
  // C turns x onto y; the first dof (rz) turns about C * z = z, the second (rx) about C * x = y.
  EXPECT_TRUE((upper.axis_rotation * Eigen::Vector3d::UnitX()).isApprox(Eigen::Vector3d::UnitY(), 1e-15));
  EXPECT_TRUE(upper.dof_axes[1].isApprox(Eigen::Vector3d::UnitY(), 1e-15));
  EXPECT_EQ(upper.first_channel, 6);
  EXPECT_EQ(skeleton->bones[2].first_channel, 10);
  EXPECT_EQ(skeleton->channel_count, 10);
  const auto again = parse_asf_file(format_asf(*raw), "again.asf");
  ASSERT_TRUE(again) << again.error().to_string();
  expect_same(*raw, *again);
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

// Every refusal of the builder, each on an otherwise valid raw skeleton; the
// message names the bone. The parser never returns such a skeleton (it says
// the line instead), so these come from skeletons made or edited in code.
TEST(AsfBuilder, RefusesEveryInvalidRawSkeleton) {
  const auto valid = parse_asf_file(kSmallAsf, "small.asf");
  ASSERT_TRUE(valid) << valid.error().to_string();
  ASSERT_TRUE(validate(*valid));
  ASSERT_TRUE(build_skeleton(*valid, "small.asf"));
  const auto refuses = [](const AsfSkeleton& raw, std::string_view expected) {
    const auto valid = validate(raw);
    if (valid) return ::testing::AssertionFailure() << "validate accepted it";
    const std::string* message = &valid.error().message;
    if (message->find(expected) == std::string::npos)
      return ::testing::AssertionFailure() << "'" << *message << "' does not say '" << expected << "'";
    const auto built = build_skeleton(raw, "edited.asf");
    if (built) return ::testing::AssertionFailure() << "build_skeleton accepted it";
    if (built.error().file != "edited.asf" || built.error().message != *message)
      return ::testing::AssertionFailure() << "build_skeleton says " << built.error().to_string();
    return ::testing::AssertionSuccess();
  };
  AsfSkeleton none = *valid;
  none.bones.clear();
  EXPECT_TRUE(refuses(none, "root must be bone 0"));
  AsfSkeleton units = *valid;
  units.length_unit = 0.0;
  EXPECT_TRUE(refuses(units, "units"));
  AsfSkeleton order = *valid;
  order.bones[2].axis_order = "XXZ";
  EXPECT_TRUE(refuses(order, "bone 'lower' has axis order 'XXZ'"));
  AsfSkeleton limits = *valid;
  limits.bones[1].limits.pop_back();
  EXPECT_TRUE(refuses(limits, "bone 'upper': expected one limit pair per dof"));
  AsfSkeleton twice = *valid;
  twice.bones[2].dofs = {Channel::RX, Channel::RX};
  EXPECT_TRUE(refuses(twice, "bone 'lower' gives dof rx twice"));
  AsfSkeleton stretch = *valid;
  stretch.bones[0].dofs.push_back(Channel::L);
  EXPECT_TRUE(refuses(stretch, "root cannot have an l dof"));
  AsfSkeleton orphan = *valid;
  orphan.bones[2].parent = -1;
  EXPECT_TRUE(refuses(orphan, "bone 'lower' has no parent"));
  AsfSkeleton beyond = *valid;
  beyond.bones[2].parent = 7;
  EXPECT_TRUE(refuses(beyond, "bone 'lower' has a parent out of range"));
  AsfSkeleton cycle = *valid;
  cycle.bones[1].parent = 2;  // upper under lower under upper
  EXPECT_TRUE(refuses(cycle, "cycle"));
}

TEST(AsfBuilder, ConvertsEveryRealSkeletonToMetresAndRotations) {
  for (const auto& path : real_asf_files()) {
    SCOPED_TRACE(path.string());
    const auto raw = read_asf_file(path.string());
    ASSERT_TRUE(raw) << raw.error().to_string();
    const auto skeleton = build_skeleton(*raw, path.string());
    ASSERT_TRUE(skeleton) << skeleton.error().to_string();
    ASSERT_EQ(skeleton->bones.size(), raw->bones.size());
    const double metres = 0.0254 / raw->length_unit;
    EXPECT_EQ(skeleton->root_position, raw->root_position * metres);
    EXPECT_EQ(skeleton->name, raw->name);
    for (std::size_t b = 0; b < raw->bones.size(); ++b) {
      const AsfBone& from = raw->bones[b];
      const Bone& to = skeleton->bones[b];
      EXPECT_EQ(to.name, from.name);
      EXPECT_EQ(to.parent, from.parent);
      EXPECT_EQ(to.length, from.length * metres);
      EXPECT_EQ(to.direction, from.direction);
      EXPECT_EQ(to.dofs, from.dofs);
      // C from the axis line, composed here independently: X first.
      const Eigen::Vector3d a = from.axis * (kPi / 180.0);
      const Eigen::Quaterniond c = Eigen::AngleAxisd(a.z(), Eigen::Vector3d::UnitZ()) *
                                   Eigen::AngleAxisd(a.y(), Eigen::Vector3d::UnitY()) *
                                   Eigen::AngleAxisd(a.x(), Eigen::Vector3d::UnitX());
      ASSERT_EQ(from.axis_order, "XYZ");
      EXPECT_LT(to.axis_rotation.angularDistance(c), 1e-15) << from.name;
      // The .mkc fingerprint stores C's XYZ angles as float32; the rotation
      // they give back must be well inside check_skeleton's 1e-6 rad, also
      // for the CMU wrists whose axis sits at y = -90 degrees (gimbal lock).
      const Eigen::Vector3d stored = xyz_euler_angles(to.axis_rotation).cast<float>().cast<double>();
      EXPECT_LT(euler_to_quaternion(stored, "XYZ").angularDistance(to.axis_rotation), 2e-7) << from.name;
    }
  }
}

}  // namespace
}  // namespace mocap
