// CMU <-> MotionBuilder joint names for BVH output (io/bvh_names.h).
#include <mocap/io/bvh.h>
#include <mocap/io/bvh_names.h>
#include <mocap/io/capture.h>

#include <gtest/gtest.h>

#include <filesystem>

#include "test_data.h"

namespace mocap {
namespace {

Skeleton named(std::initializer_list<const char*> names) {
  Skeleton s;
  for (const char* name : names) {
    Bone bone;
    bone.name = name;
    s.bones.push_back(bone);
  }
  return s;
}

std::vector<std::string> names_of(const Skeleton& skeleton) {
  std::vector<std::string> names;
  for (const Bone& bone : skeleton.bones) names.push_back(bone.name);
  return names;
}

// Our 09 written with MotionBuilder names has cgspeed's joints, in cgspeed's
// order: the file a retargeting tool maps is the one it already knows.
TEST(BvhJointNames, MotionBuilderNamesAreCgspeeds) {
  const auto cgspeed = test::shared_data_dir() / "cmu-bvh" / "09_06.bvh";
  if (!std::filesystem::exists(cgspeed)) GTEST_SKIP() << cgspeed << " is absent (../shared/data)";
  auto theirs = read_bvh_capture(cgspeed.string());
  ASSERT_TRUE(theirs) << theirs.error().to_string();
  const auto files = test::bundled_clips().front();  // 09_06
  auto ours = read_capture(files.asf.string(), files.amc.string());
  ASSERT_TRUE(ours) << ours.error().to_string();
  ASSERT_TRUE(rename_joints(ours->skeleton, BvhJointNames::kMotionBuilder));
  auto text = format_bvh(ours->skeleton, ours->motion);
  ASSERT_TRUE(text) << text.error().to_string();
  auto back = parse_bvh(*text, "ours.bvh");
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(names_of(back->skeleton), names_of(theirs->skeleton));
}

// cmu undoes motionbuilder, names the table does not know stay, source
// renames nothing.
TEST(BvhJointNames, BothWaysAndUnknownNamesKept) {
  Skeleton s = named({"root", "lfemur", "prop", "RThumb"});
  ASSERT_TRUE(rename_joints(s, BvhJointNames::kSource));
  EXPECT_EQ(names_of(s), (std::vector<std::string>{"root", "lfemur", "prop", "RThumb"}));
  ASSERT_TRUE(rename_joints(s, BvhJointNames::kMotionBuilder));
  EXPECT_EQ(names_of(s), (std::vector<std::string>{"Hips", "LeftUpLeg", "prop", "RThumb"}));
  ASSERT_TRUE(rename_joints(s, BvhJointNames::kCmu));
  EXPECT_EQ(names_of(s), (std::vector<std::string>{"root", "lfemur", "prop", "rthumb"}));
}

// Two joints that would share a name are refused, the skeleton untouched.
TEST(BvhJointNames, ACollisionIsRefused) {
  Skeleton s = named({"root", "Hips"});
  auto renamed = rename_joints(s, BvhJointNames::kMotionBuilder);
  ASSERT_FALSE(renamed);
  EXPECT_NE(renamed.error().message.find("'root' and 'Hips' would both be named 'Hips'"), std::string::npos)
      << renamed.error().message;
  EXPECT_EQ(names_of(s), (std::vector<std::string>{"root", "Hips"}));
  EXPECT_EQ(parse_bvh_joint_names("mobu"), BvhJointNames::kMotionBuilder);
  EXPECT_EQ(parse_bvh_joint_names("Hips"), std::nullopt);
}

}  // namespace
}  // namespace mocap
