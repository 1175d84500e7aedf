#include <mocap/skin/edge_stretch.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace mocap {

EdgeStretch make_edge_stretch(const Mesh& mesh, double bound) {
  EdgeStretch stretch;
  stretch.bound = bound;
  for (const auto& edge : mesh_edges(mesh)) {
    const float rest = (mesh.positions[edge[0]] - mesh.positions[edge[1]]).norm();
    if (!(rest > EdgeStretch::kMinRestLength)) continue;
    stretch.edges.push_back(edge);
    stretch.rest.push_back(rest);
  }
  return stretch;
}

namespace {

// f(edge, posed / rest ratio) for each edge `positions` holds both ends of.
template <class F>
void each_ratio(const EdgeStretch& stretch, std::span<const Eigen::Vector3f> positions, F&& f) {
  for (std::size_t e = 0; e < stretch.edges.size(); ++e) {
    const auto [a, b] = stretch.edges[e];
    if (static_cast<std::size_t>(b) >= positions.size()) continue;  // edges are (lower, higher)
    const float ratio = (positions[a] - positions[b]).norm() / stretch.rest[e];
    f(e, std::isnan(ratio) ? std::numeric_limits<float>::infinity() : ratio);  // a broken pose is the worst
  }
}

// "rfemur 0.77 lfemur 0.12": the vertex's bones heaviest first, those of at least 0.005.
std::string named_weights(std::span<const VertexWeights> weights, int v, std::span<const std::string> bone_names) {
  if (static_cast<std::size_t>(v) >= weights.size()) return "no weight";
  std::array<int, kMaxInfluences> order{};
  for (int k = 0; k < kMaxInfluences; ++k) order[k] = k;
  const VertexWeights& w = weights[v];
  std::ranges::stable_sort(order, [&](int x, int y) { return w.weight[x] > w.weight[y]; });
  std::string text;
  for (const int k : order) {
    if (!(w.weight[k] >= 0.005f)) continue;
    const std::string name =
        w.bone[k] < bone_names.size() ? bone_names[w.bone[k]] : "bone " + std::to_string(w.bone[k]);
    char share[16];
    std::snprintf(share, sizeof share, " %.2f", w.weight[k]);
    text += (text.empty() ? "" : " ") + name + share;
  }
  return text.empty() ? "no weight" : text;
}

}  // namespace

void add_stretch_frame(EdgeStretch& stretch, int frame_number, std::span<const Eigen::Vector3f> positions) {
  const auto bound = static_cast<float>(stretch.bound);
  each_ratio(stretch, positions, [&](std::size_t e, float ratio) {
    stretch.past_bound += ratio > bound;
    if (stretch.longest_edge < 0 || ratio > stretch.longest) {
      stretch.longest = ratio;
      stretch.longest_edge = static_cast<int>(e);
      stretch.longest_frame = frame_number;
    }
  });
  ++stretch.frames;
}

void edges_past(const EdgeStretch& stretch, std::span<const Eigen::Vector3f> positions, double ratio,
                std::vector<int>& out) {
  out.clear();
  const auto bound = static_cast<float>(ratio);
  each_ratio(stretch, positions, [&](std::size_t e, float r) {
    if (r > bound) out.push_back(static_cast<int>(e));
  });
}

std::string format_edge_stretch(const EdgeStretch& stretch, const Mesh& mesh, std::span<const VertexWeights> weights,
                                std::span<const std::string> bone_names, std::string_view units) {
  char line[512];
  if (stretch.longest_edge < 0) {
    std::snprintf(line, sizeof line, "stretch: no edge measured (%zu edges, %d frames)", stretch.edges.size(),
                  stretch.frames);
    return line;
  }
  const auto [a, b] = stretch.edges[static_cast<std::size_t>(stretch.longest_edge)];
  const float rest = stretch.rest[static_cast<std::size_t>(stretch.longest_edge)];
  const Eigen::Vector3f& at = mesh.positions[a];
  const bool metres = units == "m";
  const std::string unit(metres ? "" : units);
  if (metres) {
    std::snprintf(line, sizeof line,
                  "stretch: longest edge %.2fx its rest length (%.1f mm), vertices %d and %d at frame %d, at (%.1f, "
                  "%.1f, %.1f) cm in the mesh at rest (",
                  stretch.longest, 1000.0f * rest, a, b, stretch.longest_frame, 100.0f * at.x(), 100.0f * at.y(),
                  100.0f * at.z());
  } else {
    std::snprintf(line, sizeof line,
                  "stretch: longest edge %.2fx its rest length (%.4g %s), vertices %d and %d at frame %d, at (%.4g, "
                  "%.4g, %.4g) %s in the mesh at rest (",
                  stretch.longest, rest, unit.c_str(), a, b, stretch.longest_frame, at.x(), at.y(), at.z(),
                  unit.c_str());
  }
  std::string text = line;
  text += named_weights(weights, a, bone_names) + " | " + named_weights(weights, b, bone_names);
  std::snprintf(line, sizeof line, "); %ld edge-frames past %gx in %d frames", stretch.past_bound, stretch.bound,
                stretch.frames);
  return text + line;
}

}  // namespace mocap
