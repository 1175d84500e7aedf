#include <mocap/rig/heat_weights.h>
#include <mocap/rig/triangle_grid.h>

#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace mocap {

namespace {

Eigen::Vector3f nearest_on_segment(const Eigen::Vector3f& p, const BoneSegment& s) {
  const Eigen::Vector3f d = s.end - s.start;
  const float length2 = d.squaredNorm();
  const float t = length2 > 0.0f ? std::clamp((p - s.start).dot(d) / length2, 0.0f, 1.0f) : 0.0f;
  return s.start + t * d;
}

}  // namespace

std::vector<VertexWeights> heat_weights(const Mesh& mesh, std::span<const BoneSegment> bones,
                                        const HeatWeightOptions& options, std::string* diagnostics) {
  const int n = mesh.vertex_count();
  const int bone_count = static_cast<int>(bones.size());
  std::vector<VertexWeights> weights(static_cast<std::size_t>(n));
  if (n == 0 || bone_count == 0) return weights;

  // 1. Nearest visible bones. Candidates by distance; the first one seen wins.
  const TriangleGrid grid = make_triangle_grid(mesh.positions, mesh.triangles, options.grid_cell);
  std::vector<unsigned> stamp;
  std::vector<float> nearest_distance(n, 0.0f);
  std::vector<std::vector<int>> nearest(n);  // usually one bone
  std::vector<std::pair<float, int>> order;
  int blind = 0;
  for (int v = 0; v < n; ++v) {
    const Eigen::Vector3f& p = mesh.positions[v];
    order.clear();
    for (int b = 0; b < bone_count; ++b) {
      if (!bones[b].deforms) continue;
      order.emplace_back((nearest_on_segment(p, bones[b]) - p).norm(), b);
    }
    std::sort(order.begin(), order.end());
    float found = -1.0f;
    const float farthest = order.empty() ? 0.0f : options.reach * order.front().first + 0.02f;
    for (const auto& [d, b] : order) {
      if (found >= 0.0f && d > options.tie * found) break;
      if (d > farthest) break;
      bool seen = true;
      if (options.visibility) {
        // Start a hair inside the surface so the vertex's own triangles and
        // its neighbours' do not count as crossings.
        const Eigen::Vector3f q = nearest_on_segment(p, bones[b]);
        seen = !segment_crosses(grid, mesh.positions, mesh.triangles, p, q, v, 1e-3f, stamp);
      }
      if (!seen) continue;
      if (found < 0.0f) found = d;
      nearest[v].push_back(b);
    }
    if (found < 0.0f) {
      ++blind;
      if (!options.blind_take_nearest || order.empty()) continue;
      // Seen by none: its nearest bone all the same (a toe beside the toe the
      // bone runs through), so it is not left to diffusion from the palm.
      found = order.front().first;
      nearest[v].push_back(order.front().second);
    }
    for (const RigidPart& part : options.rigid_parts) {
      if (part.bone < 0 || part.bone >= bone_count || nearest[v].empty()) continue;
      if ((p - part.point).dot(part.normal) <= 0.0f || (p - part.point).norm() > part.radius) continue;
      const bool instead = std::all_of(nearest[v].begin(), nearest[v].end(), [&](int b) {
        return std::find(part.instead_of.begin(), part.instead_of.end(), b) != part.instead_of.end();
      });
      if (!instead) continue;
      nearest[v].assign(1, part.bone);
      found = (nearest_on_segment(p, bones[part.bone]) - p).norm();
    }
    nearest_distance[v] = std::max(found, 1e-4f);  // a vertex on a bone: finite heat
  }

  // 2. Cotangent Laplacian (as K = -L, positive semi-definite) and areas.
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(mesh.triangles.size() * 9);
  std::vector<double> area(n, 0.0);
  for (const MeshTriangle& t : mesh.triangles) {
    const Eigen::Vector3d p[3] = {mesh.positions[t.vertex[0]].cast<double>(),
                                  mesh.positions[t.vertex[1]].cast<double>(),
                                  mesh.positions[t.vertex[2]].cast<double>()};
    const double twice_area = (p[1] - p[0]).cross(p[2] - p[0]).norm();
    if (!(twice_area > 0.0)) continue;
    for (int k = 0; k < 3; ++k) {
      area[t.vertex[k]] += twice_area / 6.0;
      // The angle at corner k faces edge (k+1, k+2).
      const Eigen::Vector3d u = p[(k + 1) % 3] - p[k], w = p[(k + 2) % 3] - p[k];
      const double cot = std::max(0.0, u.dot(w) / twice_area);
      const int i = t.vertex[(k + 1) % 3], j = t.vertex[(k + 2) % 3];
      entries.emplace_back(i, j, -0.5 * cot);
      entries.emplace_back(j, i, -0.5 * cot);
      entries.emplace_back(i, i, 0.5 * cot);
      entries.emplace_back(j, j, 0.5 * cot);
    }
  }
  // 3. A H on the diagonal; a vanishing regulariser keeps a piece of the
  // mesh that sees no bone (an eyeball, a loose part) solvable: its weights
  // come out 0 and the vertex keeps the nearest bone below.
  std::vector<double> ah(n, 0.0);
  for (int v = 0; v < n; ++v) {
    const double d = nearest_distance[v];
    ah[v] = nearest[v].empty() ? 0.0 : area[v] * options.heat / (d * d);
    entries.emplace_back(v, v, ah[v] + 1e-9 * area[v]);
  }
  Eigen::SparseMatrix<double> system(n, n);
  system.setFromTriplets(entries.begin(), entries.end());
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(system);
  if (solver.info() != Eigen::Success) {
    if (diagnostics) *diagnostics = "heat weights: the system could not be factored; distance weights used";
    return automatic_weights(mesh, bones);
  }

  std::vector<std::vector<std::pair<int, float>>> influences(n);
  Eigen::VectorXd rhs(n), w(n);
  int cold = 0;
  for (int b = 0; b < bone_count; ++b) {
    rhs.setZero();
    bool any = false;
    for (int v = 0; v < n; ++v) {
      const auto& near = nearest[v];
      if (std::find(near.begin(), near.end(), b) == near.end()) continue;
      rhs[v] = ah[v] / static_cast<double>(near.size());
      any = true;
    }
    if (!any) {
      if (bones[b].deforms) ++cold;
      continue;
    }
    w = solver.solve(rhs);
    for (int v = 0; v < n; ++v) {
      if (w[v] >= options.min_weight) influences[v].emplace_back(b, static_cast<float>(w[v]));
    }
  }
  // 4. Four largest, renormalised. A vertex left with nothing (cut off from
  // every bone) takes its nearest bone by distance.
  for (int v = 0; v < n; ++v) {
    if (auto made = make_vertex_weights(influences[v])) {
      weights[v] = *made;
      continue;
    }
    int best = -1;
    float best_distance = std::numeric_limits<float>::infinity();
    for (int b = 0; b < bone_count; ++b) {
      if (!bones[b].deforms) continue;
      const float d = (nearest_on_segment(mesh.positions[v], bones[b]) - mesh.positions[v]).norm();
      if (d < best_distance) best_distance = d, best = b;
    }
    if (best >= 0) weights[v] = *make_vertex_weights(std::vector<std::pair<int, float>>{{best, 1.0f}});
  }
  if (diagnostics) {
    *diagnostics = "heat weights: " + std::to_string(blind) + " of " + std::to_string(n) + " vertices saw no bone; " +
                   std::to_string(cold) + " deforming bones nearest to no vertex";
  }
  return weights;
}

}  // namespace mocap
