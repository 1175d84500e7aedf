#include <mocap/rig/triangle_grid.h>

#include <algorithm>
#include <cmath>

namespace mocap {

namespace {

Eigen::Vector3i cell_of(const TriangleGrid& grid, const Eigen::Vector3f& p) {
  Eigen::Vector3i c;
  for (int k = 0; k < 3; ++k) {
    const int i = static_cast<int>(std::floor((p[k] - grid.origin[k]) / grid.cell));
    c[k] = std::clamp(i, 0, grid.dims[k] - 1);
  }
  return c;
}

int index_of(const TriangleGrid& grid, int x, int y, int z) {
  return (z * grid.dims.y() + y) * grid.dims.x() + x;
}

// Moller-Trumbore: the segment parameter t in [0, 1] where a + t (b - a)
// meets the triangle, or a negative value for no crossing.
float crossing(const Eigen::Vector3f& a, const Eigen::Vector3f& d, const Eigen::Vector3f& p0, const Eigen::Vector3f& p1,
               const Eigen::Vector3f& p2) {
  const Eigen::Vector3f e1 = p1 - p0, e2 = p2 - p0;
  const Eigen::Vector3f h = d.cross(e2);
  const float det = e1.dot(h);
  if (std::abs(det) < 1e-20f) return -1.0f;  // parallel
  const float inv = 1.0f / det;
  const Eigen::Vector3f s = a - p0;
  const float u = inv * s.dot(h);
  if (u < 0.0f || u > 1.0f) return -1.0f;
  const Eigen::Vector3f q = s.cross(e1);
  const float v = inv * d.dot(q);
  if (v < 0.0f || u + v > 1.0f) return -1.0f;
  const float t = inv * e2.dot(q);
  return t >= 0.0f && t <= 1.0f ? t : -1.0f;
}

}  // namespace

TriangleGrid make_triangle_grid(std::span<const Eigen::Vector3f> positions, std::span<const MeshTriangle> triangles,
                                float cell_metres) {
  TriangleGrid grid;
  Eigen::AlignedBox3f box;
  for (const auto& p : positions) box.extend(p);
  if (box.isEmpty()) box.extend(Eigen::Vector3f::Zero());
  grid.cell = cell_metres > 0.0f ? cell_metres : 1.0f;
  grid.origin = box.min();
  for (int k = 0; k < 3; ++k) {
    grid.dims[k] = std::clamp(static_cast<int>(std::ceil(box.sizes()[k] / grid.cell)), 1, 1024);
  }
  const std::size_t cells = static_cast<std::size_t>(grid.dims.prod());
  grid.first.assign(cells + 1, 0);
  // Two passes over the triangles' cell ranges: count, then fill.
  auto for_cells = [&](const MeshTriangle& t, auto&& visit) {
    Eigen::AlignedBox3f tb;
    for (const int v : t.vertex) tb.extend(positions[v]);
    const Eigen::Vector3i lo = cell_of(grid, tb.min()), hi = cell_of(grid, tb.max());
    for (int z = lo.z(); z <= hi.z(); ++z)
      for (int y = lo.y(); y <= hi.y(); ++y)
        for (int x = lo.x(); x <= hi.x(); ++x) visit(index_of(grid, x, y, z));
  };
  for (const MeshTriangle& t : triangles) for_cells(t, [&](int c) { ++grid.first[c + 1]; });
  for (std::size_t c = 0; c < cells; ++c) grid.first[c + 1] += grid.first[c];
  grid.items.resize(static_cast<std::size_t>(grid.first[cells]));
  std::vector<int> fill(grid.first.begin(), grid.first.end() - 1);
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    for_cells(triangles[i], [&](int c) { grid.items[fill[c]++] = static_cast<int>(i); });
  }
  return grid;
}

bool segment_crosses(const TriangleGrid& grid, std::span<const Eigen::Vector3f> positions,
                     std::span<const MeshTriangle> triangles, const Eigen::Vector3f& a, const Eigen::Vector3f& b,
                     int skip_vertex, float margin, std::vector<unsigned>& stamp) {
  if (stamp.size() != triangles.size() + 1) stamp.assign(triangles.size() + 1, 0u);
  // The last entry counts queries, so that a triangle met in two cells is tested once per query.
  const unsigned query = ++stamp.back();
  const Eigen::Vector3f d = b - a;
  // Pieces of at most one cell, each testing the cells of its own bounding
  // box: a long diagonal segment visits a thin tube of cells, not its box.
  const int pieces = std::max(1, static_cast<int>(std::ceil(d.norm() / grid.cell)));
  for (int piece = 0; piece < pieces; ++piece) {
    const Eigen::Vector3f p0 = a + d * (static_cast<float>(piece) / pieces);
    const Eigen::Vector3f p1 = a + d * (static_cast<float>(piece + 1) / pieces);
    const Eigen::Vector3i lo = cell_of(grid, p0.cwiseMin(p1)), hi = cell_of(grid, p0.cwiseMax(p1));
    for (int z = lo.z(); z <= hi.z(); ++z) {
      for (int y = lo.y(); y <= hi.y(); ++y) {
        for (int x = lo.x(); x <= hi.x(); ++x) {
          const int c = index_of(grid, x, y, z);
          for (int k = grid.first[c]; k < grid.first[c + 1]; ++k) {
            const int i = grid.items[k];
            if (stamp[i] == query) continue;
            stamp[i] = query;
            const MeshTriangle& t = triangles[i];
            if (t.vertex[0] == skip_vertex || t.vertex[1] == skip_vertex || t.vertex[2] == skip_vertex) continue;
            const float hit = crossing(a, d, positions[t.vertex[0]], positions[t.vertex[1]], positions[t.vertex[2]]);
            if (hit >= margin && hit <= 1.0f - margin) return true;
          }
        }
      }
    }
  }
  return false;
}

}  // namespace mocap
