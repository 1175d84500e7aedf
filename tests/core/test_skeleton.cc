// The runtime skeleton made in code: finalize's derived fields and refusals,
// and the Euler angles the .mkc fingerprint stores.
#include <gtest/gtest.h>
#include <mocap/core/skeleton.h>

#include <numbers>
#include <random>

namespace mocap {
namespace {

constexpr double kPi = std::numbers::pi;

// root -> a -> b, and root -> c, listed so that b comes before its parent.
Skeleton small_tree() {
  Skeleton s;
  s.bones.resize(4);
  s.bones[0].name = "root";
  s.bones[0].dofs = {Channel::TX, Channel::TY, Channel::TZ, Channel::RX, Channel::RY, Channel::RZ};
  const auto bone = [](std::string name, int parent, Eigen::Vector3d direction, double length) {
    Bone b;
    b.name = std::move(name);
    b.parent = parent;
    b.direction = direction;
    b.length = length;
    return b;
  };
  s.bones[1] = bone("b", 2, Eigen::Vector3d::UnitX(), 0.5);
  s.bones[1].dofs = {Channel::RZ, Channel::L};
  s.bones[2] = bone("a", 0, Eigen::Vector3d::UnitY(), 0.25);
  s.bones[2].axis_rotation = Eigen::Quaterniond(Eigen::AngleAxisd(kPi / 2, Eigen::Vector3d::UnitZ()));
  s.bones[2].dofs = {Channel::RX};
  s.bones[3] = bone("c", 0, Eigen::Vector3d::UnitZ(), 1.0);
  return s;
}

TEST(SkeletonFinalize, FillsEvalOrderChannelsAndDofAxes) {
  Skeleton s = small_tree();
  ASSERT_TRUE(finalize(s));
  EXPECT_EQ(s.eval_order, (std::vector<int>{0, 2, 3, 1}));
  EXPECT_EQ(s.bones[0].first_channel, 0);
  EXPECT_EQ(s.bones[1].first_channel, 6);
  EXPECT_EQ(s.bones[2].first_channel, 8);
  EXPECT_EQ(s.bones[3].first_channel, 9);
  EXPECT_EQ(s.channel_count, 9);
  // a's C turns x onto y: its rx dof turns about y.
  ASSERT_EQ(s.bones[2].dof_axes.size(), 1u);
  EXPECT_TRUE(s.bones[2].dof_axes[0].isApprox(Eigen::Vector3d::UnitY(), 1e-15));
  EXPECT_EQ(s.bones[1].dof_axes[0], Eigen::Vector3d::UnitZ());
  EXPECT_EQ(s.find_bone("c"), 3);
  EXPECT_EQ(s.find_bone("nope"), -1);
  EXPECT_EQ(s.children(0), (std::vector<int>{2, 3}));
}

TEST(SkeletonFinalize, RefusesWhatIsNotATreeUnderBoneZero) {
  Skeleton empty;
  EXPECT_FALSE(finalize(empty));
  Skeleton rooted = small_tree();
  rooted.bones[0].parent = 1;
  EXPECT_FALSE(finalize(rooted));
  Skeleton orphan = small_tree();
  orphan.bones[3].parent = -1;
  const auto no_parent = finalize(orphan);
  ASSERT_FALSE(no_parent);
  EXPECT_NE(no_parent.error().message.find("'c'"), std::string::npos) << no_parent.error().message;
  Skeleton cycle = small_tree();
  cycle.bones[2].parent = 1;  // a under b under a
  const auto cyclic = finalize(cycle);
  ASSERT_FALSE(cyclic);
  EXPECT_NE(cyclic.error().message.find("cycle"), std::string::npos) << cyclic.error().message;
  Skeleton beyond = small_tree();
  beyond.bones[3].parent = 4;
  const auto out_of_range = finalize(beyond);
  ASSERT_FALSE(out_of_range);
  EXPECT_NE(out_of_range.error().message.find("'c'"), std::string::npos) << out_of_range.error().message;
}

TEST(EulerAngles, XyzAnglesComposeBackToTheRotation) {
  std::mt19937 random(12);
  std::uniform_real_distribution<double> angle(-kPi, kPi);
  double worst = 0.0;
  for (int i = 0; i < 10000; ++i) {
    const Eigen::Vector3d a(angle(random), angle(random), angle(random));
    const Eigen::Quaterniond q = euler_to_quaternion(a, "XYZ");
    const Eigen::Vector3d back = xyz_euler_angles(q);
    EXPECT_LE(std::abs(back.y()), kPi / 2);
    worst = std::max(worst, euler_to_quaternion(back, "XYZ").angularDistance(q));
  }
  // Near y = +-90 degrees x and z are each known only to ~1e-16 / cos y.
  EXPECT_LT(worst, 1e-11) << "radians";
  // Angles already in range come back as they are (CMU axes).
  const Eigen::Vector3d cmu(0.1, -0.2, 20.0 * kPi / 180.0);
  EXPECT_TRUE(xyz_euler_angles(euler_to_quaternion(cmu, "XYZ")).isApprox(cmu, 1e-14));
  // Gimbal lock: y = 90 degrees, where only x - z is defined; z comes back 0.
  const Eigen::Quaterniond locked = euler_to_quaternion(Eigen::Vector3d(0.3, kPi / 2, 0.1), "XYZ");
  const Eigen::Vector3d l = xyz_euler_angles(locked);
  EXPECT_EQ(l.z(), 0.0);
  EXPECT_LT(euler_to_quaternion(l, "XYZ").angularDistance(locked), 1e-7);
  // Another order's rotation has XYZ angles too.
  const Eigen::Quaterniond zyx = euler_to_quaternion(Eigen::Vector3d(0.4, -0.7, 1.1), "ZYX");
  EXPECT_LT(euler_to_quaternion(xyz_euler_angles(zyx), "XYZ").angularDistance(zyx), 1e-14);
}

}  // namespace
}  // namespace mocap
