#include <mocap/rig/auto_weights.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

namespace mocap {

namespace {

float distance_to_segment(const Eigen::Vector3f& p, const BoneSegment& s) {
  const Eigen::Vector3f d = s.end - s.start;
  const float length2 = d.squaredNorm();
  const float t = length2 > 0.0f ? std::clamp((p - s.start).dot(d) / length2, 0.0f, 1.0f) : 0.0f;
  return (p - (s.start + t * d)).norm();
}

}  // namespace

std::vector<VertexWeights> automatic_weights(const Mesh& mesh, std::span<const BoneSegment> bones,
                                             const AutoWeightOptions& options) {
  const std::size_t n = mesh.positions.size();
  std::vector<VertexWeights> weights(n);
  std::vector<float> distance(bones.size());
  std::vector<std::pair<int, float>> influences;
  for (std::size_t v = 0; v < n; ++v) {
    float nearest = std::numeric_limits<float>::infinity();
    for (std::size_t b = 0; b < bones.size(); ++b) {
      distance[b] =
          bones[b].deforms ? distance_to_segment(mesh.positions[v], bones[b]) : std::numeric_limits<float>::infinity();
      nearest = std::min(nearest, distance[b]);
    }
    influences.clear();
    for (std::size_t b = 0; b < bones.size(); ++b) {
      if (!(distance[b] <= options.reach * nearest + options.epsilon)) continue;
      influences.emplace_back(static_cast<int>(b), std::pow(distance[b] + options.epsilon, -options.falloff_power));
    }
    if (auto w = make_vertex_weights(influences)) weights[v] = *w;
  }

  smooth_weights(mesh, weights, options.smoothing_iterations, options.smoothing);
  return weights;
}

void smooth_weights(const Mesh& mesh, std::vector<VertexWeights>& weights, int iterations, float smoothing) {
  const std::size_t n = mesh.positions.size();
  std::vector<std::pair<int, float>> influences;
  int bone_count = 0;
  for (const VertexWeights& w : weights)
    for (const auto b : w.bone) bone_count = std::max(bone_count, b + 1);
  // Neighbours in compressed rows, from the edges.
  const auto edges = mesh_edges(mesh);
  std::vector<int> first(n + 1, 0);
  for (const auto& e : edges) {
    ++first[e[0] + 1];
    ++first[e[1] + 1];
  }
  for (std::size_t v = 0; v < n; ++v) first[v + 1] += first[v];
  std::vector<int> neighbours(first[n]);
  std::vector<int> fill(first.begin(), first.end() - 1);
  for (const auto& e : edges) {
    neighbours[fill[e[0]]++] = e[1];
    neighbours[fill[e[1]]++] = e[0];
  }
  // Each vertex's neighbours by position, and bones by index below, so that
  // the float sums do not depend on how the mesh numbers its vertices (a
  // mesh welded from a triangle soup gives the same weights at the same
  // places as the original).
  const auto by_position = [&](int a, int b) {
    const Eigen::Vector3f &p = mesh.positions[a], &q = mesh.positions[b];
    return std::tie(p.x(), p.y(), p.z(), a) < std::tie(q.x(), q.y(), q.z(), b);
  };
  for (std::size_t v = 0; v < n; ++v)
    std::sort(neighbours.begin() + first[v], neighbours.begin() + first[v + 1], by_position);

  std::vector<VertexWeights> next(n);
  std::vector<float> dense(static_cast<std::size_t>(bone_count), 0.0f);
  std::vector<int> touched;
  for (int pass = 0; pass < iterations; ++pass) {
    for (std::size_t v = 0; v < n; ++v) {
      const int begin = first[v];
      const int end = first[v + 1];
      if (begin == end) {
        next[v] = weights[v];
        continue;
      }
      touched.clear();
      auto add = [&](const VertexWeights& w, float scale) {
        for (int k = 0; k < kMaxInfluences; ++k) {
          if (w.weight[k] <= 0.0f) continue;
          if (dense[w.bone[k]] == 0.0f) touched.push_back(w.bone[k]);
          dense[w.bone[k]] += scale * w.weight[k];
        }
      };
      add(weights[v], 1.0f - smoothing);
      const float share = smoothing / static_cast<float>(end - begin);
      for (int i = begin; i < end; ++i) add(weights[neighbours[i]], share);
      influences.clear();
      std::sort(touched.begin(), touched.end());
      for (const int b : touched) {
        influences.emplace_back(b, dense[b]);
        dense[b] = 0.0f;
      }
      next[v] = make_vertex_weights(influences).value_or(weights[v]);
    }
    weights.swap(next);
  }
}

}  // namespace mocap
