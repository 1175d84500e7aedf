// A uniform grid over a mesh's triangles, to ask quickly whether a short
// segment crosses the surface (the visibility test of bone-heat weights,
// heat_weights.h). Each cell lists the triangles whose bounding box meets
// it; a query tests only the triangles of the cells the segment's bounding
// box covers, each once.
#pragma once

#include <mocap/io/mesh.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <span>
#include <vector>

namespace mocap {

struct TriangleGrid {
  Eigen::Vector3f origin = Eigen::Vector3f::Zero();  // the low corner, metres
  float cell = 1.0f;                                 // cell edge, metres (> 0)
  Eigen::Vector3i dims = Eigen::Vector3i::Ones();    // cells per axis, each >= 1
  std::vector<int> first;                            // cell c's triangles: items[first[c] .. first[c + 1])
  std::vector<int> items;                            // triangle indices
};

// The grid of `triangles` over `positions` (metres) with cells of
// `cell_metres` (> 0; a few edge lengths suits a short-segment query).
TriangleGrid make_triangle_grid(std::span<const Eigen::Vector3f> positions, std::span<const MeshTriangle> triangles,
                                float cell_metres);

// Whether segment a-b crosses a triangle of the grid, the triangles that
// use vertex `skip_vertex` (a segment starting on the surface, or -1 for
// none) left out; crossings within `margin` (0..1, of the segment's length)
// of either end do not count. `stamp` is scratch with one entry per
// triangle, all 0 on the first call and kept between calls.
bool segment_crosses(const TriangleGrid& grid, std::span<const Eigen::Vector3f> positions,
                     std::span<const MeshTriangle> triangles, const Eigen::Vector3f& a, const Eigen::Vector3f& b,
                     int skip_vertex, float margin, std::vector<unsigned>& stamp);

}  // namespace mocap
