// OBJ reading and writing: small files made here for every rule, then the
// real MakeHuman base mesh from ../shared/data.
#include <gtest/gtest.h>
#include <mocap/io/mesh.h>

#include <filesystem>
#include <fstream>

#include "test_data.h"

namespace mocap {
namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("mocap_test_mesh_" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

std::filesystem::path makehuman_obj() {
  return test::shared_data_dir() / "meshes" / "makehuman" / "base.obj";
}

// A unit quad in group a, a triangle in group b, a pentagon back in group a.
const char* kPolygons =
    "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
    "v 2 0 0\nv 3 0 0\nv 3.5 1 0\nv 2.5 2 0\nv 1.5 1 0\n"
    "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n"
    "g a\nf 1/1 2/2 3/3 4/4\n"
    "g b\nf 2 5 9\n"
    "g a\nf 5 6 7 8 9\n";

TEST(ReadObj, TriangulatesPolygonsOfAnySizeAndMergesRepeatedGroups) {
  const auto mesh = read_obj(write_temp("polygons.obj", kPolygons));
  ASSERT_TRUE(mesh) << mesh.error().to_string();
  EXPECT_EQ(mesh->vertex_count(), 9);
  EXPECT_EQ(mesh->triangles.size(), 2u + 1u + 3u);  // quad, triangle, pentagon
  ASSERT_EQ(mesh->group_names, (std::vector<std::string>{"a", "b"}));
  int in_a = 0;
  for (const MeshTriangle& t : mesh->triangles) in_a += t.group == 0;
  EXPECT_EQ(in_a, 5);
  EXPECT_EQ(mesh->uvs.size(), 4u);
  EXPECT_EQ(mesh->triangles[0].uv[0], 0);
  EXPECT_EQ(mesh->triangles[2].uv[0], -1);  // the triangle has no vt
  // No vn in the file: computed, unit, facing +Z for this counter-clockwise plane.
  ASSERT_EQ(mesh->normals.size(), 9u);
  for (const auto& n : mesh->normals) EXPECT_NEAR((n - Eigen::Vector3f::UnitZ()).norm(), 0.0f, 1e-6f);
}

TEST(ReadObj, ConvertsUnitsToMetres) {
  const auto mesh = read_obj(write_temp("units.obj", kPolygons), ObjReadOptions{0.1});
  ASSERT_TRUE(mesh);
  EXPECT_FLOAT_EQ(mesh->positions[7].x(), 0.25f);
  EXPECT_FLOAT_EQ(mesh->positions[7].y(), 0.2f);
}

TEST(ReadObj, RefusesNumbersThatAreNotFinite) {
  // tinyobjloader reads them as numbers (a fuzz finding: a mesh with an infinite vertex was returned).
  const auto position = read_obj(write_temp("inf.obj", "v 0 0 0\nv 1e999 0 0\nv 0 1 0\nf 1 2 3\n"));
  ASSERT_FALSE(position);
  EXPECT_NE(position.error().message.find("vertex 2 (its `v` line) is not a finite position"), std::string::npos)
      << position.error().message;
  const auto normal =
      read_obj(write_temp("inf_normal.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 -1e999\nf 1//1 2//1 3//1\n"));
  ASSERT_FALSE(normal);
  EXPECT_NE(normal.error().message.find("normal 1"), std::string::npos) << normal.error().message;
}

TEST(ReadObj, NormalsOfHugeButFiniteVerticesAreUnit) {
  // A fuzz finding: float cross products of coordinates near 1e38 overflowed
  // and the normals came out of length 0.
  const auto mesh =
      read_obj(write_temp("huge.obj", "v 0 0 0\nv 3e38 0 0\nv 0 -3e38 0\nv 1e20 1e20 1\nf 1 2 3\nf 1 2 4\n"));
  ASSERT_TRUE(mesh) << mesh.error().to_string();
  for (const Eigen::Vector3f& n : mesh->normals) EXPECT_NEAR(n.norm(), 1.0f, 1e-5f) << n.transpose();
  EXPECT_NEAR(mesh->normals[2].z(), -1.0f, 1e-5f);
}

TEST(WeldByPosition, MergesSeamCopiesAndKeepsAMeshWithoutSeams) {
  // A unit square split along a seam: corners 1 and 2 are written twice.
  Mesh split;
  split.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  split.triangles = {{{0, 1, 2}}, {{3, 4, 5}}};
  compute_normals(split);
  const WeldedMesh welded = weld_by_position(split);
  EXPECT_EQ(welded.mesh.vertex_count(), 4);
  EXPECT_EQ(welded.index, (std::vector<int>{0, 1, 2, 1, 3, 2}));
  ASSERT_EQ(welded.mesh.triangles.size(), 2u);
  EXPECT_EQ(welded.mesh.triangles[1].vertex, (std::array<int, 3>{1, 3, 2}));
  EXPECT_EQ(mesh_edges(welded.mesh).size(), 5u);  // the seam is one edge now
  ASSERT_EQ(welded.mesh.normals.size(), 4u);
  // -0 is the position +0 is; a triangle folded onto an edge by the merge goes.
  Mesh folded = split;
  folded.positions.push_back({-0.0f, 0, 0});
  folded.triangles.push_back({{0, 6, 4}});
  const WeldedMesh again = weld_by_position(folded);
  EXPECT_EQ(again.index[6], 0);
  EXPECT_EQ(again.mesh.triangles.size(), 2u);
  // Without seams: the same vertices in the same order.
  const WeldedMesh same = weld_by_position(welded.mesh);
  EXPECT_EQ(same.index, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(same.mesh.positions, welded.mesh.positions);
  EXPECT_EQ(same.mesh.normals, welded.mesh.normals);
}

TEST(ReadObj, AveragesFileNormalsPerVertex) {
  const auto mesh = read_obj(write_temp("normals.obj",
                                        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                                        "vn 0 0 1\nvn 1 0 0\n"
                                        "f 1//1 2//1 3//1\nf 1//2 3//2 4//2\n"));
  ASSERT_TRUE(mesh);
  EXPECT_NEAR((mesh->normals[0] - Eigen::Vector3f(1, 0, 1).normalized()).norm(), 0.0f, 1e-6f);
  EXPECT_NEAR((mesh->normals[1] - Eigen::Vector3f::UnitZ()).norm(), 0.0f, 1e-6f);
  EXPECT_NEAR((mesh->normals[3] - Eigen::Vector3f::UnitX()).norm(), 0.0f, 1e-6f);
}

TEST(ReadObj, FailsNamingTheFile) {
  const auto missing = read_obj("/nonexistent/mesh.obj");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().file, "/nonexistent/mesh.obj");

  const std::string no_faces = write_temp("no_faces.obj", "v 0 0 0\nv 1 0 0\n");
  const auto empty = read_obj(no_faces);
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().to_string().find(no_faces), std::string::npos);
  EXPECT_NE(empty.error().message.find("no faces"), std::string::npos);

  EXPECT_FALSE(read_obj(write_temp("bad_index.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n")));
  EXPECT_FALSE(read_obj(write_temp("units_zero.obj", kPolygons), ObjReadOptions{0.0}));
}

TEST(ExtractGroups, KeepsOnlyTheGroupsVerticesInOrder) {
  const auto mesh = read_obj(write_temp("extract.obj", kPolygons));
  ASSERT_TRUE(mesh);
  std::vector<int> old_index;
  const std::vector<std::string> b{"b"};
  const auto only_b = extract_groups(*mesh, b, &old_index);
  ASSERT_TRUE(only_b);
  EXPECT_EQ(old_index, (std::vector<int>{1, 4, 8}));
  ASSERT_EQ(only_b->triangles.size(), 1u);
  EXPECT_EQ(only_b->triangles[0].vertex, (std::array<int, 3>{0, 1, 2}));
  EXPECT_EQ(only_b->group_names, b);
  EXPECT_TRUE(only_b->uvs.empty());

  const std::vector<std::string> unknown{"nope"};
  const auto missing = extract_groups(*mesh, unknown);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("nope"), std::string::npos);
}

TEST(MeshEdges, EachEdgeOnce) {
  const auto mesh = read_obj(write_temp("edges.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n"));
  ASSERT_TRUE(mesh);
  // A fan-triangulated quad: four sides and one diagonal.
  EXPECT_EQ(mesh_edges(*mesh).size(), 5u);
}

TEST(FormatObj, ReadsBackTheSameMesh) {
  const auto mesh = read_obj(write_temp("roundtrip_in.obj", kPolygons), ObjReadOptions{0.1});
  ASSERT_TRUE(mesh);
  const std::string path = write_temp("roundtrip_out.obj", format_obj(*mesh, mesh->positions, mesh->normals, 0.1));
  const auto back = read_obj(path, ObjReadOptions{0.1});
  ASSERT_TRUE(back) << back.error().to_string();
  ASSERT_EQ(back->vertex_count(), mesh->vertex_count());
  for (int v = 0; v < mesh->vertex_count(); ++v) {
    EXPECT_NEAR((back->positions[v] - mesh->positions[v]).norm(), 0.0f, 1e-6f);
    EXPECT_NEAR((back->normals[v] - mesh->normals[v]).norm(), 0.0f, 1e-5f);
  }
  ASSERT_EQ(back->triangles.size(), mesh->triangles.size());
  for (std::size_t t = 0; t < mesh->triangles.size(); ++t) {
    EXPECT_EQ(back->triangles[t].vertex, mesh->triangles[t].vertex);
    EXPECT_EQ(back->triangles[t].uv, mesh->triangles[t].uv);
    EXPECT_EQ(back->group_names[back->triangles[t].group], mesh->group_names[mesh->triangles[t].group]);
  }
}

TEST(MakeHuman, ReadsTheBaseMeshInDecimetres) {
  if (!std::filesystem::exists(makehuman_obj())) GTEST_SKIP() << "no " << makehuman_obj() << ": skipped";
  const auto mesh = read_obj(makehuman_obj().string(), ObjReadOptions{0.1});
  ASSERT_TRUE(mesh) << mesh.error().to_string();
  // Counts from ../shared/data/PROVENANCE.md.
  EXPECT_EQ(mesh->vertex_count(), 19158);
  EXPECT_EQ(mesh->group_names.size(), 139u);
  const std::vector<std::string> body{"body"};
  const auto only_body = extract_groups(*mesh, body);
  ASSERT_TRUE(only_body);
  EXPECT_EQ(only_body->vertex_count(), 13380);
  Eigen::AlignedBox3f box;
  for (const auto& p : only_body->positions) box.extend(p);
  EXPECT_NEAR(box.sizes().y(), 1.67f, 0.01f);  // metres: "body 16.7 units tall"
  EXPECT_LT(box.sizes().x(), 1.1f);            // A-pose: narrower than a T-pose
}

}  // namespace
}  // namespace mocap
