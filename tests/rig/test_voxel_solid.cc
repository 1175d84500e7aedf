// One solid from any mesh (voxel_solid.h): shapes made here whose volume
// and pieces are known (a cube, two overlapping boxes, a box with a hole, a
// body in an open shell), then the bundled humanoid and the whole MakeHuman
// base mesh (body, eyes, teeth, clothes proxies, joint helpers) against the
// generalized winding number (mesh_inside.h).
#include <gtest/gtest.h>
#include <mocap/io/mesh.h>
#include <mocap/rig/mesh_inside.h>
#include <mocap/rig/voxel_solid.h>

#include <cstdio>
#include <filesystem>
#include <random>

#include "rig/box_mesh.h"
#include "test_data.h"

namespace mocap {
namespace {

using test::add_box;

Mesh box(const Eigen::Vector3f& lo, const Eigen::Vector3f& hi, int n = 4) {
  Mesh mesh;
  add_box(mesh, lo, hi, n);
  return mesh;
}

TEST(VoxelSolidValidity, BadOptionsAndInputsFail) {
  const Mesh cube = box({0, 0, 0}, {1, 1, 1});
  VoxelSolidOptions o;
  EXPECT_TRUE(o.validate());
  o.resolution = 8;
  EXPECT_FALSE(voxelize(cube, o));
  o = {};
  o.closing = -1;
  EXPECT_FALSE(voxelize(cube, o));
  EXPECT_FALSE(voxelize(Mesh{}));  // no triangle
  Mesh bad = cube;
  bad.triangles[0].vertex[1] = 999;
  const auto refused = voxelize(bad);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("999"), std::string::npos) << refused.error().message;
  Mesh point = cube;
  for (auto& p : point.positions) p.setZero();
  EXPECT_FALSE(voxelize(point));  // no extent
  // A solid checks its own shape.
  auto solid = voxelize(cube);
  ASSERT_TRUE(solid) << solid.error().to_string();
  EXPECT_TRUE(solid->validate());
  VoxelSolid broken = *solid;
  broken.cells.pop_back();
  EXPECT_FALSE(broken.validate());
  broken = *solid;
  broken.cell = 0.0f;
  EXPECT_FALSE(broken.validate());
  broken = *solid;
  broken.cells[0] = static_cast<Voxel>(7);
  EXPECT_FALSE(broken.validate());
}

TEST(VoxelSolid, ACubeHasItsVolumeAndItsInside) {
  const Mesh cube = box({0.1f, 0.2f, 0.3f}, {1.1f, 1.2f, 1.3f});
  for (const int resolution : {32, 128}) {
    VoxelSolidOptions o;
    o.resolution = resolution;
    const auto solid = voxelize(cube, o);
    ASSERT_TRUE(solid) << solid.error().to_string();
    EXPECT_NEAR(solid->cell, 1.0f / resolution, 1e-6f);
    // 1 m^3 within 2% (surface cells counted half).
    EXPECT_NEAR(solid_volume(*solid), 1.0, 0.02) << resolution;
    EXPECT_EQ(solid_components(*solid), 1);
    EXPECT_TRUE(solid->contains({0.6f, 0.7f, 0.8f}));
    EXPECT_TRUE(solid->contains({0.15f, 0.25f, 0.35f}));
    EXPECT_FALSE(solid->contains({1.2f, 0.7f, 0.8f}));
    EXPECT_FALSE(solid->contains({0.6f, 0.7f, 1.4f}));
    EXPECT_FALSE(solid->contains({-5.0f, 0.0f, 0.0f}));  // off the grid
    const Eigen::Vector3i centre = solid->cell_of({0.6f, 0.7f, 0.8f});
    EXPECT_EQ(solid->cells[solid->index(centre)], Voxel::kInterior);
    EXPECT_EQ(solid->cells[solid->index(solid->cell_of({0.6f, 0.7f, 1.3f}))], Voxel::kSurface);
    // The border of the grid is outside.
    EXPECT_EQ(solid->cells[0], Voxel::kOutside);
    EXPECT_EQ(solid->cells.back(), Voxel::kOutside);
  }
}

// Two boxes overlapping (both closed, each wound on its own): one body, the
// union's volume, and the overlap is inside although both surfaces cross there.
TEST(VoxelSolid, OverlappingBoxesAreOneBody) {
  Mesh mesh;
  add_box(mesh, {0, 0, 0}, {1, 0.5f, 0.5f}, 4);
  add_box(mesh, {0.5f, 0.25f, 0.25f}, {1.5f, 1.0f, 0.75f}, 4);
  const double expected = 0.25 + 0.375 - 0.5 * 0.25 * 0.25;
  VoxelSolidOptions o;
  o.resolution = 150;
  const auto solid = voxelize(mesh, o);
  ASSERT_TRUE(solid);
  EXPECT_NEAR(solid_volume(*solid), expected, 0.03 * expected);
  EXPECT_EQ(solid_components(*solid), 1);
  EXPECT_TRUE(solid->contains({0.75f, 0.375f, 0.375f}));  // in both
  EXPECT_TRUE(solid->contains({0.2f, 0.1f, 0.1f}));       // in the first only
  EXPECT_TRUE(solid->contains({1.3f, 0.8f, 0.6f}));       // in the second only
  EXPECT_FALSE(solid->contains({0.2f, 0.8f, 0.4f}));      // in neither
  // Apart, they are two.
  Mesh apart;
  add_box(apart, {0, 0, 0}, {1, 0.5f, 0.5f}, 4);
  add_box(apart, {1.2f, 0, 0}, {2, 0.5f, 0.5f}, 4);
  const auto two = voxelize(apart, o);
  ASSERT_TRUE(two);
  EXPECT_EQ(solid_components(*two), 2);
}

// A hole in the surface: closed when it is narrower than the closing can
// bridge, so the outside does not get in; open (the box hollow, only its
// walls solid) when the closing is off or the hole is wide.
TEST(VoxelSolid, AHoleNarrowerThanTheClosingIsClosed) {
  // 1 m box at 100 cells (1 cm cells, the faces in their middles), faces 20
  // x 20 quads (5 cm): the hole is one quad (5 cm: 4 free cells between the
  // two its edges touch) or three (15 cm: 14 free cells).
  const Eigen::Vector3f lo(0, 0, 0), hi(1, 1, 1), inside(0.5f, 0.5f, 0.5f);
  Mesh small_hole;
  add_box(small_hole, lo, hi, 20, 0, 10, 11);
  Mesh wide_hole;
  add_box(wide_hole, lo, hi, 20, 0, 9, 12);
  auto solid_of = [](const Mesh& m, int closing) {
    VoxelSolidOptions o;
    o.resolution = 100;
    o.closing = closing;
    auto s = voxelize(m, o);
    EXPECT_TRUE(s) << s.error().to_string();
    return *s;
  };
  EXPECT_FALSE(solid_of(small_hole, 0).contains(inside));
  EXPECT_FALSE(solid_of(small_hole, 1).contains(inside));  // 4 cells: more than 2 * 1
  const VoxelSolid closed = solid_of(small_hole, 2);
  EXPECT_TRUE(closed.contains(inside));
  EXPECT_NEAR(solid_volume(closed), 1.0, 0.03);
  // The closing does not fatten the box: just outside its faces is outside.
  EXPECT_FALSE(closed.contains({0.5f, 0.5f, 1.02f}));
  EXPECT_FALSE(closed.contains({1.02f, 0.5f, 0.5f}));
  EXPECT_FALSE(solid_of(wide_hole, 6).contains(inside));
  EXPECT_TRUE(solid_of(wide_hole, 7).contains(inside));
}

// A body (a closed box) in an open shell (a sleeve: four sides of a wider
// box, open at both ends) one centimetre off it: the gap between them is
// closed at the ends by the closing, so body, gap and shell are one solid.
TEST(VoxelSolid, ABodyInAnOpenShellIsOneSolid) {
  Mesh mesh;
  add_box(mesh, {0, 0, 0}, {0.2f, 1.0f, 0.2f}, 4);
  add_box(mesh, {-0.01f, 0.3f, -0.01f}, {0.21f, 0.7f, 0.21f}, 4, 0b001100);  // no -y, +y faces
  VoxelSolidOptions o;
  o.resolution = 200;  // 5 mm cells: the gap is one or two free cells
  const auto solid = voxelize(mesh, o);
  ASSERT_TRUE(solid);
  EXPECT_EQ(solid_components(*solid), 1);
  EXPECT_TRUE(solid->contains({0.205f, 0.5f, 0.1f}));  // in the gap
  EXPECT_TRUE(solid->contains({0.1f, 0.5f, 0.1f}));
  EXPECT_FALSE(solid->contains({0.205f, 0.1f, 0.1f}));  // beside the body, below the shell
  // Without the closing the gap is open at both ends and stays outside.
  o.closing = 0;
  const auto open = voxelize(mesh, o);
  ASSERT_TRUE(open);
  EXPECT_FALSE(open->contains({0.205f, 0.5f, 0.1f}));
}

// Points of the mesh's box classified by the solid and by the winding number
// (above 1/2: inside), leaving out those within two cells of the surface,
// where a cell's rounding decides.
struct Classification {
  int tested = 0, agree = 0;
};
Classification classify_against_winding(const Mesh& mesh, const VoxelSolid& solid, int samples) {
  Eigen::AlignedBox3f box;
  for (const auto& p : mesh.positions) box.extend(p);
  std::mt19937 rng(29);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  Classification c;
  for (int i = 0; i < samples; ++i) {
    const Eigen::Vector3f p = box.min() + box.sizes().cwiseProduct(Eigen::Vector3f(u(rng), u(rng), u(rng)));
    const Eigen::Vector3d q = p.cast<double>();
    if (closest_surface_point(mesh.positions, mesh.triangles, q).distance < 2.0 * solid.cell) continue;
    ++c.tested;
    if ((winding_number(mesh, q) > 0.5) == solid.contains(p)) ++c.agree;
  }
  return c;
}

TEST(VoxelSolid, TheHumanoidIsOneBodyWhereTheWindingNumberSaysInside) {
  const auto mesh = read_obj((test::bundled_data_dir() / "humanoid.obj").string(), ObjReadOptions{0.1});
  ASSERT_TRUE(mesh) << mesh.error().to_string();
  const auto solid = voxelize(*mesh);
  ASSERT_TRUE(solid) << solid.error().to_string();
  ASSERT_TRUE(solid->validate());
  EXPECT_NEAR(solid->cell, 1.666f / 192, 1e-4f);
  EXPECT_EQ(solid_components(*solid), 1);
  // An adult of 1.67 m: about 0.06-0.08 m^3 (65 kg at about 1 kg/l).
  const double volume = solid_volume(*solid);
  std::printf("humanoid: %d x %d x %d cells of %.2f mm, volume %.4f m^3\n", solid->dims.x(), solid->dims.y(),
              solid->dims.z(), solid->cell * 1e3, volume);
  EXPECT_GT(volume, 0.05);
  EXPECT_LT(volume, 0.09);
  // The chest, the belly, a thigh are inside; in front of the chest and
  // between the feet is not.
  EXPECT_TRUE(solid->contains({0.0f, 0.35f, 0.0f}));
  EXPECT_TRUE(solid->contains({0.0f, 0.0f, 0.0f}));
  EXPECT_TRUE(solid->contains({0.1f, -0.2f, 0.0f}));
  EXPECT_FALSE(solid->contains({0.0f, 0.35f, 0.4f}));
  EXPECT_FALSE(solid->contains({0.0f, -0.75f, 0.0f}));
  // 1,000 points (about 900 away from the surface): the winding number over
  // every triangle is most of this test's time under ASan.
  const Classification c = classify_against_winding(*mesh, *solid, 1000);
  std::printf("humanoid: %d of %d points away from the surface classified as the winding number does\n", c.agree,
              c.tested);
  ASSERT_GT(c.tested, 500);
  EXPECT_GE(c.agree, c.tested * 99 / 100);
}

// The whole MakeHuman base mesh: the body with the eyes, teeth, tongue,
// clothes proxies and joint helper cubes, many parts that overlap, lie
// inside one another or float: the parts in the body are the body.
TEST(VoxelSolid, TheWholeMakeHumanMeshWithItsPartsIsOneBody) {
  const auto path = test::shared_data_dir() / "meshes" / "makehuman" / "base.obj";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path;
  const auto base = read_obj(path.string(), ObjReadOptions{0.1});
  ASSERT_TRUE(base) << base.error().to_string();
  const auto body = read_obj((test::bundled_data_dir() / "humanoid.obj").string(), ObjReadOptions{0.1});
  ASSERT_TRUE(body);
  const auto solid = voxelize(*base);
  const auto body_solid = voxelize(*body);
  ASSERT_TRUE(solid && body_solid);
  const double volume = solid_volume(*solid), body_volume = solid_volume(*body_solid);
  std::printf("MakeHuman base: %zu groups, %d vertices, %d pieces, volume %.4f m^3 (body alone %.4f)\n",
              base->group_names.size(), base->vertex_count(), solid_components(*solid), volume, body_volume);
  EXPECT_GT(base->group_names.size(), 5u);
  // Measured: 2 pieces, 0.0709 m^3 against 0.0557 for the body: the hair,
  // skirt and tights proxies are shells around the body and add what they
  // enclose; the eyes, teeth and tongue add nothing (they are in the head).
  EXPECT_LE(solid_components(*solid), 2);
  EXPECT_GE(volume, body_volume);
  EXPECT_LE(volume, 1.35 * body_volume);
  EXPECT_TRUE(solid->contains({0.0f, 0.35f, 0.0f}));
}

}  // namespace
}  // namespace mocap
