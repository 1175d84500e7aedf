// The up axis and facing of a mesh (rig/mesh_orientation.h): the bundled
// humanoid turned to each of the 24 axis-aligned orientations is found as
// turned; given axes win; bad spellings are refused.
#include <gtest/gtest.h>
#include <mocap/io/mesh.h>
#include <mocap/rig/mesh_orientation.h>

#include "test_data.h"

namespace mocap {
namespace {

TEST(MeshOrientation, ParsesAxes) {
  EXPECT_EQ(parse_signed_axis("+Z")->name(), "+z");
  EXPECT_EQ(parse_signed_axis("-y")->name(), "-y");
  EXPECT_EQ(parse_signed_axis("x")->name(), "+x");
  EXPECT_FALSE(parse_signed_axis("up"));
  EXPECT_FALSE(parse_signed_axis("+w"));
  EXPECT_FALSE(parse_signed_axis(""));
  const MeshOrientation zup{{2, 1}, {1, -1}, ""};
  // The library's left (+X), up (+Y) and forward (+Z) in the mesh's axes.
  EXPECT_TRUE(zup.axes().isApprox((Eigen::Matrix3d() << 1, 0, 0, 0, 0, -1, 0, 1, 0).finished()));
  EXPECT_NEAR(zup.axes().determinant(), 1.0, 1e-12);
}

TEST(MeshOrientation, FindsEveryTurnOfTheHumanoid) {
  auto mesh = read_obj((test::bundled_data_dir() / "humanoid.obj").string(), {0.1});
  ASSERT_TRUE(mesh) << mesh.error().to_string();
  int cases = 0;
  for (int up = 0; up < 6; ++up) {
    for (int forward = 0; forward < 6; ++forward) {
      const MeshOrientation want{{up / 2, up % 2 ? -1 : 1}, {forward / 2, forward % 2 ? -1 : 1}, ""};
      if (want.up.axis == want.forward.axis) continue;
      ++cases;
      const Mesh turned = turned_mesh(*mesh, want.axes());  // the library's frame into the mesh's
      const auto found = find_mesh_orientation(turned, std::nullopt, std::nullopt, "humanoid");
      ASSERT_TRUE(found) << found.error().to_string();
      EXPECT_EQ(found->up.name(), want.up.name()) << found->how;
      EXPECT_EQ(found->forward.name(), want.forward.name()) << found->how;
      // Given one axis, the other is found; given both, they are taken.
      const auto given_up = find_mesh_orientation(turned, want.up, std::nullopt, "humanoid");
      EXPECT_EQ(given_up->forward.name(), want.forward.name()) << given_up->how;
      const auto given_forward = find_mesh_orientation(turned, std::nullopt, want.forward, "humanoid");
      EXPECT_EQ(given_forward->up.name(), want.up.name()) << given_forward->how;
    }
  }
  EXPECT_EQ(cases, 24);
  const auto both = find_mesh_orientation(*mesh, SignedAxis{0, 1}, SignedAxis{2, -1}, "humanoid");
  ASSERT_TRUE(both);
  EXPECT_EQ(both->how, "up +x, facing -z (given)");
  EXPECT_FALSE(find_mesh_orientation(*mesh, SignedAxis{1, 1}, SignedAxis{1, -1}, "humanoid"));
}

}  // namespace
}  // namespace mocap
