// Edge stretch (skin/edge_stretch.h): the longest edge over the frames,
// named, and the edge-frames past the bound, on a few triangles by hand
// (on the skinned humanoid: test_skin_frames.cc).
#include <gtest/gtest.h>
#include <mocap/skin/edge_stretch.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace mocap {
namespace {

// Two triangles of a unit square, and a vertex on vertex 1 (a seam) joined to it.
Mesh square_with_seam() {
  Mesh mesh;
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 0, 0}};
  mesh.triangles = {MeshTriangle{{0, 1, 2}}, MeshTriangle{{1, 3, 2}}, MeshTriangle{{4, 3, 1}}};
  return mesh;
}

TEST(EdgeStretch, NamesTheLongestEdgeItsFrameAndCountsThosePastTheBound) {
  const Mesh mesh = square_with_seam();
  EdgeStretch stretch = make_edge_stretch(mesh);
  EXPECT_EQ(stretch.edges.size(), 6u);  // 01 02 12 13 23 34; the seam's 14 has no length
  EXPECT_EQ(format_edge_stretch(stretch, mesh, {}, {}), "stretch: no edge measured (6 edges, 0 frames)");

  add_stretch_frame(stretch, 10, mesh.positions);
  EXPECT_FLOAT_EQ(stretch.longest, 1.0);
  EXPECT_EQ(stretch.past_bound, 0);

  // Vertex 2 pulled to (0, 5): 02 5x, 23 4.12x, 12 3.61x past 3x.
  std::vector<Eigen::Vector3f> pulled = mesh.positions;
  pulled[2] = {0, 5, 0};
  add_stretch_frame(stretch, 20, pulled);
  EXPECT_FLOAT_EQ(stretch.longest, 5.0);
  EXPECT_EQ(stretch.edges[static_cast<std::size_t>(stretch.longest_edge)], (std::array<int, 2>{0, 2}));
  EXPECT_EQ(stretch.longest_frame, 20);
  EXPECT_EQ(stretch.past_bound, 3);
  EXPECT_EQ(stretch.frames, 2);

  // That frame's edges past 4x: 02 and 23 (edge indices in (lower, higher) order).
  std::vector<int> past{7};
  edges_past(stretch, pulled, 4.0, past);
  ASSERT_EQ(past.size(), 2u);
  EXPECT_EQ(stretch.edges[static_cast<std::size_t>(past[0])], (std::array<int, 2>{0, 2}));
  EXPECT_EQ(stretch.edges[static_cast<std::size_t>(past[1])], (std::array<int, 2>{2, 3}));
  edges_past(stretch, mesh.positions, 1.0, past);
  EXPECT_TRUE(past.empty());

  // A later, shorter stretch does not take the name; fewer positions than
  // vertices measure the edges they hold (01 alone here).
  add_stretch_frame(stretch, 30, std::span(pulled).first(2));
  EXPECT_EQ(stretch.longest_frame, 20);
  EXPECT_EQ(stretch.frames, 3);

  std::vector<VertexWeights> weights(mesh.positions.size());
  weights[0].bone = {1, 0, 0, 0};
  weights[0].weight = {0.7f, 0.3f, 0.0f, 0.0f};
  weights[2].bone = {2, 0, 0, 0};
  weights[2].weight = {1.0f, 0.0f, 0.0f, 0.0f};
  const std::vector<std::string> names = {"root", "lfemur", "rfemur"};
  EXPECT_EQ(format_edge_stretch(stretch, mesh, weights, names),
            "stretch: longest edge 5.00x its rest length (1000.0 mm), vertices 0 and 2 at frame 20, at (0.0, 0.0, "
            "0.0) cm in the mesh at rest (lfemur 0.70 root 0.30 | rfemur 1.00); 3 edge-frames past 3x in 3 frames");
  EXPECT_NE(format_edge_stretch(stretch, mesh, {}, names).find("(no weight | no weight)"), std::string::npos);
}

// A frame where every edge collapses still names one (ratio 0), a position
// not a number is the worst (infinite, past the bound), and a mesh in
// another unit than metres is reported in it.
TEST(EdgeStretch, CollapsedAndBrokenFramesAreReportedNotSkipped) {
  const Mesh mesh = square_with_seam();
  EdgeStretch stretch = make_edge_stretch(mesh);
  const std::vector<Eigen::Vector3f> collapsed(mesh.positions.size(), Eigen::Vector3f::Zero());
  add_stretch_frame(stretch, 1, collapsed);
  EXPECT_EQ(stretch.longest, 0.0);
  EXPECT_GE(stretch.longest_edge, 0);
  EXPECT_EQ(stretch.past_bound, 0);

  std::vector<Eigen::Vector3f> broken = mesh.positions;
  broken[3].x() = std::numeric_limits<float>::quiet_NaN();
  add_stretch_frame(stretch, 2, broken);
  EXPECT_TRUE(std::isinf(stretch.longest));
  EXPECT_EQ(stretch.longest_frame, 2);
  EXPECT_EQ(stretch.past_bound, 3);  // 13, 23, 34
  EXPECT_NE(format_edge_stretch(stretch, mesh, {}, {}, "model units").find("its rest length (1 model units)"),
            std::string::npos)
      << format_edge_stretch(stretch, mesh, {}, {}, "model units");
}

}  // namespace
}  // namespace mocap
